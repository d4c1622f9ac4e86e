"""Arabic date and time formats where Django's own (django/conf/locale/ar/formats.py) has none: without
these, DATETIME_FORMAT falls back to the English "N j, Y, P" ("نوفمبر 24, 2026, 3:53 ص"). Day first,
Arabic comma, 12-hour clock with ص/م as in Django's Arabic TIME_FORMAT. One way to write a date
("27 نوفمبر 2026"): the short formats are the long ones, so every page writes a date alike."""

DATE_FORMAT = "j F Y"
SHORT_DATE_FORMAT = DATE_FORMAT
DATETIME_FORMAT = "j F Y، g:i A"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
MONTH_DAY_FORMAT = "j F"
YEAR_MONTH_FORMAT = "F Y"
