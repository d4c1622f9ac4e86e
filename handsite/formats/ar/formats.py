"""Arabic date and time formats where Django's own (django/conf/locale/ar/formats.py) has none: without
these, DATETIME_FORMAT falls back to the English "N j, Y, P" ("نوفمبر 24, 2026, 3:53 ص"). Day first,
Arabic comma, 12-hour clock with ص/م as in Django's Arabic TIME_FORMAT."""

DATETIME_FORMAT = "j F Y، g:i A"
SHORT_DATETIME_FORMAT = "d\u200f/m\u200f/Y، g:i A"
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
