"""Times for people: in the reader's zone (the active one: a page's middleware or an e-mail's
``timezone.override``), with the zone named ("Tuesday 21:00, Amman time") and, where it reads better,
relative ("in 2 days")."""

from __future__ import annotations

import datetime as dt

from babel.dates import get_timezone_location
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.timesince import timesince, timeuntil
from django.utils.translation import get_language, to_locale
from django.utils.translation import gettext as _


def zone_label(zone=None) -> str:
    """The zone as people say it: "Amman", "New York", "UTC"."""
    zone = zone or timezone.get_current_timezone()
    key = getattr(zone, "key", None) or str(zone)
    if key in ("UTC", "Etc/UTC", "GMT", "Etc/GMT", "Z"):
        return "UTC"
    city = key.rsplit("/", 1)[-1].replace("_", " ")
    language = get_language() or "en"
    if language.startswith("en"):
        return city
    try:  # the city's name in the reader's language (Babel's CLDR data): «عمّان» for Asia/Amman
        return get_timezone_location(key, locale=to_locale(language), return_city=True) or city
    except (LookupError, ValueError):
        return city


def when(value: dt.datetime | None, now: dt.datetime | None = None) -> str:
    """ "Tuesday 21:00, Amman time" (today / tomorrow for the next two days, the date past a week)."""
    if value is None:
        return ""
    zone = timezone.get_current_timezone()
    local = timezone.localtime(value, zone)
    today = timezone.localtime(now or timezone.now(), zone).date()
    days = (local.date() - today).days
    if days == 0:
        day = _("today")
    elif days == 1:
        day = _("tomorrow")
    elif days == -1:
        day = _("yesterday")
    elif abs(days) < 7:
        day = date_format(local, "l")
    else:
        day = date_format(local, "l j F")
    return _("%(day)s %(time)s, %(zone)s time") % {
        "day": day,
        "time": date_format(local, "H:i"),
        "zone": zone_label(zone),
    }


def relative(value: dt.datetime | None, now: dt.datetime | None = None) -> str:
    """ "in 2 days" or "3 hours ago" (the largest unit only)."""
    if value is None:
        return ""
    now = now or timezone.now()
    if value >= now:
        return _("in %(span)s") % {"span": timeuntil(value, now, depth=1)}
    return _("%(span)s ago") % {"span": timesince(value, now, depth=1)}
