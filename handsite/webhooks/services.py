"""Group chat pings, the writes: setting and removing a group's webhook, one ping per notification that
an app registered (exactly once: the ping's key), sending with retries, and turning the webhook off after
repeated failures with a note to the admin (an in-site notification, e-mailed by the outbox's sweep).

Never logs or stores the URL anywhere but its own column: errors are recorded as their class and HTTP
status only (a connection error's message names the URL)."""

from __future__ import annotations

import datetime as dt
import logging

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from handsite.i18n import language_of
from handsite.links import absolute_url
from handsite.models import Membership, Notification, Role
from handsite.services import claims
from handsite.services.task_queue import queue_after_commit
from handsite.webhooks import messages
from handsite.webhooks.models import GroupWebhook, PingState, WebhookKind, WebhookPing

log = logging.getLogger(__name__)

DISABLED_KIND = "webhook_disabled"


class WebhookError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


def set_webhook(*, actor_membership: Membership, kind: str, url: str, chat_id: str = "") -> GroupWebhook:
    """The group's webhook (replacing the one before) set by an owner or admin."""
    if not actor_membership.can_manage:
        raise WebhookError(_("Only the group's owners and admins can set its chat ping."))
    if kind not in WebhookKind.values or not messages.valid_url(url):
        raise WebhookError(_("Give the webhook's address: a link starting with https://."))
    if kind == WebhookKind.TELEGRAM and not chat_id:
        raise WebhookError(_("A Telegram bot needs the chat's id."))
    webhook, _made = GroupWebhook.objects.update_or_create(
        group=actor_membership.group,
        defaults={
            "kind": kind,
            "url": url,
            "chat_id": chat_id if kind == WebhookKind.TELEGRAM else "",
            "language": language_of(actor_membership.user),
            "created_by": actor_membership.user,
            "created_at": timezone.now(),
            "failures": 0,
            "disabled_at": None,
            "last_error": "",
        },
    )
    return webhook


def remove_webhook(*, actor_membership: Membership) -> bool:
    if not actor_membership.can_manage:
        raise WebhookError(_("Only the group's owners and admins can set its chat ping."))
    removed, _detail = GroupWebhook.objects.filter(group=actor_membership.group).delete()
    return bool(removed)


def ping_for(notification: Notification, now: dt.datetime) -> int | None:
    """The outbox delivers ``notification``: if its kind pings its group's chat and the group has a
    webhook that is on, one ping (exactly once per notification). Returns the new ping's id."""
    group_of = messages.GROUP_OF.get(notification.kind)
    if group_of is None:
        return None
    group_id = group_of(notification)
    webhook = (
        GroupWebhook.objects.filter(group_id=group_id, disabled_at__isnull=True).first() if group_id else None
    )
    if webhook is None:
        return None
    with translation.override(webhook.language or None):
        ping = messages.PINGERS[notification.kind](notification)
    if ping is None:
        return None
    try:
        with transaction.atomic():
            row = WebhookPing.objects.create(
                webhook=webhook,
                key=ping.key,
                text=ping.text[:500],
                link=absolute_url(ping.link) if ping.link.startswith("/") else ping.link,
                send_after=now,
                created_at=now,
            )
    except IntegrityError:
        return None
    queue_after_commit("handsite.webhooks.tasks.send_ping", row.pk)
    return row.pk


def claim(ping_id: int, now: dt.datetime) -> bool:
    return claims.claim(WebhookPing, ping_id, now)


def _finish(ping_id: int, state: str, **fields) -> None:
    claims.finish(WebhookPing, ping_id, state, **fields)


def send(ping_id: int, now: dt.datetime | None = None) -> str:
    """Post one ping (at most once: claimed first). Returns "sent", "retry", "failed", "disabled" (this
    failure turned the webhook off), "skipped" (the webhook is off) or "not_claimed"."""
    import requests

    now = now or timezone.now()
    if not claim(ping_id, now):
        return "not_claimed"
    ping = WebhookPing.objects.select_related("webhook__group").get(pk=ping_id)
    webhook = ping.webhook
    if webhook.disabled_at is not None:
        _finish(ping_id, PingState.SKIPPED, last_error="webhook turned off")
        return "skipped"
    if not messages.valid_url(webhook.url):
        return _failed(ping, webhook, "not an http(s) URL", now)
    body = messages.request_body(
        webhook.kind, text=ping.text, link=ping.link, chat_id=webhook.chat_id, group=webhook.group.name
    )
    try:
        response = requests.post(webhook.url, json=body, timeout=messages.TIMEOUT, allow_redirects=False)
    except requests.RequestException as error:
        return _retry_or_fail(ping, webhook, type(error).__name__, now)
    if 200 <= response.status_code < 300:
        _finish(ping_id, PingState.SENT, sent_at=timezone.now(), last_error="")
        GroupWebhook.objects.filter(pk=webhook.pk).update(failures=0, last_ok_at=now, last_error="")
        return "sent"
    reason = f"HTTP {response.status_code}"
    if messages.permanent(response.status_code):
        return _failed(ping, webhook, reason, now)
    return _retry_or_fail(ping, webhook, reason, now)


def _retry_or_fail(ping: WebhookPing, webhook: GroupWebhook, reason: str, now: dt.datetime) -> str:
    log.warning("webhook of group %s, ping %s: %s", webhook.group_id, ping.pk, reason)  # never the URL
    if ping.attempts >= messages.MAX_ATTEMPTS:
        return _failed(ping, webhook, reason, now)
    backoff = dt.timedelta(minutes=2 ** (ping.attempts - 1))
    _finish(ping.pk, PingState.PENDING, send_after=now + backoff, last_error=reason)
    return "retry"


def _failed(ping: WebhookPing, webhook: GroupWebhook, reason: str, now: dt.datetime) -> str:
    """The ping failed for good: one more failure in a row; at FAILURES_TO_DISABLE the webhook is off and
    the admin who set it (else the group's owners) hears why."""
    _finish(ping.pk, PingState.FAILED, last_error=reason)
    GroupWebhook.objects.filter(pk=webhook.pk).update(failures=F("failures") + 1, last_error=reason)
    turned_off = GroupWebhook.objects.filter(
        pk=webhook.pk, disabled_at__isnull=True, failures__gte=messages.FAILURES_TO_DISABLE
    ).update(disabled_at=now)
    if not turned_off:
        return "failed"
    log.warning(
        "webhook of group %s turned off after %s failures", webhook.group_id, messages.FAILURES_TO_DISABLE
    )
    admins = [webhook.created_by_id] if webhook.created_by_id else []
    admins = admins or list(
        Membership.objects.filter(group_id=webhook.group_id, role=Role.OWNER).values_list(
            "user_id", flat=True
        )
    )
    from django.contrib.auth import get_user_model

    for admin in get_user_model().objects.filter(pk__in=admins):
        with translation.override(language_of(admin)):
            subject = _("The chat ping of %(group)s is turned off") % {"group": webhook.group.name}
            body = _(
                "Posting to the group's chat failed %(n)s times in a row (last answer: %(reason)s). "
                "Check the webhook in the chat service and set it again on the group's chat ping page."
            ) % {"n": messages.FAILURES_TO_DISABLE, "reason": reason}
        Notification.objects.get_or_create(
            key=f"{DISABLED_KIND}:{webhook.pk}:{int(now.timestamp())}:{admin.pk}",
            defaults={
                "user_id": admin.pk,
                "subject": subject,
                "body": body,
                "kind": DISABLED_KIND,
                "topic": f"group:{webhook.group_id}",
                "link": f"/groups/{webhook.group.slug}/chat-ping/",
                "data": {"group": webhook.group.name, "reason": reason},
                "send_after": now,
                "created_at": now,
            },
        )
    return "disabled"


def due_ids(now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    return claims.due_ids(WebhookPing, now or timezone.now(), limit)


def send_pending(now: dt.datetime | None = None) -> dict[str, int]:
    """Send what is due in this process (tests, a shell); the beat task queues them instead."""
    now = now or timezone.now()
    outcomes: dict[str, int] = {}
    for ping_id in due_ids(now):
        outcome = send(ping_id, now)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
