"""Celery tasks of Web Push: they take ids and call handsite.push.services (safe to run twice)."""

from __future__ import annotations

from celery import shared_task

from handsite.push import services
from handsite.tasks import SCAN_TIME_LIMITS, TIME_LIMITS, QueuedAfterCommit

CHUNK = 25


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def send_pushes(delivery_ids: list[int]) -> dict:
    """Push a few deliveries, each at most once (services.send claims the row). Failures stay pending
    with a backoff; the minute's sweep retries them."""
    outcomes: dict[str, int] = {}
    for delivery_id in delivery_ids:
        outcome = services.send(delivery_id)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def send_pending_pushes() -> dict:
    """Beat, every minute: rows a dead worker left go back; what is due (held, retried) is queued."""
    released = services.release_stuck()
    due = services.due_ids(limit=5000)
    for start in range(0, len(due), CHUNK):
        send_pushes.delay(due[start : start + CHUNK])
    return {"released": released, "queued": len(due)}
