"""Typed readers for environment variables.

Every reader refuses a bad value with ImproperlyConfigured naming the variable and
what it accepts, so a typo in the environment stops the site at start-up instead of
quietly running with a default.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from django.core.exceptions import ImproperlyConfigured

TRUE_VALUES = frozenset({"1", "true", "yes", "on"})
FALSE_VALUES = frozenset({"0", "false", "no", "off"})

_MISSING = object()


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    value = (os.environ if environ is None else environ).get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: object = _MISSING, *, environ: Mapping[str, str] | None = None) -> str:
    """A string; with no default the variable is required."""
    value = _raw(name, environ)
    if value is None:
        if default is _MISSING:
            raise ImproperlyConfigured(f"The environment variable {name} is required but not set.")
        return default  # type: ignore[return-value]
    return value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    value = _raw(name, environ)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in TRUE_VALUES:
        return True
    if lowered in FALSE_VALUES:
        return False
    allowed = ", ".join(sorted(TRUE_VALUES | FALSE_VALUES))
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean; use one of: {allowed}.")


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum {minimum}.")
    if maximum is not None and number > maximum:
        raise ImproperlyConfigured(f"{name}={number} is above the maximum {maximum}.")
    return number


def env_list(name: str, default: list[str], *, environ: Mapping[str, str] | None = None) -> list[str]:
    """A comma-separated list; empty items are dropped."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(
    name: str, default: str, choices: list[str] | tuple[str, ...], *, environ: Mapping[str, str] | None = None
) -> str:
    value = _raw(name, environ)
    if value is None:
        return default
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} is not allowed; use one of: {', '.join(choices)}.")
    return value


def env_url(
    name: str,
    default: str | None,
    schemes: tuple[str, ...],
    *,
    environ: Mapping[str, str] | None = None,
) -> str | None:
    """A URL whose scheme must be one of `schemes`."""
    value = _raw(name, environ)
    if value is None:
        return default
    scheme, sep, rest = value.partition("://")
    if not sep or not rest:
        raise ImproperlyConfigured(f"{name}={value!r} is not a URL (expected scheme://...).")
    if scheme not in schemes:
        raise ImproperlyConfigured(f"{name} uses the scheme {scheme!r}; use one of: {', '.join(schemes)}.")
    return value
