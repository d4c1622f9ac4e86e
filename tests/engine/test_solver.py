"""The meld solver: melding a whole hand, going out, the most valuable melds, kuwaiti named hands."""

from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import Card, make_deck, parse_cards
from games.engine.melds import MeldRules, Wilds, is_valid_meld, meld_options, meld_value
from games.engine.scoring import HAND_NAMES
from games.engine.solver import (
    KUWAITI_HAND_ORDER,
    best_melds,
    can_meld_all,
    going_out_melds,
    kuwaiti_hand,
    meld_partition,
)

JOKERS = Wilds()
ONE = MeldRules()
TWO = MeldRules(max_wild=2)
SEVEN_OF_HEARTS = Wilds(Card(500, 7, "H"))


def cards(text):
    return parse_cards(text)


def described(melds):
    return sorted(m.describe() for m in melds)


def assert_uses_each_card_once(melds, hand, wilds, rules):
    used = [c.id for m in melds for c in m.cards]
    assert sorted(used) == sorted(c.id for c in hand)
    assert all(is_valid_meld(m, wilds, rules) for m in melds)


# --- can_meld_all / meld_partition ------------------------------------------------------------


def test_a_hand_of_a_set_and_a_run_can_all_be_melded():
    hand = cards("7S 7H 7D 9C 10C JC")
    assert can_meld_all(hand, JOKERS, ONE)
    assert described(meld_partition(hand, JOKERS, ONE)) == ["7S 7H 7D", "9C 10C JC"]


def test_a_lonely_card_means_the_hand_cannot_all_be_melded():
    assert not can_meld_all(cards("7S 7H 7D 9C 10C JC 2D"), JOKERS, ONE)
    assert meld_partition(cards("7S 7H 7D 9C 10C JC 2D"), JOKERS, ONE) is None


def test_wild_cards_must_be_melded_too():
    assert can_meld_all(cards("7S 7H 7D JK"), JOKERS, ONE)
    assert not can_meld_all(cards("7S 7H 7D 7C JK"), JOKERS, ONE)


def test_two_wild_cards_need_two_melds_with_one_wild_per_meld():
    hand = cards("5S 6S JK 9H 9D JK")
    assert can_meld_all(hand, JOKERS, ONE)
    assert not can_meld_all(cards("5S 6S 8S JK JK"), JOKERS, ONE)
    assert can_meld_all(cards("5S 6S 8S JK JK"), JOKERS, TWO)  # 4S/9S 5S 6S 7S 8S
    assert not can_meld_all(cards("5S 6S JK JK"), JOKERS, TWO)  # as many wild as natural cards


def test_identical_cards_of_two_decks_go_into_different_melds():
    hand = cards("5S 5S 6S 6S 7S 7S")
    melds = meld_partition(hand, JOKERS, ONE)
    assert described(melds) == ["5S 6S 7S", "5S 6S 7S"]


def test_a_card_may_be_split_between_a_set_and_a_run():
    hand = cards("5S 6S 7S 7H 7D 7C")
    melds = meld_partition(hand, JOKERS, ONE)
    assert melds is not None
    assert_uses_each_card_once(melds, hand, JOKERS, ONE)


def test_an_ace_can_close_a_high_run_and_open_a_low_one_in_the_same_hand():
    hand = cards("AS 2S 3S QS KS AS")
    assert described(meld_partition(hand, JOKERS, ONE)) == ["AS 2S 3S", "QS KS AS"]


def test_no_run_wraps_around_the_ace():
    assert not can_meld_all(cards("KS AS 2S"), JOKERS, ONE)


def test_the_indicator_decides_which_cards_are_wild_in_the_solver():
    hand = cards("QH KH JK 5S 5D AH")  # JK is a natural AH, AH is wild (indicator 7H)
    melds = meld_partition(hand, SEVEN_OF_HEARTS, ONE)
    assert described(melds) == ["5S 5D AH(5)", "QH KH JK(AH)"]
    assert not can_meld_all(cards("5S AH JK"), SEVEN_OF_HEARTS, ONE)


def test_a_fifteen_card_hand_with_two_wilds_is_solved():
    hand = cards("AS 2S JK 5H 5D 5C 9C 10C JC QC KC 7D 7H 7S JK")
    melds = meld_partition(hand, JOKERS, ONE)
    assert melds is not None
    assert_uses_each_card_once(melds, hand, JOKERS, ONE)


# --- going_out_melds --------------------------------------------------------------------------


def test_going_out_melds_all_but_one_card_and_discards_it():
    hand = cards("7S 7H 7D 9C 10C JC 2D")
    melds, discard = going_out_melds(hand, JOKERS, ONE)
    assert discard.face == "2D"
    assert described(melds) == ["7S 7H 7D", "9C 10C JC"]


def test_going_out_prefers_discarding_the_highest_penalty_card():
    hand = cards("7S 7H 7D 7C 9C 10C JC")  # any one of the 7s can go
    _melds, discard = going_out_melds(hand, JOKERS, ONE)
    assert discard.rank == 7
    hand = cards("5S 6S 7S 8S 9H 9D 9C")  # 5S or 8S can go: 8S costs more
    _melds, discard = going_out_melds(hand, JOKERS, ONE)
    assert discard.face == "8S"
    hand = cards("5S 6S 7S 9H 9D 9C JK")  # the joker is the dearest card to keep
    _melds, discard = going_out_melds(hand, JOKERS, ONE)
    assert discard.face == "JK"


def test_going_out_is_impossible_with_two_lonely_cards():
    assert going_out_melds(cards("7S 7H 7D 2C 9D"), JOKERS, ONE) is None


def test_a_player_can_never_meld_the_last_card():
    assert going_out_melds(cards("7S 7H 7D"), JOKERS, ONE) is None


# --- best_melds -------------------------------------------------------------------------------


def test_best_melds_takes_the_most_valuable_disjoint_melds():
    hand = cards("KS KH KD QS JS 2C 3C 4C 9D")
    melds = best_melds(hand, JOKERS, ONE)
    # KS KH KD (30) + 2C 3C 4C (9) beats KH KD + ... : KS QS JS needs KS too
    assert sum(meld_value(m, ONE) for m in melds) == 39


def test_best_melds_honours_a_minimum_total():
    hand = cards("2S 3S 4S 9D")
    assert described(best_melds(hand, JOKERS, ONE)) == ["2S 3S 4S"]
    assert best_melds(hand, JOKERS, ONE, minimum_total=51) == []


def test_best_melds_of_a_hand_without_melds_is_empty():
    assert best_melds(cards("2S 5H 9D KC"), JOKERS, ONE) == []


def test_best_melds_counts_a_low_ace_by_the_variant():
    hand = cards("AS 2S 3S")
    assert sum(meld_value(m, ONE) for m in best_melds(hand, JOKERS, ONE)) == 6
    jordanian = MeldRules(ace_in_low_run=11)
    assert sum(meld_value(m, jordanian) for m in best_melds(hand, JOKERS, jordanian)) == 16


# --- kuwaiti named hands ----------------------------------------------------------------------


def test_the_hand_order_names_are_the_scoring_rows():
    assert set(KUWAITI_HAND_ORDER) == set(HAND_NAMES) - {"announcement"}


def test_a_regular_hand_melds_fourteen_cards_and_discards_one():
    hand = cards("AS 2S 3S 7S 7H 7D 9C 10C JC QC 5H 5D 5C KD KC")
    result = kuwaiti_hand(hand, JOKERS, ONE)
    assert result.name == "regular"
    assert len(result.discards) == 1
    assert_uses_each_card_once(result.melds, [c for c in hand if c not in result.discards], JOKERS, ONE)


def test_a_colored_hand_is_all_one_colour():
    hand = cards("AH 2H 3H 4H 5D 6D 7D 8D 9D 10H JH QH KH 5H 9H")
    result = kuwaiti_hand(hand, JOKERS, ONE)
    assert result.name == "colored"


def test_a_suited_hand_is_all_one_suit():
    hand = cards("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2S 9S")
    result = kuwaiti_hand(hand, JOKERS, ONE)
    assert result.name == "suited"
    assert len(result.discards) == 1


def test_a_joker_inside_a_meld_takes_the_suit_of_the_card_it_stands_for():
    hand = cards("AS 2S 3S 4S 4S 5S 6S 7S 8S 9S 10S JS QS KS JK")
    result = kuwaiti_hand(hand, JOKERS, ONE)
    # Discarding the joker leaves 14 spades that meld: a Joker Suited Hand beats a Suited Hand.
    assert result.name == "joker_suited"
    hand = cards("AS 2S JK 4S 4S 5S 6S 7S 8S 9S 10S JS QS KS 9S")
    result = kuwaiti_hand(hand, JOKERS, ONE)
    assert result.name == "suited"
    assert any("JK(3S)" in meld for meld in described(result.melds))


def test_a_joker_hand_discards_a_joker():
    hand = cards("AS 2S 3S 7S 7H 7D 9C 10C JC QC 5H 5D 5C KD JK")
    hand[-2] = Card(hand[-2].id, 13, "C")  # KC: 9C-KC run
    result = kuwaiti_hand(hand, JOKERS, ONE)
    assert result.name == "joker"
    assert [c.face for c in result.discards] == ["JK"]


def test_a_double_joker_hand_discards_both_jokers():
    hand = cards("AS 2S 3S 7S 7H 7D 9C 10C JC QC 5H 5D 5C JK JK")
    result = kuwaiti_hand(hand, JOKERS, ONE)
    assert result.name == "double_joker"
    assert [c.face for c in result.discards] == ["JK", "JK"]


def test_double_joker_colored_and_suited_hands():
    hand = cards("AH 2H 3H 4H 5D 6D 7D 8D 9D 10H JH QH KH JK JK")
    assert kuwaiti_hand(hand, JOKERS, ONE).name == "double_joker_colored"
    hand = cards("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH JK JK")
    assert kuwaiti_hand(hand, JOKERS, ONE).name == "double_joker_suited"


def test_egyptian_jokers_are_the_wild_aces_of_the_deal():
    hand = cards("2S 3S 4S 7S 7H 7D 9C 10C JC QC 5H 5D 5C AH AH")  # indicator 7H: AH wild
    result = kuwaiti_hand(hand, SEVEN_OF_HEARTS, ONE)
    assert result.name == "double_joker"
    assert [c.face for c in result.discards] == ["AH", "AH"]


def test_no_named_hand_when_fourteen_cards_cannot_be_melded():
    assert kuwaiti_hand(cards("AS 2S 3S 7S 7H 7D 9C 10C JC QC 5H 5D 2C KD 4H"), JOKERS, ONE) is None


# --- properties -------------------------------------------------------------------------------

DECK = make_deck(2, 2)


@st.composite
def small_hands(draw, max_size=9):
    """A few cards from a narrow corner of the deck, so that melds are common."""
    low = draw(st.integers(1, 11))
    ranks = {r if r <= 13 else 1 for r in range(low, low + draw(st.integers(3, 5)))}
    suits = draw(st.lists(st.sampled_from("SHDC"), min_size=1, max_size=3, unique=True))
    pool = [c for c in DECK if (c.rank in ranks and c.suit in suits) or c.rank == 0]
    return draw(st.lists(st.sampled_from(pool), min_size=3, max_size=max_size, unique_by=lambda c: c.id))


WILDS = st.sampled_from([JOKERS, SEVEN_OF_HEARTS, Wilds(Card(500, 1, "S"))])
RULES = st.sampled_from([ONE, TWO, MeldRules(1, 11)])


def brute_force_can_meld_all(hand, wilds, rules):
    """Reference: the first card goes into some meld with some of the others; try them all."""
    from itertools import combinations

    @cache
    def solve(ids):
        if not ids:
            return True
        by_id = {c.id: c for c in hand}
        first, rest = ids[0], ids[1:]
        for size in range(2, len(rest) + 1):
            for others in combinations(rest, size):
                if meld_options([by_id[first], *(by_id[i] for i in others)], wilds, rules):
                    left = tuple(i for i in rest if i not in others)
                    if solve(left):
                        return True
        return False

    return solve(tuple(sorted(c.id for c in hand)))


@settings(max_examples=300, deadline=None)
@given(hand=small_hands(), wilds=WILDS, rules=RULES)
def test_can_meld_all_agrees_with_a_brute_force_reference(hand, wilds, rules):
    expected = brute_force_can_meld_all(hand, wilds, rules)
    assert can_meld_all(hand, wilds, rules) == expected
    melds = meld_partition(hand, wilds, rules)
    assert (melds is not None) == expected
    if melds is not None:
        assert_uses_each_card_once(melds, hand, wilds, rules)


@settings(max_examples=150, deadline=None)
@given(hand=small_hands(max_size=10), wilds=WILDS, rules=RULES)
def test_going_out_and_best_melds_use_each_card_at_most_once(hand, wilds, rules):
    result = going_out_melds(hand, wilds, rules)
    if result is not None:
        melds, discard = result
        assert_uses_each_card_once(melds, [c for c in hand if c.id != discard.id], wilds, rules)
    best = best_melds(hand, wilds, rules)
    used = [c.id for m in best for c in m.cards]
    assert len(used) == len(set(used))
    assert all(is_valid_meld(m, wilds, rules) for m in best)
    total = sum(meld_value(m, rules) for m in best)
    single = [meld_value(m, rules) for size in (3, 4) for m in _some_melds(hand, wilds, rules, size)]
    assert total >= max(single, default=0)
    if result is not None:
        assert total >= sum(meld_value(m, rules) for m in result[0])


def _some_melds(hand, wilds, rules, size):
    from itertools import combinations

    for group in combinations(hand, size):
        yield from meld_options(group, wilds, rules)
