"""The e-mail outbox: every e-mail that is not a notification (account e-mails, group invitations, error
reports) is an :class:`~handsite.models.OutgoingEmail` row written in the caller's transaction; a worker
sends it after the commit (``handsite.tasks.send_email``) and the beat sweep queues whatever is still due.
A row is claimed with a conditional UPDATE, so a repeated task sends it once."""

from __future__ import annotations

import datetime
import logging

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import transaction
from django.utils import timezone

from handsite.models import EmailState, OutgoingEmail
from handsite.services import claims
from handsite.services.task_queue import queue_after_commit, queue_now

log = logging.getLogger(__name__)


EMAIL_MAX_ATTEMPTS = 6
"""A send that failed this many times is marked failed (retried after 2, 4, 8, 16, 32 minutes)."""
EMAIL_STUCK_AFTER = datetime.timedelta(minutes=10)
"""A row left ``sending`` this long belongs to a worker that died (well past the task's time limit)."""


def queue_email(message: EmailMessage, *, purpose: str) -> list[OutgoingEmail]:
    """Put ``message`` (Django's, rendered: subject, text, an HTML alternative, headers) in the outbox,
    one row per recipient, in the caller's transaction; a worker sends each after the commit. Nothing
    here touches the mail server."""
    html = next(
        (content for content, mimetype in getattr(message, "alternatives", []) if mimetype == "text/html"), ""
    )
    now = timezone.now()
    rows = []
    with transaction.atomic():
        for address in [*message.to, *message.cc, *message.bcc]:
            rows.append(
                OutgoingEmail.objects.create(
                    to=address,
                    from_email=message.from_email or settings.DEFAULT_FROM_EMAIL,
                    subject=str(message.subject)[:400],
                    body=str(message.body),
                    html=str(html),
                    headers={str(k): str(v) for k, v in (message.extra_headers or {}).items()},
                    purpose=purpose[:80],
                    send_after=now,
                    created_at=now,
                )
            )
    for row in rows:
        queue_after_commit("handsite.tasks.send_email", row.pk)
        log.info("e-mail %s (%s) to %s queued", row.pk, purpose, address_for_log(row.to))
    return rows


def address_for_log(address: str) -> str:
    """An address as logs show it: the domain whole, the name's first letter (logs are read by more
    people than should know every player's address)."""
    name, _at, domain = address.rpartition("@")
    return f"{name[:1]}…@{domain}" if name else "…"


def _outgoing_message(row: OutgoingEmail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        row.subject, row.body, row.from_email, [row.to], headers=row.headers or None
    )
    if row.html:
        message.attach_alternative(row.html, "text/html")
    return message


def send_emails_again(email_ids: list[int]) -> int:
    """The admin's "send again" for the e-mail outbox: the chosen e-mails that failed go back to
    pending, due now, with their attempts counted afresh, and are queued after the commit. E-mails sent
    or waiting are left alone (an account e-mail sent twice would confuse). Returns how many."""
    ids = list(
        OutgoingEmail.objects.filter(pk__in=email_ids, state=EmailState.FAILED).values_list("pk", flat=True)
    )
    OutgoingEmail.objects.filter(pk__in=ids).update(
        state=EmailState.PENDING, send_after=timezone.now(), attempts=0, claimed_at=None
    )
    for email_id in ids:
        queue_after_commit("handsite.tasks.send_email", email_id)
    return len(ids)


def send_email(email_id: int, now: datetime.datetime | None = None) -> str:
    """Send one outbox e-mail if it is pending and due. Returns "sent", "retry" (the mail server
    failed: pending again, with the error and a later ``send_after``), "failed" (the last attempt
    failed) or "not_claimed" (sent already, another worker has it, or not due)."""
    now = now or timezone.now()
    if not claims.claim(OutgoingEmail, email_id, now):
        return "not_claimed"
    row = OutgoingEmail.objects.get(pk=email_id)
    try:
        _outgoing_message(row).send()
    except Exception as error:  # refused, unreachable, timed out, TLS...: the row says why
        reason = f"{type(error).__name__}: {error}"[:300]
        if row.attempts >= EMAIL_MAX_ATTEMPTS:
            claims.finish(OutgoingEmail, email_id, EmailState.FAILED, last_error=reason)
            log.error(
                "e-mail %s (%s) failed for good after %s attempts: %s",
                row.pk,
                row.purpose,
                row.attempts,
                reason,
            )
            return "failed"
        retry_at = timezone.now() + datetime.timedelta(minutes=2**row.attempts)
        claims.finish(OutgoingEmail, email_id, EmailState.PENDING, send_after=retry_at, last_error=reason)
        log.warning(
            "e-mail %s (%s) not sent (attempt %s), retried at %s: %s",
            row.pk,
            row.purpose,
            row.attempts,
            retry_at.isoformat(timespec="seconds"),
            reason,
        )
        return "retry"
    claims.finish(OutgoingEmail, email_id, EmailState.SENT, sent_at=timezone.now(), last_error="")
    log.info("e-mail %s (%s) sent to %s", row.pk, row.purpose, address_for_log(row.to))
    return "sent"


def pending_email_ids(now: datetime.datetime | None = None, limit: int = 500) -> list[int]:
    """The outbox's due rows, and rows a dead worker left ``sending`` put back first (the partial
    indexes on ``send_after`` and ``claimed_at``)."""
    now = now or timezone.now()
    released = claims.release_stuck(OutgoingEmail, now, EMAIL_STUCK_AFTER)
    if released:
        log.warning("%s e-mails left sending by a stopped worker are pending again", released)
    return claims.due_ids(OutgoingEmail, now, limit)


def queue_pending_emails(now: datetime.datetime | None = None) -> int:
    """The beat sweep, every minute: queue a sending task for each due outbox row (the broker was
    away at the commit, a retry is due, a worker died). A row queued twice is sent once. Returns how
    many were queued."""
    due = pending_email_ids(now)
    for email_id in due:
        queue_now("handsite.tasks.send_email", email_id)
    return len(due)
