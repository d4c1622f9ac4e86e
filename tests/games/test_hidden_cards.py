"""Hidden cards never leave the server: a whole game played through the views, every response checked."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.models import Game, GameStatus
from games.views import poll_token
from tests.games import leaks

HTMX = {"HTTP_HX_REQUEST": "true"}


def _form_for(action: dict) -> dict:
    """Post the move the way the page does: the plain buttons where there is one, else the offered JSON."""
    kind = action["type"]
    if kind == "draw":
        return {"act": "draw"}
    if kind == "discard":
        return {"act": "discard", "cards": [action["card"]]}
    if kind == "lay_off" and not action.get("wild_as"):
        return {"act": f"lay_off:{action['meld']}", "cards": action["cards"]}
    return {"preset": json.dumps(action)}


def test_the_checker_catches_a_hidden_card():
    state = engine.new_game("classic", 2, {}, 1)
    other = state.deal.hands[1][0]
    allowed = leaks.visible_ids(state, 0)
    assert other.id not in allowed
    planted = (
        f'<span class="pcard suit-{other.suit}" data-card="{other.id}"><span class="rank">X</span></span>'
    )
    with pytest.raises(AssertionError):
        leaks.check(planted, allowed)
    with pytest.raises(AssertionError):
        leaks.check("<p>5♥</p>", allowed)
    with pytest.raises(AssertionError):
        leaks.check("<p>You drew 10H.</p>", allowed)
    with pytest.raises(AssertionError):
        leaks.check(f'<input name="cards" value="{other.id}">', allowed)


@pytest.mark.slow
def test_a_whole_game_through_the_views_never_shows_a_hidden_card(owner, member, admin, start_game):
    game = start_game([owner, member], seed=2024)
    from games import services

    services.accept_seat(game_id=game.pk, user=member)
    clients, users = {}, {}
    for seat, user in ((0, owner), (1, member), (None, admin)):
        users[seat] = user
        clients[seat] = Client()
        clients[seat].force_login(user)
    play_url = reverse("games:play", args=[game.group.slug, game.pk])
    move_url = reverse("games:move", args=[game.group.slug, game.pk])
    poll_url = reverse("games:poll", args=[game.group.slug, game.pk])
    seen = 0
    moves = 0
    while True:
        game.refresh_from_db()
        state = engine.from_json(game.state)
        for seat, client in clients.items():
            allowed = leaks.visible_ids(state, seat)
            page = client.get(play_url)
            seen += leaks.check(page.content.decode(), allowed)
            if moves:
                token = poll_token(game.pk, users[seat].pk)
                poll = client.get(poll_url, {"r": game.revision - 1, "u": users[seat].pk, "t": token})
                seen += leaks.check(poll.content.decode(), allowed)
        if game.status != GameStatus.ACTIVE:
            break
        seat = state.current
        action = engine.bot_action(state, seat)
        response = clients[seat].post(move_url, {**_form_for(action), "version": game.version}, **HTMX)
        after = engine.from_json(Game.objects.get(pk=game.pk).state)
        seen += leaks.check(response.content.decode(), leaks.visible_ids(after, seat))
        assert after.version == state.version + 1, response.content.decode()[:2000]
        moves += 1
        assert moves < 3000
    assert game.status == GameStatus.FINISHED
    assert seen > moves * 10  # the checker really looked at cards
    replay_url = reverse("games:replay", args=[game.group.slug, game.pk])
    for step in (0, moves // 2, moves):
        response = clients[None].get(replay_url, {"step": step})
        assert response.status_code == 200
