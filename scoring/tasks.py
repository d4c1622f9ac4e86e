"""Background scoring: a group's ratings are recomputed from the raw facts (score sheets' deals and
online games' results). scoring.services queues the task on commit after every change to a sheet.
The task takes a group id and is idempotent (it rebuilds the group's rows from scratch)."""

from __future__ import annotations

from celery import shared_task

from handsite.tasks import TIME_LIMITS, QueuedAfterCommit
from scoring import services


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def recompute_group_ratings(group_id: int) -> int:
    return len(services.recompute_ratings(group_id))
