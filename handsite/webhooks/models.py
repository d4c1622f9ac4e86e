"""Group webhook rows (imported by handsite.models, so they belong to the handsite app)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class WebhookKind(models.TextChoices):
    DISCORD = "discord", _("Discord")
    SLACK = "slack", _("Slack")
    TELEGRAM = "telegram", _("Telegram bot")
    JSON = "json", _("Other (JSON POST)")


class GroupWebhook(models.Model):
    """A group's one outgoing webhook. ``url`` is a secret (it lets anyone post to the chat): no page
    shows it and no log line names it."""

    group = models.OneToOneField(
        "handsite.PlayerGroup", on_delete=models.CASCADE, related_name="webhook", verbose_name=_("group")
    )
    kind = models.CharField(_("kind"), max_length=10, choices=WebhookKind.choices)
    url = models.URLField(_("URL"), max_length=1000)
    chat_id = models.CharField(_("Telegram chat id"), max_length=64, blank=True, default="")
    language = models.CharField(_("language"), max_length=8, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    failures = models.PositiveSmallIntegerField(_("failures in a row"), default=0)
    disabled_at = models.DateTimeField(_("turned off at"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True, default="")
    last_ok_at = models.DateTimeField(_("last ping at"), null=True, blank=True)

    class Meta:
        verbose_name = _("group webhook")
        verbose_name_plural = _("group webhooks")

    def __str__(self):
        return f"{self.group}: {self.kind}"  # never the URL


class PingState(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    SENDING = "sending", _("Being sent")
    SENT = "sent", _("Sent")
    FAILED = "failed", _("Could not be sent")
    SKIPPED = "skipped", _("Not sent")


class WebhookPing(models.Model):
    """One message to a group's webhook, exactly once per ``key``; claimed by a conditional UPDATE."""

    webhook = models.ForeignKey(GroupWebhook, on_delete=models.CASCADE, related_name="pings")
    key = models.CharField(_("key"), max_length=150, unique=True)
    text = models.CharField(_("text"), max_length=500)
    link = models.CharField(_("link"), max_length=500, blank=True, default="")
    state = models.CharField(_("state"), max_length=10, choices=PingState.choices, default=PingState.PENDING)
    send_after = models.DateTimeField(_("send after"), default=timezone.now)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("webhook ping")
        verbose_name_plural = _("webhook pings")
        indexes = [
            models.Index(fields=["send_after"], name="ping_pending", condition=models.Q(state="pending")),
        ]

    def __str__(self):
        return f"{self.webhook_id}: {self.key} ({self.state})"
