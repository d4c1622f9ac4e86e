"""What screen readers read on the play page: every card by its name in words, in the reader's language
(its face stays on screen); every meld's button names the meld and its cards; the page's one <h1>."""

import html
import re

import pytest
from django.test import Client

from games import engine
from games.engine.deal import Turn
from games.models import Game
from games.services import seating
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.rigging import Deck

pytestmark = pytest.mark.django_db

MINE = "7H 8H 9H 10H 5S 6S JK 7S 2C 4D 6C 8D QS 3C 5D"
OTHER = "2S 4S 6S 8C 10C QC 3D 5H 7D 9C JC AD AS 3S"


@pytest.fixture
def opened():
    """classic, Amira to play (play phase), opened with 7♥-10♥ and 5♠ 6♠ 🃏 (the joker as 7♠)."""
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, seating.BOT], seed=5
    )
    game = Game.objects.get(pk=game.pk)
    state = engine.from_json(game.state)
    deck = Deck("classic")
    state.deal.hands[0] = deck.pick(MINE)
    state.deal.hands[1] = deck.pick(OTHER)
    state.deal.discard = deck.pick("9S")
    state.deal.stock = deck.rest()[:40]
    state.deal.melds = []
    state.deal.opened = [False, False]
    state.deal.current = 0
    state.deal.phase = engine.PLAY
    state.deal.turn = Turn(seat=0, number=2, opened_before=False, drew="stock")
    state.deal.turns = [2, 2]
    ids = {c.face: c.id for c in state.deal.hands[0]}
    melds = [{"cards": [ids[f] for f in ("7H", "8H", "9H", "10H")]}]
    melds.append({"cards": [ids["5S"], ids["6S"], ids["JK"]], "wild_as": {str(ids["JK"]): "7S"}})
    engine.apply(state, 0, {"type": "meld", "melds": melds})
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_json(state), version=state.version, turn_seat=0, revision=game.revision + 1
    )
    return amira, game, ids, state


def _page(amira, game, language):
    amira.language = language
    amira.save(update_fields=["language"])
    client = Client()
    client.force_login(amira)
    client.cookies["django_language"] = language
    return html.unescape(client.get(game.get_absolute_url()).content.decode())


def _labels(page, name):
    return re.findall(rf'<button[^>]*name="{name}"[^>]*aria-label="([^"]*)"', page)


def test_every_card_is_named_in_words_in_english_while_showing_its_face(opened):
    amira, game, ids, _ = opened
    page = _page(amira, game, "en")
    assert re.search(rf'data-card="{ids["QS"]}" role="img" aria-label="queen of spades">', page)
    assert re.search(rf'data-card="{ids["10H"]}" role="img" aria-label="10 of hearts">', page)
    assert re.search(
        rf'data-card="{ids["JK"]}" role="img" aria-label="joker, standing for 7 of spades">', page
    )
    assert '<span class="rank">Q</span><span class="suit">♠</span>' in page  # the face, as before


def test_every_card_is_named_in_words_in_arabic_as_players_say_them(opened):
    amira, game, ids, _ = opened
    page = _page(amira, game, "ar").replace("\u2068", "").replace("\u2069", "")  # the isolates
    assert re.search(rf'data-card="{ids["QS"]}" role="img" aria-label="بنت بستوني">', page)
    assert re.search(rf'data-card="{ids["7S"]}" role="img" aria-label="7 بستوني">', page)
    assert re.search(rf'data-card="{ids["JK"]}" role="img" aria-label="جوكر، بدل 7 بستوني">', page)


def test_every_melds_button_names_the_meld_and_its_cards(opened):
    amira, game, ids, state = opened
    page = _page(amira, game, "en")
    number = {
        "run": next(tm.id for tm in state.deal.melds if any(c.id == ids["7H"] for c in tm.meld.cards)),
        "wild": next(tm.id for tm in state.deal.melds if any(c.id == ids["JK"] for c in tm.meld.cards)),
    }
    lay_off = _labels(page, "lay_off")
    assert (
        f"Lay off here: meld {number['run']}, 7 of hearts, 8 of hearts, 9 of hearts, 10 of hearts" in lay_off
    )
    assert (
        f"Lay off here: meld {number['wild']}, 5 of spades, 6 of spades, joker, standing for 7 of spades"
        in lay_off
    )
    (exchange,) = _labels(page, "exchange")
    assert exchange.startswith(f"Exchange for the wild card: meld {number['wild']}, 5 of spades")


def test_the_play_page_has_one_level_one_heading_naming_the_game(opened):
    amira, game, _, _ = opened
    page = _page(amira, game, "en")
    assert page.count("<h1") == 1
    heading = re.search(r"<h1[^>]*>(.*?)</h1>", page, re.S).group(1)
    assert "Friday Hand" in heading
    assert "Deal 1 of" in heading
