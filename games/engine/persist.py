"""A Hand-family game to and from JSON (with ``format_version``); :mod:`.family` gives every family's
``to_json``, ``from_json``, ``dumps``, ``loads`` and ``replay``.

Cards are stored by id (the deck is rebuilt from the rule set and the number of players), melds by
their cards and what each plays as.
"""

from __future__ import annotations

from typing import Any

from .deal import DealState, TableMeld, Turn, deck_for
from .game import GameState
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
    """Rebuild a state stored by :func:`to_json` (:func:`.family.from_json` has checked its
    ``format_version``)."""
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
