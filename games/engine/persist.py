"""A game to and from JSON (with ``format_version``), and replay from the seed and the action log.

Cards are stored by id (the deck is rebuilt from the rule set and the number of players), melds by
their cards and what each plays as. :func:`dumps` gives a stable text (sorted keys, compact), so
two equal states give equal strings. :func:`replay` rebuilds a game from its seed and its actions;
the result equals the stored state.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from . import handfoot_deal
from .deal import DealState, TableMeld, Turn, deck_for
from .errors import InvalidOptions, _
from .game import GameState, apply, new_game
from .match import DealRecord
from .melds import Meld
from .scoring import DealScore

FORMAT_VERSION = 1
"""The layout of the JSON below."""

RULES_VERSION = 1
"""The behaviour of play: what a seed deals, what each action does, how deals score and end. Each game
stores the version it was created with (games.Game.rules_version). A change that would make a stored
move log replay differently bumps it, and either keeps the old behaviour for games of the old version
or migrates them in code with a test; docs/upgrades.md says how. tests/golden/ holds games of every rule
set that each later version must load, replay to the same state and finish."""


def _ids(cards) -> list[int]:
    return [card.id for card in cards]


def deal_to_json(deal: DealState) -> dict[str, Any]:
    return {
        "number": deal.number,
        "attempt": deal.attempt,
        "dealer": deal.dealer,
        "players": deal.players,
        "seed": deal.seed,
        "hands": [_ids(hand) for hand in deal.hands],
        "stock": _ids(deal.stock),
        "discard": _ids(deal.discard),
        "indicator": deal.indicator.id if deal.indicator is not None else None,
        "melds": [{"id": tm.id, "owner": tm.owner, **tm.meld.to_json()} for tm in deal.melds],
        "next_meld_id": deal.next_meld_id,
        "opened": list(deal.opened),
        "opening_totals": list(deal.opening_totals),
        "last_opening": deal.last_opening,
        "turns": list(deal.turns),
        "current": deal.current,
        "phase": deal.phase,
        "turn": deal.turn.to_json(),
        "fresh": deal.fresh,
        "events": deal.events,
        "result": deal.result,
    }


def deal_from_json(data: dict[str, Any], deck) -> DealState:
    def cards(ids):
        return [deck[card_id] for card_id in ids]

    return DealState(
        number=data["number"],
        attempt=data["attempt"],
        dealer=data["dealer"],
        players=data["players"],
        seed=data["seed"],
        hands=[cards(hand) for hand in data["hands"]],
        stock=cards(data["stock"]),
        discard=cards(data["discard"]),
        indicator=deck[data["indicator"]] if data["indicator"] is not None else None,
        melds=[TableMeld(item["id"], item["owner"], Meld.from_json(item, deck)) for item in data["melds"]],
        next_meld_id=data["next_meld_id"],
        opened=list(data["opened"]),
        opening_totals=list(data["opening_totals"]),
        last_opening=data["last_opening"],
        turns=list(data["turns"]),
        current=data["current"],
        phase=data["phase"],
        turn=Turn.from_json(data["turn"]),
        fresh=data["fresh"],
        events=list(data["events"]),
        result=data["result"],
    )


def to_json(state: GameState) -> dict[str, Any]:
    """The whole state as JSON-able data (holds hidden cards and the seed: never send it to a browser)."""
    if isinstance(state, handfoot_deal.FootGame):
        return handfoot_deal.to_json(state)
    return {
        "format_version": FORMAT_VERSION,
        "variant": state.variant,
        "options": dict(state.options),
        "players": state.players,
        "seed": state.seed,
        "first_dealer": state.first_dealer,
        "version": state.version,
        "finished": state.finished,
        "winners": list(state.winners),
        "records": [{"dealer": r.dealer, "score": r.score.to_json()} for r in state.records],
        "last_deal": state.last_deal,
        "deal": deal_to_json(state.deal),
    }


def from_json(data: dict[str, Any]) -> GameState:
    """Rebuild a state stored by :func:`to_json`; refuses an unknown ``format_version``."""
    version = data.get("format_version") if isinstance(data, dict) else None
    if version != FORMAT_VERSION:
        raise InvalidOptions(_("This game was saved in a format this version cannot read."))
    if data.get("family") == "hand-and-foot":
        return handfoot_deal.from_json(data)
    deck = deck_for(data["variant"], data["players"])
    return GameState(
        variant=data["variant"],
        options=dict(data["options"]),
        players=data["players"],
        seed=data["seed"],
        first_dealer=data["first_dealer"],
        deal=deal_from_json(data["deal"], deck),
        records=[DealRecord(r["dealer"], DealScore.from_json(r["score"])) for r in data["records"]],
        version=data["version"],
        finished=data["finished"],
        winners=list(data["winners"]),
        last_deal=data["last_deal"],
    )


def dumps(state: GameState) -> str:
    """Stable JSON text of the state (sorted keys, no spaces)."""
    return json.dumps(to_json(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> GameState:
    """The state stored as text by :func:`dumps`; refuses an unknown ``format_version`` (InvalidOptions)."""
    return from_json(json.loads(text))


def replay(
    variant: str,
    options: dict | None,
    players: int,
    seed: int,
    actions: Iterable[tuple[int | None, dict] | list],
) -> GameState:
    """Start the game again from its seed and apply the logged ``(seat, action)`` pairs in order."""
    state = new_game(variant, players, options, seed)
    for seat, action in actions:
        apply(state, seat, action)
    return state
