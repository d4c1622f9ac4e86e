"""Web Push, the read side: whether push is on, the kinds apps register for push (their wording and the
channel choice each follows), what a push says, in the reader's language and zone, and the badge count.

Like e-mails, handsite knows nothing of games: ``games/push.py`` registers its kinds here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from handsite import notification_prefs, notifications
from handsite.i18n import language_of
from handsite.links import absolute_url

SENDING_TIMEOUT = 5
"""Seconds a push service may take to answer."""
TTL = 60 * 60 * 24
"""A push waits this long (seconds) at the push service for a device that is off."""
MAX_ATTEMPTS = 5
"""After this many failed attempts (backoff 2, 4, 8... minutes) a delivery is marked failed."""


def enabled() -> bool:
    """Push is on when the three VAPID settings are set and the subject is a mailto: or https: URL
    (Apple's push service refuses anything else)."""
    return bool(
        settings.HANDSITE_VAPID_PUBLIC_KEY
        and settings.HANDSITE_VAPID_PRIVATE_KEY
        and valid_subject(settings.HANDSITE_VAPID_SUBJECT)
    )


def valid_subject(subject: str) -> bool:
    return (subject.startswith("mailto:") and "@" in subject) or subject.startswith("https://")


PUSH_SERVICES = (
    "fcm.googleapis.com",  # Chrome, Edge, Samsung Internet, Opera on Android
    "push.services.mozilla.com",  # Firefox
    "push.apple.com",  # Safari, and apps on an iPhone's home screen
    "notify.windows.com",  # Edge on Windows (Windows Push Notification Services)
)
"""The push services browsers subscribe at (a host or its subdomains): the site posts to no other host."""


def valid_endpoint(endpoint: str) -> bool:
    """A known push service's https URL; any http(s) URL when the setting allows a local stand-in."""
    from urllib.parse import urlsplit

    if len(endpoint) > 1000:
        return False
    try:
        parts = urlsplit(endpoint)
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    if settings.HANDSITE_PUSH_ALLOW_HTTP:
        return parts.scheme in ("http", "https") and bool(host)
    known = any(host == name or host.endswith("." + name) for name in PUSH_SERVICES)
    return parts.scheme == "https" and known and parts.port in (None, 443)


# --- Kinds registered by apps ----------------------------------------------------------------------


@dataclass(frozen=True)
class Message:
    """What a push shows: a title, one or two lines, the page a tap opens and a tag (a newer push with
    the same tag replaces the older one on the device)."""

    title: str
    body: str
    url: str
    tag: str = ""


@dataclass(frozen=True)
class Topic:
    """A line of the Reminders page's "e-mail, push, both or none" choice."""

    name: str
    label: object  # a lazy string


@dataclass(frozen=True)
class PushKind:
    name: str  # the notification kind
    topic: str  # the channel choice it follows
    render: Callable[[list, notifications.Reader], Message | None]
    once_until_read: bool = False  # no second push about the same thing (topic) until it is opened


PUSH_KINDS: dict[str, PushKind] = {}
TOPICS: dict[str, Topic] = {}
BADGES: list[Callable[[int], int]] = []


def register(kind: PushKind) -> None:
    PUSH_KINDS[kind.name] = kind


def register_topic(topic: Topic) -> None:
    TOPICS[topic.name] = topic


def register_badge(count: Callable[[int], int]) -> None:
    """``count(user_id)``: how many things wait on the person (the app icon's badge)."""
    if count not in BADGES:
        BADGES.append(count)


def topics() -> list[Topic]:
    return list(TOPICS.values())


def topic_of(kind: str) -> str | None:
    """The channel choice a notification kind follows; None: the kind is never pushed."""
    push_kind = PUSH_KINDS.get(kind)
    return push_kind.topic if push_kind else None


def badge_count(user_id: int) -> int:
    return sum(count(user_id) for count in BADGES)


# --- What a push says ------------------------------------------------------------------------------


def clock(moment: dt.datetime) -> str:
    """A deadline as a clock time in the active zone: "Thu 21:00" (a weekday within the week, else
    the date)."""
    local = timezone.localtime(moment)
    days = (local.date() - timezone.localtime(timezone.now()).date()).days
    if 0 <= days < 7:
        return date_format(local, "D H:i")
    return date_format(local, "j M H:i")


def payload(rows: list, pref, now: dt.datetime) -> dict | None:
    """The JSON a device receives for ``rows`` (one notification, or a batch of one kind for one
    person), rendered in the reader's language and zone; None: nothing to say."""
    user = rows[0].user
    kind = PUSH_KINDS.get(rows[0].kind)
    if kind is None:
        return None
    zone = notification_prefs.zone_of(pref)
    language = language_of(user)
    with translation.override(language), timezone.override(zone):
        reader = notifications.Reader(user=user, pref=pref, zone=zone, language=language, now=now)
        message = kind.render(rows, reader)
        if message is None:
            return None
        return {
            "title": message.title,
            "body": message.body,
            "url": absolute_url(message.url) if message.url.startswith("/") else message.url,
            "tag": message.tag,
            "badge": badge_count(user.pk),
            "lang": language,
            "dir": "rtl" if translation.get_language_bidi() else "ltr",
        }


def device_label(user_agent: str) -> str:
    """ "Chrome on Android": enough to tell one's devices apart on the Reminders page."""
    agent = user_agent or ""
    system = next(
        (name for key, name in SYSTEMS if key in agent),
        _("another system"),
    )
    browser = next((name for key, name in BROWSERS if key in agent), _("a browser"))
    return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}


SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("Mac OS", "macOS"),
    ("Windows", "Windows"),
    ("Linux", "Linux"),
)
BROWSERS = (
    ("Edg/", "Edge"),
    ("SamsungBrowser", "Samsung Internet"),
    ("Firefox", "Firefox"),
    ("Chrome", "Chrome"),
    ("Safari", "Safari"),
)
