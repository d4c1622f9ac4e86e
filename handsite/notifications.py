"""Notifications, the read side: the kinds apps register, what goes by e-mail and when, how an e-mail is
rendered (in the reader's language and time zone), the daily digest and the in-site list. A person's
preferences, time zone, quiet hours and presence are read in :mod:`handsite.notification_prefs`.

Every write (the outbox rows, claiming and sending, digests, marking read, preferences, vacation) is in
:mod:`handsite.services`, the app's one writer. This module and handsite as a whole know nothing of games:
an app registers its kinds here (:func:`register`) with a function that describes a row for the in-site
list and one that renders its e-mail, and its digest lines (:func:`register_digest`). games does so in
``games/notifications.py``.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import formataddr, parseaddr

from django.conf import settings
from django.core import signing
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import escape, linebreaks
from django.utils.translation import gettext as _

from handsite.i18n import language_of
from handsite.links import absolute_url
from handsite.models import Notification, NotificationKind, NotificationPreference
from handsite.notification_prefs import PRESENT_FOR, grace_period, quiet_until, zone_of

MAX_ATTEMPTS = 5
"""After this many failed attempts a notification is marked failed (the in-site line stays)."""
STUCK_AFTER = dt.timedelta(minutes=10)
"""A row left in ``sending`` this long belongs to a worker that died (well past the hard time limit)."""
UNSUBSCRIBE_SALT = "handsite.notifications.unsubscribe"


# --- Kinds registered by apps ----------------------------------------------------------------------

# Which preference decides whether a kind is e-mailed (see wants_email).
EMAIL_TURN = "turn"  # "e-mail me when it is my turn"; held during a vacation; not for digest readers
EMAIL_REMINDER = "reminder"  # "remind me"; not for digest readers
EMAIL_WARNING = "warning"  # "remind me", and digest readers get them too (time running out, ran out)
EMAIL_DIGEST = "digest"
EMAIL_ALWAYS = "always"  # unless every e-mail is off (invitations)
EMAIL_NEVER = "never"  # in-site only (e.g. a chat message): never e-mailed one by one, never queued


@dataclass
class Reader:
    """Who an e-mail is for, with their zone and language active while it is rendered."""

    user: object
    pref: NotificationPreference
    zone: zoneinfo.ZoneInfo
    language: str
    now: dt.datetime


@dataclass
class Content:
    """What a kind's renderer returns: a plain-text subject (never HTML-escaped), the body as text and
    as HTML (a fragment: handsite adds the greeting and the footer) and the main link."""

    subject: str
    text: str
    html: str
    link: str = ""


@dataclass(frozen=True)
class Kind:
    name: str
    email: str
    describe: Callable[[list[Notification]], list[str]] | None = None  # one line per row, in order
    render: Callable[[list[Notification], Reader], Content | None] | None = None
    still_current: Callable[[Notification], bool] | None = None  # False: out of date, not e-mailed
    hold_while_present: bool = False  # no e-mail while the person is on the site (PRESENT_FOR + grace)
    one_unread_email_per_topic: bool = False  # no second e-mail about a topic until it is opened
    batch: bool = False  # rows of this kind waiting for one person together make one e-mail
    bundle: str = ""
    """Kinds of the same bundle waiting for one person leave together as ONE e-mail (a sweep's warnings,
    turns and news about games): the first row's ``render`` gets them all."""
    swept: bool = False
    """E-mailed by the outbox's sweep (``send_pending_notifications``, every minute), never queued by the
    write: the writer's request publishes no task. For frequent kinds whose e-mail can wait a minute
    and usually does not leave at all (a turn passes while the next player is at the table)."""


@dataclass(frozen=True)
class DigestLine:
    text: str
    link: str
    when: dt.datetime | None = None  # a deadline, shown in the reader's zone


@dataclass(frozen=True)
class DigestSection:
    """An app's part of the daily digest: ``waiting(user_id)`` says whether anything is due (a digest
    is made only then), ``lines(reader)`` lists it."""

    title: Callable[[], str]
    waiting: Callable[[int], bool]
    lines: Callable[[Reader], list[DigestLine]]


KINDS: dict[str, Kind] = {}
DIGEST_SECTIONS: list[DigestSection] = []


def register(kind: Kind) -> None:
    """Called from an app's ``AppConfig.ready()``."""
    KINDS[kind.name] = kind


def register_digest(section: DigestSection) -> None:
    if section not in DIGEST_SECTIONS:
        DIGEST_SECTIONS.append(section)


def kind_of(name: str) -> Kind:
    return KINDS.get(name) or Kind(name=name, email=EMAIL_ALWAYS)


def bundle_kinds(name: str) -> list[str]:
    """The kinds e-mailed together with ``name`` (itself included): its bundle's, or its own if batched."""
    kind = kind_of(name)
    if kind.bundle:
        return [other.name for other in KINDS.values() if other.bundle == kind.bundle]
    return [name] if kind.batch else []


def wants_email(pref: NotificationPreference, kind: str) -> bool:
    """Whether this kind of notification goes out by e-mail for this person (the in-site list gets
    every notification). The daily digest replaces the turn e-mails and reminders, not the warnings
    that time is running out or ran out."""
    channel = kind_of(kind).email
    if channel == EMAIL_NEVER:
        return False
    if channel == EMAIL_DIGEST:
        return pref.daily_digest
    if channel == EMAIL_ALWAYS:
        return not pref.emails_off
    if channel == EMAIL_WARNING:
        return pref.daily_digest or pref.reminders
    if pref.daily_digest:
        return False
    if channel == EMAIL_TURN:
        return pref.your_turn_email
    return pref.reminders


def held_until(
    notification: Notification, pref: NotificationPreference, now: dt.datetime
) -> dt.datetime | None:
    """When an e-mail that is wanted must wait: the vacation's end for turn e-mails; for kinds held while
    the person is present, the end of the grace period after they were last seen (if they were on the
    site when, or after, the notification was written)."""
    kind = kind_of(notification.kind)
    if kind.email == EMAIL_TURN and pref.on_vacation(now):
        return pref.vacation_until
    seen = pref.last_seen_at
    if kind.hold_while_present and seen is not None and seen >= notification.created_at - PRESENT_FOR:
        until = seen + grace_period()
        if until > now:
            return until
    return None


# --- Unsubscribe tokens ----------------------------------------------------------------------------


def unsubscribe_token(user) -> str:
    return signing.dumps({"u": user.pk}, salt=UNSUBSCRIBE_SALT, compress=True)


def user_id_from_token(token: str) -> int | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    user_id = data.get("u") if isinstance(data, dict) else None
    return user_id if isinstance(user_id, int) else None


# --- E-mail contents -------------------------------------------------------------------------------


@dataclass
class Email:
    subject: str
    text: str
    html: str
    to: str
    unsubscribe: str
    rows: list[int] = field(default_factory=list)
    from_email: str | None = None


def site_name() -> str:
    """The site's name in the active language: the default "Hand" is a message of the catalogue (هاند);
    a name set in SITE_NAME that the catalogue does not know is used as it is."""
    return _(settings.SITE_NAME)


def from_address() -> str:
    """The sender as the reader sees it: the site's name in the active language ("هاند <noreply@…>")."""
    name, address = parseaddr(settings.DEFAULT_FROM_EMAIL)
    if not address or name not in ("", settings.SITE_NAME):
        return settings.DEFAULT_FROM_EMAIL  # a sender named otherwise in the settings stays as it is
    return formataddr((site_name(), address))


def plain_subject(subject: str) -> str:
    """One line, the site's name first, never HTML-escaped (a subject is plain text)."""
    return " ".join(f"[{site_name()}] {subject}".split())


def _default_content(rows: list[Notification], reader: Reader) -> Content | None:
    row = rows[0]
    if not row.subject:
        return None
    link = absolute_url(row.link) if row.link.startswith("/") else row.link
    return Content(subject=row.subject, text=row.body, html=linebreaks(escape(row.body)), link=link)


def _digest_content(rows: list[Notification], reader: Reader) -> Content | None:
    sections = []
    for section in DIGEST_SECTIONS:
        lines = section.lines(reader)
        if lines:
            sections.append({"title": section.title(), "lines": lines})
    if not sections:
        return None
    count = sum(len(section["lines"]) for section in sections)
    context = {"sections": sections}
    return Content(
        subject=translation.ngettext(
            "Your daily digest: %(n)s thing waits for you",
            "Your daily digest: %(n)s things wait for you",
            count,
        )
        % {"n": count},
        text=render_to_string("handsite/email/digest.txt", context),
        html=render_to_string("handsite/email/digest.html", context),
        link=absolute_url("/"),
    )


register(
    Kind(
        name=NotificationKind.DIGEST,
        email=EMAIL_DIGEST,
        describe=lambda rows: [_("Your daily digest of what waits for you.")] * len(rows),
        render=_digest_content,
    )
)


GROUP_JOINED = "group_joined"
"""The sender of an invitation by address hears who used it (services.accept_invitation)."""


def _joined_line(row: Notification) -> str:
    data = row.data or {}
    return _("%(name)s joined %(group)s with the invitation you sent to %(email)s.") % {
        "name": data.get("name") or "",
        "group": data.get("group") or "",
        "email": data.get("email") or "",
    }


def _joined_content(rows: list[Notification], reader: Reader) -> Content | None:
    line = _joined_line(rows[0])
    link = absolute_url(rows[0].link) if rows[0].link else ""
    return Content(
        subject=line, text=f"{line}\n{link}\n", html=linebreaks(escape(f"{line}\n{link}")), link=link
    )


register(
    Kind(
        name=GROUP_JOINED,
        email=EMAIL_ALWAYS,
        describe=lambda rows: [_joined_line(row) for row in rows],
        render=_joined_content,
    )
)


def render_email(rows: list[Notification], pref: NotificationPreference, now: dt.datetime) -> Email | None:
    """The e-mail for ``rows`` (one row, or a batch of one kind for one person), rendered with the
    reader's language and time zone active whoever triggered it. None: nothing left to say."""
    user = rows[0].user
    zone = zone_of(pref)
    language = language_of(user)
    kind = kind_of(rows[0].kind)
    with translation.override(language), timezone.override(zone):
        reader = Reader(user=user, pref=pref, zone=zone, language=language, now=now)
        content = (kind.render or _default_content)(rows, reader)
        if content is None:
            return None
        unsubscribe_link = absolute_url(reverse("notifications_unsubscribe", args=[unsubscribe_token(user)]))
        context = {
            "user": user,
            "site_name": site_name(),
            "site_url": settings.SITE_URL,
            "content": content,
            "unsubscribe_link": unsubscribe_link,
            "settings_link": absolute_url(reverse("notification_settings")),
        }
        subject = plain_subject(content.subject)
        sender = from_address()
        text = render_to_string("handsite/email/notification_body.txt", context)
        html = render_to_string("handsite/email/notification_body.html", context)
    return Email(
        subject=subject,
        text=text,
        html=html,
        to=user.email,
        unsubscribe=unsubscribe_link,
        rows=[row.pk for row in rows],
        from_email=sender,
    )


# --- Daily digest ----------------------------------------------------------------------------------


def digest_due(pref: NotificationPreference, now: dt.datetime) -> dt.date | None:
    """The person's local date if their digest hour has come today (and it is not quiet now)."""
    local = now.astimezone(zone_of(pref))
    if local.hour < pref.digest_hour or quiet_until(pref, now) is not None:
        return None
    return local.date()


def digest_key(user_id: int, day: dt.date) -> str:
    return f"{NotificationKind.DIGEST}:{user_id}:{day.isoformat()}"


def digest_waiting(user_id: int) -> bool:
    return any(section.waiting(user_id) for section in DIGEST_SECTIONS)


# --- The in-site list ------------------------------------------------------------------------------


def unread_count(user) -> int:
    return unread_count_of(user.pk)


def unread_count_of(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()


def notifications_of(user, limit: int = 100):
    return list(Notification.objects.filter(user=user)[:limit])


def describe(notification: Notification) -> str:
    """One line for the in-site list."""
    return describe_all([notification])[0]


def describe_all(rows: list[Notification]) -> list[str]:
    """The in-site lines of ``rows``: each kind's describer is called once with all its rows."""
    by_kind: dict[str, list[Notification]] = {}
    for row in rows:
        by_kind.setdefault(row.kind, []).append(row)
    lines: dict[int, str] = {}
    for name, group in by_kind.items():
        kind = kind_of(name)
        texts = kind.describe(group) if kind.describe else [row.subject for row in group]
        lines.update({id(row): text for row, text in zip(group, texts, strict=True)})
    return [lines[id(row)] for row in rows]


def open_link(notification: Notification) -> str:
    return notification.link or reverse("home")
