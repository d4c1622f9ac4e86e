"""Sets, runs, wild cards, meld values, lay-offs and wild exchanges (hand-family.md sections 2-3)."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine.cards import Card, make_deck, parse_cards
from games.engine.errors import MeldError
from games.engine.melds import (
    AmbiguousWild,
    Meld,
    MeldRules,
    Wilds,
    exchange_wild,
    is_valid_meld,
    lay_off,
    make_meld,
    meld_options,
    meld_value,
)

JOKERS = Wilds()
ONE = MeldRules()
TWO = MeldRules(max_wild=2)
JORDANIAN = MeldRules(ace_in_low_run=11)
SEVEN_OF_HEARTS = Wilds(Card(200, 7, "H"))  # aces of hearts wild, jokers natural aces of hearts
ACE_OF_SPADES = Wilds(Card(200, 1, "S"))  # jokers wild, every ace natural


def meld(text, wilds=JOKERS, rules=ONE, **kwargs):
    return make_meld(parse_cards(text), wilds, rules, **kwargs)


def refusal(text, wilds=JOKERS, rules=ONE, **kwargs):
    with pytest.raises(MeldError) as caught:
        meld(text, wilds, rules, **kwargs)
    return str(caught.value)


def faces(m):
    return " ".join(("A" if r == 1 else str(r)) + s for r, s in m.plays_as)


# --- Sets -----------------------------------------------------------------------------------


def test_three_or_four_cards_of_one_rank_in_different_suits_are_a_set():
    assert meld("7S 7H 7D").kind == "set"
    assert meld("7S 7H 7D 7C").kind == "set"


def test_a_set_may_not_hold_two_cards_of_the_same_suit():
    assert refusal("7S 7S 7D") == "A set needs cards of different suits."


def test_a_set_has_at_most_four_cards():
    assert refusal("7S 7H 7D 7C 7S") == "A set has at most four cards."


def test_a_meld_needs_at_least_three_cards():
    assert refusal("7S 7H") == "A meld needs at least three cards."


def test_a_wild_card_in_a_three_card_set_stands_for_either_missing_suit():
    m = meld("10C 10D JK")
    assert m.plays_as[-1] == (10, "")
    assert m.cards[-1].rank == 0


def test_a_wild_card_in_a_four_card_set_stands_for_the_one_missing_suit():
    m = meld("10C 10D 10S JK")
    assert dict(zip([c.face for c in m.cards], m.plays_as, strict=True))["JK"] == (10, "H")


def test_a_set_wild_named_for_a_suit_already_present_is_refused():
    assert "cannot stand for" in refusal("10C 10D JK", wild_as={2: "10C"})


# --- Runs -----------------------------------------------------------------------------------


def test_three_or_more_consecutive_cards_of_one_suit_are_a_run_from_low_to_high():
    m = meld("9S 7S 8S 10S")
    assert m.kind == "run"
    assert [c.face for c in m.cards] == ["7S", "8S", "9S", "10S"]


def test_a_run_needs_one_suit():
    assert refusal("7S 8H 9S") == (
        "A meld is a set (one rank, different suits) or a run (consecutive cards of one suit)."
    )


def test_a_run_needs_consecutive_cards():
    assert refusal("7S 8S 10S") == "A run needs consecutive cards of one suit."


def test_the_ace_is_low_or_high_in_a_run():
    assert faces(meld("AS 2S 3S")) == "AS 2S 3S"
    assert faces(meld("QS KS AS")) == "12S 13S AS"


def test_a_run_may_not_wrap_around_the_ace():
    assert refusal("KS AS 2S") == "An ace is low (A-2-3) or high (Q-K-A) in a run, never in the middle."


def test_a_run_may_not_hold_two_aces_so_it_has_at_most_thirteen_cards():
    whole_suit = " ".join(f"{r}S" for r in ["A", 2, 3, 4, 5, 6, 7, 8, 9, 10, "J", "Q", "K"])
    assert len(meld(whole_suit).cards) == 13
    assert refusal(whole_suit + " AS") == "A run has at most thirteen cards."


def test_a_thirteen_card_run_plays_its_ace_high():
    whole_suit = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    m = meld(whole_suit)
    assert m.cards[-1].face == "AS"
    assert meld_value(m, ONE) == 2 + 3 + 4 + 5 + 6 + 7 + 8 + 9 + 10 + 30 + 11


# --- Wild cards -----------------------------------------------------------------------------


def test_a_wild_card_fills_a_gap_in_a_run_without_asking():
    m = meld("9S JK JS")
    assert faces(m) == "9S 10S 11S"


def test_a_wild_card_at_either_end_of_a_run_must_be_named():
    with pytest.raises(AmbiguousWild) as caught:
        meld("9S 10S JK")
    assert str(caught.value) == "Say which card the joker stands for: 8♠ or J♠."
    assert caught.value.template == "Say which card the joker stands for: {choices}."
    assert len(caught.value.choices) == 2


def test_naming_the_wild_card_settles_the_run():
    assert faces(meld("9S 10S JK", wild_as={2: "JS"})) == "9S 10S 11S"
    assert faces(meld("9S 10S JK", wild_as={2: "8S"})) == "8S 9S 10S"


def test_a_wild_card_named_as_a_card_it_cannot_be_is_refused():
    assert refusal("9S 10S JK", wild_as={2: "QS"}) == "The 🃏 cannot stand for Q♠ in this meld."


def test_only_a_wild_card_can_be_named():
    assert (
        refusal("9S 10S JK", wild_as={0: "QS"}) == "Only a wild card of the meld can stand for another card."
    )


def test_a_meld_may_hold_at_most_one_wild_card_by_default():
    assert refusal("5S 6S 7S JK JK") == "A meld may hold at most one wild card."


def test_the_two_wild_option_allows_two_wild_cards_in_a_long_run():
    m = meld("5S 7S 9S JK JK", rules=TWO)
    assert faces(m) == "5S 6S 7S 8S 9S"


def test_a_meld_needs_more_natural_cards_than_wild_cards():
    assert refusal("5S 6S JK JK", rules=TWO) == "A meld needs more natural cards than wild cards."
    assert refusal("5S 5D JK JK", rules=TWO) == "A meld needs more natural cards than wild cards."


def test_a_meld_of_only_wild_cards_is_illegal():
    assert (
        refusal("JK JK JK", rules=MeldRules(max_wild=3)) == "A meld needs more natural cards than wild cards."
    )


def test_two_ambiguous_wild_cards_ask_for_both():
    with pytest.raises(AmbiguousWild) as caught:
        meld("5S 6S 7S JK JK", rules=TWO)
    assert caught.value.template == "Say which cards the wild cards stand for: {choices}."
    assert "3♠ + 4♠" in str(caught.value)


def test_meld_options_lists_every_reading():
    readings = meld_options(parse_cards("QS KS JK"), JOKERS, ONE)
    assert sorted(faces(m) for m in readings) == ["11S 12S 13S", "12S 13S AS"]
    assert meld_options(parse_cards("QS KD JK"), JOKERS, ONE) == []


# --- The jordanian / egyptian indicator (scoring example 5) ----------------------------------


def test_an_indicator_that_is_not_an_ace_makes_its_suits_aces_wild_and_the_jokers_natural():
    joker, ace_h, ace_s = Card(1, 0, ""), Card(2, 1, "H"), Card(3, 1, "S")
    assert SEVEN_OF_HEARTS.is_wild(ace_h)
    assert not SEVEN_OF_HEARTS.is_wild(joker)
    assert not SEVEN_OF_HEARTS.is_wild(ace_s)
    assert SEVEN_OF_HEARTS.natural_face(joker) == (1, "H")


def test_example_5_a_natural_joker_is_an_ace_of_hearts_in_a_run():
    m = meld("QH KH JK", SEVEN_OF_HEARTS, JORDANIAN)
    assert meld_value(m, JORDANIAN) == 31
    assert m.cards[-1].face == "JK"


def test_example_5_a_wild_ace_of_hearts_completes_a_set():
    m = meld("5S 5D AH", SEVEN_OF_HEARTS, JORDANIAN)
    assert m.kind == "set"
    assert m.plays_as[-1] == (5, "")
    assert meld_value(m, JORDANIAN) == 15


def test_example_5_a_natural_joker_is_not_a_five():
    with pytest.raises(MeldError):
        meld("5S AH JK", SEVEN_OF_HEARTS, JORDANIAN)


def test_example_5_two_wild_aces_are_too_many():
    assert refusal("AH AH 5S 5D", SEVEN_OF_HEARTS, JORDANIAN) == "A meld may hold at most one wild card."


def test_example_5_with_an_ace_as_indicator_the_jokers_are_wild_and_every_ace_natural():
    assert ACE_OF_SPADES.is_wild(Card(1, 0, ""))
    assert not ACE_OF_SPADES.is_wild(Card(2, 1, "S"))
    assert meld("AH AD AS", ACE_OF_SPADES, JORDANIAN).kind == "set"
    assert meld("5S 5D JK", ACE_OF_SPADES, JORDANIAN).plays_as[-1] == (5, "")


def test_a_wild_ace_may_stand_for_itself_and_still_counts_as_the_wild_card():
    m = meld("QH KH AH", SEVEN_OF_HEARTS, JORDANIAN, wild_as={2: "AH"})
    assert meld_value(m, JORDANIAN) == 31
    with pytest.raises(AmbiguousWild) as caught:
        meld("QH KH AH", SEVEN_OF_HEARTS, JORDANIAN)
    assert str(caught.value) == "Say which card the wild card stands for: J♥ or A♥."
    both = meld("QH KH JK AH", SEVEN_OF_HEARTS, JORDANIAN)  # the joker is the natural AH, the wild is JH
    assert faces(both) == "11H 12H 13H AH"


# --- Values (scoring example 3) ---------------------------------------------------------------


def test_example_3_a_low_ace_counts_one_in_classic_saudi_and_kuwaiti():
    assert meld_value(meld("AS 2S 3S"), ONE) == 6


def test_example_3_a_low_ace_counts_eleven_in_jordanian_and_egyptian():
    assert meld_value(meld("AS 2S 3S", rules=JORDANIAN), JORDANIAN) == 16


def test_example_3_a_high_ace_counts_eleven_everywhere():
    assert meld_value(meld("QH KH AH"), ONE) == 31
    assert meld_value(meld("QH KH AH", rules=JORDANIAN), JORDANIAN) == 31


def test_example_3_a_wild_in_a_three_card_set_counts_as_one_more_card_of_the_rank():
    assert meld_value(meld("10C 10D JK"), ONE) == 30


def test_example_3_a_wild_in_a_run_counts_as_the_card_it_stands_for():
    assert meld_value(meld("9S 10S JK", wild_as={2: "JS"}), ONE) == 29


def test_a_wild_standing_for_a_low_ace_counts_like_a_low_ace():
    assert meld_value(meld("JK 2S 3S", wild_as={0: "AS"}), ONE) == 6
    assert meld_value(meld("JK 2S 3S", rules=JORDANIAN, wild_as={0: "AS"}), JORDANIAN) == 16


def test_meld_rules_follow_the_variant_and_its_options():
    from games.engine.variants import HAND_VARIANTS

    assert MeldRules.for_variant(HAND_VARIANTS["classic"], {"max_wild_per_meld": 2}) == MeldRules(2, 1)
    assert MeldRules.for_variant(HAND_VARIANTS["egyptian"], {}) == MeldRules(1, 11)


# --- Laying off -------------------------------------------------------------------------------


def test_laying_off_grows_a_run_at_either_end():
    run = meld("5S 6S 7S")
    cards = parse_cards("4S 8S 9S", first_id=10)
    assert faces(lay_off(run, cards, JOKERS, ONE)) == "4S 5S 6S 7S 8S 9S"


def test_laying_off_keeps_what_a_wild_in_a_run_stands_for():
    run = meld("9S 10S JK", wild_as={2: "JS"})
    grown = lay_off(run, parse_cards("8S", first_id=10), JOKERS, ONE)
    assert faces(grown) == "8S 9S 10S 11S"
    assert grown.cards[-1].face == "JK"


def test_laying_off_a_card_that_does_not_fit_is_refused():
    with pytest.raises(MeldError):
        lay_off(meld("5S 6S 7S"), parse_cards("9S", first_id=10), JOKERS, ONE)


def test_laying_off_onto_a_three_card_set_with_a_wild_fixes_the_wild():
    grown = lay_off(meld("10C 10D JK"), parse_cards("10H", first_id=10), JOKERS, ONE)
    assert dict(zip([c.face for c in grown.cards], grown.plays_as, strict=True))["JK"] == (10, "S")


def test_laying_off_a_wild_card_that_could_go_at_either_end_must_be_named():
    run = meld("5S 6S 7S")
    joker = parse_cards("JK", first_id=10)
    with pytest.raises(AmbiguousWild):
        lay_off(run, joker, JOKERS, ONE)
    assert faces(lay_off(run, joker, JOKERS, ONE, wild_as={10: "8S"})) == "5S 6S 7S 8S"


def test_laying_off_a_second_wild_card_needs_the_two_wild_option():
    run = meld("5S 6S 7S JK", wild_as={3: "8S"})
    second = parse_cards("JK", first_id=10)
    with pytest.raises(MeldError, match="at most one wild"):
        lay_off(run, second, JOKERS, ONE, wild_as={10: "9S"})
    run2 = meld("5S 6S 7S JK", rules=TWO, wild_as={3: "8S"})
    assert faces(lay_off(run2, second, JOKERS, TWO, wild_as={10: "9S"})) == "5S 6S 7S 8S 9S"


def test_a_set_cannot_grow_past_four_cards():
    with pytest.raises(MeldError, match="at most four"):
        lay_off(meld("10C 10D 10H 10S"), parse_cards("10S", first_id=10), JOKERS, ONE)


# --- Exchanging a wild card -------------------------------------------------------------------


def test_the_exact_card_a_run_wild_stands_for_takes_its_place():
    run = meld("9S 10S JK", wild_as={2: "JS"})
    new, freed = exchange_wild(run, parse_cards("JS", first_id=10), JOKERS, ONE)
    assert freed.face == "JK"
    assert [c.face for c in new.cards] == ["9S", "10S", "JS"]
    assert is_valid_meld(new, JOKERS, ONE)


def test_another_card_cannot_take_a_run_wilds_place():
    run = meld("9S 10S JK", wild_as={2: "JS"})
    with pytest.raises(MeldError, match="not the card the wild card stands for"):
        exchange_wild(run, parse_cards("8S", first_id=10), JOKERS, ONE)


def test_a_three_card_set_wild_needs_both_missing_cards():
    three = meld("10C 10D JK")
    with pytest.raises(MeldError, match="put down both"):
        exchange_wild(three, parse_cards("10S", first_id=10), JOKERS, ONE)
    new, freed = exchange_wild(three, parse_cards("10S 10H", first_id=10), JOKERS, ONE)
    assert freed.face == "JK"
    assert [c.face for c in new.cards] == ["10S", "10H", "10D", "10C"]


def test_the_jordanian_exception_lets_one_card_free_a_three_card_set_wild():
    new, freed = exchange_wild(
        meld("10C 10D JK"), parse_cards("10S", first_id=10), JOKERS, ONE, allow_single_in_three_set=True
    )
    assert freed.face == "JK"
    assert [c.face for c in new.cards] == ["10S", "10D", "10C"]


def test_a_card_already_in_a_three_card_set_cannot_free_its_wild():
    with pytest.raises(MeldError, match="missing cards"):
        exchange_wild(meld("10C 10D JK"), parse_cards("10C 10S", first_id=10), JOKERS, ONE)


def test_a_four_card_set_wild_is_freed_by_the_one_missing_card():
    four = meld("10C 10D 10S JK")
    new, freed = exchange_wild(four, parse_cards("10H", first_id=10), JOKERS, ONE)
    assert freed.face == "JK"
    assert all(c.rank == 10 for c in new.cards)


def test_a_meld_without_a_wild_card_has_nothing_to_exchange():
    with pytest.raises(MeldError, match="no wild card"):
        exchange_wild(meld("10C 10D 10S"), parse_cards("10H", first_id=10), JOKERS, ONE)


def test_a_wild_ace_is_freed_by_the_natural_card_and_a_natural_joker_can_free_it():
    run = meld("QH KH AH", SEVEN_OF_HEARTS, JORDANIAN, wild_as={2: "AH"})
    new, freed = exchange_wild(run, parse_cards("JK", first_id=10), SEVEN_OF_HEARTS, JORDANIAN)
    assert freed.face == "AH"
    assert meld_value(new, JORDANIAN) == 31


# --- JSON and properties --------------------------------------------------------------------


def test_a_meld_round_trips_through_json():
    deck = {c.id: c for c in parse_cards("9S 10S JK")}
    m = meld("9S 10S JK", wild_as={2: "JS"})
    assert Meld.from_json(m.to_json(), deck) == m


DECK = make_deck(2, 2)
WILD_CHOICES = st.sampled_from([JOKERS, SEVEN_OF_HEARTS, ACE_OF_SPADES, Wilds(Card(200, 3, "C"))])


@st.composite
def near_melds(draw):
    """Cards that often form a meld: a set or a run stretch, a few cards swapped for wild cards or noise."""
    suit = draw(st.sampled_from("SHDC"))
    if draw(st.booleans()):
        rank = draw(st.integers(1, 13))
        suits = draw(st.lists(st.sampled_from("SHDC"), min_size=2, max_size=4))
        faces_ = [(rank, s) for s in suits]
    else:
        low = draw(st.integers(1, 12))
        length = draw(st.integers(2, 8))
        faces_ = [((r - 1) % 13 + 1, suit) for r in range(low, low + length)]
    pool = {}
    for card in DECK:
        pool.setdefault((card.rank, card.suit), []).append(card)
    cards = [pool[f][draw(st.integers(0, 1))] for f in faces_]
    extra = draw(st.lists(st.sampled_from([*DECK[-2:], *pool[(1, "H")], *pool[(1, "S")]]), max_size=3))
    cards = list({c.id: c for c in cards + extra}.values())
    return draw(st.permutations(cards))


@settings(max_examples=400, deadline=None)
@given(cards=near_melds(), wilds=WILD_CHOICES, max_wild=st.integers(1, 2), low_ace=st.sampled_from([1, 11]))
def test_every_reading_of_some_cards_revalidates_and_round_trips(cards, wilds, max_wild, low_ace):
    rules = MeldRules(max_wild, low_ace)
    by_id = {c.id: c for c in DECK}
    readings = meld_options(cards, wilds, rules)
    for m in readings:
        assert is_valid_meld(m, wilds, rules)
        assert sorted(c.id for c in m.cards) == sorted(c.id for c in cards)
        assert Meld.from_json(m.to_json(), by_id) == m
        wild_count = sum(wilds.is_wild(c) for c in m.cards)
        assert wild_count <= max_wild
        assert len(m.cards) - wild_count > wild_count
    made = error = None
    try:
        made = make_meld(cards, wilds, rules)
    except MeldError as caught:
        error = caught
    if isinstance(error, AmbiguousWild):
        assert len(error.choices) > 1
        assert all(choice in readings for choice in error.choices)
    elif error is not None:
        assert readings == []
    else:
        assert made in readings
        assert is_valid_meld(made, wilds, rules)
