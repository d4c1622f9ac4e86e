"""Site-wide models: the user, player groups, memberships and invitations.

Write logic lives in handsite/services/; these classes hold data and small read-only helpers.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from handsite.i18n import LANGUAGE_CHOICES


class EmailUserManager(UserManager):
    """Users log in by e-mail; the username column is kept (Django admin expects it) but filled
    with the e-mail address."""

    def _create_user(self, username, email, password, **extra_fields):
        username = username or email
        return super()._create_user(username, email, password, **extra_fields)

    def create_user(self, username=None, email=None, password=None, **extra_fields):
        return super().create_user(username or email, email, password, **extra_fields)

    def create_superuser(self, username=None, email=None, password=None, **extra_fields):
        return super().create_superuser(username or email, email, password, **extra_fields)


class User(AbstractUser):
    email = models.EmailField(_("e-mail address"), unique=True)
    display_name = models.CharField(
        _("display name"),
        max_length=60,
        blank=True,
        help_text=_("The name other players see. Leave empty to use the start of your e-mail address."),
    )

    # The invitation this person followed before signing up. Kept here, not only in the browser's
    # session, so that it survives confirming the e-mail address in another browser: the first log-in
    # (from anywhere) joins the group. Cleared once used.
    pending_invitation = models.ForeignKey(
        "Invitation",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("pending invitation"),
    )

    # Pages and e-mails for this person are in this language (handsite.i18n.language_of). Proposed from
    # the browser at sign-up or on the first visit; empty only for accounts that have not visited since.
    language = models.CharField(_("language"), max_length=8, choices=LANGUAGE_CHOICES, blank=True, default="")

    objects = EmailUserManager()

    EMAIL_FIELD = "email"
    # Log-in (the admin's included) and createsuperuser ask for the e-mail address alone; the username
    # column is filled with it by the manager.
    USERNAME_FIELD = "email"
    REQUIRED_FIELDS = []

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")

    def __str__(self):
        return self.name

    @property
    def name(self) -> str:
        """What other people see: the display name, or the part of the e-mail before the @."""
        return self.display_name or self.email.split("@", 1)[0] or self.username

    def save(self, *args, **kwargs):
        if not self.username:
            self.username = self.email
        super().save(*args, **kwargs)


def new_token() -> str:
    return secrets.token_urlsafe(24)


class PlayerGroup(models.Model):
    """A circle of friends who play together. Everything else on the site lives inside a group."""

    name = models.CharField(_("name"), max_length=80)
    slug = models.SlugField(_("slug"), max_length=100, unique=True)
    description = models.TextField(_("description"), blank=True, max_length=1000)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        through="Membership",
        related_name="player_groups",
        verbose_name=_("members"),
    )

    class Meta:
        verbose_name = _("player group")
        verbose_name_plural = _("player groups")
        ordering = [Lower("name"), "pk"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("group_detail", args=[self.slug])

    def active_link_invitation(self) -> Invitation | None:
        """The group's shareable link, if it has a usable one."""
        now = timezone.now()
        return (
            self.invitations.filter(email="", revoked_at__isnull=True)
            .filter(models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=now))
            .order_by("-created_at")
            .first()
        )


class Role(models.TextChoices):
    OWNER = "owner", _("Owner")
    ADMIN = "admin", _("Admin")
    MEMBER = "member", _("Member")


class Membership(models.Model):
    group = models.ForeignKey(
        PlayerGroup, on_delete=models.CASCADE, related_name="memberships", verbose_name=_("group")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="memberships",
        verbose_name=_("user"),
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices, default=Role.MEMBER)
    joined_at = models.DateTimeField(_("joined at"), default=timezone.now)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [models.UniqueConstraint(fields=["group", "user"], name="one_membership_per_group")]
        ordering = ["joined_at", "pk"]

    def __str__(self):
        return f"{self.user} in {self.group} ({self.role})"

    @property
    def can_manage(self) -> bool:
        """Owners and admins invite, remove members and change roles."""
        return self.role in (Role.OWNER, Role.ADMIN)

    @property
    def is_owner(self) -> bool:
        return self.role == Role.OWNER


class Invitation(models.Model):
    """Either the group's shareable link (email empty; many people may use it) or an invitation sent
    to one e-mail address (used once)."""

    group = models.ForeignKey(
        PlayerGroup, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("group")
    )
    token = models.CharField(_("token"), max_length=64, unique=True, default=new_token)
    email = models.EmailField(_("e-mail address"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    expires_at = models.DateTimeField(_("expires at"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("e-mail sent at"), null=True, blank=True)
    accepted_at = models.DateTimeField(_("accepted at"), null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self):
        return f"{self.group}: {self.email or 'link'}"

    def get_absolute_url(self):
        return reverse("invitation", args=[self.token])

    @property
    def is_link(self) -> bool:
        return not self.email

    @property
    def is_expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()


# --- Notifications (the generic outbox; written by handsite/services/outbox.py) -------------------


class NotificationPreference(models.Model):
    """What a person wants to hear about, and when. One row per person, made on first use."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notification_preference",
        verbose_name=_("user"),
    )
    your_turn_email = models.BooleanField(
        _("e-mail me when it is my turn"),
        default=True,
        help_text=_("Sent at once when the turn reaches you."),
    )
    reminders = models.BooleanField(_("remind me while it stays my turn"), default=True)
    first_reminder_hours = models.PositiveSmallIntegerField(
        _("first reminder after (hours)"),
        default=12,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 14)],
    )
    reminder_every_hours = models.PositiveSmallIntegerField(
        _("then remind me every (hours)"),
        default=24,
        validators=[MinValueValidator(1), MaxValueValidator(24 * 14)],
    )
    daily_digest = models.BooleanField(
        _("one daily digest instead"),
        default=False,
        help_text=_(
            "One e-mail a day listing every game where it is your turn, instead of the e-mails above."
        ),
    )
    digest_hour = models.PositiveSmallIntegerField(
        _("digest at (hour, your time)"), default=8, validators=[MaxValueValidator(23)]
    )
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    quiet_start = models.TimeField(_("quiet hours from"), null=True, blank=True)
    quiet_end = models.TimeField(_("quiet hours until"), null=True, blank=True)
    # Vacation: deadlines of the person's turns are paused until vacation_until.
    vacation_started_at = models.DateTimeField(_("vacation started at"), null=True, blank=True)
    vacation_until = models.DateTimeField(_("on vacation until"), null=True, blank=True)
    vacation_year = models.PositiveSmallIntegerField(_("vacation year"), default=0)
    vacation_days_used = models.PositiveSmallIntegerField(_("vacation days used this year"), default=0)
    # Last time the person was seen on a page that polls (throttled): e-mails wait while they are here.
    last_seen_at = models.DateTimeField(_("last seen at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")

    def __str__(self):
        return f"{self.user}"

    @property
    def emails_off(self) -> bool:
        return not (self.your_turn_email or self.reminders or self.daily_digest)

    def on_vacation(self, now) -> bool:
        return self.vacation_until is not None and self.vacation_until > now


class NotificationKind(models.TextChoices):
    """The kinds handsite itself writes; apps register their own (games: your turn, reminders...)."""

    DIGEST = "digest", _("Daily digest")


class NotificationState(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    SENDING = "sending", _("Being sent")
    SENT = "sent", _("E-mailed")
    SKIPPED = "skipped", _("Not e-mailed")
    FAILED = "failed", _("Could not be sent")


class Notification(models.Model):
    """One notification: a line in the person's in-site list and, by its ``state``, the e-mail outbox.

    Generic: apps write rows through ``handsite.services.outbox.notify()`` and register, per ``kind``, how the
    row is described and e-mailed (``handsite.notifications.register``). ``key`` makes a write
    exactly-once (a repeated write adds nothing); ``topic`` names what the notification is about
    ("game:42": opening it marks its notifications read); ``data`` holds the app's own fields
    (handsite never reads them). Sending claims the row with a conditional update from ``pending`` to
    ``sending``; only the claimer sends."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=30)
    key = models.CharField(_("key"), max_length=150, unique=True, null=True, blank=True)
    topic = models.CharField(_("topic"), max_length=60, blank=True, default="")
    subject = models.CharField(_("subject"), max_length=200, blank=True, default="")
    body = models.TextField(_("text"), blank=True, default="")
    link = models.CharField(_("link"), max_length=500, blank=True, default="")
    data = models.JSONField(_("data"), default=dict, blank=True)
    state = models.CharField(
        _("state"), max_length=10, choices=NotificationState.choices, default=NotificationState.PENDING
    )
    send_after = models.DateTimeField(_("send after"), default=timezone.now)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(
                fields=["send_after"], name="notification_pending", condition=models.Q(state="pending")
            ),
            models.Index(
                fields=["claimed_at"], name="notification_sending", condition=models.Q(state="sending")
            ),
            models.Index(fields=["user", "-created_at"], name="notification_user_list"),
            models.Index(
                fields=["user"], name="notification_unread", condition=models.Q(read_at__isnull=True)
            ),
            models.Index(
                fields=["user", "topic"],
                name="notification_unread_topic",
                condition=models.Q(read_at__isnull=True),
            ),
        ]

    def __str__(self):
        return f"{self.user}: {self.kind} ({self.state})"


# --- The e-mail outbox (account e-mails, invitations; written by handsite/services/email_outbox.py) ---


class EmailState(models.TextChoices):
    PENDING = "pending", _("Waiting to be sent")
    SENDING = "sending", _("Being sent")
    SENT = "sent", _("E-mailed")
    FAILED = "failed", _("Could not be sent")


class OutgoingEmail(models.Model):
    """One e-mail to one address that is not a notification: allauth's account e-mails (confirm the
    address, reset the password, "you already have an account") and group invitations. Written in the
    caller's transaction (a sign-up's, an invitation's), sent by a Celery worker after the commit
    (``handsite.tasks.send_email``), so no page waits for the mail server. A failed send stays
    ``pending`` with ``last_error`` and a later ``send_after`` (retried by the minute's beat sweep)
    until ``attempts`` reaches the limit (``failed``). Sending claims the row with a conditional
    update from ``pending`` to ``sending``: only the claimer sends."""

    to = models.EmailField(_("to"), max_length=254)
    from_email = models.CharField(_("from"), max_length=300)
    subject = models.CharField(_("subject"), max_length=400)
    body = models.TextField(_("text"))
    html = models.TextField(_("HTML"), blank=True, default="")
    headers = models.JSONField(_("headers"), default=dict, blank=True)
    purpose = models.CharField(_("purpose"), max_length=80)  # allauth's template prefix, or "invitation"
    state = models.CharField(
        _("state"), max_length=10, choices=EmailState.choices, default=EmailState.PENDING
    )
    send_after = models.DateTimeField(_("send after"), default=timezone.now)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    claimed_at = models.DateTimeField(_("claimed at"), null=True, blank=True)
    sent_at = models.DateTimeField(_("sent at"), null=True, blank=True)
    last_error = models.CharField(_("last error"), max_length=300, blank=True, default="")
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("outgoing e-mail")
        verbose_name_plural = _("outgoing e-mails")
        ordering = ["-created_at", "-pk"]
        indexes = [
            models.Index(fields=["send_after"], name="email_pending", condition=models.Q(state="pending")),
            models.Index(fields=["claimed_at"], name="email_sending", condition=models.Q(state="sending")),
        ]

    def __str__(self):
        return f"{self.to}: {self.purpose} ({self.state})"


class QueuedTask(models.Model):
    """A Celery task that must run even if its message is lost (the broker was down at the commit, a
    worker died): written in the caller's transaction (a move that ended a deal: the group's standings),
    deleted by the task once done; the beat scan queues again what is left after a while.
    The app's task is named, never imported by handsite (a game's result: games' task)."""

    task = models.CharField(_("task"), max_length=200)
    args = models.JSONField(_("arguments"), default=list, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    queued_at = models.DateTimeField(_("queued at"), default=timezone.now)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=1)

    class Meta:
        verbose_name = _("queued task")
        verbose_name_plural = _("queued tasks")
        indexes = [models.Index(fields=["queued_at"], name="queued_task_due")]

    def __str__(self):
        return f"{self.task}{tuple(self.args)}"


from handsite.push.models import ChannelChoice, PushDelivery, PushSubscription  # noqa: E402, F401 (Web Push)
from handsite.webhooks.models import GroupWebhook, WebhookPing  # noqa: E402, F401 (group chat pings)
