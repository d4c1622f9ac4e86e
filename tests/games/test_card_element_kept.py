"""A card's element is kept per process (games.board._card_html, an lru_cache: 120 cards cost about
1.4 ms drawn afresh, 0.006 ms kept). It depends on its arguments alone (the language among them: its
name in words is translated), so the kept element is always the one drawn afresh."""

import pytest
from django.utils import translation

from games import board
from games.engine.cards import make_deck

FACES = sorted({card.face for card in make_deck(2, 4)})


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_kept_card_element_is_the_one_drawn_afresh_for_every_face_and_meaning(language):
    drawn = board._card_html.__wrapped__
    with translation.override(language):
        for number, face in enumerate(FACES):
            for plays_as in ("", "8S", "5"):
                kept = board.card_html({"id": number, "face": face}, plays_as=plays_as)
                assert kept == drawn(number, face, plays_as, language)
                assert board.card_html({"id": number, "face": face}, plays_as=plays_as) == kept  # kept


def test_a_kept_card_element_names_its_own_card():
    element = board.card_html({"id": 7, "face": "10H"}, plays_as="QS")
    assert 'data-card="7"' in element
    assert '<span class="rank">10</span>' in element
    assert "Q♠" in element


def test_the_kept_element_of_a_card_is_named_in_the_readers_language_whoever_asked_first():
    with translation.override("en"):
        english = board.card_html({"id": 3, "face": "QS"})
    with translation.override("ar"):
        arabic = board.card_html({"id": 3, "face": "QS"})
    assert 'aria-label="queen of spades"' in english
    assert "بنت" in arabic
    assert "بستوني" in arabic
    assert "queen" not in arabic
