import re
from html import escape

import pytest
from django.urls import reverse

from games import engine, moves
from games.models import GameStatus, Move
from games.services import seating

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(game, name="play"):
    return reverse(f"games:{name}", args=[game.group.slug, game.pk])


def people(game):
    return {seat.number: seat.user for seat in game.seats.all()}


def test_it_shows_the_players_hand_and_the_table(client, duel):
    state = engine.from_json(duel.state)
    seat = state.current
    client.force_login(people(duel)[seat])
    response = client.get(url(duel))
    assert response.status_code == 200
    html = response.content.decode()
    for card in state.deal.hands[seat]:
        assert f'name="cards" value="{card.id}"' in html
    assert "Your turn." in html


def test_it_checks_membership(client, duel, outsider):
    client.force_login(outsider)
    assert client.get(url(duel)).status_code == 404
    assert client.post(url(duel, "move"), {"act": "draw", "version": 0}).status_code == 404


def test_a_watcher_sees_no_hand(client, duel, admin):
    client.force_login(admin)
    html = client.get(url(duel)).content.decode()
    assert 'name="cards"' not in html
    assert "You are watching this game." in html


def test_a_move_through_htmx_returns_the_new_board(client, duel):
    state = engine.from_json(duel.state)
    seat = state.current
    card = state.deal.hands[seat][0]
    client.force_login(people(duel)[seat])
    response = client.post(url(duel, "move"), {"act": "discard", "cards": [card.id], "version": 0}, **HTMX)
    assert response.status_code == 200
    assert (
        response.content.decode().startswith('\n<div id="game"') or 'id="game"' in response.content.decode()
    )
    duel.refresh_from_db()
    assert duel.version == 1
    assert Move.objects.get(game=duel).action == {"type": "discard", "card": card.id}


def test_a_double_submit_applies_once_and_says_the_game_moved_on(client, duel):
    state = engine.from_json(duel.state)
    seat = state.current
    card = state.deal.hands[seat][0]
    client.force_login(people(duel)[seat])
    data = {"act": "discard", "cards": [card.id], "version": 0}
    client.post(url(duel, "move"), data, **HTMX)
    response = client.post(url(duel, "move"), data, **HTMX)
    assert "The game has moved on" in response.content.decode()
    assert Move.objects.filter(game=duel).count() == 1


def test_not_your_turn_is_a_clear_message_and_changes_nothing(client, duel):
    state = engine.from_json(duel.state)
    other = 1 - state.current
    client.force_login(people(duel)[other])
    response = client.post(url(duel, "move"), {"act": "draw", "version": 0}, **HTMX)
    assert "It is not your turn." in response.content.decode()
    duel.refresh_from_db()
    assert duel.version == 0


def test_an_illegal_meld_shows_the_engines_sentence_next_to_the_hand(client, duel):
    state = engine.from_json(duel.state)
    seat = state.current
    hand = state.deal.hands[seat]
    client.force_login(people(duel)[seat])
    cards = [hand[0].id, hand[1].id]
    response = client.post(url(duel, "move"), {"act": "meld", "cards": cards, "version": 0}, **HTMX)
    html = response.content.decode()
    error = re.search(r'<p class="message message-error" role="alert" id="move-error">(.*?)</p>', html)
    assert error is not None
    with pytest.raises(engine.DomainError) as refused:
        engine.verify(state, seat, {"type": "meld", "melds": [cards]})
    faces = " ".join(moves.card_words(card.face) for card in hand[:2])
    assert error.group(1).strip() == f"{faces} as melds: {escape(refused.value.sentence())}"
    for card_id in cards:  # the selection is kept
        assert f'value="{card_id}" id="pick-{card_id}" class="pick" checked' in html
    duel.refresh_from_db()
    assert duel.version == 0


def test_without_htmx_a_move_redirects_back_to_the_game(client, duel):
    state = engine.from_json(duel.state)
    seat = state.current
    client.force_login(people(duel)[seat])
    response = client.post(
        url(duel, "move"), {"act": "discard", "cards": [state.deal.hands[seat][0].id], "version": 0}
    )
    assert response.status_code == 302
    assert response.url == url(duel)


@pytest.mark.parametrize("variant", ["classic", "jordanian", "saudi", "kuwaiti", "egyptian"])
def test_the_page_renders_for_every_rule_set(client, owner, start_game, variant):
    game = start_game([owner, seating.BOT], variant=variant, seed=8)
    assert game.status == GameStatus.ACTIVE
    client.force_login(owner)
    assert client.get(url(game)).status_code == 200


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"act": "nonsense"},
        {"act": "meld", "cards": ["x"]},
        {"act": "discard"},
        {"act": "discard", "cards": ["9" * 5000], "version": "9" * 5000},
        {"lay_off": "1" * 5000, "cards": ["1"]},
    ],
)
def test_an_outsiders_malformed_move_is_404_and_shows_nothing(client, duel, outsider, data):
    client.force_login(outsider)
    for extra in ({}, HTMX):
        response = client.post(url(duel, "move"), data, **extra)
        assert response.status_code == 404
        html = response.content.decode()
        assert "Mona Member" not in html
        assert "Olivia Owner" not in html


KEPT_SHEET = '<div id="score-sheet" hx-preserve="true"></div>'


def test_a_moves_answer_keeps_the_pages_score_sheet_until_a_deal_ends(client, owner, start_game):
    """The sheet changes only when a deal ends: an answer in which none ended leaves the page's sheet as
    it is (the answer does not grow with the game); the answer to the move that ends a deal, a refusal
    and a poll render it."""
    game = start_game([owner, seating.BOT], seed=5)
    client.force_login(owner)
    kept = ended = 0
    while True:
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.deal.number >= 1 or state.finished:
            break
        deal = state.deal.number
        action = engine.bot_action(state, state.current)
        for press in moves.requests_for(state, state.current, action):
            html = client.post(url(game, "move"), press.as_post(game.version), **HTMX).content.decode()
        game.refresh_from_db()
        applied = engine.from_json(game.state)
        if applied.deal.number == deal:
            assert KEPT_SHEET in html
            kept += 1
        else:
            assert KEPT_SHEET not in html
            assert "Deal 1 result" in html
            ended += 1
    assert kept > 5
    assert ended == 1
    refusal = client.post(url(game, "move"), {"act": "discard", "version": game.version}, **HTMX)
    assert KEPT_SHEET not in refusal.content.decode()
    assert 'id="score-sheet"' in refusal.content.decode()
    assert KEPT_SHEET not in client.get(url(game), **HTMX).content.decode()


def test_a_moves_answer_keeps_the_pages_token_field_and_masks_no_new_token(client, duel):
    state = engine.from_json(duel.state)
    client.force_login(people(duel)[state.current])
    page = client.get(url(duel)).content.decode()
    assert re.search(r'<input type="hidden" name="csrfmiddlewaretoken" value="[^"]+" id="play-csrf">', page)
    press = moves.requests_for(state, state.current, engine.bot_action(state, state.current))[0]
    answer = client.post(url(duel, "move"), press.as_post(duel.version), **HTMX)
    html = answer.content.decode()
    assert '<input type="hidden" name="csrfmiddlewaretoken" id="play-csrf" hx-preserve="true">' in html
    assert 'value="' not in html.split('id="play-csrf"')[0].rsplit("<input", 1)[1]
    assert "csrftoken" not in answer.cookies  # no token was made for it
    refreshed = client.get(url(duel), **HTMX).content.decode()  # a refresh of #game brings a new one
    assert re.search(r'name="csrfmiddlewaretoken" value="[^"]+" id="play-csrf">', refreshed)
