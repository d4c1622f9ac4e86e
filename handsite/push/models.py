"""Web Push rows (imported by handsite.models, so they belong to the handsite app)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class PushSubscription(models.Model):
    """One device (a browser on a phone or a computer) that takes pushes for a person. ``endpoint`` is
    the push service's URL for that device; ``p256dh`` and ``auth`` are the device's keys that encrypt
    what is sent (RFC 8291). The endpoint is unique: subscribing again on a device updates its row."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("user"),
    )
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("device public key"), max_length=200)
    auth = models.CharField(_("device auth secret"), max_length=100)
    label = models.CharField(_("device"), max_length=100, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    last_sent_at = models.DateTimeField(_("last push sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["created_at", "pk"]

    def __str__(self):
        return f"{self.user}: {self.label or self.pk}"


class PushState(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    SENDING = "sending", _("Being sent")
    SENT = "sent", _("Pushed")
    SKIPPED = "skipped", _("Not pushed")
    FAILED = "failed", _("Could not be sent")


class PushDelivery(models.Model):
    """A notification's push to one device: made once per (notification, device) by the outbox, claimed
    by a conditional UPDATE (pending -> sending) so that exactly one worker sends it."""

    notification = models.ForeignKey(
        "handsite.Notification", on_delete=models.CASCADE, related_name="+", verbose_name=_("notification")
    )
    subscription = models.ForeignKey(
        PushSubscription, on_delete=models.CASCADE, related_name="deliveries", verbose_name=_("device")
    )
    state = models.CharField(_("state"), max_length=10, choices=PushState.choices, default=PushState.PENDING)
    send_after = models.DateTimeField(_("send after"), default=timezone.now)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("push delivery")
        verbose_name_plural = _("push deliveries")
        constraints = [
            models.UniqueConstraint(fields=["notification", "subscription"], name="one_push_per_device")
        ]
        indexes = [
            models.Index(fields=["send_after"], name="push_pending", condition=models.Q(state="pending")),
            models.Index(fields=["claimed_at"], name="push_sending", condition=models.Q(state="sending")),
        ]

    def __str__(self):
        return f"{self.notification_id} -> {self.subscription_id} ({self.state})"


class Channel(models.TextChoices):
    BOTH = "both", _("E-mail and push")
    EMAIL = "email", _("E-mail only")
    PUSH = "push", _("Push only")
    NONE = "none", _("Neither (only on the site)")


class ChannelChoice(models.Model):
    """How a person wants one group of kinds (``topic``: "turn", "invitation"...; apps register them):
    no row means both e-mail (as the e-mail settings say) and push (on the devices that took it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    topic = models.CharField(_("kind"), max_length=30)
    channel = models.CharField(_("channel"), max_length=10, choices=Channel.choices, default=Channel.BOTH)

    class Meta:
        verbose_name = _("channel choice")
        verbose_name_plural = _("channel choices")
        constraints = [models.UniqueConstraint(fields=["user", "topic"], name="one_channel_per_kind")]

    def __str__(self):
        return f"{self.user}: {self.topic} = {self.channel}"
