"""Turn e-mails through a real Celery worker on Redis: exactly one e-mail per turn, whatever repeats,
and none lost when Redis is down during the move."""

import time

import pytest
from django.core import mail

from handsite.models import Notification, NotificationState
from handsite.tasks import send_notification, send_pending_notifications
from tests.celery.conftest import celery_app_on, wait_for_mail, worker
from tests.notifications.conftest import make_game, play_one_turn, player_to_move  # noqa: F401 (fixtures)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_a_move_sends_exactly_one_email(shared_redis, make_game):  # noqa: F811
    with celery_app_on(shared_redis) as app, worker(app):
        game = make_game()
        wait_for_mail(1)  # the first player's "your turn"
        play_one_turn(game)
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
        row = Notification.objects.get(game=game)
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


def test_with_redis_down_the_move_succeeds_and_the_email_goes_out_when_it_is_back(own_redis, make_game):  # noqa: F811
    with celery_app_on(own_redis.url) as app, worker(app):
        game = make_game()
        wait_for_mail(1)
        own_redis.stop()
        mover = play_one_turn(game)  # the queueing fails after the commit; the move stands
        game.refresh_from_db()
        assert player_to_move(game) != mover
        pending = Notification.objects.get(game=game, turn=game.turn_version)
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
