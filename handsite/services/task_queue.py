"""Queueing Celery tasks from the services: by the task's name, so that no service imports a tasks
module (the tasks import the services). A task recorded with the change that needs it
(:func:`run_after_commit`) is queued again by the beat scan until it says it is done."""

from __future__ import annotations

import datetime
import functools
import logging

from celery import current_app
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from handsite.models import QueuedTask

log = logging.getLogger(__name__)


def queue_now(name: str, *args) -> None:
    """Queue the task registered as ``name`` through its own ``apply_async`` (eager in tests, the site's
    publish policy of QueuedAfterCommit). A name that is no registered task raises
    ``celery.exceptions.NotRegistered`` (a KeyError) rather than publish a message no worker runs."""
    current_app.tasks[name].apply_async(args)


def queue_after_commit(name: str, *args) -> None:
    """Queue the task registered as ``name`` once the caller's transaction commits (at once outside one)."""
    transaction.on_commit(functools.partial(queue_now, name, *args))


# --- Tasks that must run (recorded with the change that needs them) ------------------------------

QUEUED_TASK_AGAIN_AFTER = datetime.timedelta(minutes=2)
"""A recorded task not done this long after it was queued is queued again by the beat scan."""
QUEUED_TASK_MAX_ATTEMPTS = 30
"""After this many queuings a task that never finishes is left for the operator (logged as an error)."""


def run_after_commit(task, *args) -> QueuedTask:
    """Queue ``task(*args)`` (a QueuedAfterCommit task taking ``queued_task_id``) after the caller's
    transaction commits, recorded in that transaction: if the broker is away then, or the message is
    lost, :func:`requeue_tasks` queues it again. The task calls :func:`task_done` when it has run."""
    row = QueuedTask.objects.create(task=task.name, args=list(args))
    task.delay_on_commit(*args, queued_task_id=row.pk)
    return row


def task_done(queued_task_id: int | None) -> None:
    if queued_task_id is not None:
        QueuedTask.objects.filter(pk=queued_task_id).delete()


def requeue_tasks(now: datetime.datetime | None = None, limit: int = 500) -> int:
    """The beat scan: queue again each recorded task not done a while after it was queued (by name:
    handsite imports no app's tasks). Returns how many were queued."""
    now = now or timezone.now()
    due = list(
        QueuedTask.objects.filter(
            queued_at__lte=now - QUEUED_TASK_AGAIN_AFTER, attempts__lt=QUEUED_TASK_MAX_ATTEMPTS
        ).order_by("queued_at")[:limit]
    )
    for row in due:
        current_app.send_task(row.task, args=row.args, kwargs={"queued_task_id": row.pk})
        QueuedTask.objects.filter(pk=row.pk).update(queued_at=now, attempts=F("attempts") + 1)
        level = logging.ERROR if row.attempts + 1 >= QUEUED_TASK_MAX_ATTEMPTS else logging.INFO
        log.log(level, "task %s%s queued again (attempt %s)", row.task, tuple(row.args), row.attempts + 1)
    return len(due)
