"""Celery tasks of online play. They take ids, call games.deadlines / services and are safe to run
twice (the scans re-check everything under the game's row lock)."""

from __future__ import annotations

from celery import shared_task

from games import deadlines
from handsite.tasks import SCAN_TIME_LIMITS, TIME_LIMITS, QueuedAfterCommit


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def scan_reminders() -> int:
    """Beat, every minute: plan every game whose ``next_reminder_at`` has come (indexed scan)."""
    due = deadlines.due_reminders()
    for game_id in due:
        deadlines.plan(game_id)
    return len(due)


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def scan_deadlines() -> int:
    """Beat, every minute: apply the timeout rule of every game whose deadline has passed."""
    due = deadlines.due_deadlines()
    for game_id in due:
        deadlines.expire(game_id)
    return len(due)


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def record_online_result(game_id: int) -> bool:
    """A deal (or the game) ended: store the game's result for the group's standings and ratings."""
    from games.results import record_result

    return record_result(game_id)
