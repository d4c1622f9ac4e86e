"""Notification preferences: the person's row, time zone, presence, e-mail choices (the unsubscribe page)
and vacations."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from handsite import notification_prefs, signals
from handsite.models import NotificationPreference


def preference_for(user) -> NotificationPreference:
    """The person's preference row, made on first use."""
    pref = NotificationPreference.objects.filter(user=user).first()
    if pref is None:
        try:
            with transaction.atomic():
                pref = NotificationPreference.objects.create(user=user, time_zone=settings.TIME_ZONE)
        except IntegrityError:
            pref = NotificationPreference.objects.get(user=user)
    return pref


def save_preferences(form) -> NotificationPreference:
    """Save the (valid) preference form of the settings page."""
    return form.save()


def set_time_zone(user, name: str) -> NotificationPreference:
    """The one-tap zone from the browser (a zone name; checked by the caller's form)."""
    pref = preference_for(user)
    NotificationPreference.objects.filter(pk=pref.pk).update(time_zone=name)
    pref.time_zone = name
    return pref


def adopt_time_zone(user, name: str) -> bool:
    """A person without preferences yet (just signed up, or never opened the settings) takes the zone
    their browser proposed. Returns whether it was adopted."""
    if NotificationPreference.objects.filter(user=user).exists():
        return False
    try:
        with transaction.atomic():
            NotificationPreference.objects.create(user=user, time_zone=name)
    except IntegrityError:
        return False
    return True


def record_presence(user_id: int, now: datetime.datetime | None = None) -> bool:
    """The person is on the site (their page polled, or they acted): e-mails that are held while
    they are present wait. One conditional UPDATE, written at most every SEEN_EVERY."""
    now = now or timezone.now()
    stale = Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=now - notification_prefs.SEEN_EVERY)
    changed = NotificationPreference.objects.filter(stale, user_id=user_id).update(last_seen_at=now)
    if not changed and not NotificationPreference.objects.filter(user_id=user_id).exists():
        try:
            with transaction.atomic():
                NotificationPreference.objects.create(
                    user_id=user_id, time_zone=settings.TIME_ZONE, last_seen_at=now
                )
        except IntegrityError:
            return False
        return True
    return bool(changed)


def unsubscribe(user_id: int) -> NotificationPreference:
    """Every e-mail about games off: turns, reminders and warnings, the digest, and so invitations and
    their news too (notifications.wants_email). The in-site list and account e-mails stay."""
    return set_email_choices(user_id, your_turn_email=False, reminders=False, daily_digest=False)


def set_email_choices(user_id: int, *, your_turn_email: bool, reminders: bool, daily_digest: bool):
    """The unsubscribe page's per-kind choices (the link's signed token is the proof: no log-in)."""
    pref = notification_prefs.preference_of(user_id)
    if pref.pk is None:
        from django.contrib.auth import get_user_model

        pref = preference_for(get_user_model().objects.get(pk=user_id))
    NotificationPreference.objects.filter(pk=pref.pk).update(
        your_turn_email=your_turn_email, reminders=reminders, daily_digest=daily_digest
    )
    pref.refresh_from_db()
    return pref


@transaction.atomic
def book_vacation(user, days: int, now: datetime.datetime | None = None) -> NotificationPreference:
    """Start (or extend) a vacation of ``days`` days from now. Raises notification_prefs.PreferenceError."""
    now = now or timezone.now()
    pref = NotificationPreference.objects.select_for_update().get(pk=preference_for(user).pk)
    if days < 1:
        raise notification_prefs.PreferenceError(_("Choose at least one day."))
    if pref.vacation_year != now.year:
        pref.vacation_year, pref.vacation_days_used = now.year, 0
    left = notification_prefs.vacation_allowance() - pref.vacation_days_used
    if days > left:
        raise notification_prefs.PreferenceError(
            ngettext(
                "You have %(left)s vacation day left this year.",
                "You have %(left)s vacation days left this year.",
                max(left, 0),
            )
            % {"left": max(left, 0)}
        )
    start = pref.vacation_until if pref.on_vacation(now) else now
    if not pref.on_vacation(now):
        pref.vacation_started_at = now
    pref.vacation_until = start + datetime.timedelta(days=days)
    pref.vacation_days_used += days
    pref.save()
    signals.vacation_started.send(
        sender=NotificationPreference, user=user, now=now, until=pref.vacation_until
    )
    return pref


@transaction.atomic
def cancel_vacation(
    user, now: datetime.datetime | None = None
) -> tuple[NotificationPreference, datetime.datetime | None]:
    """End the vacation now; whole unused days go back. Returns (preference, the old end or None)."""
    now = now or timezone.now()
    pref = NotificationPreference.objects.select_for_update().get(pk=preference_for(user).pk)
    if not pref.on_vacation(now):
        return pref, None
    old_until = pref.vacation_until
    unused = int((old_until - now) / datetime.timedelta(days=1))
    if pref.vacation_year == now.year:
        pref.vacation_days_used = max(pref.vacation_days_used - unused, 0)
    pref.vacation_until = now
    pref.save()
    signals.vacation_ended.send(sender=NotificationPreference, user=user, now=now, old_until=old_until)
    return pref, old_until
