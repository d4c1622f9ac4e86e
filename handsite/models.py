"""Site-wide models: the user, player groups, memberships and invitations.

Write logic lives in handsite/services.py; these classes hold data and small read-only helpers.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


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

    objects = EmailUserManager()

    EMAIL_FIELD = "email"
    REQUIRED_FIELDS = ["email"]

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
