"""Helpers of the game-invitation tests: the links an invited player gets by e-mail."""

from django.urls import reverse

from games import services
from games.models import Seat


def invited_seat(game, user) -> Seat:
    return Seat.objects.get(game=game, user=user)


def link(game, user, answer: str) -> str:
    return reverse("games:invitation", args=[services.invitation_token(invited_seat(game, user)), answer])
