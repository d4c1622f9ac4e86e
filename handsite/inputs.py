"""Reading numbers from a request, bounded where they are read.

Python refuses ``int()`` of more than 4,300 digits (ValueError), and ``str.isdigit()`` says yes to "²"
and "١٢", which ``int()`` then refuses or reads; both would turn hostile posts into 500s. Every app reads the
numbers and ids of a request with these (games' and scoring's views and forms included):

    small_int("12")   -> 12      small_int("9" * 5000) -> None      small_int("١٢") -> None
    small_int("123", digits=2) -> None                               small_int("12", maximum=11) -> None

Requests carry no JSON (moves are plain form fields, ``games.forms.MoveForm``), so nothing here
parses it.
"""

from __future__ import annotations

import re

MAX_INT_DIGITS = 9
"""No count, version or seat of the site needs more digits (a 32-bit column holds 10); ids read with
``digits=12``."""


def small_int(value: object, *, digits: int = MAX_INT_DIGITS, maximum: int | None = None) -> int | None:
    """The non-negative integer written in ``value`` (ASCII digits only, 1 to ``digits`` of them, and at
    most ``maximum``), else None."""
    if not isinstance(value, str) or not 0 < len(value) <= digits or not _ascii_digits(value):
        return None
    number = int(value)
    if maximum is not None and number > maximum:
        return None
    return number


def small_ints(values, *, digits: int = MAX_INT_DIGITS, maximum: int | None = None) -> list[int] | None:
    """Every value as :func:`small_int`, or None if any is not one."""
    numbers = [small_int(value, digits=digits, maximum=maximum) for value in values]
    return None if any(number is None for number in numbers) else numbers


_DIGITS = re.compile(r"[0-9]+")


def _ascii_digits(text: str) -> bool:
    return _DIGITS.fullmatch(text) is not None
