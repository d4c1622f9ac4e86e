"""Following an invitation e-mail's accept or decline link (games.invitation_views): the signed token
(games.services.invitation_links) names the game, the seat, the person and the invitation."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Game, GameStatus
from games.services import core, invitation_links, seating


@dataclass
class InvitationAnswer:
    """What following an accept or decline link did. ``outcome``: "accepted", "declined",
    "already_accepted", "already_answered" (declined before, or its time ran out), or "refused" with
    ``message`` and the HTTP ``status`` of the page that says why."""

    outcome: str
    message: str
    game: Game | None = None
    status: int = 200

    @property
    def refused(self) -> bool:
        return self.outcome == "refused"


def answer_invitation(*, token: str, user, answer: str, now=None) -> InvitationAnswer:
    """Follow an invitation e-mail's accept or decline link. Safe to follow twice: a second accept
    finds the seat taken and says so (one seat, one acceptance); a second decline says the invitation
    is no longer open. A tampered, expired or someone else's link changes nothing and says why."""
    now = now or timezone.now()
    if answer not in invitation_links.ANSWERS:
        return InvitationAnswer(
            "refused", _("This invitation link is broken. Open the game on the site instead."), status=404
        )
    data = invitation_links.read_token(token)
    if data == "expired":
        return InvitationAnswer(
            "refused",
            _("This invitation link has expired. Open the game on the site instead."),
            status=410,
        )
    if data is None:
        return InvitationAnswer(
            "refused",
            _("This invitation link is broken. Open the game on the site instead."),
            status=400,
        )
    if data["u"] != user.pk:
        return InvitationAnswer(
            "refused",
            _("This invitation was sent to someone else. Log in as that person."),
            status=403,
        )
    with transaction.atomic():
        try:
            game, seats = core.locked_seats(data["g"], user=user)
        except core.GameNotFound:
            return InvitationAnswer("refused", _("This game is not open to you any more."), status=404)
        seat = next((s for s in seats if s.number == data["s"]), None)
        mine = core.seat_of(seats, user)
        this_invitation = (
            seat is not None
            and seat.user_id == user.pk
            and seat.invited_at is not None
            and invitation_links.stamp(seat.invited_at) == data["i"]
        )
        if mine is not None and mine.is_filled:
            return InvitationAnswer("already_accepted", _("You already have your seat in this game."), game)
        if not this_invitation:
            return InvitationAnswer(
                "already_answered",
                _("This invitation is closed: it was declined or its time ran out."),
                game,
                status=410,
            )
        if game.status == GameStatus.CANCELLED:
            return InvitationAnswer("refused", _("This game was cancelled."), game, status=410)
        if game.status != GameStatus.WAITING:
            return InvitationAnswer("refused", _("This game has already started."), game, status=410)
        if seat.reply_by is not None and seat.reply_by <= now:
            return InvitationAnswer(
                "already_answered",
                _("The time to answer this invitation ran out; the seat is free again."),
                game,
                status=410,
            )
        if answer == "accept":
            seating.accept(game, seats, seat, now)
            if game.status == GameStatus.ACTIVE:
                return InvitationAnswer(
                    "accepted", _("You are in. Everybody has accepted: the game has started."), game
                )
            return InvitationAnswer(
                "accepted", _("You are in. The game deals when every player has accepted."), game
            )
        seating.decline(game, seats, seat, now)
        return InvitationAnswer(
            "declined", _("You declined. The seat is free again; the creator has been told."), game
        )
