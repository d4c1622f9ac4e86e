"""Background scoring: a group's ratings are recomputed from the raw facts (score sheets' deals and
online games' results) whenever a sheet's deal is saved, edited or deleted, or an online deal ends.
The task takes a group id and is idempotent (it rebuilds the group's rows from scratch)."""

from __future__ import annotations

from celery import shared_task
from django.dispatch import receiver

from handsite.tasks import TIME_LIMITS, QueuedAfterCommit
from scoring import services


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def recompute_group_ratings(group_id: int) -> int:
    return len(services.recompute_ratings(group_id))


@receiver(services.sheet_changed, dispatch_uid="scoring.tasks.sheet_changed")
def _sheet_changed(sender, sheet_id: int, group_id: int, **kwargs) -> None:
    # sheet_changed is sent after the commit already.
    recompute_group_ratings.delay(group_id)
