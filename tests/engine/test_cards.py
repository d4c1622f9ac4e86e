"""Cards, notation and decks (``games/engine/cards.py``)."""

from __future__ import annotations

from collections import Counter

import pytest

from games.engine import InvalidCards, format_cards, make_deck, parse_cards, shuffled
from games.engine.cards import ACE, JOKER, KING, parse_face
from games.engine.deal import deck_for


def test_notation_is_read_as_rank_then_suit_and_jk_is_a_joker():
    assert parse_face("AS") == (ACE, "S")
    assert parse_face("10H") == (10, "H")
    assert parse_face("QD") == (12, "D")
    assert parse_face("kc") == (KING, "C")  # lower case is accepted
    assert parse_face(" JK ") == (JOKER, "")


def test_parsed_cards_get_consecutive_ids_and_format_back_to_the_same_text():
    cards = parse_cards("AS 10H JK 2c", first_id=7)
    assert [c.id for c in cards] == [7, 8, 9, 10]
    assert format_cards(cards) == "AS 10H JK 2C"
    assert [c.colour for c in cards] == ["black", "red", None, "black"]
    assert cards[2].is_joker


@pytest.mark.parametrize("text", ["1S", "11H", "AX", "JKS", "S", "", "10", "A", "JH5"])
def test_bad_notation_is_refused_with_a_sentence_naming_it(text):
    with pytest.raises(InvalidCards) as refused:
        parse_face(text)
    assert refused.value.sentence(lambda s: s) == (
        f"“{text}” is not a card. Write rank then suit, like AS, 10H or JK."
    )


def test_a_list_with_one_bad_card_is_refused():
    with pytest.raises(InvalidCards):
        parse_cards("AS 2S ZZ")


@pytest.mark.parametrize(
    ("variant", "players", "size"),
    [("classic", 4, 106), ("jordanian", 2, 106), ("kuwaiti", 2, 54), ("kuwaiti", 3, 54), ("kuwaiti", 4, 106)],
)
def test_hand_decks_have_the_spec_sizes_and_every_card_its_index_as_id(variant, players, size):
    deck = deck_for(variant, players)
    assert len(deck) == size
    assert [card.id for card in deck] == list(range(size))
    faces = Counter(card.face for card in deck)
    assert faces["JK"] == 2
    assert set(faces.values()) == ({2} if size == 106 else {1, 2})


def test_make_deck_counts_decks_and_jokers():
    deck = make_deck(1, 2)
    assert len(deck) == 54
    assert len({(c.rank, c.suit) for c in deck if not c.is_joker}) == 52
    assert len(make_deck(4, 8)) == 216


def test_a_seeded_shuffle_is_reproducible_and_leaves_the_input_alone():
    deck = make_deck(2, 2)
    before = list(deck)
    first, again, other = shuffled(deck, 42), shuffled(deck, 42), shuffled(deck, 43)
    assert first == again
    assert first != other
    assert sorted(first) == sorted(deck)
    assert deck == before
