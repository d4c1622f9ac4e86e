"""A game in play changes hands or ends early: a bot takes a seat (the "bot" timeout rule, or the
player leaves), or the group's owner or an admin ends the game. The other players are told; the log
shows it (games.movelog)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import notifications
from games.models import Game, GameStatus
from games.services import core, playing, saving
from handsite.models import Membership


@transaction.atomic
def hand_seat_to_bot(*, game_id: int, number: int) -> core.MoveResult:
    """A bot plays ``number``'s seat from now on (the player stays recorded on the seat)."""
    game, seats = core.locked(game_id)
    if game.status != GameStatus.ACTIVE:
        raise core.GameError(_("The game is not in play."))
    seat = next((s for s in seats if s.number == number), None)
    if seat is None:
        raise core.GameError(_("There is no such seat at this table."))
    seat.bot = True
    seat.save(update_fields=["bot"])
    state = core.load_state(game)
    result = core.MoveResult(game=game, seats=seats, state=state)
    previous_turn = saving.turn_key(state)
    saving.run_bots(result)
    saving.save(result, previous_turn=previous_turn)
    return result


@transaction.atomic
def leave_game(*, game_id: int, user, group_slug: str | None = None) -> core.MoveResult:
    """``user`` hands their seat to a bot for the rest of the game (they stay recorded on the seat and
    may watch). The other players are told; the log shows it."""
    game, seats = core.locked(game_id, user=user, group_slug=group_slug)
    seat = playing.player_seat(game, seats, user)
    now = timezone.now()
    seat.bot, seat.left_at, seat.left_version = True, now, game.version
    seat.save(update_fields=["bot", "left_at", "left_version"])
    state = core.load_state(game)
    result = core.MoveResult(game=game, seats=seats, state=state)
    previous_turn = saving.turn_key(state)
    notifications.tell_players(
        game, seats, kind=notifications.SEAT_LEFT, name=seat.name, skip_user_id=user.pk
    )
    saving.run_bots(result)
    saving.save(result, previous_turn=previous_turn)
    return result


@transaction.atomic
def end_game(*, game_id: int, actor, group_slug: str | None = None) -> Game:
    """The group's owner or an admin ends a game in play: it is kept (status "abandoned", shown with
    its log) and never scored or rated. The players are told."""
    game, seats = core.locked(game_id, user=actor, group_slug=group_slug)
    if not Membership.objects.filter(
        group_id=game.group_id, user=actor, role__in=("owner", "admin")
    ).exists():
        raise core.GameError(_("Only the group's owner or an admin can end a game."))
    if game.status != GameStatus.ACTIVE:
        raise core.GameError(_("The game is not in play."))
    game.status = GameStatus.ABANDONED
    game.finished_at = timezone.now()
    game.ended_by = actor
    game.turn_seat = game.turn_started_at = game.deadline_at = game.next_reminder_at = None
    game.paused_until = None
    game.staged = {}
    notifications.tell_players(
        game, seats, kind=notifications.GAME_ENDED, name=actor.name, skip_user_id=actor.pk
    )
    core.bump(
        game,
        "status",
        "finished_at",
        "ended_by",
        "turn_seat",
        "turn_started_at",
        "deadline_at",
        "next_reminder_at",
        "paused_until",
        "staged",
    )
    return game
