"""Tasks go to named queues, so workers by queue keep a long rating recompute (or scan) from delaying a
turn e-mail: a real worker on the "results" queue stuck in a recompute, and a turn e-mail still goes
out at once through the "mail" worker."""

import importlib
import importlib.util
import time

import psycopg
import pytest
from django.apps import apps
from django.conf import settings
from django.db import connection

from handsite.celery import app as site_app
from handsite.tasks import send_pending_notifications
from scoring.models import Rating
from scoring.tasks import recompute_group_ratings
from tests.celery.conftest import celery_app_on, queue_of, wait_for_mail, worker, worker_process
from tests.notifications.conftest import make_game, player_to_move  # noqa: F401 (fixtures)

SITE_QUEUES = {"mail", "scans", "results"}
SITE_APPS = ("handsite", "games", "scoring")
EXPECTED = {
    "handsite.tasks.send_notification": "mail",
    "handsite.tasks.send_notifications": "mail",
    "handsite.tasks.send_invitation_email": "mail",
    "handsite.tasks.send_pending_notifications": "mail",
    "handsite.tasks.send_email": "mail",
    "handsite.tasks.send_pending_emails": "mail",
    "handsite.tasks.scan_queued_tasks": "scans",
    "handsite.tasks.make_daily_digests": "scans",
    "handsite.tasks.purge_stale_invitations": "scans",
    "games.tasks.scan_reminders": "scans",
    "games.tasks.scan_deadlines": "scans",
    "games.tasks.record_online_result": "results",
    "scoring.tasks.recompute_group_ratings": "results",
}


def queue_name(task_name: str) -> str:
    return site_app.amqp.router.route({}, task_name)["queue"].name


def site_tasks() -> list[str]:
    for config in apps.get_app_configs():  # what the worker's autodiscovery imports (without its checks)
        if config.name in SITE_APPS and importlib.util.find_spec(f"{config.name}.tasks"):
            importlib.import_module(f"{config.name}.tasks")
    return sorted(name for name in site_app.tasks if name.split(".")[0] in SITE_APPS)


def test_turn_emails_scans_and_recomputes_each_have_their_queue():
    for task_name, queue in EXPECTED.items():
        assert queue_name(task_name) == queue, task_name


def test_every_task_of_the_site_is_routed_to_a_named_queue():
    """A task added (or renamed) without a route would land on the default queue: say where it goes."""
    unrouted = [name for name in site_tasks() if queue_name(name) not in SITE_QUEUES]
    assert unrouted == ["handsite.tasks.ping"]  # the health check answers on the default queue
    assert {q.name for q in settings.CELERY_TASK_QUEUES} == SITE_QUEUES | {"celery"}


def test_beat_sends_its_scans_to_the_scans_queue():
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert queue_name(entry["task"]) in {"scans", "mail"}, entry["task"]


def _waiting_recomputes() -> int:
    """Connections of the test database waiting for a lock in a DELETE of ratings (the recompute)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock' AND query ILIKE %s",
            ["DELETE FROM %scoring_rating%"],
        )
        return cursor.fetchone()[0]


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_long_rating_recompute_never_delays_a_turn_email(shared_redis, make_game, group, tmp_path):  # noqa: F811
    """The recompute is held inside its DELETE by a row lock another connection keeps (as a long
    recompute of a big group would keep its worker busy); meanwhile a game starts and its first
    player's "your turn" e-mail arrives within seconds of the minute's sweep, from the mail worker."""
    if connection.vendor != "postgresql":
        pytest.skip(
            "needs PostgreSQL's row locks (runs in the PostgreSQL flavour: DATABASE_URL=postgres://...)"
        )
    Rating.objects.create(group=group, player_key="u:0", name="held", mu=25, sigma=8, ordinal=1)
    conf = connection.settings_dict
    holder = psycopg.connect(
        host=conf["HOST"] or "127.0.0.1",
        port=conf["PORT"] or 5432,
        user=conf["USER"],
        password=conf["PASSWORD"] or None,
        dbname=conf["NAME"],
    )
    try:
        holder.execute("SELECT id FROM scoring_rating WHERE group_id = %s FOR UPDATE", [group.pk])
        with celery_app_on(shared_redis, by_queue=True) as app:
            results = queue_of(app, "results")
            with (
                worker_process(shared_redis, results, tmp_path / "results") as recomputer,
                worker(app, "mail", queues=[queue_of(app, "mail"), queue_of(app, "celery")]),
            ):
                recompute_group_ratings.delay(group.pk)
                deadline = time.monotonic() + 30
                while _waiting_recomputes() == 0:
                    assert time.monotonic() < deadline, recomputer.log()
                    time.sleep(0.1)
                began = time.monotonic()
                game = make_game()  # the first player's "your turn", written in the game's transaction
                send_pending_notifications.delay()  # as beat does every minute
                wait_for_mail(1, timeout=10)
                took = time.monotonic() - began
                assert _waiting_recomputes() == 1  # the recompute is still running
                holder.rollback()  # the lock goes: the recompute finishes
                deadline = time.monotonic() + 30
                while not recomputer.results(recompute_group_ratings.name):
                    assert time.monotonic() < deadline, recomputer.log()
                    time.sleep(0.1)
    finally:
        holder.close()
    from django.core import mail

    assert took < 10
    assert mail.outbox[0].to == [player_to_move(game).email]
    assert recomputer.received("handsite.tasks.send_notification") == 0  # the mail queue is not its
    assert recomputer.results(recompute_group_ratings.name) == ["0"]  # no rated game: the row went
    assert not Rating.objects.filter(group=group).exists()
