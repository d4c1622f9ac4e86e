"""Quiet hours and the daily digest, in the person's own time zone (time-machine)."""

import datetime as dt

import pytest
import time_machine
from django.core import mail

from games.models import Game
from games.notifications import topic as game_topic
from handsite import notification_prefs, tasks
from handsite.models import Notification, NotificationState
from handsite.services import outbox
from tests.notifications.conftest import player_to_move

pytestmark = pytest.mark.django_db
# 21:30 UTC is 00:30 in Amman (Asia/Amman is UTC+3 all year since 2022).
NIGHT = dt.datetime(2026, 3, 2, 21, 30, tzinfo=dt.UTC)


def test_quiet_hours_across_midnight_end_at_the_local_morning(owner, prefs):
    pref = prefs(owner, time_zone="Asia/Amman", quiet_start=dt.time(22), quiet_end=dt.time(7))
    assert notification_prefs.quiet_until(pref, NIGHT) == dt.datetime(2026, 3, 3, 4, 0, tzinfo=dt.UTC)
    assert notification_prefs.quiet_until(pref, dt.datetime(2026, 3, 3, 4, 0, tzinfo=dt.UTC)) is None
    assert notification_prefs.quiet_until(pref, dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)) is None


def test_a_turn_email_in_quiet_hours_waits_and_goes_out_once_they_end(make_game, prefs):
    with time_machine.travel(NIGHT, tick=False):
        game = make_game()
        row = Notification.objects.get(topic=game_topic(game.pk))
        prefs(row.user, time_zone="Asia/Amman", quiet_start=dt.time(22), quiet_end=dt.time(7))
        assert tasks.send_notification(row.pk) == "waiting"
        assert tasks.send_pending_notifications() == {"released": 0, "queued": 0}
    row.refresh_from_db()
    assert row.state == NotificationState.PENDING
    assert row.send_after == dt.datetime(2026, 3, 3, 4, 0, tzinfo=dt.UTC)
    assert mail.outbox == []
    with time_machine.travel(row.send_after, tick=False):
        assert tasks.send_pending_notifications() == {"released": 0, "queued": 1}
    assert len(mail.outbox) == 1


def test_the_digest_lists_every_waiting_game_soonest_deadline_first_once_a_day(
    make_game, owner, member, prefs
):
    morning = dt.datetime(2026, 3, 3, 5, 0, tzinfo=dt.UTC)  # 08:00 in Amman
    with time_machine.travel(morning - dt.timedelta(days=1), tick=False):
        games = [make_game(move_hours=hours, seed=seed) for hours, seed in [(72, 1), (24, 2), (0, 3)]]
    # Make it the owner's turn everywhere (seat order comes from the seeds).
    for game in games:
        seat = game.seats.get(user=owner).number
        Game.objects.filter(pk=game.pk).update(turn_seat=seat)
    prefs(owner, daily_digest=True, digest_hour=8, time_zone="Asia/Amman")
    Notification.objects.all().delete()
    with time_machine.travel(morning - dt.timedelta(minutes=1), tick=False):
        assert tasks.make_daily_digests() == 0
    with time_machine.travel(morning, tick=False):
        assert tasks.make_daily_digests() == 1
        assert tasks.send_pending_notifications() == {"released": 0, "queued": 1}
    with time_machine.travel(morning + dt.timedelta(hours=3), tick=False):
        assert tasks.make_daily_digests() == 0
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    positions = [body.index(game.get_absolute_url()) for game in (games[1], games[0], games[2])]
    assert positions == sorted(positions), body
    assert mail.outbox[0].subject == "[Hand] Your daily digest: 3 things wait for you"


def test_no_digest_when_no_game_waits(owner, prefs):
    prefs(owner, daily_digest=True, digest_hour=0)
    assert outbox.make_digests() == []


def test_it_is_the_player_to_move_who_gets_the_turn_email(game):
    assert Notification.objects.get(topic=game_topic(game.pk)).user == player_to_move(game)
