"""The notification outbox, the sending side. After the commit a Celery task
(``handsite.tasks.send_notification``) calls :func:`deliver`; a beat task every minute calls
:func:`queue_pending` for anything still pending (broker down, worker crashed, held e-mails now due).
:func:`deliver` claims the row with a conditional UPDATE (pending -> sending) and only the one call that
changed the row sends, so a retried or duplicated task, or two workers, send one e-mail."""

from __future__ import annotations

import datetime
import logging
from email.header import Header

from django.core.mail import EmailMultiAlternatives
from django.db.models import F
from django.utils import timezone

from handsite import notification_prefs, notifications
from handsite.models import Notification, NotificationState
from handsite.push.services import hand_over
from handsite.services import claims, outbox
from handsite.services.task_queue import queue_now

log = logging.getLogger(__name__)


class PreparedHeader(str):
    """A header value written to the message as it is given: plain ASCII, already folded if at all. The
    e-mail package's own folding has two faults mail clients see: a long value without spaces (the
    unsubscribe URL) becomes RFC 2047 encoded words, which no client reads as a ``List-Unsubscribe``
    URL; and an encoded Arabic subject may be folded at a space, which is then outside any encoded word
    and dropped by the reader ("في بيت" read "فيبيت"). A value with ``name`` and ``fold`` is kept as
    it is by the policy (email.policy.EmailPolicy.header_store_parse)."""

    def __new__(cls, name: str, value: str):
        lines = value.split("\r\n")
        if not value.isascii() or "\n" in value.replace("\r\n", "") or any(len(line) > 900 for line in lines):
            raise ValueError(f"{name}: not a prepared ASCII header value")
        header = super().__new__(cls, value)
        header.name = name
        return header

    @classmethod
    def encoded(cls, name: str, text: str) -> PreparedHeader:
        """``text`` as RFC 2047 encoded words whose every space is inside a word (email.header's
        encoder, which folds between words it encoded whole)."""
        return cls(name, Header(text, "utf-8", header_name=name).encode(linesep="\r\n"))

    def __getnewargs__(self):  # copied (the test backend's outbox) and pickled as it was made
        return (self.name, str(self))

    def fold(self, *, policy) -> str:
        return f"{self.name}: {self.replace(chr(13) + chr(10), policy.linesep)}{policy.linesep}"


class NotificationMail(EmailMultiAlternatives):
    """A notification's e-mail, with a subject in another script encoded so that no space is lost."""

    def message(self, **kwargs):
        message = super().message(**kwargs)
        if not str(self.subject).isascii():
            message.replace_header("Subject", PreparedHeader.encoded("Subject", str(self.subject)))
        return message


def claim(notification_id: int, now: datetime.datetime) -> bool:
    """Pending -> sending, only if still pending and due. True for exactly one caller."""
    return claims.claim(Notification, notification_id, now)


def _claim_batch(notification: Notification, now: datetime.datetime) -> list[Notification]:
    """The same person's other pending rows (due or held) of a batched kind, or of any kind of its
    bundle (notifications.bundle_kinds), claimed too."""
    waiting = Notification.objects.filter(
        user_id=notification.user_id,
        kind__in=notifications.bundle_kinds(notification.kind),
        state=NotificationState.PENDING,
    ).exclude(pk=notification.pk)
    claimed = []
    for other_id in waiting.values_list("pk", flat=True)[:50]:
        if claims.claim(Notification, other_id, now, due=False):
            claimed.append(other_id)
    return list(
        Notification.objects.filter(pk__in=claimed).select_related("user").order_by("created_at", "pk")
    )


def _finish(notification_ids, state: str, **fields) -> None:
    claims.finish(Notification, notification_ids, state, **fields)


def _unread_email_about(notification: Notification) -> bool:
    return (
        Notification.objects.filter(
            user_id=notification.user_id,
            topic=notification.topic,
            kind=notification.kind,
            state=NotificationState.SENT,
            read_at__isnull=True,
        )
        .exclude(pk=notification.pk)
        .exists()
    )


def _worth_sending(
    rows: list[Notification], pref, now: datetime.datetime
) -> tuple[list[Notification], list[Notification], list[Notification]]:
    """Split claimed rows into (to send, to skip, to keep waiting). Skipped: read on the site already,
    not wanted by e-mail, out of date, or an e-mail about the same topic is still unread. Waiting: a
    row the person's presence (or vacation) still holds (the first row was checked by the caller)."""
    keep, skip, later = [], [], []
    fresh = set(
        Notification.objects.filter(pk__in=[row.pk for row in rows], read_at__isnull=True).values_list(
            "pk", flat=True
        )
    )  # read now, not when claimed: a row read a moment ago is not sent
    for row in rows:
        kind = notifications.kind_of(row.kind)
        if row.pk not in fresh or not notifications.wants_email(pref, row.kind):
            skip.append(row)
            continue
        current = kind.still_current(row) if kind.still_current else True
        if not current or (kind.one_unread_email_per_topic and row.topic and _unread_email_about(row)):
            skip.append(row)
        elif notifications.held_until(row, pref, now) is not None:
            later.append(row)
        else:
            keep.append(row)
    return keep, skip, later


def deliver(notification_id: int, now: datetime.datetime | None = None) -> str:
    """Send one notification's e-mail if it is (still) wanted, with the same person's other waiting
    rows of a batched kind in the same e-mail. Returns what happened: "sent", "skipped" (not wanted,
    out of date, or an e-mail about it is unread), "waiting" (quiet hours, vacation, or the person is
    on the site), "retry" (sending failed; it stays pending for the beat task), "failed" (gave up) or
    "not_claimed" (someone else has it, or done)."""
    now = now or timezone.now()
    if not claim(notification_id, now):
        return "not_claimed"
    notification = Notification.objects.select_related("user").get(pk=notification_id)
    pref = notification_prefs.preference_of(notification.user_id)
    user = notification.user
    # Web Push: a delivery row per device of the person; False when they chose push only (or neither).
    if not hand_over(notification, pref, now):
        _finish(notification_id, NotificationState.SKIPPED)
        return "skipped"
    if not user.is_active or not user.email or not notifications.wants_email(pref, notification.kind):
        _finish(notification_id, NotificationState.SKIPPED)
        return "skipped"
    later = notifications.held_until(notification, pref, now) or notification_prefs.quiet_until(pref, now)
    if later is not None:
        _finish(notification_id, NotificationState.PENDING, send_after=later, attempts=F("attempts") - 1)
        return "waiting"
    rows = [notification]
    if notifications.bundle_kinds(notification.kind):
        batch = _claim_batch(notification, now)
        # Each row the e-mail takes is handed over too (its push deliveries); push only: not e-mailed.
        push_only = [row.pk for row in batch if not hand_over(row, pref, now)]
        if push_only:
            _finish(push_only, NotificationState.SKIPPED)
        rows += [row for row in batch if row.pk not in push_only]
    rows, stale, held = _worth_sending(rows, pref, now)
    if stale:
        _finish(
            [row.pk for row in stale], NotificationState.SKIPPED, last_error="read, out of date or unread"
        )
    if held:
        _finish([row.pk for row in held], NotificationState.PENDING, attempts=F("attempts") - 1)
    if not rows:
        return "skipped"
    others = [row.pk for row in rows if row.pk != notification_id]
    try:
        email = notifications.render_email(rows, pref, now)
        if email is None:
            _finish([row.pk for row in rows], NotificationState.SKIPPED, last_error="nothing to say")
            return "skipped"
        message = NotificationMail(email.subject, email.text, email.from_email, [email.to])
        message.attach_alternative(email.html, "text/html")
        message.extra_headers = {
            "List-Unsubscribe": PreparedHeader("List-Unsubscribe", f"<{email.unsubscribe}>"),
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
        message.send()
    except Exception as error:  # SMTP and template errors alike: keep the row, try again later
        log.warning("notification %s: sending failed: %s", notification_id, error)
        _finish(others, NotificationState.PENDING, attempts=F("attempts") - 1)
        if notification_id not in [row.pk for row in rows]:
            return "retry"
        if notification.attempts >= notifications.MAX_ATTEMPTS:
            _finish(notification_id, NotificationState.FAILED, last_error=str(error)[:300])
            return "failed"
        backoff = datetime.timedelta(minutes=2**notification.attempts)
        _finish(
            notification_id, NotificationState.PENDING, send_after=now + backoff, last_error=str(error)[:300]
        )
        return "retry"
    _finish([row.pk for row in rows], NotificationState.SENT, sent_at=timezone.now(), last_error="")
    return "sent" if notification_id in [row.pk for row in rows] else "skipped"


def due_ids(now: datetime.datetime | None = None, limit: int = 500) -> list[int]:
    """Pending rows that may be sent now (the partial index on send_after WHERE state='pending')."""
    return claims.due_ids(Notification, now or timezone.now(), limit)


def release_stuck(now: datetime.datetime | None = None) -> int:
    """Rows left in ``sending`` by a worker that died go back to pending (at-least-once for that rare
    case: the e-mail may have left before the crash)."""
    return claims.release_stuck(Notification, now or timezone.now(), notifications.STUCK_AFTER)


PENDING_QUEUE_LIMIT = 20_000
"""Due rows one sweep queues at most (25 to a task: 800 small messages); the rest wait a minute."""


def queue_pending(now: datetime.datetime | None = None, limit: int = PENDING_QUEUE_LIMIT) -> dict[str, int]:
    """What the beat task does every minute: release rows a dead worker left in ``sending``, then queue
    every due pending row (turn e-mails, retries, held e-mails now due), ``outbox.SEND_CHUNK`` rows per
    task on the ``mail`` queue, so the mail workers send them side by side (a deadline scan's thousands
    of turn e-mails included). ONE query for the due rows. A row queued twice (a slow minute) is sent once:
    :func:`deliver` claims it."""
    now = now or timezone.now()
    released = release_stuck(now)
    due = list(
        Notification.objects.filter(state=NotificationState.PENDING, send_after__lte=now)
        .order_by("send_after")
        .values_list("pk", "user_id")[:limit]
    )
    for chunk in chunks_by_person(due, outbox.SEND_CHUNK):
        queue_now("handsite.tasks.send_notifications", chunk)
    return {"released": released, "queued": len(due)}


def chunks_by_person(due: list[tuple[int, int]], size: int) -> list[list[int]]:
    """The due rows' ids ((id, person) pairs, most overdue first) in chunks of about ``size``, every
    person's rows in one chunk: one task delivers them one after the other, so the first claims the
    person's others into its e-mail and two mail workers never send one person two e-mails in a sweep."""
    people: dict[int, list[int]] = {}
    for pk, user_id in due:
        people.setdefault(user_id, []).append(pk)
    chunks: list[list[int]] = [[]]
    for ids in people.values():
        if chunks[-1] and len(chunks[-1]) + len(ids) > size:
            chunks.append([])
        chunks[-1].extend(ids)
    return [chunk for chunk in chunks if chunk]


def deliver_pending(now: datetime.datetime | None = None, limit: int = 500) -> dict[str, int]:
    """Send what is pending and due in this process, one by one (tests, and a shell when the broker is
    away): the beat task queues them instead (:func:`queue_pending`)."""
    now = now or timezone.now()
    outcomes: dict[str, int] = {"released": release_stuck(now)}
    for notification_id in due_ids(now, limit):
        outcome = deliver(notification_id, now)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
