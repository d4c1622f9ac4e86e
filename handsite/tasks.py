"""Celery tasks of the site. Tasks take ids and call services or send mail; they are safe to run twice."""

from __future__ import annotations

import logging

from celery import shared_task
from celery.contrib.django.task import DjangoTask
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import timezone, translation

from handsite import notifications, services
from handsite.i18n import language_for_address
from handsite.links import absolute_url
from handsite.models import Invitation

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


@shared_task(bind=True, max_retries=5, default_retry_delay=60)
def send_invitation_email(self, invitation_id: int) -> bool:
    """Send an e-mail invitation once. The row is claimed with a conditional update, so a repeated
    delivery of the task sends nothing. Returns whether an e-mail was sent."""
    claimed = Invitation.objects.filter(
        pk=invitation_id, sent_at__isnull=True, revoked_at__isnull=True
    ).update(sent_at=timezone.now())
    if not claimed:
        return False
    invitation = Invitation.objects.select_related("group", "created_by").get(pk=invitation_id)
    context = {
        "invitation": invitation,
        "group": invitation.group,
        "inviter": invitation.created_by,
        "link": absolute_url(invitation.get_absolute_url()),
    }
    # The invited person's language if they have an account, else the inviter's.
    with translation.override(language_for_address(invitation.email, invitation.created_by)):
        subject = render_to_string("handsite/email/invitation_subject.txt", context).strip()
        body = render_to_string("handsite/email/invitation_body.txt", context)
    try:
        send_mail(subject, body, None, [invitation.email])
    except OSError as exc:
        Invitation.objects.filter(pk=invitation_id).update(sent_at=None)
        raise self.retry(exc=exc) from exc
    return True


@shared_task
def purge_stale_invitations() -> int:
    return services.purge_stale_invitations()


# --- Notifications --------------------------------------------------------------------------------


@shared_task(base=QueuedAfterCommit, ignore_result=True, **TIME_LIMITS)
def send_notification(notification_id: int) -> str:
    """Send one notification's e-mail (at most once: notifications.deliver claims the row)."""
    return notifications.deliver(notification_id)


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def send_pending_notifications() -> dict:
    """Beat, every minute: whatever is still pending and due (broker was down, a worker died, quiet
    hours ended, a retry is due)."""
    return notifications.deliver_pending()


@shared_task(ignore_result=True, **SCAN_TIME_LIMITS)
def make_daily_digests() -> int:
    """Beat, every 15 minutes: the digests whose local hour has come (sent through the outbox)."""
    return len(notifications.make_digests())
