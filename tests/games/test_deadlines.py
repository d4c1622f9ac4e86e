"""Deadlines and reminders from the game's columns (games/deadlines.py), with time-machine."""

import datetime as dt

import pytest
import time_machine
from django.core import mail

from games import deadlines, tasks
from games import notifications as game_notifications
from games.models import Game, Move, MoveKind, TimeoutRule
from games.notifications import topic as game_topic
from games.services import scans
from handsite.models import Notification
from handsite.services import delivery
from tests.notifications.conftest import make_game, player_to_move, prefs  # noqa: F401 (fixtures)

pytestmark = pytest.mark.django_db
START = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def day_game(make_game):  # noqa: F811
    """A game with a day per move, started at START."""
    with time_machine.travel(START, tick=False):
        return make_game(move_hours=24, timeout_rule=TimeoutRule.AUTO_MOVE)


def kinds(game):
    return sorted(
        (n.kind, n.data["number"])
        for n in Notification.objects.filter(topic=game_topic(game.pk)).exclude(
            kind=game_notifications.YOUR_TURN
        )
    )


def test_a_turn_gets_its_deadline_and_is_planned_by_the_next_scan(day_game):
    assert day_game.deadline_at == START + dt.timedelta(hours=24)
    assert day_game.next_reminder_at == START
    with time_machine.travel(START + dt.timedelta(minutes=1), tick=False):
        assert deadlines.due_reminders() == [day_game.pk]
        assert tasks.scan_reminders() == 1
    day_game.refresh_from_db()
    assert day_game.next_reminder_at == START + dt.timedelta(hours=12)  # the default first reminder
    assert kinds(day_game) == []


def test_reminders_come_after_n_hours_then_every_m_hours_once_each(day_game, prefs):  # noqa: F811
    prefs(player_to_move(day_game), first_reminder_hours=2, reminder_every_hours=3)
    game_id = day_game.pk
    for hours, expected in [
        (0.1, []),
        (2, [("reminder", 1)]),
        (2.5, [("reminder", 1)]),
        (5, [("reminder", 1), ("reminder", 2)]),
    ]:
        with time_machine.travel(START + dt.timedelta(hours=hours), tick=False):
            scans.plan(game_id)
            scans.plan(game_id)  # twice: nothing doubles
        assert [k for k in kinds(day_game) if k[0] == "reminder"] == expected, hours
    assert Game.objects.get(pk=game_id).next_reminder_at == START + dt.timedelta(hours=8)


def test_the_low_time_warning_comes_at_80_percent_of_the_time(day_game, prefs):  # noqa: F811
    prefs(player_to_move(day_game), reminders=False)
    with time_machine.travel(START + dt.timedelta(minutes=1), tick=False):
        assert scans.plan(day_game.pk) == START + dt.timedelta(hours=19.2)
    with time_machine.travel(START + dt.timedelta(hours=19.2), tick=False):
        scans.plan(day_game.pk)
        assert kinds(day_game) == [("low_time", 0)]
        assert Notification.objects.get(
            topic=game_topic(day_game.pk), kind="low_time"
        ).user == player_to_move(day_game)


def test_quiet_hours_hold_a_reminder_until_they_end(day_game, prefs):  # noqa: F811
    # 09:00 UTC is 12:00 in Amman; quiet from 11:00 to 14:00 local.
    prefs(
        player_to_move(day_game),
        first_reminder_hours=1,
        time_zone="Asia/Amman",
        quiet_start=dt.time(11),
        quiet_end=dt.time(14),
    )
    with time_machine.travel(START + dt.timedelta(hours=1), tick=False):
        assert scans.plan(day_game.pk) == dt.datetime(2026, 3, 2, 11, 0, tzinfo=dt.UTC)
        assert kinds(day_game) == []
    with time_machine.travel(dt.datetime(2026, 3, 2, 11, 0, tzinfo=dt.UTC), tick=False):
        scans.plan(day_game.pk)
        assert kinds(day_game) == [("reminder", 1)]


def test_at_expiry_the_timeout_rule_moves_as_a_logged_move_and_tells_the_player(day_game):
    late = player_to_move(day_game)
    with time_machine.travel(START + dt.timedelta(hours=23), tick=False):
        assert deadlines.due_deadlines() == []
    with time_machine.travel(START + dt.timedelta(hours=24, minutes=1), tick=False):
        assert deadlines.due_deadlines() == [day_game.pk]
        assert tasks.scan_deadlines() == 1
        assert scans.expire(day_game.pk) is None  # the new turn is not due
    day_game.refresh_from_db()
    assert player_to_move(day_game) != late
    assert Move.objects.filter(game=day_game, kind=MoveKind.TIMEOUT).exists()
    assert day_game.deadline_at == START + dt.timedelta(hours=48, minutes=1)
    timed_out = Notification.objects.get(topic=game_topic(day_game.pk), kind="timed_out")
    assert timed_out.user == late


def test_the_bot_rule_hands_the_seat_to_a_bot(make_game):  # noqa: F811
    with time_machine.travel(START, tick=False):
        game = make_game(move_hours=1, timeout_rule=TimeoutRule.BOT)
    late_seat = game.turn_seat
    with time_machine.travel(START + dt.timedelta(hours=2), tick=False):
        assert scans.expire(game.pk) == "timed_out"
    assert game.seats.get(number=late_seat).bot


def test_the_nothing_rule_is_never_scanned(make_game):  # noqa: F811
    with time_machine.travel(START, tick=False):
        game = make_game(move_hours=1, timeout_rule=TimeoutRule.NOTHING)
    with time_machine.travel(START + dt.timedelta(hours=5), tick=False):
        assert deadlines.due_deadlines() == []
    assert Game.objects.get(pk=game.pk).deadline_at == START + dt.timedelta(hours=1)


def test_vacation_pauses_the_deadline_and_the_other_players_see_it(day_game, client):
    away = player_to_move(day_game)
    with time_machine.travel(START + dt.timedelta(hours=6), tick=False):
        deadlines.start_vacation(away, 3)
    day_game.refresh_from_db()
    until = START + dt.timedelta(hours=6, days=3)
    assert day_game.paused_until == until
    assert day_game.deadline_at == START + dt.timedelta(hours=24, days=3)
    with time_machine.travel(START + dt.timedelta(hours=30), tick=False):
        assert deadlines.due_deadlines() == []
        other = day_game.seats.exclude(user=away).get().user
        client.force_login(other)
        page = client.get(day_game.get_absolute_url()).content.decode()
    assert other != away
    assert "on vacation" in page  # the others see it on the game
    assert not Move.objects.filter(game=day_game, kind=MoveKind.TIMEOUT).exists()


def test_coming_back_early_gives_the_unused_days_and_time_back(day_game):
    away = player_to_move(day_game)
    with time_machine.travel(START + dt.timedelta(hours=6), tick=False):
        deadlines.start_vacation(away, 3)
    with time_machine.travel(START + dt.timedelta(hours=6, days=1), tick=False):
        pref = deadlines.end_vacation(away)
    day_game.refresh_from_db()
    assert pref.vacation_days_used == 1
    assert day_game.paused_until is None
    assert day_game.deadline_at == START + dt.timedelta(hours=24, days=1)


def test_a_turn_that_begins_during_vacation_waits_for_the_return(make_game, owner, member):  # noqa: F811
    with time_machine.travel(START, tick=False):
        deadlines.start_vacation(member, 2)
        deadlines.start_vacation(owner, 2)  # whoever the seed puts first is away
        game = make_game(move_hours=24)
    with time_machine.travel(START + dt.timedelta(minutes=1), tick=False):
        scans.plan(game.pk)
    game.refresh_from_db()
    assert game.deadline_at == START + dt.timedelta(days=2, hours=24)
    assert game.paused_until == START + dt.timedelta(days=2)


def test_vacation_days_are_limited_per_year(owner, settings):
    from handsite import notification_prefs

    settings.HANDSITE_VACATION_DAYS_PER_YEAR = 5
    with time_machine.travel(START, tick=False):
        deadlines.start_vacation(owner, 4)
        with pytest.raises(notification_prefs.PreferenceError, match="1 vacation day left"):
            deadlines.start_vacation(owner, 2)
    with time_machine.travel(START.replace(year=2027), tick=False):
        assert deadlines.start_vacation(owner, 5).vacation_days_used == 5


def test_an_expired_turn_email_names_the_deadline(day_game, django_capture_on_commit_callbacks):
    with (
        time_machine.travel(START + dt.timedelta(hours=24, minutes=1), tick=False),
        django_capture_on_commit_callbacks(execute=True),
    ):
        scans.expire(day_game.pk)
        delivery.deliver_pending()  # the turn e-mail leaves with the minute's sweep
    subjects = sorted(message.subject for message in mail.outbox)
    assert any(subject.startswith("[Hand] Your time ran out") for subject in subjects)
    assert any(subject.startswith("[Hand] Your turn") for subject in subjects)


def test_a_game_whose_timeout_rule_is_nothing_is_never_returned_by_the_deadline_scan(make_game):  # noqa: F811
    with time_machine.travel(START, tick=False):
        waits = make_game(move_hours=1, timeout_rule=TimeoutRule.NOTHING)
        acts = make_game(move_hours=1, timeout_rule=TimeoutRule.AUTO_MOVE, seed=99)
    assert waits.deadline_at is not None
    later = START + dt.timedelta(days=30)
    assert deadlines.due_deadlines(now=later) == [acts.pk]


def test_the_deadline_scan_filters_by_the_deadline_indexs_own_condition():
    from django.db import connection

    from games.models import DEADLINE_SCAN

    index = next(index for index in Game._meta.indexes if index.name == "game_active_deadline")
    assert index.condition == DEADLINE_SCAN
    assert "timeout_rule" in str(index.condition)
    query = Game.objects.filter(DEADLINE_SCAN, deadline_at__lte=START).order_by("deadline_at")
    sql, params = query.values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute(f"EXPLAIN {sql}", params)
        else:
            cursor.execute(f"EXPLAIN QUERY PLAN {sql}", params)
        plan = "\n".join(str(row) for row in cursor.fetchall())
    assert "game_active_deadline" in plan, plan
