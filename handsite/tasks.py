"""Celery tasks of the site. Tasks take ids and call handsite.services (the one writer); they are safe to
run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.contrib.django.task import DjangoTask
from django.core.management import call_command

from handsite.services import delivery, email_outbox, invitations, outbox, task_queue

log = logging.getLogger(__name__)


class QueuedAfterCommit(DjangoTask):
    """A task queued from a web request after the commit (``delay_on_commit``). If the broker is
    down the request must not fail: the work is already recorded in the database (an outbox row, a
    game), and a beat task picks it up. So a failed publish is logged, not raised, and retried only
    briefly (a stopped Redis must not hold the request)."""

    publish_retry_policy = {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}

    def apply_async(self, args=None, kwargs=None, **options):
        if self.app.conf.task_always_eager:
            return super().apply_async(args, kwargs, **options)
        options.setdefault("retry_policy", self.publish_retry_policy)
        try:
            return super().apply_async(args, kwargs, **options)
        except Exception:
            log.warning("could not queue %s%s; the beat scan will pick it up", self.name, args, exc_info=True)
            return None


TIME_LIMITS = {"soft_time_limit": 50, "time_limit": 60}
SCAN_TIME_LIMITS = {"soft_time_limit": 50, "time_limit": 58}  # shorter than the beat period


@shared_task
def ping() -> str:
    """Answers "pong": used to check that a worker is consuming the queue."""
    return "pong"


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def send_invitation_email(invitation_id: int) -> bool:
    """Put an e-mail invitation's e-mail in the outbox if it is not there yet (``Invitation.sent_at``
    empty); ``invitations.invite_by_email`` puts it there itself. Returns whether it was queued now."""
    return invitations.queue_invitation_email(invitation_id)


# --- The e-mail outbox ------------------------------------------------------------------------


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def send_email(email_id: int) -> str:
    """Send one outbox e-mail (an account e-mail, an invitation) at most once: email_outbox.send_email
    claims the row; a failure leaves it pending with its error for a later sweep."""
    return email_outbox.send_email(email_id)


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def send_pending_emails() -> int:
    """Beat, every minute: queue the outbox's due e-mails (the broker was away at the commit, a retry
    is due, a worker died). Returns how many were queued."""
    queued = email_outbox.queue_pending_emails()
    if queued:
        log.info("outbox sweep: %s e-mails queued", queued)
    return queued


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def scan_queued_tasks() -> int:
    """Beat, every minute: queue again the recorded tasks that were not done (their message was never
    sent or got lost: a game's result for the standings while Redis was down)."""
    return task_queue.requeue_tasks()


@shared_task
def purge_stale_invitations() -> int:
    return invitations.purge_stale_invitations()


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def purge_expired_sessions() -> None:
    """Delete expired sessions (Django's ``clearsessions``): the session table only grows otherwise."""
    call_command("clearsessions")


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def purge_old_notifications() -> int:
    """Delete notifications sent more than HANDSITE_NOTIFICATION_RETENTION_DAYS ago."""
    deleted = outbox.purge_old_notifications()
    log.info("deleted %d notifications past their retention", deleted)
    return deleted


# --- Notifications --------------------------------------------------------------------------------


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def send_notification(notification_id: int) -> str:
    """Send one notification's e-mail (at most once: delivery.deliver claims the row)."""
    return delivery.deliver(notification_id)


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def send_notifications(notification_ids: list[int]) -> dict:
    """Send a few notifications' e-mails (outbox.notify_many queues a scan's rows this way), each at
    most once as with send_notification. Returns the count of each outcome."""
    outcomes: dict[str, int] = {}
    for notification_id in notification_ids:
        outcome = delivery.deliver(notification_id)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def send_pending_notifications() -> dict:
    """Beat, every minute: queues whatever is pending and due (turn e-mails, which no request queues; the
    broker was down, a worker died, quiet hours ended, a retry is due) to the mail workers."""
    return delivery.queue_pending()


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def make_daily_digests() -> int:
    """Beat, every 15 minutes: the digests whose local hour has come (sent through the outbox)."""
    return len(outbox.make_digests())
