"""The signed accept and decline links of an invitation e-mail, and how long an invited player has to
answer. Signing only: games.notifications renders the links, games.services.invitations follows them.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core import signing

from games.models import Seat

INVITATION_SALT = "games.invitation"
ANSWERS = ("accept", "decline")


def reply_time() -> timedelta:
    """How long an invited player has to answer (setting GAMES_INVITATION_REPLY_HOURS)."""
    return timedelta(hours=settings.GAMES_INVITATION_REPLY_HOURS)


def stamp(moment) -> int:
    """An invitation's time as the token carries it (whole seconds)."""
    return int(moment.timestamp())


def invitation_token(seat: Seat) -> str:
    """The signed, timestamped token of the accept and decline links sent to the seat's invited player:
    it names the game, the seat, the person and the invitation (its time), nothing secret."""
    return sign_invitation(seat.game_id, seat.number, seat.user_id, stamp(seat.invited_at))


def sign_invitation(game_id: int, number: int, user_id: int, invited: int) -> str:
    """:func:`invitation_token` from the ids (an e-mail renders it from its notification's data)."""
    payload = {"g": game_id, "s": number, "u": user_id, "i": invited}
    return signing.dumps(payload, salt=INVITATION_SALT)


def read_token(token: str) -> dict | str | None:
    """The token's payload; "expired" when its signature is good but older than the links live."""
    max_age = reply_time() + timedelta(days=1)  # the reply deadline itself is checked on the seat
    try:
        data = signing.loads(token[:400], salt=INVITATION_SALT, max_age=max_age)
    except signing.SignatureExpired:
        return "expired"
    except (signing.BadSignature, ValueError, UnicodeError):
        return None
    keys = ("g", "s", "u", "i")
    if not isinstance(data, dict) or not all(type(data.get(key)) is int for key in keys):
        return None
    return data
