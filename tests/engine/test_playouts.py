"""Random legal playouts (hypothesis) for every rule set and the teams mode.

After every action: every card is exactly once across stock, hands, melds, discard pile and
indicator; no view holds a card another seat may not see, nor the stock's order; random illegal
actions raise and change nothing. At the end: the state round-trips through JSON and replaying the
seed and the actions gives the same state. Every finished deal's scores follow section 6's tables.

``HYPOTHESIS_PROFILE=thorough`` (tests/engine/conftest.py) runs thousands of playouts.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    ACTION_TYPES,
    view,
)
from games.engine.cards import ACE, JOKER
from games.engine.deal import deck_for
from games.engine.melds import Wilds
from games.engine.variants import HAND_VARIANTS
from tests.engine.playout import Checks, card_ids_shown, random_playout

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
DEALS = 1
"""Deals per playout: the playout stops when this many deals have been scored (void ones included);
the thorough profile runs more playouts rather than longer ones."""
STEPS = 600
"""Step cap per playout (refused junk actions count too): far above a deal's length (kuwaiti 5p with
reshuffles ~140 actions; bots and random legal moves), so nearly every playout reaches a deal's end."""
REACHED_END = 0.8
"""At least this fraction of each mode's playouts must reach a deal's end, so the score check runs."""

MODES = [
    ("classic", 3, None),
    ("jordanian", 4, None),
    ("saudi", 4, None),
    ("kuwaiti", 2, None),
    ("kuwaiti", 3, {"reshuffle_discards": True}),
    ("egyptian", 3, None),
    ("classic", 4, {"teams": True}),
    ("jordanian", 4, {"teams": True}),
    ("saudi", 4, {"teams": True}),
    ("egyptian", 4, {"teams": True}),
]

# hand-family.md section 6, written out again here so that the engine is checked against the spec.
WINNER = {
    "normal": -30,
    "hand": -60,
    "announcement": -30,
    "regular": -60,
    "colored": -120,
    "suited": -240,
    "joker": -120,
    "double_joker": -240,
    "joker_colored": -240,
    "joker_suited": -480,
    "double_joker_colored": -480,
    "double_joker_suited": -720,
}
MULTIPLIER = {
    "normal": 1,
    "hand": 2,
    "announcement": 1,
    "regular": 2,
    "colored": 4,
    "suited": 8,
    "joker": 4,
    "double_joker": 8,
    "joker_colored": 8,
    "joker_suited": 16,
    "double_joker_colored": 32,
    "double_joker_suited": 64,
}
NOT_OPENED = {
    "normal": 100,
    "hand": 200,
    "announcement": 100,
    "regular": 200,
    "colored": 400,
    "suited": 800,
    "joker": 400,
    "double_joker": 800,
    "joker_colored": 800,
    "joker_suited": 1200,
    "double_joker_colored": 1600,
    "double_joker_suited": 3200,
}


_card_ids = card_ids_shown


def check_cards_once(game) -> None:
    ids = sorted(game.deal.all_card_ids())
    assert ids == list(range(len(deck_for(game.variant, game.players))))


def _reshuffled_discards(events) -> set[int]:
    """Cards seen discarded before the last reshuffle (kuwaiti option): public history, though they may
    be back in the stock or in a hand now (where exactly, nobody else can tell)."""
    last = max((i for i, event in enumerate(events) if event["type"] == "stock_reshuffled"), default=-1)
    return {event["card"]["id"] for event in events[:last] if event["type"] == "discarded"}


def check_views(game, seats=None) -> None:
    """No view shows a card hidden from that seat, nor any stock card (but a returned joker)."""
    if game.finished:
        return
    deal = game.deal
    public_in_hands = (
        {event["wild"]["id"] for event in deal.events if event["type"] == "exchanged"}
        | {event["card"]["id"] for event in deal.events if event["type"] == "indicator_joker_returned"}
        # a redeal demand of the previous attempt: its card ids say nothing about this deal
        | {card["id"] for event in deal.events if event.get("previous_deal") for card in event["cards"]}
        | _reshuffled_discards(deal.events)
    )
    hidden = {c.id for hand in deal.hands for c in hand} | {c.id for c in deal.stock}
    spectator = view(game, None)
    spectator.pop("last_deal")
    seen = _card_ids(spectator)
    assert not (seen & hidden - public_in_hands)
    assert spectator["hand"] is None
    for seat in range(game.players) if seats is None else seats:
        picture = view(game, seat)
        picture.pop("last_deal")
        own = {c.id for c in deal.hands[seat]}
        assert {c["id"] for c in picture["hand"]} == own
        assert _card_ids(picture) <= own | seen
        assert "seed" not in picture


def penalty(face: str, card_id: int, variant, players: int, indicator) -> int:
    """hand-family.md section 3, "left in hand": wild 15 (kuwaiti 20), ace 11, K Q J 10, else face."""
    card = deck_for(variant.slug, players)[card_id]
    assert card.face == face
    if Wilds(indicator).is_wild(card):
        return variant.wild_penalty
    if card.rank in (ACE, JOKER):
        return 11
    return min(card.rank, 10)


def check_deal_scores(before, ended: dict) -> None:
    """The finished deal's points follow the tables (``before``: the state before the last action)."""
    if ended["void"]:
        assert set(ended["points"]) == {0}
        return
    variant = HAND_VARIANTS[before.variant]
    winner, finish = ended["winner"], ended["finish"]
    indicator = before.deal.indicator
    opened = before.deal.opened

    def alone(seat: int) -> int:
        if seat == winner:
            return WINNER[finish]
        if not opened[seat]:
            return NOT_OPENED[finish]
        cards = ended["hands"][seat]
        held = sum(penalty(c["face"], c["id"], variant, before.players, indicator) for c in cards)
        return MULTIPLIER[finish] * held

    points = ended["points"]
    if before.teams:
        partner = (winner + 2) % 4
        assert points[winner] == points[partner] == WINNER[finish]
        losers = [s for s in range(4) if s % 2 != winner % 2]
        assert points[losers[0]] == points[losers[1]] == alone(losers[0]) + alone(losers[1])
    else:
        assert points == [alone(seat) for seat in range(before.players)]


def concrete(moves: list[dict]) -> list[dict]:
    """legal_actions' entries as concrete actions."""
    result = []
    for move in moves:
        if move["type"] == "lay_off":
            for target in move["targets"]:
                result += [{"type": "lay_off", "meld": target["meld"], "cards": [c]} for c in target["cards"]]
        elif move["type"] == "exchange":
            result += move["options"]
        elif move["type"] in ("meld", "announce"):
            result.append({"type": move["type"], "melds": move["melds"]})
        else:
            result.append(move)
    return result


def junk_action(data, game) -> tuple[int, dict]:
    size = len(deck_for(game.variant, game.players))
    kind = data.draw(st.sampled_from([*ACTION_TYPES, "nonsense"]))
    card_ids = st.lists(st.integers(-1, size), min_size=0, max_size=4)
    action: dict = {"type": kind}
    if kind in ("meld", "announce"):
        action["melds"] = data.draw(st.lists(card_ids, max_size=2))
    elif kind in ("lay_off", "exchange"):
        action["meld"] = data.draw(st.integers(0, 6))
        action["cards"] = data.draw(card_ids)
    elif kind == "discard":
        action["card"] = data.draw(st.one_of(st.integers(-1, size), st.none(), st.text(max_size=2)))
    elif kind == "take_discard":
        action["melds"] = data.draw(st.lists(card_ids, max_size=2))
    seat = data.draw(st.integers(-1, game.players))
    return seat, action


def _deal_ended(previous, _seat, _action, event) -> None:
    check_deal_scores(previous, event)


CHECKS = Checks(
    cards_once=check_cards_once,
    views=check_views,
    deal_ended=_deal_ended,
    junk=junk_action,
    concrete=concrete,
)


@pytest.mark.parametrize(("variant", "players", "options"), MODES, ids=lambda v: str(v))
def test_random_legal_playouts_keep_every_invariant_and_reach_the_end_of_a_deal(variant, players, options):
    ended: list[int] = []

    @given(data=st.data())
    def run(data):
        ended.append(random_playout(data, variant, players, options, CHECKS, max_steps=STEPS, deals=DEALS))

    if not THOROUGH:  # the default profile's 50 examples per mode would take over a minute on 2 cores
        run = settings(max_examples=30)(run)

    run()
    # Hypothesis may replay an example while shrinking a failure; a passing run counts each once.
    assert ended
    assert sum(1 for count in ended if count) >= REACHED_END * len(ended), ended
