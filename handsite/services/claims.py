"""An outbox row's life, the same for every outbox of the site (notifications, e-mails, push deliveries,
webhook pings). A row waits ``pending`` until its ``send_after``; a worker claims it with one conditional
UPDATE (pending -> sending, counting the attempt), so that of two workers, or a task run twice, exactly
one sends it; the worker then moves it on from ``sending`` (sent, failed, or pending again for a retry).
A row left ``sending`` by a worker that died is released after a while.

Every outbox model has the fields ``state``, ``send_after``, ``claimed_at`` and ``attempts``, and its
states include ``pending`` and ``sending``."""

from __future__ import annotations

import datetime

from django.db.models import F

PENDING = "pending"
SENDING = "sending"


def claim(model, pk: int, now: datetime.datetime, *, due: bool = True) -> bool:
    """Pending -> sending for the row ``pk`` of ``model`` if it is still pending (and, with ``due``, due
    at ``now``), its attempt counted. True for exactly one caller."""
    rows = model.objects.filter(pk=pk, state=PENDING)
    if due:
        rows = rows.filter(send_after__lte=now)
    return rows.update(state=SENDING, claimed_at=now, attempts=F("attempts") + 1) == 1


def finish(model, pks: int | list[int], state: str, **fields) -> int:
    """The claimed rows (one id, or several) leave ``sending`` for ``state`` with ``fields`` set; a row
    that is no longer ``sending`` (released meanwhile) is left alone. Returns how many changed."""
    ids = [pks] if isinstance(pks, int) else list(pks)
    return model.objects.filter(pk__in=ids, state=SENDING).update(state=state, **fields)


def release_stuck(model, now: datetime.datetime, stuck_after: datetime.timedelta) -> int:
    """Rows left ``sending`` longer than ``stuck_after`` (their worker died) are pending again, due now
    (at least once for that rare case: the message may have left before the crash)."""
    return model.objects.filter(state=SENDING, claimed_at__lt=now - stuck_after).update(
        state=PENDING, send_after=now
    )


def due_ids(model, now: datetime.datetime, limit: int) -> list[int]:
    """Pending rows due at ``now``, most overdue first (each outbox's partial index on ``send_after``)."""
    return list(
        model.objects.filter(state=PENDING, send_after__lte=now)
        .order_by("send_after")
        .values_list("pk", flat=True)[:limit]
    )
