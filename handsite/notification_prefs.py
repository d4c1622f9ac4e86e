"""Notification preferences, the read side: a person's preferences (or the defaults), their time zone,
quiet hours, presence on the site and vacation days. Writes are in :mod:`handsite.services.preferences`.
"""

from __future__ import annotations

import datetime as dt
import functools
import time
import zoneinfo

from django.conf import settings

from handsite.models import NotificationPreference

PRESENT_FOR = dt.timedelta(minutes=2)
"""Someone whose page polled (or who acted) this recently is on the site."""
SEEN_EVERY = dt.timedelta(seconds=30)
"""Presence is written at most this often per person (the poll runs every few seconds)."""


class PreferenceError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


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


# --- Vacation (the preference side; apps pause their own deadlines) -------------------------------


def vacation_allowance() -> int:
    return settings.HANDSITE_VACATION_DAYS_PER_YEAR


def days_left(pref: NotificationPreference, now: dt.datetime) -> int:
    used = pref.vacation_days_used if pref.vacation_year == now.year else 0
    return max(vacation_allowance() - used, 0)
