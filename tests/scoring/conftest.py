"""Helpers for score-sheet tests: sheets made through the service, with the fixed cast."""

from __future__ import annotations

import uuid

import pytest

from scoring.services.sheets import PlayerEntry, create_sheet
from scoring.services.state import sheet_state


def make_sheet(group, by, rule_set, players, *, options=None, first_dealer=0, title="", played_on=None):
    """A sheet through the service. ``players``: names (guests) or users (members), in seat order."""
    entries = [PlayerEntry(name=p) if isinstance(p, str) else PlayerEntry(user=p) for p in players]
    return create_sheet(
        group=group,
        by=by,
        rule_set=rule_set,
        players=entries,
        options=options or {},
        first_dealer=first_dealer,
        title=title,
        played_on=played_on,
    )


def hand(winner, opened, held, finish="normal", **extra):
    """Raw Hand-family facts."""
    return {"winner": winner, "finish": finish, "opened": list(opened), "held": list(held), **extra}


def void(players):
    return {"winner": None, "finish": "normal", "opened": [False] * players, "held": [None] * players}


def points(sheet, index=-1):
    """The points by seat of a deal (the last one by default), derived from its facts."""
    return sheet_state(sheet).rows[index].score.points_by_seat()


@pytest.fixture
def sheet_factory(group, owner):
    def factory(rule_set, players, **kwargs):
        return make_sheet(group, owner, rule_set, players, **kwargs)

    return factory


def keyed(data: dict) -> dict:
    """A new-deal form post as the page sends it: with the form's id, made when it was shown."""
    return {"deal_key": str(uuid.uuid4()), **data}
