"""Template helpers of the score sheets."""

from __future__ import annotations

from django import template
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def seat_names(sheet):
    return pgettext("list separator", ", ").join(player.display_name for player in sheet.players.all())


@register.filter
def winners_of(sheet):
    """The names of a finished sheet's winners."""
    players = {player.seat: player.display_name for player in sheet.players.all()}
    return " & ".join(players[seat] for seat in sheet.winner_seats if seat in players)


@register.filter
def signed(number) -> str:
    """A change with its sign, as players read it: ``+18``, ``−7`` (a true minus sign), ``0``."""
    number = int(number or 0)
    return f"+{number}" if number > 0 else f"−{-number}" if number < 0 else "0"


@register.filter
def negate(number) -> int:
    return -int(number or 0)
