"""A Hand and Foot game online has the Hand game's whole life: a turn's deadline, reminders and the timeout
move at expiry (a logged move that draws and discards), leaving (a bot plays the seat), ending by an admin
(kept, never scored), for both rule sets."""

import datetime as dt

import pytest
import time_machine

from games import deadlines, engine, tasks
from games.models import Game, GameStatus, Move, MoveKind, TimeoutRule
from games.notifications import topic as game_topic
from games.services import core as game_core
from games.services import leaving, seating
from handsite.models import Notification

START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
VARIANTS = ["hand-and-foot", "hand-and-foot-teams"]


def _game(owner, member, variant, **kwargs):
    seats = [owner, member] if variant == "hand-and-foot" else [owner, "bot", member, "bot"]
    with time_machine.travel(START, tick=False):
        game = seating.create_game(
            group=owner.memberships.first().group,
            created_by=owner,
            variant=variant,
            options=None,
            seats=seats,
            seed=21,
            **kwargs,
        )
        seating.accept_seat(game_id=game.pk, user=member)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_turn_is_reminded_and_at_expiry_the_timeout_move_draws_and_discards(owner, member, variant):
    game = _game(owner, member, variant, move_hours=24, timeout_rule=TimeoutRule.AUTO_MOVE)
    late = game.turn_seat
    assert game.deadline_at == START + dt.timedelta(hours=24)
    with time_machine.travel(START + dt.timedelta(hours=13), tick=False):
        assert tasks.scan_reminders() == 1
    reminded = Notification.objects.filter(topic=game_topic(game.pk), kind="reminder")
    assert [n.user for n in reminded] == [game.seats.get(number=late).user]
    before = engine.from_json(Game.objects.get(pk=game.pk).state)
    with time_machine.travel(START + dt.timedelta(hours=24, minutes=1), tick=False):
        assert deadlines.due_deadlines() == [game.pk]
        assert tasks.scan_deadlines() == 1
    game.refresh_from_db()
    assert game.turn_seat != late
    timeouts = list(Move.objects.filter(game=game, kind=MoveKind.TIMEOUT).order_by("seq"))
    assert {move.seat for move in timeouts} == {late}
    assert [move.action["type"] for move in timeouts] == ["draw", "discard"]  # never melds
    assert engine.from_json(game.state).version > before.version
    assert Notification.objects.filter(topic=game_topic(game.pk), kind="timed_out").exists()


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_player_leaves_and_a_bot_plays_their_seat(owner, member, variant):
    game = _game(owner, member, variant)
    seat = game.seats.get(user=member)
    leaving.leave_game(game_id=game.pk, user=member)
    seat.refresh_from_db()
    assert seat.bot
    assert seat.user == member
    assert seat.left_at is not None
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.turn_seat == game.seats.get(user=owner).number  # the bots played up to the owner's turn


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_admin_ends_a_hand_and_foot_game_which_is_kept_and_never_scored(owner, member, admin, variant):
    from scoring.models import OnlineResult

    game = _game(owner, member, variant)
    leaving.end_game(game_id=game.pk, actor=admin)
    game.refresh_from_db()
    assert game.status == GameStatus.ABANDONED
    assert game.state is not None
    assert not OnlineResult.objects.filter(game_id=game.pk, finished=True).exists()
    with pytest.raises(game_core.GameError):
        leaving.leave_game(game_id=game.pk, user=owner)
