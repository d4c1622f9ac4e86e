"""Time phrases read right in both languages: Arabic plural forms, and a window rounded to its unit."""

import datetime as dt

import pytest
from django.utils import translation

from handsite import timefmt

NOW = dt.datetime(2026, 1, 13, 12, 0, tzinfo=dt.UTC)


def shown(phrase: str) -> str:
    """The phrase as read: without the invisible isolates that keep each value's direction."""
    return phrase.replace("\u2068", "").replace("\u2069", "").replace("\xa0", " ")


def later(**span):
    return shown(timefmt.relative(NOW + dt.timedelta(**span), NOW))


@pytest.mark.parametrize(
    ("span", "english", "arabic"),
    [
        ({"hours": 2}, "in 2 hours", "بعد ساعتين"),
        ({"hours": 1}, "in 1 hour", "بعد ساعة"),
        ({"days": 1}, "in 1 day", "بعد يوم"),
        ({"days": 2}, "in 2 days", "بعد يومين"),
        ({"days": 3}, "in 3 days", "بعد 3 أيام"),
        ({"hours": 5}, "in 5 hours", "بعد 5 ساعات"),
        ({"hours": 11}, "in 11 hours", "بعد 11 ساعة"),
        ({"minutes": 2}, "in 2 minutes", "بعد دقيقتين"),
    ],
)
def test_a_time_phrase_uses_each_languages_plural_forms(span, english, arabic):
    with translation.override("en"):
        assert later(**span) == english
    with translation.override("ar"):
        assert later(**span) == arabic


def test_a_48_hour_window_seen_a_moment_later_still_reads_in_2_days_in_both_languages():
    with translation.override("en"):
        assert later(hours=47, minutes=59, seconds=30) == "in 2 days"
    with translation.override("ar"):
        assert later(hours=47, minutes=59, seconds=30) == "بعد يومين"


def test_no_arabic_phrase_puts_a_number_before_a_dual_or_before_one():
    with translation.override("ar"):
        for hours in range(1, 24 * 20):
            phrase = later(hours=hours)
            assert not phrase.startswith(("بعد 1 ", "بعد 2 ")), phrase


def test_a_past_time_reads_ago():
    with translation.override("en"):
        assert shown(timefmt.relative(NOW - dt.timedelta(hours=3), NOW)) == "3 hours ago"
    with translation.override("ar"):
        assert shown(timefmt.relative(NOW - dt.timedelta(days=1), NOW)) == "قبل يوم"
