"""The random playout both playout tests run (tests/engine/test_playouts.py for the Hand rule sets,
test_handfoot_playouts.py for Hand and Foot): bot moves, random legal moves and random junk, with the
invariants checked after every action and at the end. Each family passes its own checks."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import strategies as st

from games.engine import DomainError, apply, bot_action, can, dumps, legal_actions, loads, new_game, replay

CARD = re.compile(r'\{"id": (-?\d+), "face": "')


def card_ids_shown(node) -> set[int]:
    """Every card id shown in a view (cards are ``{"id": ..., "face": ...}`` dicts)."""
    return {int(match) for match in CARD.findall(json.dumps(node))}


@dataclass(frozen=True)
class Checks:
    """A family's checks: every card once (``cards_once(game)``), no leak in the views
    (``views(game, seats_or_None)``), a finished deal's points (``deal_ended(previous, seat, action,
    event)``, ``previous`` being the state before the action); ``junk(data, game) -> (seat, action)``
    makes a random action, ``concrete(legal_actions)`` turns the offers into actions."""

    cards_once: Callable
    views: Callable
    deal_ended: Callable
    junk: Callable
    concrete: Callable


def random_playout(data, variant, players, options, checks: Checks, *, max_steps: int, deals: int = 1) -> int:
    """One random playout from a drawn seed; returns how many deals ended (and had their points
    checked). It stops after ``deals`` deals, at the game's end or after ``max_steps`` actions (refused
    junk included). A refused action must raise and change nothing; at the end the state round-trips
    through JSON and the seed and log replay to it."""
    seed = data.draw(st.integers(0, 2**63 - 1), label="seed")
    game = new_game(variant, players, options, seed)
    log = []
    ended = 0
    checks.cards_once(game)
    for _step in range(max_steps):
        if game.finished or ended >= deals:
            break
        choice = data.draw(st.integers(0, 9))
        seat = game.deal.current
        if choice >= 8:
            junk_seat, junk = checks.junk(data, game)
            if not can(game, junk_seat, junk):
                before = dumps(game)
                with pytest.raises(DomainError):
                    apply(game, junk_seat, junk)
                assert dumps(game) == before
                continue
            seat, action = junk_seat, junk
        elif choice >= 6:
            moves = checks.concrete(legal_actions(game, seat))
            action = data.draw(st.sampled_from(moves)) if moves else bot_action(game, seat)
        else:
            action = bot_action(game, seat)
        assert can(game, seat, action), action
        previous = game.copy()
        events = apply(game, seat, action)
        log.append((seat, action))
        checks.cards_once(game)
        checks.views(game, None if len(log) % 10 == 0 else {seat % game.players, game.deal.current})
        for event in events:
            if event["type"] == "deal_ended":
                checks.deal_ended(previous, seat, action, event)
                ended += 1
    checks.views(game, None)
    assert dumps(loads(dumps(game))) == dumps(game)
    assert dumps(replay(variant, options, players, seed, log)) == dumps(game)
    return ended
