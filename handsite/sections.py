"""Sections that other apps add to handsite's pages, without handsite importing them.

An app registers, from its ``AppConfig.ready``, a template and a function that builds that template's
context: ``register_group_section("games/_group_section.html", games.sections.group_section)``. The
group page's view calls :func:`group_sections`, the home page's :func:`home_sections`; each builder runs
its own few queries (bounded: never one per game or sheet), and the page renders each template with
``{% render_section section %}`` (``handsite/templatetags/sections.py``), which queries nothing.

Builders: ``group(request, group, membership) -> dict`` and ``home(request) -> dict``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Section:
    """One section ready to render: its template and the context its builder made."""

    template: str
    context: dict[str, Any]


@dataclass(frozen=True, slots=True)
class _Entry:
    template: str
    build: Callable[..., dict[str, Any]]
    order: int


_GROUP: dict[str, _Entry] = {}
_HOME: dict[str, _Entry] = {}


def register_group_section(template: str, build: Callable[..., dict[str, Any]], *, order: int = 100) -> None:
    """Show ``template`` on every group page, with the context ``build(request, group, membership)``
    returns. Sections are shown by ``order``, then by template name; registering a template again
    replaces it."""
    _GROUP[template] = _Entry(template, build, order)


def register_home_section(template: str, build: Callable[..., dict[str, Any]], *, order: int = 100) -> None:
    """Show ``template`` on a logged-in person's home page, with the context ``build(request)`` returns."""
    _HOME[template] = _Entry(template, build, order)


def _sorted(entries: dict[str, _Entry]) -> list[_Entry]:
    return sorted(entries.values(), key=lambda entry: (entry.order, entry.template))


def group_sections(request, group, membership) -> list[Section]:
    return [Section(e.template, e.build(request, group, membership)) for e in _sorted(_GROUP)]


def home_sections(request) -> list[Section]:
    return [Section(e.template, e.build(request)) for e in _sorted(_HOME)]


def registered() -> dict[str, list[str]]:
    """The templates registered, page by page (for tests and checks)."""
    return {"group": [e.template for e in _sorted(_GROUP)], "home": [e.template for e in _sorted(_HOME)]}
