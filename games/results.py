"""An online game's result for the group's standings: games reads its own state and hands the numbers
to scoring's service (games may call scoring; scoring never imports games)."""

from __future__ import annotations

from games.models import Game
from games.services import core


def record_result(game_id: int) -> bool:
    """Report the game's standing to scoring (which rates a finished game, practice when a bot played).
    Safe to call any number of times. False when there is nothing to report."""
    from scoring.services.online import record_online_game

    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.state is None:
        return False
    state = core.load_state(game)
    seats = core.seats_of(game)
    players = [{"seat": seat.number, "user_id": seat.user_id, "name": seat.name} for seat in seats]
    record_online_game(
        group_id=game.group_id,
        game_id=game.pk,
        rule_set=game.variant,
        players=players,
        status=state.status(),
        finished_at=game.finished_at,
        deals=[record.score for record in state.records],  # each deal's facts, for the statistics
    )
    return True
