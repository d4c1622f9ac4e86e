"""Background scoring: the group's ratings replayed from the oldest game an edit, deletion or late
result changed (queued on commit by scoring.services), and the full recompute from the raw facts
(after a rule correction, or by hand). Both take a group id and are idempotent."""

from __future__ import annotations

from celery import shared_task

from handsite.tasks import TIME_LIMITS, QueuedAfterCommit
from scoring import services


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def refresh_group_ratings(group_id: int) -> int:
    return services.refresh_ratings(group_id)


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def recompute_group_ratings(group_id: int) -> int:
    return len(services.recompute_ratings(group_id))


@shared_task(ignore_result=True, **TIME_LIMITS)
def purge_deleted_sheets() -> int:
    """Daily (CELERY_BEAT_SCHEDULE): sheets deleted more than 30 days ago go for good."""
    return services.purge_deleted_sheets()
