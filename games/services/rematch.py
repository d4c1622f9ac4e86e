""" "Play again with the same players": a finished game's rematch, made in one tap by any of its players.

The rematch has the same rule set, options, seats (in the same order), time per move and timeout rule;
the player who tapped is its creator, so their seat is taken at once and the others are invited as
for any new game (a bot's seat stays a bot's; a player no longer in the group gets a bot). It is made
once: the finished game keeps a link to it (``Game.rematch``) written under the finished game's row
lock, so two players tapping at the same moment both land in the same new game.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from games.models import Game, GameStatus, Seat
from games.services import seating
from games.services.core import GAME_ID_MAX, GameError, GameNotFound
from handsite.models import Membership


@transaction.atomic
def rematch(*, game_id: int, user, group_slug: str) -> Game:
    """The rematch of finished game ``game_id`` (made now, or the one made before) for ``user``, a
    person seated in it. GameNotFound for a game outside the person's groups; GameError when the game
    is not finished or the person played no seat in it."""
    if not getattr(user, "is_authenticated", False) or game_id > GAME_ID_MAX:
        raise GameNotFound
    game = (
        Game.objects.select_for_update(of=("self",))
        .select_related("group", "rematch")
        .filter(pk=game_id, group__slug=group_slug, group__memberships__user=user)
        .first()
    )
    if game is None:
        raise GameNotFound
    if game.status != GameStatus.FINISHED:
        raise GameError(_("Only a finished game can be played again."))
    seats = list(Seat.objects.filter(game=game).select_related("user").order_by("number"))
    if not any(seat.user_id == user.pk for seat in seats):
        raise GameError(_("Only the game's players can start a rematch."))
    if game.rematch is not None and game.rematch.status != GameStatus.CANCELLED:
        return game.rematch
    members = set(
        Membership.objects.filter(
            group=game.group, user_id__in=[seat.user_id for seat in seats if seat.user_id]
        ).values_list("user_id", flat=True)
    )
    entries = [
        seat.user if seat.user_id in members and (not seat.bot or seat.user_id == user.pk) else seating.BOT
        for seat in seats
    ]
    new_game = seating.create_game(
        group=game.group,
        created_by=user,
        variant=game.variant,
        options=game.options,
        seats=entries,
        random_order=False,
        move_hours=game.move_hours,
        timeout_rule=game.timeout_rule,
    )
    Game.objects.filter(pk=game.pk).update(rematch=new_game)
    return new_game
