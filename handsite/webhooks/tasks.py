"""Celery tasks of group chat pings: they take ids and call handsite.webhooks.services."""

from __future__ import annotations

from celery import shared_task

from handsite.tasks import SCAN_TIME_LIMITS, TIME_LIMITS, QueuedAfterCommit
from handsite.webhooks import services


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def send_ping(ping_id: int) -> str:
    """Post one ping (at most once: services.send claims it); a failure waits for the sweep's retry."""
    return services.send(ping_id)


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def send_pending_pings() -> dict:
    """Beat, every minute: queue the pings that are due (retries with backoff)."""
    due = services.due_ids(limit=2000)
    for ping_id in due:
        send_ping.delay(ping_id)
    return {"queued": len(due)}
