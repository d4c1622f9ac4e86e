"""Template tags for the games sections of the group page and the home page."""

from __future__ import annotations

from django import template
from django.db.models import Case, F, IntegerField, Value, When

from games.models import Game, GameStatus, Seat

register = template.Library()


@register.simple_tag
def group_games(group, user):
    """The group's games: waiting and active first (newest first), then the last finished ones."""
    games = list(
        Game.objects.filter(group=group)
        .exclude(status=GameStatus.CANCELLED)
        .annotate(
            rank=Case(
                When(status=GameStatus.ACTIVE, then=Value(0)),
                When(status=GameStatus.WAITING, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            )
        )
        .order_by("rank", "-created_at")
        .prefetch_related("seats__user")[:20]
    )
    for game in games:
        game.seat_list = list(game.seats.all())
        game.my_seat = next((s for s in game.seat_list if s.user_id == user.pk), None)
        game.your_turn = (
            game.my_seat is not None
            and not game.my_seat.bot  # a seat handed to a bot at its timeout is no longer the person's turn
            and game.is_active
            and game.turn_seat == game.my_seat.number
        )
    return games


@register.simple_tag
def my_games(user):
    """The user's waiting and active games: where it is their turn first (soonest deadline first), then
    invitations, then the rest."""
    seats = list(
        Seat.objects.filter(user=user, game__status__in=[GameStatus.ACTIVE, GameStatus.WAITING])
        .select_related("game", "game__group")
        .annotate(
            rank=Case(
                When(game__status=GameStatus.ACTIVE, game__turn_seat=F("number"), bot=False, then=Value(0)),
                When(game__status=GameStatus.WAITING, accepted_at__isnull=True, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            )
        )
        .order_by("rank", F("game__deadline_at").asc(nulls_last=True), "-game__created_at")[:50]
    )
    for seat in seats:
        seat.your_turn = seat.rank == 0
    return seats


@register.simple_tag
def whatsapp_game_invite(game) -> str:
    """The "share on WhatsApp" URL of a game waiting for players (its page: members accept there)."""
    from django.utils.translation import gettext as _

    from handsite.links import whatsapp_url

    text = _("A game of %(variant)s is waiting for players in “%(group)s”. Take your seat:") % {
        "variant": game.get_variant_display(),
        "group": game.group.name,
    }
    return whatsapp_url(text, game.get_absolute_url())
