"""The deadline scan works in batches (scans.expire_due): the same few queries for one game or many,
no game state read for a game that needs no move, games a move holds skipped rather than waited for."""

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import tasks
from games.models import Game, Move, MoveKind, TimeoutRule
from games.notifications import topic as game_topic
from games.services import scans, seating
from handsite.models import Notification
from tests.factories import MembershipFactory
from tests.notifications.conftest import (  # noqa: F401 (fixtures)
    forget_the_invitations,
    make_game,
    player_to_move,
    prefs,
)
from tests.support import row_locked_elsewhere

pytestmark = pytest.mark.django_db
START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
LATE = START + dt.timedelta(hours=25)


@pytest.fixture
def hour_games(make_game):  # noqa: F811
    """hour_games(n, rule=...): n games owner vs member, an hour per move, started at START."""

    def make(count, rule=TimeoutRule.AUTO_MOVE):
        with time_machine.travel(START, tick=False):
            return [make_game(move_hours=1, timeout_rule=rule, seed=100 + i) for i in range(count)]

    return make


def queries_of_a_scan(**kwargs):
    with time_machine.travel(LATE, tick=False), CaptureQueriesContext(connection) as captured:
        outcome = scans.expire_due(**kwargs)
    return outcome, [q["sql"] for q in captured.captured_queries]


def test_a_batch_of_five_games_costs_the_queries_of_a_batch_of_one(hour_games):
    one = hour_games(1)
    outcome, queries_one = queries_of_a_scan(game_ids=[one[0].pk])
    assert outcome == {one[0].pk: "timed_out"}
    five = hour_games(5)
    outcome, queries_five = queries_of_a_scan()
    assert outcome == {game.pk: "timed_out" for game in five}
    assert len(queries_five) == len(queries_one) <= 10, "\n".join(queries_five)


def test_every_game_of_the_batch_gets_its_own_timeout_move_and_notifications(hour_games):
    games = hour_games(3)
    late = {game.pk: player_to_move(game) for game in games}
    with time_machine.travel(LATE, tick=False):
        assert tasks.scan_deadlines() == 3
    for game in games:
        game.refresh_from_db()
        assert player_to_move(game) != late[game.pk]
        timeout = list(Move.objects.filter(game=game, kind=MoveKind.TIMEOUT).order_by("seq"))
        assert [move.action["type"] for move in timeout][-1] == "discard"
        assert game.deadline_at == LATE + dt.timedelta(hours=1)
        timed_out = Notification.objects.get(topic=game_topic(game.pk), kind="timed_out")
        assert timed_out.user == late[game.pk]
        your_turn = Notification.objects.get(
            topic=game_topic(game.pk), kind="your_turn", data__turn=game.turn_version
        )
        assert your_turn.user == player_to_move(game)
        assert game.version == Move.objects.filter(game=game).order_by("-seq").first().seq


def test_a_scan_twice_changes_nothing_the_second_time(hour_games):
    games = hour_games(2)
    with time_machine.travel(LATE, tick=False):
        assert len(scans.expire_due()) == 2
        assert scans.expire_due() == {}
    assert Notification.objects.filter(kind="timed_out").count() == 2
    moved = Move.objects.filter(game__in=games, kind=MoveKind.TIMEOUT)
    assert moved.values("game").distinct().count() == 2
    assert moved.filter(action__type="discard").count() == 2  # one turn each, not two


def test_the_bot_rule_and_the_automatic_move_mix_in_one_batch(hour_games):
    auto, bot = hour_games(1)[0], hour_games(1, rule=TimeoutRule.BOT)[0]
    bot_seat = bot.turn_seat
    with time_machine.travel(LATE, tick=False):
        assert scans.expire_due() == {auto.pk: "timed_out", bot.pk: "timed_out"}
    assert bot.seats.get(number=bot_seat).bot
    assert not auto.seats.filter(bot=True).exists()
    assert Move.objects.filter(game=auto, kind=MoveKind.TIMEOUT).exists()


def test_a_player_on_vacation_has_the_deadline_paused_and_no_state_is_read(hour_games, prefs):  # noqa: F811
    games = hour_games(3)
    for game in games:
        away = player_to_move(game)
        prefs(
            away, vacation_started_at=LATE - dt.timedelta(hours=1), vacation_until=LATE + dt.timedelta(days=2)
        )
    outcome, queries = queries_of_a_scan()
    assert outcome == {game.pk: "paused" for game in games}
    assert not [sql for sql in queries if '"games_game"."state"' in sql], "a paused game's state was read"
    for game in games:
        deadline, revision = game.deadline_at, game.revision
        game.refresh_from_db()
        assert game.paused_until == LATE + dt.timedelta(days=2)
        assert game.deadline_at == deadline + dt.timedelta(days=2, hours=1)  # the vacation's length
        assert game.revision == revision + 1  # the play page's poll shows the pause
    assert not Move.objects.filter(kind=MoveKind.TIMEOUT).exists()


def test_the_scan_task_goes_on_batch_after_batch_until_none_is_due(hour_games, monkeypatch):
    games = hour_games(5)
    monkeypatch.setattr(scans, "DEADLINE_BATCH", 2)
    with time_machine.travel(LATE, tick=False):
        assert tasks.scan_deadlines() == 5
        assert scans.expire_due() == {}
    assert Move.objects.filter(game__in=games, kind=MoveKind.TIMEOUT).values("game").distinct().count() == 5


def test_games_not_due_or_waiting_for_nothing_are_left_alone(hour_games):
    due = hour_games(1)[0]
    waits = hour_games(1, rule=TimeoutRule.NOTHING)[0]
    with time_machine.travel(START + dt.timedelta(minutes=30), tick=False):
        assert scans.expire_due() == {}
    with time_machine.travel(LATE, tick=False):
        assert scans.expire_due() == {due.pk: "timed_out"}
    waits.refresh_from_db()
    assert waits.deadline_at == START + dt.timedelta(hours=1)


@pytest.mark.django_db(transaction=True)
def test_a_game_a_move_holds_is_skipped_and_taken_by_the_next_scan(hour_games):
    """The scan never waits on a game another transaction has locked (a player moving right now)."""
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED needs PostgreSQL (runs in the PostgreSQL flavour of the suite)")
    held, free = hour_games(2)
    with row_locked_elsewhere(held), time_machine.travel(LATE, tick=False):
        assert scans.expire_due() == {free.pk: "timed_out"}
    with time_machine.travel(LATE, tick=False):
        assert scans.expire_due() == {held.pk: "timed_out"}


# --- The reminder scan ----------------------------------------------------------------------------


@pytest.fixture
def day_games(make_game):  # noqa: F811
    """day_games(n): n games owner vs member, a day per move, started at START."""

    def make(count):
        with time_machine.travel(START, tick=False):
            return [make_game(move_hours=24, seed=200 + i) for i in range(count)]

    return make


def reminder_scan(at, **kwargs):
    with time_machine.travel(at, tick=False), CaptureQueriesContext(connection) as captured:
        planned = scans.plan_reminders(**kwargs)
    return planned, [q["sql"] for q in captured.captured_queries]


def reminders_of(game):
    return sorted(
        (n.kind, n.data["number"])
        for n in Notification.objects.filter(topic=game_topic(game.pk)).exclude(kind="your_turn")
    )


def test_a_reminder_batch_of_five_costs_the_queries_of_one_and_reads_no_state(day_games):
    one = day_games(1)
    at = START + dt.timedelta(hours=13)  # the default first reminder comes after 12 hours
    low_time = START + dt.timedelta(hours=19.2)  # 80% of the day per move (the next reminder: 36 h)
    planned, queries_one = reminder_scan(at, game_ids=[one[0].pk])
    assert planned == {one[0].pk: low_time}
    five = day_games(5)
    planned, queries_five = reminder_scan(at)
    assert planned == {game.pk: low_time for game in five}
    assert len(queries_five) == len(queries_one) <= 8, "\n".join(queries_five)
    assert not [sql for sql in queries_five if '"games_game"."state"' in sql]
    for game in five:
        assert reminders_of(game) == [("reminder", 1)]


def test_one_batch_keeps_each_players_choices(group, prefs):  # noqa: F811
    """Quiet hours, vacation, the digest and the defaults, side by side in one batch: four games, each
    between two people of its own who made the same choice."""
    at = START + dt.timedelta(hours=13)  # 22:00 UTC
    choices = {
        "quiet": {"quiet_start": dt.time(21), "quiet_end": dt.time(23)},
        "away": {"vacation_started_at": at, "vacation_until": at + dt.timedelta(days=1)},
        "digest": {"daily_digest": True},
        "plain": {},
    }
    games = {}
    with time_machine.travel(START, tick=False):
        for number, (name, fields) in enumerate(choices.items()):
            players = [MembershipFactory(group=group).user for _ in range(2)]
            for person in players:
                prefs(person, **fields)
            game = seating.create_game(
                group=group,
                created_by=players[0],
                variant="classic",
                options=None,
                seats=players,
                move_hours=24,
                seed=300 + number,
            )
            seating.accept_seat(game_id=game.pk, user=players[1])
            forget_the_invitations(game)
            games[name] = game
    planned, _queries = reminder_scan(at)
    assert planned == {
        games["quiet"].pk: dt.datetime(2026, 3, 2, 23, 0, tzinfo=dt.UTC),  # the end of the quiet hours
        games["away"].pk: at + dt.timedelta(days=1),  # the return
        games["digest"].pk: START + dt.timedelta(hours=19.2),  # only the low-time warning to come
        games["plain"].pk: START + dt.timedelta(hours=19.2),
    }
    assert [reminders_of(games[name]) for name in choices] == [[], [], [], [("reminder", 1)]]
    away = Game.objects.get(pk=games["away"].pk)
    assert away.paused_until == at + dt.timedelta(days=1)
    assert away.deadline_at == START + dt.timedelta(hours=24, days=1)


def test_a_reminder_scan_twice_writes_each_reminder_once(day_games):
    games = day_games(3)
    at = START + dt.timedelta(hours=13)
    with time_machine.travel(at, tick=False):
        assert tasks.scan_reminders() == 3
        assert tasks.scan_reminders() == 0  # nothing is due any more
        scans.plan_reminders(game_ids=[game.pk for game in games])  # planned again on purpose
    assert Notification.objects.filter(kind="reminder").count() == 3


def test_the_reminder_task_goes_on_batch_after_batch(day_games, monkeypatch):
    games = day_games(5)
    monkeypatch.setattr(scans, "REMINDER_BATCH", 2)
    with time_machine.travel(START + dt.timedelta(hours=13), tick=False):
        assert tasks.scan_reminders() == 5
    for game in games:
        assert reminders_of(game) == [("reminder", 1)]


@pytest.mark.django_db(transaction=True)
def test_a_game_a_move_holds_is_left_to_the_next_reminder_scan(day_games):
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED needs PostgreSQL (runs in the PostgreSQL flavour of the suite)")
    held, free = day_games(2)
    at = START + dt.timedelta(hours=13)
    with row_locked_elsewhere(held):
        planned, _queries = reminder_scan(at)
        assert list(planned) == [free.pk]
    planned, _queries = reminder_scan(at)
    assert list(planned) == [held.pk]
