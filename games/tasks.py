"""Celery tasks of online play. They take ids, call games.services (never the reverse: the services
queue them by name) and are safe to run twice (the scans re-check everything under the game's row
lock)."""

from __future__ import annotations

import time

from celery import shared_task

from games.results import record_result
from games.services import scans
from handsite.services import task_queue
from handsite.tasks import SCAN_TIME_LIMITS, TIME_LIMITS, QueuedAfterCommit

SCAN_BUDGET = 40
"""Seconds a scan starts new batches for (under the soft time limit; the next beat goes on)."""


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def scan_reminders() -> int:
    """Beat, every minute: plan every game whose ``next_reminder_at`` has come (indexed scan), a batch
    (scans.REMINDER_BATCH games, one transaction) at a time."""
    done, stop = 0, time.monotonic() + SCAN_BUDGET
    while True:
        planned = scans.plan_reminders()
        done += len(planned)
        if len(planned) < scans.REMINDER_BATCH or time.monotonic() > stop:
            return done


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def scan_deadlines() -> int:
    """Beat, every minute: apply the timeout rule of every game whose deadline has passed, a batch
    (scans.DEADLINE_BATCH games, one transaction) at a time."""
    done, stop = 0, time.monotonic() + SCAN_BUDGET
    while True:
        changed = scans.expire_due()
        done += len(changed)
        if len(changed) < scans.DEADLINE_BATCH or time.monotonic() > stop:
            return done


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def record_online_result(game_id: int, queued_task_id: int | None = None) -> bool:
    """A deal (or the game) ended: store the game's result for the group's standings and ratings. The
    move recorded this task (``queued_task_id``, handsite.services.task_queue.run_after_commit): done, it
    goes."""
    recorded = record_result(game_id)
    task_queue.task_done(queued_task_id)
    return recorded


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def scan_invitations() -> int:
    """Beat, every minute: free the seats whose invitation was not answered by its reply deadline
    (indexed scan), a batch (scans.INVITATION_BATCH seats, one transaction) at a time."""
    done, stop = 0, time.monotonic() + SCAN_BUDGET
    while True:
        freed = scans.expire_invitations()
        done += len(freed)
        if len(freed) < scans.INVITATION_BATCH or time.monotonic() > stop:
            return done
