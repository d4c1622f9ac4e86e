"""The public API in ``games/engine/__init__.py``: every name documented, the app's helpers exported."""

from __future__ import annotations

import inspect

import games.engine as engine


def _own_docstring(obj) -> str:
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else obj.__doc__
    doc = (doc or "").strip()
    if inspect.isclass(obj) and doc.startswith(f"{obj.__name__}("):
        return ""  # the signature a dataclass or NamedTuple writes for itself
    return doc


def test_every_public_function_and_class_of_the_engine_has_a_docstring():
    missing = [
        name
        for name in engine.__all__
        if (inspect.isfunction(getattr(engine, name)) or inspect.isclass(getattr(engine, name)))
        and not _own_docstring(getattr(engine, name))
    ]
    assert missing == []


def test_the_helpers_the_app_and_score_sheets_import_are_public():
    for name in ("wilds_of", "rules_of", "meld_spec", "worst_card", "deck_for", "face_text", "sides"):
        assert name in engine.__all__
        assert "Public" in getattr(engine, name).__doc__


def test_sides_are_partners_opposite_in_teams_and_single_seats_otherwise():
    assert engine.sides(4, True) == ((0, 2), (1, 3))
    assert engine.sides(3, False) == ((0,), (1,), (2,))
