"""Random legal playouts (hypothesis) of both Hand and Foot rule sets.

After every action: every card is exactly once across draw pile, hands, feet, melds and discard
pile; no view holds a card another seat may not see, and no view at all holds a card of a foot not
yet picked up (its owner's included), nor the draw pile; random illegal actions raise and change
nothing. At the end: the state round-trips through JSON and replaying the seed and the actions gives
the same state. Every finished deal's points follow the spec's formula, worked out here again.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    HANDFOOT_ACTION_TYPES,
    view,
)
from games.engine.deal import deck_for
from games.engine.handfoot_deal import perform
from games.engine.variants import HAND_AND_FOOT_VARIANTS
from tests.engine.playout import Checks, random_playout
from tests.engine.playout import card_ids_shown as _card_ids
from tests.engine.test_playouts import THOROUGH

MODES = [("hand-and-foot", 2, None), ("hand-and-foot", 3, None), ("hand-and-foot-teams", 4, None)]
STEPS = 900


def check_cards_once(game) -> None:
    assert sorted(game.deal.all_card_ids()) == list(range(len(deck_for(game.variant, game.players))))


def check_views(game, seats=None) -> None:
    if game.finished:
        return
    deal = game.deal
    # Cards discarded in this deal are public history, though the pile may be in a hand now.
    public = {e["card"]["id"] for e in deal.events if e["type"] == "discarded"}
    feet = {c.id for foot in deal.feet for c in foot}
    stock = {c.id for c in deal.stock}
    hands = {c.id for hand in deal.hands for c in hand}
    spectator = view(game, None)
    spectator.pop("last_deal")
    seen = _card_ids(spectator)
    assert not seen & (feet | stock)
    assert not seen & hands - public
    assert spectator["hand"] is None
    for seat in range(game.players) if seats is None else seats:
        picture = view(game, seat)
        picture.pop("last_deal")
        own = {c.id for c in deal.hands[seat]}
        assert {c["id"] for c in picture["hand"]} == own
        shown = _card_ids(picture)
        assert not shown & (feet | stock)  # a foot is face down for its owner too
        assert shown <= own | seen
        assert "seed" not in picture


def expected_points(finished, variant) -> list[int]:
    """hand-and-foot.md "Score of a deal", per seat, from the finished deal."""
    rules = HAND_AND_FOOT_VARIANTS[variant]
    deal = finished.deal
    out = deal.result["went_out"]

    def cost(card) -> int:
        if card.rank == 3:
            return rules.red_three_cost if card.colour == "red" else rules.black_three_cost
        return rules.card_points[card.rank]

    by_side = {}
    for side in range(len(deal.opened)):
        seats = [s for s in range(finished.players) if finished.side_of(s) == side]
        points = 0
        for meld in finished.side_melds(side):
            if len(meld.cards) >= 7:
                points += 300 if any(c.rank in (0, 2) for c in meld.cards) else 500
            points += sum(rules.card_points[c.rank] for c in meld.cards)
        if out in seats:
            points += 100
        if not (rules.teams and out in seats):
            points -= sum(cost(c) for s in seats for c in deal.hands[s] + deal.feet[s])
        by_side[side] = points
    return [by_side[finished.side_of(s)] for s in range(finished.players)]


def concrete(moves: list[dict]) -> list[dict]:
    result = []
    for move in moves:
        if move["type"] == "lay_off":
            result += [
                {"type": "lay_off", "meld": t["meld"], "cards": [c]}
                for t in move["targets"]
                for c in t["cards"]
            ]
        elif move["type"] == "meld":
            result.append({"type": "meld", "melds": move["melds"]})
        else:
            result.append(move)
    return result


def junk_action(data, game) -> tuple[int, dict]:
    size = len(deck_for(game.variant, game.players))
    kind = data.draw(st.sampled_from([*HANDFOOT_ACTION_TYPES, "nonsense"]))
    card_ids = st.lists(st.integers(-1, size), min_size=0, max_size=4)
    action: dict = {"type": kind}
    if kind == "meld":
        action["melds"] = data.draw(st.lists(card_ids, max_size=2))
    elif kind in ("lay_off", "take_pile"):
        action["meld"] = data.draw(st.integers(0, 6))
        action["cards"] = data.draw(card_ids)
    elif kind == "discard":
        action["card"] = data.draw(st.one_of(st.integers(-1, size), st.none(), st.text(max_size=2)))
    return data.draw(st.integers(-1, game.players)), action


def _deal_ended(previous, seat, action, event) -> None:
    perform(previous, seat, action)  # the finished deal, before the next one is dealt
    assert event["points"] == expected_points(previous, previous.variant)


CHECKS = Checks(
    cards_once=check_cards_once,
    views=check_views,
    deal_ended=_deal_ended,
    junk=junk_action,
    concrete=concrete,
)


@pytest.mark.parametrize(("variant", "players", "options"), MODES, ids=lambda v: str(v))
def test_random_legal_hand_and_foot_playouts_keep_every_invariant(variant, players, options):
    ended: list[int] = []

    @given(data=st.data())
    def run(data):
        ended.append(random_playout(data, variant, players, options, CHECKS, max_steps=STEPS))

    if not THOROUGH:
        run = settings(max_examples=10)(run)
    run()
    assert ended
    assert sum(ended) >= 0.8 * len(ended), ended
