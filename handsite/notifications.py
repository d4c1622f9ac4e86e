"""Notifications, the read side: the kinds apps register, preferences, quiet hours, what goes by e-mail,
how an e-mail is rendered (in the reader's language and time zone), the in-site list.

Every write (the outbox rows, claiming and sending, digests, marking read, preferences, vacation) is in
:mod:`handsite.services`, the app's one writer. This module and handsite as a whole know nothing of games:
an app registers its kinds here (:func:`register`) with a function that describes a row for the in-site
list and one that renders its e-mail, and its digest lines (:func:`register_digest`). games does so in
``games/notifications.py``.
"""

from __future__ import annotations

import datetime as dt
import functools
import time
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

MAX_ATTEMPTS = 5
"""After this many failed attempts a notification is marked failed (the in-site line stays)."""
STUCK_AFTER = dt.timedelta(minutes=10)
"""A row left in ``sending`` this long belongs to a worker that died (well past the hard time limit)."""
PRESENT_FOR = dt.timedelta(minutes=2)
"""Someone whose page polled (or who acted) this recently is on the site."""
SEEN_EVERY = dt.timedelta(seconds=30)
"""Presence is written at most this often per person (the poll runs every few seconds)."""
UNSUBSCRIBE_SALT = "handsite.notifications.unsubscribe"


class PreferenceError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


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


# --- Preferences -----------------------------------------------------------------------------------


def preference_of(user_id: int) -> NotificationPreference:
    """The person's preferences, or the defaults (unsaved) if they never changed any."""
    pref = NotificationPreference.objects.filter(user_id=user_id).first()
    return pref or NotificationPreference(user_id=user_id, time_zone=settings.TIME_ZONE)


def zone_of(pref: NotificationPreference) -> zoneinfo.ZoneInfo:
    return zone_named(pref.time_zone)


@functools.cache
def time_zone_names() -> frozenset[str]:
    return frozenset(zoneinfo.available_timezones() - {"localtime", "Factory"})


COMMON_ZONES = (
    "Asia/Amman",
    "Asia/Riyadh",
    "Asia/Kuwait",
    "Asia/Dubai",
    "Asia/Qatar",
    "Asia/Baghdad",
    "Asia/Beirut",
    "Asia/Damascus",
    "Asia/Jerusalem",
    "Africa/Cairo",
    "Europe/London",
    "Europe/Berlin",
    "Europe/Istanbul",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "America/Toronto",
    "Australia/Sydney",
    "UTC",
)
"""Offered first in the zone choice (where these groups of friends mostly live)."""


def zone_named(name: str | None) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def quiet_until(pref: NotificationPreference, now: dt.datetime) -> dt.datetime | None:
    """The end of the quiet hours ``now`` falls in (aware), or None when sending is fine now.

    Quiet hours are wall-clock times in the person's own time zone; a span may cross midnight
    (22:00-07:00). Equal start and end mean no quiet hours."""
    start, end = pref.quiet_start, pref.quiet_end
    if start is None or end is None or start == end:
        return None
    zone = zone_of(pref)
    local = now.astimezone(zone)
    clock = local.time().replace(tzinfo=None)
    if start < end:
        quiet = start <= clock < end
        end_day = local.date()
    else:  # crosses midnight
        quiet = clock >= start or clock < end
        end_day = local.date() + dt.timedelta(days=1) if clock >= start else local.date()
    if not quiet:
        return None
    naive_end = dt.datetime.combine(end_day, end)
    return naive_end.replace(tzinfo=zone).astimezone(dt.UTC)


def quiet_began(pref: NotificationPreference, moment: dt.datetime) -> dt.datetime | None:
    """The start (aware) of the quiet hours ``moment`` falls in, or None when it falls in none."""
    end = quiet_until(pref, moment)
    if end is None:
        return None
    zone = zone_of(pref)
    local_end = end.astimezone(zone)
    day = local_end.date() if pref.quiet_start < pref.quiet_end else local_end.date() - dt.timedelta(days=1)
    return dt.datetime.combine(day, pref.quiet_start).replace(tzinfo=zone).astimezone(dt.UTC)


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


_asked: dict[str, float] = {}
"""Redis keys of :func:`presence_due` this process asked about, and when (``time.monotonic``)."""


def presence_due(user_id: int) -> bool:
    """Whether the person's presence should be written now (at most every SEEN_EVERY, counted in the
    cache so that the poll stays one query in between; with the cache down: yes).

    On Redis, each process asks about a person at most once per SEEN_EVERY (an unchanged poll then
    makes no Redis round trip either): presence is still written at most every SEEN_EVERY across the
    site, and at least every 2 x SEEN_EVERY while the page polls — well within PRESENT_FOR."""
    from django.core.cache import caches

    from handsite.cache import FailOpenRedisCache

    cache = caches["default"]
    key = f"handsite:seen:{user_id}"
    remote = isinstance(cache, FailOpenRedisCache)
    if remote:
        asked_key, now = cache.make_key(key), time.monotonic()
        asked = _asked.get(asked_key)
        if asked is not None and now - asked < SEEN_EVERY.total_seconds():
            return False
    try:
        due = bool(cache.add(key, 1, timeout=int(SEEN_EVERY.total_seconds())))
    except Exception:  # Redis down: write presence (a query more per poll, e-mails still held)
        return True
    if remote:
        if len(_asked) >= 100_000:
            _asked.clear()
        _asked[asked_key] = now
    return due


def grace_period() -> dt.timedelta:
    return dt.timedelta(minutes=settings.HANDSITE_NOTIFY_GRACE_MINUTES)


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


# --- Vacation (the preference side; apps pause their own deadlines) -------------------------------


def vacation_allowance() -> int:
    return settings.HANDSITE_VACATION_DAYS_PER_YEAR


def days_left(pref: NotificationPreference, now: dt.datetime) -> int:
    used = pref.vacation_days_used if pref.vacation_year == now.year else 0
    return max(vacation_allowance() - used, 0)
