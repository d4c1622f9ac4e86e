"""Reading numbers and JSON from a request, bounded where they are read.

Python refuses ``int()`` of more than 4,300 digits (ValueError) and ``json.loads`` of deeply nested text
(RecursionError); both turned hostile posts into 500s. Every app reads request numbers and JSON with these:

    small_int("12")              -> 12        small_int("9" * 5000) -> None     small_int("١٢") -> None
    small_json('{"a": [1]}')     -> {"a": [1]}                               small_json("[" * 9999) -> None
"""

from __future__ import annotations

import json
import re

MAX_INT_DIGITS = 9
"""No id, count or version of the site needs more digits (a 32-bit column holds 10)."""

MAX_JSON_CHARS = 4000
MAX_JSON_DEPTH = 8

_DIGITS = re.compile(rf"[0-9]{{1,{MAX_INT_DIGITS}}}")


def small_int(value: object, *, maximum: int | None = None) -> int | None:
    """The non-negative integer written in ``value`` (ASCII digits only, at most 9 of them, and at most
    ``maximum``), else None."""
    if not isinstance(value, str) or not _DIGITS.fullmatch(value):
        return None
    number = int(value)
    if maximum is not None and number > maximum:
        return None
    return number


def small_ints(values, *, maximum: int | None = None) -> list[int] | None:
    """Every value as :func:`small_int`, or None if any is not one."""
    numbers = [small_int(value, maximum=maximum) for value in values]
    return None if any(number is None for number in numbers) else numbers


def json_depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    return deepest


def small_json(text: object, *, max_chars: int = MAX_JSON_CHARS, max_depth: int = MAX_JSON_DEPTH):
    """The value of the JSON ``text`` if it is at most ``max_chars`` long, nested at most ``max_depth``
    deep and valid (numbers included: at most ``max_chars`` digits, far under Python's limit); else
    None. ``null`` also gives None."""
    if not isinstance(text, str) or len(text) > max_chars or json_depth(text) > max_depth:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None
