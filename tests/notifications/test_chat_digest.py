"""Table talk and e-mail: never one e-mail per message; the daily digest counts the unread messages of
the last day per game (handsite's generic digest, fed by games' section)."""

import datetime as dt

import pytest
import time_machine
from django.core import mail

from games.chat import ChatRequest
from games.services import talk
from handsite import tasks
from handsite.models import Notification

pytestmark = pytest.mark.django_db
MORNING = dt.datetime(2026, 3, 3, 5, 0, tzinfo=dt.UTC)  # 08:00 in Amman


def write(game, user, text):
    outcome = talk.chat(
        game_id=game.pk, group_slug=game.group.slug, user=user, request=ChatRequest(action="post", text=text)
    )
    assert outcome.error is None
    return outcome.message


def test_many_messages_send_no_email_of_their_own(make_game, owner, member, prefs):
    prefs(member, your_turn_email=True, reminders=True)
    game = make_game()
    Notification.objects.all().delete()  # the turn e-mails are not what this is about
    mail.outbox.clear()
    for number in range(5):
        write(game, owner, f"message {number}")
    assert tasks.send_pending_notifications()["released"] == 0
    assert mail.outbox == []
    assert Notification.objects.filter(user=member, kind="chat", state="skipped").count() == 5


def test_the_digest_counts_unread_messages_per_game_in_one_email(make_game, owner, member, prefs):
    with time_machine.travel(MORNING - dt.timedelta(hours=3), tick=False):
        first, second = make_game(seed=1), make_game(seed=2)
        Notification.objects.all().delete()
        for number in range(3):
            write(first, owner, f"first {number}")
        write(second, owner, "second")
    prefs(member, daily_digest=True, digest_hour=8, time_zone="Asia/Amman")
    mail.outbox.clear()
    with time_machine.travel(MORNING, tick=False):
        assert tasks.make_daily_digests() == 1
        tasks.send_pending_notifications()
    assert len(mail.outbox) == 1
    body = mail.outbox[0].body
    assert f"3 unread messages in the table talk of Thursday Hand: {first}" in body
    assert f"1 unread message in the table talk of Thursday Hand: {second}" in body
    assert "first 0" not in body  # counts, not the words


def test_messages_read_or_older_than_a_day_make_no_digest(make_game, owner, member, prefs):
    with time_machine.travel(MORNING - dt.timedelta(days=2), tick=False):
        game = make_game(seed=3)
        Notification.objects.exclude(kind="chat").delete()
        write(game, owner, "old news")
    prefs(member, daily_digest=True, digest_hour=8, time_zone="Asia/Amman")
    with time_machine.travel(MORNING, tick=False):
        from games.models import Game

        Game.objects.filter(pk=game.pk).update(turn_seat=game.seats.get(user=owner).number)
        assert tasks.make_daily_digests() == 0
