"""Background scoring: the group's ratings replayed from the oldest game an edit, deletion or late
result changed (queued by name on commit by scoring.services.ratings), and the full recompute from the
raw facts (after a rule correction, or by hand). Both take a group id and are idempotent. The tasks
call the services; the services never import this module."""

from __future__ import annotations

from celery import shared_task

from handsite.tasks import TIME_LIMITS, QueuedAfterCommit
from scoring.services import ratings, sheets


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def refresh_group_ratings(group_id: int) -> int:
    return ratings.refresh_ratings(group_id)


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def recompute_group_ratings(group_id: int) -> int:
    return len(ratings.recompute_ratings(group_id))


@shared_task(ignore_result=True, **TIME_LIMITS)
def purge_deleted_sheets() -> int:
    """Daily (CELERY_BEAT_SCHEDULE): sheets deleted after the kept days go for good."""
    return sheets.purge_deleted_sheets()
