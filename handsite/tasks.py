"""Celery tasks of the site. Tasks take ids and call services or send mail; they are safe to run twice."""

from __future__ import annotations

from celery import shared_task
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import timezone, translation

from handsite import services
from handsite.links import absolute_url
from handsite.models import Invitation


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
    with translation.override(translation.get_language() or "en"):
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
