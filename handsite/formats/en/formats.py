"""English date formats: one way to write a date on every page ("27 Nov 2026", with the 24-hour
time the site uses elsewhere), in place of Django's "Nov. 27, 2026" and "11/27/2026". The short
formats are the long ones."""

DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = DATE_FORMAT
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = DATETIME_FORMAT
