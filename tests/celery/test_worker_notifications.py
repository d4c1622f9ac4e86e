"""Turn e-mails through a real Celery worker on Redis: exactly one e-mail per turn, whatever repeats,
and none lost when Redis is down during the move. A move queues no task: the beat's minute sweep
(``send_pending_notifications``, queued here by hand) sends the turn e-mails that are due."""

import threading
import time

import pytest
from celery.signals import task_postrun
from django.core import mail

from games.notifications import topic as game_topic
from handsite.models import Notification, NotificationState
from handsite.tasks import send_notification, send_pending_notifications
from tests.celery.conftest import celery_app_on, wait_for_mail, worker, worker_process
from tests.notifications.conftest import make_game, play_one_turn, player_to_move  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_a_move_sends_exactly_one_email(shared_redis, make_game):  # noqa: F811
    with celery_app_on(shared_redis) as app, worker(app):
        game = make_game()
        send_pending_notifications.delay()
        wait_for_mail(1)  # the first player's "your turn"
        play_one_turn(game)
        send_pending_notifications.delay()
        send_pending_notifications.delay()  # a second sweep finds nothing more to send
        wait_for_mail(2)
        time.sleep(1.5)  # anything more would have arrived by now
    assert len(mail.outbox) == 2
    assert mail.outbox[1].to == [player_to_move(game).email]
    assert set(Notification.objects.values_list("state", flat=True)) == {NotificationState.SENT}


def test_duplicated_tasks_run_at_once_by_several_workers_still_send_one(shared_redis, make_game):  # noqa: F811
    """Six copies of the task wait in the queue; a worker with four threads (four consumers of the
    queue at once, as two worker processes would be) takes them together."""
    with celery_app_on(shared_redis) as app:
        game = make_game()  # its task is queued
        row = Notification.objects.get(topic=game_topic(game.pk))
        for _ in range(5):
            send_notification.delay(row.pk)
        with worker(app, "w1", pool="threads", concurrency=4):
            wait_for_mail(1)
            send_pending_notifications.delay()
            time.sleep(2)
    assert len(mail.outbox) == 1
    row.refresh_from_db()
    assert row.state == NotificationState.SENT
    assert row.attempts == 1


def test_two_separate_workers_given_many_copies_of_the_task_send_one_email(shared_redis, make_game, tmp_path):  # noqa: F811
    """Two genuinely separate workers on one queue: this process's worker and a `celery worker`
    process of its own (same Redis database, same test database). The row is pending and its task
    not yet delivered when twenty copies of the task arrive at once; both workers take copies, and
    between them exactly one e-mail leaves (locmem here, a file from the other process)."""
    copies = 20
    here: list[str] = []
    lock = threading.Lock()

    def record(sender=None, retval=None, **kwargs):
        if sender is not None and sender.name == send_notification.name:
            with lock:
                here.append(retval)

    task_postrun.connect(record, weak=False)
    try:
        with celery_app_on(shared_redis) as app:
            queue = app.conf.task_default_queue
            game = make_game()  # writes the row and queues its task...
            app.control.purge()  # ...which is taken back: the copies below are all there is
            row = Notification.objects.get(topic=game_topic(game.pk))
            assert row.state == NotificationState.PENDING
            with worker(app), worker_process(shared_redis, queue, tmp_path / "second") as second:
                for _ in range(copies):
                    send_notification.delay(row.pk)
                deadline = time.monotonic() + 60
                while len(here) + len(second.results(send_notification.name)) < copies:
                    assert time.monotonic() < deadline, f"{len(here)} here, log:\n{second.log()}"
                    time.sleep(0.1)
                time.sleep(0.5)
                there = second.results(send_notification.name)
                emails_there = second.emails()
    finally:
        task_postrun.disconnect(record)
    assert here, "this process's worker took no copy"
    assert there, "the second worker took no copy"
    assert second.received(send_notification.name) == len(there)
    assert sorted(here + there) == ["not_claimed"] * (copies - 1) + ["sent"]
    assert len(mail.outbox) + len(emails_there) == 1
    recipient = player_to_move(game).email
    if mail.outbox:
        assert mail.outbox[0].to == [recipient]
    else:
        assert f"To: {recipient}".encode() in emails_there[0]
    row.refresh_from_db()
    assert row.state == NotificationState.SENT
    assert row.attempts == 1


def test_with_redis_down_the_move_succeeds_and_the_email_goes_out_when_it_is_back(own_redis, make_game):  # noqa: F811
    with celery_app_on(own_redis.url) as app, worker(app):
        game = make_game()
        send_pending_notifications.delay()
        wait_for_mail(1)
        own_redis.stop()
        mover = play_one_turn(game)  # the move needs no broker: it queues nothing
        game.refresh_from_db()
        assert player_to_move(game) != mover
        pending = Notification.objects.get(topic=game_topic(game.pk), data__turn=game.turn_version)
        assert pending.state == NotificationState.PENDING
        time.sleep(1)
        assert len(mail.outbox) == 1
        own_redis.start()  # same port: the worker reconnects
        send_pending_notifications.apply_async(
            retry=True, retry_policy={"max_retries": 20, "interval_step": 0.5}
        )
        wait_for_mail(2, timeout=60)
        time.sleep(1)
    assert len(mail.outbox) == 2
    assert mail.outbox[1].to == [player_to_move(game).email]
    pending.refresh_from_db()
    assert pending.state == NotificationState.SENT
