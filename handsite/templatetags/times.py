"""``{{ value|when }}`` ("Tuesday 21:00, Amman time") and ``{{ value|relative }}`` ("in 2 days"), in the
active time zone (the reader's)."""

from django import template

from handsite import timefmt

register = template.Library()


@register.filter
def when(value):
    return timefmt.when(value)


@register.filter
def relative(value):
    return timefmt.relative(value)
