"""The outbox: a turn change writes one notification row in the move's transaction; sending claims it,
so repeated or duplicated sending e-mails once."""

import datetime as dt

import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend
from django.db import transaction
from django.utils import timezone

from games import notifications as game_notifications
from games.notifications import topic as game_topic
from games.services import seating
from handsite import notifications, tasks
from handsite.models import Notification, NotificationState
from handsite.services import delivery, outbox
from tests.notifications.conftest import play_one_turn, player_to_move

pytestmark = pytest.mark.django_db


def test_a_new_game_notifies_the_first_player_once(game):
    rows = list(Notification.objects.all())
    assert len(rows) == 1
    row = rows[0]
    assert (row.data["game"], row.data["seat"], row.data["turn"]) == (
        game.pk,
        game.turn_seat,
        game.turn_version,
    )
    assert row.kind == "your_turn"
    assert row.user == player_to_move(game)
    assert row.state == NotificationState.PENDING


def test_a_move_writes_the_row_in_its_transaction_queues_nothing_and_the_sweep_sends_one_email(
    game, django_capture_on_commit_callbacks
):
    Notification.objects.all().delete()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        mover = play_one_turn(game)
    game.refresh_from_db()
    row = Notification.objects.get()
    assert row.user == player_to_move(game) != mover
    assert row.data["turn"] == game.turn_version
    assert callbacks == []  # no task published by the move: the e-mail waits for the minute's sweep
    assert row.state == NotificationState.PENDING
    assert mail.outbox == []
    assert delivery.deliver_pending() == {"released": 0, "sent": 1}
    row.refresh_from_db()
    assert row.state == NotificationState.SENT
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [row.user.email]
    assert "Your turn" in message.subject
    link = f"http://127.0.0.1:8000{game.get_absolute_url()}"
    assert link in message.body
    html = message.alternatives[0][0]
    assert link in html
    assert "/notifications/unsubscribe/" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"


def test_a_move_that_rolls_back_leaves_no_notification(game):
    Notification.objects.all().delete()
    seen = []

    def move_then_fail():
        with transaction.atomic():
            play_one_turn(game)
            seen.append(Notification.objects.count())
            raise RuntimeError("the request failed after the move")

    with pytest.raises(RuntimeError):
        move_then_fail()
    assert seen == [1]
    assert Notification.objects.count() == 0


def test_sending_twice_or_by_two_tasks_emails_once(game):
    row = Notification.objects.get()
    assert tasks.send_notification(row.pk) == "sent"
    assert tasks.send_notification(row.pk) == "not_claimed"
    assert delivery.deliver_pending() == {"released": 0}
    assert len(mail.outbox) == 1


def test_only_the_claimer_sends(game):
    row = Notification.objects.get()
    now = timezone.now()
    assert delivery.claim(row.pk, now) is True
    assert delivery.claim(row.pk, now) is False
    assert delivery.deliver(row.pk) == "not_claimed"
    assert mail.outbox == []


def test_the_same_turn_cannot_be_recorded_twice(game):
    row = Notification.objects.get()
    kind = game_notifications.YOUR_TURN
    again = game_notifications.record(
        game, user_id=row.user_id, seat=game.turn_seat, turn=game.turn_version, kind=kind
    )
    assert again is None
    assert Notification.objects.count() == 1


def test_a_bot_seat_gets_no_notification(make_game, owner):
    game = make_game(seats=[owner, seating.BOT])
    assert not Notification.objects.filter(data__seat=1).exists()
    assert all(row.user == owner for row in Notification.objects.filter(topic=game_topic(game.pk)))


def test_turn_emails_off_keeps_the_line_in_the_list_but_sends_nothing(game, prefs):
    row = Notification.objects.get()
    prefs(row.user, your_turn_email=False)
    assert delivery.deliver(row.pk) == "skipped"
    row.refresh_from_db()
    assert row.state == NotificationState.SKIPPED
    assert mail.outbox == []
    assert notifications.unread_count(row.user) == 1


def test_a_digest_reader_gets_no_turn_email(game, prefs):
    row = Notification.objects.get()
    prefs(row.user, daily_digest=True)
    assert delivery.deliver(row.pk) == "skipped"
    assert mail.outbox == []


def test_a_turn_that_is_over_is_not_emailed_any_more(game):
    first = Notification.objects.get()
    play_one_turn(game)
    assert delivery.deliver(first.pk) == "skipped"
    second = Notification.objects.exclude(pk=first.pk).get()
    assert delivery.deliver(second.pk) == "sent"
    assert len(mail.outbox) == 1


def test_a_failed_send_stays_pending_and_goes_out_on_a_later_scan(game, monkeypatch):
    row = Notification.objects.get()

    def smtp_down(self, messages):
        raise OSError("connection refused")

    monkeypatch.setattr(EmailBackend, "send_messages", smtp_down)
    assert delivery.deliver(row.pk) == "retry"
    row.refresh_from_db()
    assert row.state == NotificationState.PENDING
    assert row.send_after > timezone.now()
    assert "connection refused" in row.last_error
    monkeypatch.undo()
    assert delivery.deliver_pending() == {"released": 0}  # not due yet
    later = row.send_after + dt.timedelta(seconds=1)
    assert delivery.deliver_pending(later) == {"released": 0, "sent": 1}
    assert len(mail.outbox) == 1


def test_it_gives_up_after_the_last_attempt(game, monkeypatch):
    row = Notification.objects.get()
    Notification.objects.filter(pk=row.pk).update(attempts=notifications.MAX_ATTEMPTS - 1)

    def smtp_down(self, messages):
        raise OSError("x")

    monkeypatch.setattr(EmailBackend, "send_messages", smtp_down)
    assert delivery.deliver(row.pk) == "failed"
    row.refresh_from_db()
    assert row.state == NotificationState.FAILED


def test_a_row_left_sending_by_a_dead_worker_is_sent_later(game):
    row = Notification.objects.get()
    long_ago = timezone.now() - dt.timedelta(hours=1)
    Notification.objects.filter(pk=row.pk).update(state=NotificationState.SENDING, claimed_at=long_ago)
    assert delivery.deliver_pending() == {"released": 1, "sent": 1}
    assert len(mail.outbox) == 1


def test_the_timed_out_kind_is_worded_for_people(game):
    row = Notification.objects.get()
    row.kind = game_notifications.TIMED_OUT
    assert "ran out" in notifications.describe(row)
    assert row.topic == f"game:{game.pk}"


@pytest.fixture
def swept_kind():
    """A kind registered as swept (like the turn e-mail), e-mailed with the row's own words."""
    kind = notifications.Kind(name="test_swept", email=notifications.EMAIL_ALWAYS, swept=True)
    notifications.register(kind)
    yield kind.name
    notifications.KINDS.pop(kind.name)


def test_a_swept_kind_queues_no_task_when_written_and_the_minute_sweep_sends_it(
    member, swept_kind, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        one = outbox.notify(recipient=member, kind=swept_kind, key="a", subject="One", body="1")
        outbox.notify_many([{"recipient": member.pk, "kind": swept_kind, "key": "b", "subject": "Two"}])
    assert callbacks == []
    assert one.state == NotificationState.PENDING
    assert mail.outbox == []
    assert delivery.deliver_pending() == {"released": 0, "sent": 2}
    assert sorted(message.subject for message in mail.outbox) == ["[Hand] One", "[Hand] Two"]


def test_a_kind_that_is_not_swept_is_still_queued_after_the_commit(
    member, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        outbox.notify(recipient=member, kind="plain", key="a", subject="Hello", body="1")
        outbox.notify_many([{"recipient": member.pk, "kind": "plain", "key": "b", "subject": "Again"}])
    assert len(callbacks) == 2
    assert sorted(message.subject for message in mail.outbox) == ["[Hand] Again", "[Hand] Hello"]


def test_the_minute_sweep_queues_every_due_row_for_the_mail_workers_and_each_is_sent_once(member, swept_kind):
    outbox.notify_many(
        [
            {"recipient": member.pk, "kind": swept_kind, "key": f"k{n}", "subject": f"Row {n}"}
            for n in range(60)
        ]
    )
    assert mail.outbox == []
    assert delivery.queue_pending(limit=50) == {"released": 0, "queued": 50}  # 2 tasks of 25
    assert Notification.objects.filter(state=NotificationState.PENDING).count() == 10  # the next minute's
    assert tasks.send_pending_notifications() == {"released": 0, "queued": 10}
    assert tasks.send_pending_notifications() == {"released": 0, "queued": 0}
    assert len(mail.outbox) == 60
    assert set(Notification.objects.values_list("state", flat=True)) == {NotificationState.SENT}
