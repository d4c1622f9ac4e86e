"""The notification outbox, the writing side: every notification is a
:class:`~handsite.models.Notification` row, written by :func:`notify` (or :func:`notify_many` for a scan's
batch) in the caller's transaction (a move's, for "your turn"); its sending task is queued after the
commit (:mod:`handsite.services.delivery` sends it). Also: marking rows read, the admin's "send again",
purging old rows and the daily digests."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.utils import timezone

from handsite import bulk, notifications
from handsite.models import Notification, NotificationKind, NotificationPreference, NotificationState
from handsite.services.task_queue import queue_after_commit


def notify(
    *,
    recipient,
    kind: str,
    key: str | None = None,
    topic: str = "",
    subject: str = "",
    body: str = "",
    link: str = "",
    data: dict | None = None,
    send_after: datetime.datetime | None = None,
    now: datetime.datetime | None = None,
) -> Notification | None:
    """Write a notification for ``recipient`` (a user or a user id) in the caller's transaction and
    queue its sending after the commit. ``key`` makes it exactly-once: a second write with the same key
    adds nothing and returns None. ``kind`` is registered by the app (notifications.register) with how
    it is described and e-mailed; without a renderer the row's ``subject``/``body``/``link`` are used.
    ONE query (an INSERT in a savepoint)."""
    now = now or timezone.now()
    user_id = getattr(recipient, "pk", recipient)
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                user_id=user_id,
                kind=kind,
                key=key,
                topic=topic,
                subject=subject[:200],
                body=body,
                link=link,
                data=data or {},
                send_after=send_after or now,
                created_at=now,
            )
    except IntegrityError:
        return None
    if not notifications.kind_of(kind).swept:
        queue_sending(notification.pk)
    return notification


def queue_sending(notification_id: int) -> None:
    queue_after_commit("handsite.tasks.send_notification", notification_id)


SEND_CHUNK = 25
"""Notifications one sending task delivers when a scan writes many (one broker message per chunk)."""


class _NotificationInsert:
    """The INSERT of :func:`notify_many` for one database: its SQL built once per process and number of
    rows (up to :data:`INSERT_ROWS_BUILT`), each row's values prepared straight from its dict as
    ``Notification(...)``'s fields would give them (``pre_save`` then ``get_db_prep_save``; the columns
    a row does not name get their field's default, a constant prepared once), with no model instance:
    building one per row, and the column types of the ``VALUES`` list at every call, were most of a
    move's "your turn" row (the ORM's instances give the same parameters: tested)."""

    _built: dict[tuple, _NotificationInsert] = {}

    NAMED = (
        "state",
        "user_id",
        "kind",
        "key",
        "topic",
        "subject",
        "body",
        "link",
        "data",
        "send_after",
        "created_at",
    )
    """The columns a row's dict (or the write itself: state, created_at) gives."""

    @classmethod
    def of(cls, db) -> _NotificationInsert:
        key = (db.alias, db.vendor)
        if key not in cls._built:
            cls._built[key] = cls(db)
        return cls._built[key]

    def __init__(self, db) -> None:
        fields = [f for f in Notification._meta.concrete_fields if not f.primary_key]
        # [(attname, its get_db_prep_save, whether the row gives the value, else the default prepared once)]
        self.columns = []
        for f in fields:
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                raise TypeError(f"{f}: pre_save would set it (write it through the ORM)")
            if f.attname in self.NAMED:
                self.columns.append((f.attname, f.get_db_prep_save, True, None))
            elif f.has_default() and callable(f.default):
                raise TypeError(f"{f}: a default made at each save (name it in NAMED)")
            else:
                self.columns.append((f.attname, f, False, f.get_db_prep_save(f.get_default(), db)))
        qn = db.ops.quote_name
        source, _params = bulk.rows(fields, [[None] * len(fields)])  # the default database's
        self.row = source.removeprefix("VALUES ")
        names = ", ".join(qn(f.column) for f in fields)
        self.head = f"INSERT INTO {qn(Notification._meta.db_table)} ({names}) VALUES "
        self.tail = f" ON CONFLICT DO NOTHING RETURNING {qn('id')}, {qn('state')}, {qn('kind')}"
        self._sql: dict[int, str] = {}

    def sql(self, count: int) -> str:
        sql = self._sql.get(count)
        if sql is None:
            sql = self.head + ", ".join([self.row] * count) + self.tail
            if count <= INSERT_ROWS_BUILT:
                self._sql[count] = sql
        return sql

    def values(self, row: dict, *, state: str, now, db) -> list:
        given = {
            "state": state,
            "user_id": row["recipient"],
            "kind": row["kind"],
            "key": row["key"],
            "topic": row.get("topic", ""),
            "subject": row.get("subject", "")[:200],
            "body": row.get("body", ""),
            "link": row.get("link", ""),
            "data": row.get("data") or {},
            "send_after": row.get("send_after") or now,
            "created_at": now,
        }
        return [prep(given[name], db) if named else constant for name, prep, named, constant in self.columns]


INSERT_ROWS_BUILT = 16
"""Up to this many rows, :func:`notify_many`'s INSERT text is kept per number of rows (a move writes one;
a scan's batches, more, are built at each call from the row's text kept once)."""


def notify_many(rows: list[dict], *, now: datetime.datetime | None = None) -> list[int]:
    """:func:`notify` for many rows at once (a scan's batch): ONE query whatever their number, rows
    whose ``key`` exists already skipped (exactly-once as with notify). Each row has ``recipient`` (a
    user id), ``kind``, ``key`` and optionally ``topic``, ``subject``, ``body``, ``link``, ``data``,
    ``send_after``. Queues the sending after the commit, SEND_CHUNK rows per task. Returns the new ids.
    Rows of a kind registered as in-site only (``notifications.EMAIL_NEVER``) are written as not
    e-mailed and queue nothing; rows of a swept kind (``Kind.swept``) wait for the minute's sweep."""
    if not rows:
        return []
    now = now or timezone.now()
    never = {
        row["kind"] for row in rows if notifications.kind_of(row["kind"]).email == notifications.EMAIL_NEVER
    }
    db = connections[DEFAULT_DB_ALIAS]
    insert = _NotificationInsert.of(db)
    params = []
    for row in rows:
        params += insert.values(
            row,
            state=NotificationState.SKIPPED if row["kind"] in never else NotificationState.PENDING,
            now=now,
            db=db,
        )
    with db.cursor() as cursor:
        cursor.execute(insert.sql(len(rows)), params)
        found = cursor.fetchall()
    ids = [row_id for row_id, _state, _kind in found]
    queued = [
        row_id
        for row_id, state, kind in found
        if state == NotificationState.PENDING and not notifications.kind_of(kind).swept
    ]
    if queued:
        for start in range(0, len(queued), SEND_CHUNK):
            queue_after_commit("handsite.tasks.send_notifications", queued[start : start + SEND_CHUNK])
    return ids


def mark_read(
    user,
    notification_id: int | None = None,
    *,
    topic: str | None = None,
    kind: str | None = None,
    but_kind: str | None = None,
) -> int:
    """Mark one notification of ``user`` read, or all about ``topic`` (of ``kind`` only, or all but
    ``but_kind``, if given), or (none of these) all of them."""
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_id is not None:
        rows = rows.filter(pk=notification_id)
    if topic is not None:
        rows = rows.filter(topic=topic)
    if kind is not None:
        rows = rows.filter(kind=kind)
    if but_kind is not None:
        rows = rows.exclude(kind=but_kind)
    return rows.update(read_at=timezone.now())


def mark_read_by_keys(keys: list[str]) -> int:
    """Mark the notifications with these exactly-once keys read, whoever they are for (what they told
    is gone: e.g. a chat message was deleted)."""
    if not keys:
        return 0
    return Notification.objects.filter(key__in=keys, read_at__isnull=True).update(read_at=timezone.now())


# --- Sending again, purging, digests --------------------------------------------------------------


def purge_old_notifications(*, now: datetime.datetime | None = None) -> int:
    """Delete the notifications e-mailed (or never to be e-mailed) more than
    HANDSITE_NOTIFICATION_RETENTION_DAYS ago: the outbox and the in-site list would otherwise only grow.
    Rows still waiting, being sent or failed stay (the operator sees failures in the admin)."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=settings.HANDSITE_NOTIFICATION_RETENTION_DAYS)
    deleted, _detail = Notification.objects.filter(
        state__in=[NotificationState.SENT, NotificationState.SKIPPED], created_at__lt=cutoff
    ).delete()
    return deleted


def send_again(notification_ids: list[int]) -> int:
    """The admin's "send again": the chosen notifications that failed, were sent or were skipped go
    back to the outbox as pending, due now, and are queued after the commit (a kind that is no longer
    current is still skipped by ``deliver``). Rows waiting or being sent are left alone. Returns how
    many were put back."""
    rows = Notification.objects.filter(
        pk__in=notification_ids,
        state__in=[NotificationState.FAILED, NotificationState.SENT, NotificationState.SKIPPED],
    )
    ids = list(rows.values_list("pk", flat=True))
    Notification.objects.filter(pk__in=ids).update(
        state=NotificationState.PENDING, send_after=timezone.now(), claimed_at=None, sent_at=None
    )
    if ids:
        for start in range(0, len(ids), SEND_CHUNK):
            queue_after_commit("handsite.tasks.send_notifications", ids[start : start + SEND_CHUNK])
    return len(ids)


def make_digests(now: datetime.datetime | None = None) -> list[int]:
    """One digest row per person with the digest on, once per local day, when something waits for
    them (the apps' digest sections say). Returns the new rows' ids (sending queued after the commit)."""
    now = now or timezone.now()
    made = []
    prefs = NotificationPreference.objects.filter(daily_digest=True, user__is_active=True)
    for pref in prefs.iterator():
        day = notifications.digest_due(pref, now)
        if day is None:
            continue
        key = notifications.digest_key(pref.user_id, day)
        if Notification.objects.filter(key=key).exists() or not notifications.digest_waiting(pref.user_id):
            continue
        notification = notify(
            recipient=pref.user_id,
            kind=NotificationKind.DIGEST,
            key=key,
            data={"day": day.isoformat()},
            send_after=now,
            now=now,
        )
        if notification is not None:
            made.append(notification.pk)
    return made
