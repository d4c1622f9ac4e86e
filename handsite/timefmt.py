"""Times for people: in the reader's zone (the active one: a page's middleware or an e-mail's
``timezone.override``), with the zone named ("Tuesday 21:00, Amman time") and, where it reads better,
relative ("in 2 days")."""

from __future__ import annotations

import datetime as dt

from babel.dates import get_timezone_location
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language, ngettext, to_locale
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


def span(delta: dt.timedelta) -> str:
    """:func:`_span` kept on one line (no-break spaces, as Django's timeuntil)."""
    return _span(delta).replace(" ", "\xa0")


def _span(delta: dt.timedelta) -> str:
    """A length of time in its largest unit, rounded to the nearest ("2 days" for a 48-hour window seen
    a second later, "3 hours", "5 minutes"), with the active language's plural forms: Arabic says
    "ساعتين" and "يوم", never "2 ساعتين" or "1 يوم" (Django's timeuntil does, and cuts 47 h 59 min to
    "1 day")."""
    seconds = abs(delta.total_seconds())
    minutes = round(seconds / 60)
    if minutes < 60:
        n = max(minutes, 1)
        return ngettext("%(n)s minute", "%(n)s minutes", n) % {"n": n}
    hours = round(seconds / 3600)
    if hours < 24:
        return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}
    days = round(seconds / 86400)
    if days < 14:
        return ngettext("%(n)s day", "%(n)s days", days) % {"n": days}
    weeks = round(days / 7)
    if weeks < 9:
        return ngettext("%(n)s week", "%(n)s weeks", weeks) % {"n": weeks}
    months = round(days / 30)
    return ngettext("%(n)s month", "%(n)s months", months) % {"n": months}


def relative(value: dt.datetime | None, now: dt.datetime | None = None) -> str:
    """ "in 2 days" or "3 hours ago" (the largest unit only, rounded: :func:`span`)."""
    if value is None:
        return ""
    now = now or timezone.now()
    if value >= now:
        return _("in %(span)s") % {"span": span(value - now)}
    return _("%(span)s ago") % {"span": span(now - value)}
