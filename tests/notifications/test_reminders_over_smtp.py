"""Reminders that respect the clock and the inbox (issue 31), sent to a real SMTP server the test starts
on 127.0.0.1 (aiosmtpd), on a moved clock (time-machine): deadlines out of quiet hours, one e-mail per
person per sweep, nothing already seen, no warning while the game is open, and headers mail clients
read right."""

import datetime as dt
import email
from email.header import decode_header, make_header

import pytest
import time_machine
from django.test import Client

from games import tasks as game_tasks
from games.models import Game
from games.notifications import LOW_TIME, REMINDER, YOUR_TURN
from games.notifications import opened as game_opened
from games.notifications import topic as game_topic
from games.services import scans
from handsite import tasks
from handsite.models import Notification, NotificationPreference, NotificationState
from handsite.services import outbox, preferences
from tests.notifications.conftest import player_to_move

pytestmark = pytest.mark.django_db
NEW_YORK = "America/New_York"
# Winter: New York is UTC-5. 07:00 UTC is 02:00 in New York, inside quiet hours of 22:00-07:00.
START = dt.datetime(2026, 1, 13, 7, 0, tzinfo=dt.UTC)


def at(moment):
    return time_machine.travel(moment, tick=False)


def sweep():
    """What beat does every minute: the reminder and deadline scans, then the outbox's sweep."""
    game_tasks.scan_deadlines()
    game_tasks.scan_reminders()
    tasks.send_pending_notifications()


def quiet_nights(prefs, user, zone=NEW_YORK, **fields):
    return prefs(user, time_zone=zone, quiet_start=dt.time(22), quiet_end=dt.time(7), **fields)


def test_a_deadline_inside_quiet_hours_moves_to_their_end_and_its_warning_leaves_before_they_begin(
    make_game, prefs, smtp
):
    with at(START):
        game = make_game(move_hours=24)
        mover = player_to_move(game)
        quiet_nights(prefs, mover, reminders=True, first_reminder_hours=48)
        revision = Game.objects.get(pk=game.pk).revision
        assert game.deadline_at == START + dt.timedelta(hours=24)  # 02:00 in New York: in the night
        sweep()
    game.refresh_from_db()
    morning = dt.datetime(2026, 1, 14, 12, 0, tzinfo=dt.UTC)  # 07:00 in New York
    assert game.deadline_at == morning
    assert game.revision > revision  # everybody's page shows the moved deadline
    with at(START + dt.timedelta(hours=5)):  # 07:00 in New York: the "your turn" of the night
        sweep()
    assert len(smtp.messages) == 1
    smtp.clear()
    # Time runs out at 02:12 in New York (80% of the day): the warning goes before the night instead.
    night = dt.datetime(2026, 1, 14, 3, 0, tzinfo=dt.UTC)  # 22:00 in New York
    with at(night - dt.timedelta(minutes=31)):
        sweep()
    assert smtp.messages == []
    with at(night - dt.timedelta(minutes=30)):
        sweep()
    [warning] = smtp.messages
    assert "Time is running out" in str(warning["Subject"])
    assert warning["Date"].datetime < night
    smtp.clear()
    with at(START + dt.timedelta(hours=24)):  # the old deadline passes: nothing happens
        sweep()
        assert game_tasks.scan_deadlines() == 0
    assert Game.objects.get(pk=game.pk).turn_seat == game.turn_seat
    with at(morning - dt.timedelta(minutes=1)):
        assert game_tasks.scan_deadlines() == 0
    with at(morning):
        assert game_tasks.scan_deadlines() == 1
    assert Game.objects.get(pk=game.pk).turn_seat != game.turn_seat


def test_a_deadline_already_planned_inside_quiet_hours_is_moved_by_the_deadline_scan_not_applied(
    make_game, prefs
):
    with at(START - dt.timedelta(hours=24)):
        game = make_game(move_hours=24)
    quiet_nights(prefs, player_to_move(game))  # set after the deadline was planned
    with at(START):
        assert scans.expire_due() == {game.pk: "moved"}
    game.refresh_from_db()
    assert game.deadline_at == dt.datetime(2026, 1, 13, 12, 0, tzinfo=dt.UTC)


def waiting_for(member, make_game, count):
    games = [make_game(move_hours=120, seed=seed) for seed in range(1, count + 1)]
    for game in games:
        Game.objects.filter(pk=game.pk).update(turn_seat=game.seats.get(user=member).number)
    Notification.objects.all().delete()
    return games


def test_five_waiting_games_make_one_email_per_sweep_most_urgent_first(make_game, member, prefs, smtp):
    with at(START):
        games = waiting_for(member, make_game, 5)
        prefs(member, time_zone="Asia/Amman", first_reminder_hours=12, reminder_every_hours=24)
        Game.objects.filter(pk__in=[g.pk for g in games]).update(next_reminder_at=START)
        sweep()  # plans the reminders
    for day in range(3):
        with at(START + dt.timedelta(hours=12 + 24 * day, minutes=1)):
            sweep()
            sweep()  # a second sweep in the same minute sends nothing more
        assert len(smtp.messages) == day + 1
    rows = Notification.objects.filter(user=member, kind=REMINDER)
    assert rows.count() == 15
    assert not rows.exclude(state=NotificationState.SENT).exists()
    body = smtp.messages[0].get_body(("plain",)).get_content()
    assert all(game.get_absolute_url() in body for game in games)
    # The fourth day: time runs short in one game as the others' reminders are due. One e-mail, the
    # warning first, one line for that game.
    smtp.clear()
    with at(START + dt.timedelta(hours=84, minutes=1)):
        low = games[4]
        Game.objects.filter(pk=low.pk).update(
            deadline_at=START + dt.timedelta(hours=90), next_reminder_at=START
        )
        sweep()
    [message] = smtp.messages
    body = message.get_body(("plain",)).get_content()
    assert body.index("Time is short") < body.index("It is your turn in these games")
    assert body.index(low.get_absolute_url()) < min(body.index(g.get_absolute_url()) for g in games[:4])
    assert body.count(low.get_absolute_url()) == 1
    assert str(message["Subject"]).startswith("[Hand] Time is running out")


def test_a_row_read_before_its_email_leaves_is_not_sent(make_game, smtp):
    with at(START + dt.timedelta(hours=6)):  # no quiet hours: the turn e-mail would go in this sweep
        game = make_game()
        row = Notification.objects.get(topic=game_topic(game.pk), kind=YOUR_TURN)
        outbox.mark_read(row.user, row.pk)  # seen in the in-site list first
        tasks.send_pending_notifications()
    assert smtp.raw == []
    row.refresh_from_db()
    assert row.state == NotificationState.SKIPPED


def test_no_warning_while_the_game_is_open_and_none_once_it_was_seen(make_game, prefs, smtp):
    with at(START):
        game = make_game(move_hours=24)
        mover = player_to_move(game)
        prefs(mover, reminders=True, first_reminder_hours=48)
        Notification.objects.all().delete()
        sweep()
    low_at = START + dt.timedelta(hours=24 * 0.8)
    with at(low_at):
        game_opened(mover, Game.objects.get(pk=game.pk))  # the player has the game open
        sweep()
        assert Notification.objects.filter(user=mover, kind=LOW_TIME).exists()
    for minutes in (1, 2):
        with at(low_at + dt.timedelta(minutes=minutes)):
            preferences.record_presence(mover.pk)  # the page stays open: it polls
            sweep()
    assert smtp.raw == []
    with at(low_at + dt.timedelta(minutes=3)):
        game_opened(mover, Game.objects.get(pk=game.pk))  # seen on the page: read
    with at(low_at + dt.timedelta(hours=1)):  # left long ago: still nothing, it was seen
        sweep()
    assert smtp.raw == []
    assert Notification.objects.get(user=mover, kind=LOW_TIME).state == NotificationState.SKIPPED


def test_a_warning_waiting_for_an_absent_player_goes_once_they_leave(make_game, prefs, smtp, settings):
    with at(START):
        game = make_game(move_hours=24)
        mover = player_to_move(game)
        prefs(mover, reminders=True, first_reminder_hours=48)
        Notification.objects.all().delete()
        sweep()
    low_at = START + dt.timedelta(hours=24 * 0.8)
    with at(low_at):
        preferences.record_presence(mover.pk)  # on another page of the site, not this game
        sweep()
    assert smtp.raw == []
    with at(low_at + dt.timedelta(minutes=settings.HANDSITE_NOTIFY_GRACE_MINUTES + 1)):
        sweep()
    [message] = smtp.messages
    assert "Time is running out" in str(message["Subject"])


def test_the_list_unsubscribe_header_is_plain_ascii_and_its_one_click_post_works_without_login(
    make_game, smtp
):
    with at(START + dt.timedelta(hours=6)):
        game = make_game()
        mover = player_to_move(game)
        tasks.send_pending_notifications()
    [raw] = smtp.raw
    [message] = smtp.messages
    line = next(line for line in raw.split(b"\r\n") if line.startswith(b"List-Unsubscribe:"))
    assert b"=?" not in line
    value = message["List-Unsubscribe"]
    assert value.startswith(("<https://", "<http://"))
    assert value.endswith(">")
    assert value.isascii()
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    url = value[1:-1]
    path = url.split("://", 1)[1].split("/", 1)[1]
    client = Client(enforce_csrf_checks=True)  # a mail client: no session, no CSRF token
    response = client.post(
        f"/{path}", data="List-Unsubscribe=One-Click", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 200
    pref = NotificationPreference.objects.get(user=mover)
    assert (pref.your_turn_email, pref.reminders, pref.daily_digest) == (False, False, False)


def test_arabic_mail_is_signed_hand_in_arabic_and_its_subject_keeps_every_space(make_game, prefs, smtp):
    with at(START + dt.timedelta(hours=6)):
        game = make_game()
        mover = player_to_move(game)
        mover.language = "ar"
        mover.save(update_fields=["language"])
        group = game.group
        group.name = "سهرة الجمعة مع الأصدقاء والأقارب في بيت العائلة الكبير"
        group.save(update_fields=["name"])
        tasks.send_pending_notifications()
    [raw] = smtp.raw
    [message] = smtp.messages
    assert message["From"].addresses[0].display_name == "هاند"
    subject = str(message["Subject"])
    assert subject.startswith("[هاند] ")
    assert group.name in subject
    assert "  " not in subject
    folded = email.message_from_bytes(raw)["Subject"]  # as an older client reads the folded lines
    assert str(make_header(decode_header(folded))) == subject


def test_a_persons_due_rows_are_queued_in_one_chunk_so_one_worker_sends_their_one_email():
    from handsite.services.delivery import chunks_by_person

    due = [(1, 7), (2, 8), (3, 7), (4, 9), (5, 8), (6, 7)]  # (row, person), most overdue first
    assert chunks_by_person(due, 2) == [[1, 3, 6], [2, 5], [4]]
    assert chunks_by_person(due, 25) == [[1, 3, 6, 2, 5, 4]]
    assert sorted(pk for chunk in chunks_by_person(due, 1) for pk in chunk) == [1, 2, 3, 4, 5, 6]
