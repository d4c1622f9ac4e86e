"""Section 1 of hand-family.md: the deal, the indicator, the first dealer and the redeal demand."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import DomainError, apply, new_game, view
from games.engine.cards import JOKER
from games.engine.deal import DRAW, PLAY, deck_for, redeal_holding, start_deal
from games.engine.variants import HAND_VARIANTS
from tests.engine.conftest import Rig


def test_the_first_player_holds_15_cards_and_does_not_draw():
    game = new_game("classic", 4, seed=7)
    first = game.deal.first
    assert first == (game.deal.dealer + 1) % 4
    assert len(game.deal.hands[first]) == 15
    assert game.deal.current == first
    assert game.deal.phase == PLAY
    with pytest.raises(DomainError, match="do not draw in your first turn"):
        apply(game, first, {"type": "draw"})


def test_every_other_player_holds_14_cards_and_the_rest_is_the_stock():
    game = new_game("saudi", 5, seed=3)
    counts = [len(hand) for hand in game.deal.hands]
    assert sorted(counts) == [14, 14, 14, 14, 15]
    assert len(game.deal.stock) == 106 - 71
    assert sorted(game.deal.all_card_ids()) == list(range(106))


def test_the_same_seed_deals_the_same_cards_and_another_seed_does_not():
    one, two, other = (
        new_game("classic", 3, seed=42),
        new_game("classic", 3, seed=42),
        new_game("classic", 3, seed=43),
    )
    assert one.deal.hands == two.deal.hands
    assert one.deal.stock == two.deal.stock
    assert one.deal.hands != other.deal.hands


def test_the_first_dealer_is_drawn_at_random_from_the_seed():
    dealers = {new_game("classic", 4, seed=seed).deal.dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}


def test_kuwaiti_uses_one_deck_for_three_players_and_two_for_four():
    assert len(deck_for("kuwaiti", 3)) == 54
    assert len(deck_for("kuwaiti", 4)) == 106
    game = new_game("kuwaiti", 3, seed=1)
    assert len(game.deal.stock) == 54 - 43


def test_classic_saudi_and_kuwaiti_turn_no_indicator():
    for variant in ("classic", "saudi", "kuwaiti"):
        assert new_game(variant, 3, seed=5).deal.indicator is None


def test_a_jordanian_indicator_is_never_a_joker_and_a_turned_joker_goes_into_the_middle_of_the_stock():
    variant = HAND_VARIANTS["jordanian"]
    returned = None
    for seed in range(400):
        deal = start_deal(variant, 3, seed, 0, 0)
        assert deal.indicator is not None
        assert deal.indicator.rank != JOKER
        events = [e for e in deal.events if e["type"] == "indicator_joker_returned"]
        if events:
            returned = (deal, events[0]["card"]["id"])
            break
    assert returned is not None, "no seed in 0..399 turned a joker"
    deal, joker_id = returned
    position = [card.id for card in deal.stock].index(joker_id)
    assert abs(position - len(deal.stock) // 2) <= 1
    assert sorted(deal.all_card_ids()) == list(range(106))


def test_four_pairs_or_three_pairs_and_a_joker_or_two_pairs_and_both_jokers_allow_a_redeal(rig: Rig):
    def holding(text):
        game = rig("jordanian", 2, (text, "2C"))
        return redeal_holding(game.deal.hands[0])

    assert holding("7S 7S KD KD 2H 2H 9C 9C 3S 4S 5S 6S 8D 10D") is not None
    assert holding("7S 7S KD KD 2H 2H JK 3S 4S 5S 6S 8D 10D QH") is not None
    assert holding("7S 7S KD KD JK JK 3S 4S 5S 6S 8D 10D QH KH") is not None
    assert holding("7S 7S KD KD 2H 2H 3S 4S 5S 6S 8D 10D QH KH") is None
    assert holding("7S 7S KD KD JK 3S 4S 5S 6S 8D 10D QH KH AC") is None


def _redeal_seed():
    for seed in range(2000):
        game = new_game("jordanian", 4, seed=seed)
        for seat, hand in enumerate(game.deal.hands):
            if redeal_holding(hand) is not None:
                return seed, seat
    raise AssertionError("no redeal holding in 2000 seeds")


def test_a_redeal_is_dealt_by_the_same_dealer_and_nothing_is_scored():
    seed, seat = _redeal_seed()
    game = new_game("jordanian", 4, seed=seed)
    dealer, hands = game.deal.dealer, [list(h) for h in game.deal.hands]
    events = apply(game, seat, {"type": "redeal"})
    assert events[0]["type"] == "redeal_demanded"
    assert events[0]["seat"] == seat
    assert game.deal.dealer == dealer
    assert game.deal.number == 0
    assert game.deal.attempt == 1
    assert game.deal.hands != hands
    assert game.records == []


def test_the_new_deal_log_shows_who_demanded_the_redeal_and_the_cards_shown():
    seed, seat = _redeal_seed()
    game = new_game("jordanian", 4, seed=seed)
    shown = redeal_holding(game.deal.hands[seat])[0]
    apply(game, seat, {"type": "redeal"})
    first = game.deal.events[0]
    assert first["type"] == "redeal_demanded"
    assert first["seat"] == seat
    assert [c["face"] for c in first["cards"]] == [c.face for c in shown]
    assert game.deal.events[1]["type"] == "deal_started"
    for viewer in (None, 0, 1, 2, 3):
        assert view(game, viewer)["log"][0]["type"] == "redeal_demanded"


def test_a_redeal_may_be_demanded_only_before_the_first_move():
    seed, seat = _redeal_seed()
    game = new_game("jordanian", 4, seed=seed)
    first = game.deal.first
    apply(game, first, {"type": "discard", "card": game.deal.hands[first][0].id})
    with pytest.raises(DomainError, match="only before the first move"):
        apply(game, seat, {"type": "redeal"})


def test_a_redeal_needs_the_option_and_the_holding():
    seed, seat = _redeal_seed()
    game = new_game("jordanian", 4, {"redeal": False}, seed=seed)
    with pytest.raises(DomainError, match="no redeals"):
        apply(game, seat, {"type": "redeal"})
    game = new_game("jordanian", 4, seed=seed)
    others = [s for s in range(4) if redeal_holding(game.deal.hands[s]) is None]
    with pytest.raises(DomainError, match="do not allow a redeal"):
        apply(game, others[0], {"type": "redeal"})
    with pytest.raises(DomainError, match="no redeals"):
        apply(new_game("classic", 4, seed=seed), 0, {"type": "redeal"})


def test_every_card_of_the_deck_is_dealt_exactly_once():
    for variant, players in (("classic", 2), ("jordanian", 4), ("kuwaiti", 3), ("egyptian", 3)):
        game = new_game(variant, players, seed=99)
        counts = Counter(game.deal.all_card_ids())
        assert set(counts.values()) == {1}
        assert len(counts) == len(deck_for(variant, players))
        assert game.deal.phase in (DRAW, PLAY)
