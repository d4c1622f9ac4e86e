"""The time-zone field: a text input with a searchable list (the browser's datalist), common zones
first, checked against the zone database; the browser's own zone is proposed (site.js, Intl API)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from handsite import notification_prefs, timefmt


def zone_options() -> list[tuple[str, str]]:
    """(name, label) with the common zones first, then every other zone in alphabetical order."""
    names = notification_prefs.time_zone_names()
    common = [zone for zone in notification_prefs.COMMON_ZONES if zone in names]
    rest = sorted(names - set(common))
    return [(name, timefmt.zone_label(notification_prefs.zone_named(name))) for name in common + rest]


class ZoneInput(forms.TextInput):
    template_name = "handsite/widgets/zone.html"

    def __init__(self, attrs=None, *, propose: bool = False):
        attrs = {"list": "time-zones", "autocomplete": "off", "spellcheck": "false", **(attrs or {})}
        if propose:
            attrs["data-browser-zone"] = ""
        super().__init__(attrs)

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        context["widget"]["zones"] = zone_options()
        return context


class ZoneField(forms.CharField):
    """A zone name from the zone database ("Asia/Amman"); a clear message otherwise."""

    def __init__(self, *, propose: bool = False, **kwargs):
        kwargs.setdefault("max_length", 64)
        kwargs.setdefault("label", _("Your time zone"))
        kwargs.setdefault(
            "help_text", _("Type a city to search (Amman, Riyadh, New York...). Times show in this zone.")
        )
        super().__init__(widget=ZoneInput(propose=propose), **kwargs)

    def clean(self, value):
        value = super().clean(value)
        if value and value not in notification_prefs.time_zone_names():
            raise forms.ValidationError(_("Choose a time zone from the list, such as Asia/Amman."))
        return value


def adopt_at_login(sender, request, user, **kwargs):
    """``user_logged_in``: the first log-in (sign-up included) takes the browser's zone, which site.js
    put in the zone cookie, if the person has no preferences yet."""
    from handsite.middleware import TIME_ZONE_COOKIE
    from handsite.services import preferences

    name = request.COOKIES.get(TIME_ZONE_COOKIE, "") if request is not None else ""
    if name in notification_prefs.time_zone_names() and preferences.adopt_time_zone(user, name):
        request.reader_time_zone = name
