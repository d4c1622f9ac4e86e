"""Helpers of the game-invitation tests: the links an invited player gets by e-mail."""

from django.urls import reverse

from games.models import Seat
from games.services import invitation_links


def invited_seat(game, user) -> Seat:
    return Seat.objects.get(game=game, user=user)


def link(game, user, answer: str) -> str:
    return reverse(
        "games:invitation", args=[invitation_links.invitation_token(invited_seat(game, user)), answer]
    )
