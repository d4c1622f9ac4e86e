"""Laying down several melds at once: the player puts the selected cards aside as a meld ("Add as a
meld", the discard too if they like), names a wild card when it is ambiguous, sees the running total
against the opening minimum, takes a meld back, and lays everything down in ONE action. The melds put
aside are kept on the server per seat (Game.staged): they survive polls and reloads, the page sends
none of them back."""

import re

import pytest
from django.urls import reverse

from games import engine
from games.models import Game, Move
from games.services import saving
from tests.rigging import Deck

HTMX = {"HTTP_HX_REQUEST": "true"}
FIRST_HAND = "7H 8H 9H JK 5S 6S KS KH KD 2C 4D 6C 8D QS 3C"
SECOND_HAND = "QH QC KS KH KD 2C 4D 6C 8D 10C 3D 5C 7D 9C"


@pytest.fixture
def rigged(duel):
    """The duel with chosen hands: {face: id} of each seat's cards, the first seat, the people."""
    state = engine.from_json(duel.state)
    deck = Deck("classic")
    first = state.deal.current
    state.deal.hands[first] = deck.pick(FIRST_HAND)
    state.deal.hands[1 - first] = deck.pick(SECOND_HAND)
    state.deal.stock = deck.rest()[:40]
    Game.objects.filter(pk=duel.pk).update(state=engine.to_json(state), revision=duel.revision + 1)
    duel.refresh_from_db()
    people = {s.number: s.user for s in duel.seats.all()}
    ids = {n: {card.face: card.id for card in state.deal.hands[n]} for n in (first, 1 - first)}
    return {"game": duel, "first": first, "people": people, "ids": ids}


def post(client, game, data):
    url = reverse("games:move", args=[game.group.slug, game.pk])
    return client.post(url, {"version": game.version, **data}, **HTMX)


def staged_of(game, seat) -> list[dict]:
    game.refresh_from_db()
    state = engine.from_json(game.state)
    return saving.staged_specs(game, seat, state)


def page(client, game) -> str:
    return client.get(reverse("games:play", args=[game.group.slug, game.pk])).content.decode()


def staged_cards_shown(html: str) -> list[str]:
    block = re.search(r'<div class="pending" id="pending">(.*?)</div>', html, re.S)
    return re.findall(r'data-card="(\d+)"', block.group(1)) if block else []


def test_melds_put_aside_one_by_one_are_laid_down_in_one_action(client, rigged):
    game, first, ids = rigged["game"], rigged["first"], rigged["ids"][rigged["first"]]
    client.force_login(rigged["people"][first])
    run = [ids["7H"], ids["8H"], ids["9H"]]
    html = post(client, game, {"act": "stage", "cards": run}).content.decode()
    assert "Total 24 of the 51 needed to open." in html
    assert f'id="pick-{ids["7H"]}"' not in html  # aside, no longer in the hand
    assert 'name="staged"' not in html  # nothing of it travels in the page
    staged = staged_of(game, first)
    assert [spec["cards"] for spec in staged] == [run]

    wild_run = [ids["JK"], ids["5S"], ids["6S"]]
    html = post(client, game, {"act": "stage", "cards": wild_run}).content.decode()
    assert "What does the wild card stand for?" in html
    assert f'value="{ids["JK"]}:7S"' in html
    assert ">7♠<" in html  # named as players write it
    assert 'aria-label="7 of spades"><span class="plays-as">7♠<' in html  # and in words for screen readers
    assert staged_of(game, first) == staged  # the melds put aside so far stay

    html = post(client, game, {"act": "stage", "cards": wild_run, "wild": f"{ids['JK']}:7S"}).content.decode()
    staged = staged_of(game, first)
    assert staged[1]["wild_as"] == {str(ids["JK"]): "7S"}
    assert "Total 42 of the 51 needed to open." in html

    html = post(client, game, {"act": "stage", "cards": [ids["KS"], ids["KH"], ids["KD"]]}).content.decode()
    staged = staged_of(game, first)
    assert len(staged) == 3
    assert "Total 72 of the 51 needed to open." in html
    game.refresh_from_db()
    assert game.version == 0  # staging is not a move

    post(client, game, {"act": "lay_down"})
    game.refresh_from_db()
    assert game.version == 1
    action = Move.objects.get(game=game).action
    assert action["type"] == "meld"
    assert action["melds"] == staged
    state = engine.from_json(game.state)
    assert len(state.deal.melds) == 3
    assert state.deal.opened[first]
    assert staged_of(game, first) == []


def test_melds_put_aside_survive_a_reload_and_stay_private(client, rigged, admin):
    game, first, ids = rigged["game"], rigged["first"], rigged["ids"][rigged["first"]]
    client.force_login(rigged["people"][first])
    run = [ids["7H"], ids["8H"], ids["9H"]]
    post(client, game, {"act": "stage", "cards": run})
    html = page(client, game)
    assert sorted(staged_cards_shown(html)) == sorted(str(i) for i in run)
    assert "Total 24 of the 51 needed to open." in html
    client.force_login(rigged["people"][1 - first])
    assert staged_cards_shown(page(client, game)) == []
    client.force_login(admin)
    assert staged_cards_shown(page(client, game)) == []


def test_a_meld_put_aside_can_be_taken_back_alone(client, rigged):
    game, first, ids = rigged["game"], rigged["first"], rigged["ids"][rigged["first"]]
    client.force_login(rigged["people"][first])
    run, kings = [ids["7H"], ids["8H"], ids["9H"]], [ids["KS"], ids["KH"], ids["KD"]]
    post(client, game, {"act": "stage", "cards": run})
    post(client, game, {"act": "stage", "cards": kings})
    html = post(client, game, {"unstage": 0}).content.decode()
    assert [spec["cards"] for spec in staged_of(game, first)] == [kings]
    assert f'id="pick-{ids["7H"]}"' in html
    game.refresh_from_db()
    assert game.version == 0


def test_a_short_opening_is_refused_with_the_engines_sentence_and_the_melds_stay(client, rigged):
    game, first, ids = rigged["game"], rigged["first"], rigged["ids"][rigged["first"]]
    client.force_login(rigged["people"][first])
    post(client, game, {"act": "stage", "cards": [ids["7H"], ids["8H"], ids["9H"]]})
    staged = staged_of(game, first)
    html = post(client, game, {"act": "lay_down"}).content.decode()
    assert "Your opening melds total 24; you need 51." in html
    assert staged_of(game, first) == staged
    assert len(staged_cards_shown(html)) == 3
    game.refresh_from_db()
    assert game.version == 0


def test_only_the_players_own_cards_can_be_put_aside(client, rigged):
    game, first = rigged["game"], rigged["first"]
    theirs = rigged["ids"][1 - first]
    mine = rigged["ids"][first]
    client.force_login(rigged["people"][first])
    html = post(
        client, game, {"act": "stage", "cards": [theirs["QH"], theirs["QC"], mine["QS"]]}
    ).content.decode()
    assert "You do not hold one of those cards." in html
    for card_id in (theirs["QH"], theirs["QC"]):
        assert f'data-card="{card_id}"' not in html
    assert staged_of(game, first) == []
    game.refresh_from_db()
    assert game.version == 0


def test_a_stored_meld_that_no_longer_holds_is_dropped(client, rigged):
    """A staged card discarded since: that meld goes, the others stay (and a new deal starts empty)."""
    game, first, ids = rigged["game"], rigged["first"], rigged["ids"][rigged["first"]]
    client.force_login(rigged["people"][first])
    post(client, game, {"act": "stage", "cards": [ids["7H"], ids["8H"], ids["9H"]]})
    post(client, game, {"act": "stage", "cards": [ids["KS"], ids["KH"], ids["KD"]]})
    game.refresh_from_db()
    post(client, game, {"act": "discard", "cards": [ids["KS"]]})  # now the top of the discard pile
    assert [spec["cards"] for spec in staged_of(game, first)] == [[ids["7H"], ids["8H"], ids["9H"]]]


def test_the_discard_goes_into_a_meld_the_player_builds(client, rigged):
    game, first = rigged["game"], rigged["first"]
    second = 1 - first
    client.force_login(rigged["people"][first])
    post(client, game, {"act": "discard", "cards": [rigged["ids"][first]["QS"]]})
    game.refresh_from_db()
    ids = rigged["ids"][second]
    client.force_login(rigged["people"][second])
    html = post(client, game, {"act": "stage_take", "cards": [ids["QH"], ids["QC"]]}).content.decode()
    staged = staged_of(game, second)
    assert rigged["ids"][first]["QS"] in staged[0]["cards"]
    assert "with the discard" in html
    assert 'value="stage_take"' not in html  # the discard goes into one meld only
    post(client, game, {"act": "stage", "cards": [ids["KS"], ids["KH"], ids["KD"]]})
    staged = staged_of(game, second)
    post(client, game, {"act": "lay_down"})
    game.refresh_from_db()
    assert game.version == 2
    action = Move.objects.filter(game=game).order_by("seq").last().action
    assert action == {"type": "take_discard", "melds": staged}


def test_an_outsider_cannot_stage(client, rigged, outsider):
    client.force_login(outsider)
    response = post(client, rigged["game"], {"act": "stage", "cards": [1, 2, 3]})
    assert response.status_code == 404
    rigged["game"].refresh_from_db()
    assert rigged["game"].staged == {}
