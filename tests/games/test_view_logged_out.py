"""Logged out, the move, seat and poll URLs send people to the log-in page like the rest of the site
(HX-Redirect for htmx requests); hostile numbers are a 404 or a sentence, never a 500."""

from urllib.parse import urlsplit

import pytest
from django.urls import reverse

from games.views import poll_token

HTMX = {"HTTP_HX_REQUEST": "true"}


def url(game, name):
    return reverse(f"games:{name}", args=[game.group.slug, game.pk])


@pytest.mark.parametrize("name", ["move", "seat", "poll"])
@pytest.mark.parametrize("method", ["get", "post"])
def test_logged_out_goes_to_the_log_in_page(client, duel, name, method):
    response = getattr(client, method)(url(duel, name))
    assert response.status_code == 302
    assert urlsplit(response.url).path == reverse("account_login")


@pytest.mark.parametrize("name", ["move", "seat", "poll"])
def test_logged_out_htmx_gets_hx_redirect_to_log_in(client, duel, member, name):
    query = {"r": duel.revision - 1, "u": member.pk, "t": poll_token(duel.pk, member.pk)}
    method = client.get if name == "poll" else client.post
    response = method(url(duel, name), query if name == "poll" else {"act": "draw"}, **HTMX)
    assert response.status_code == 200
    assert urlsplit(response["HX-Redirect"]).path == reverse("account_login")


def test_a_poll_with_an_expired_session_and_a_changed_game_goes_to_log_in(client, duel, member):
    client.force_login(member)
    client.logout()
    client.cookies["sessionid"] = "expired-session-key"
    query = {"r": duel.revision - 1, "u": member.pk, "t": poll_token(duel.pk, member.pk)}
    response = client.get(url(duel, "poll"), query, **HTMX)
    assert urlsplit(response["HX-Redirect"]).path == reverse("account_login")


@pytest.mark.parametrize(
    "query",
    [
        {"r": "9" * 5000, "u": "1", "t": "x"},
        {"r": "1", "u": "9" * 5000, "t": "x"},
        {"r": "١", "u": "1", "t": "x"},
    ],
)
def test_a_poll_with_huge_numbers_is_404(client, duel, member, query):
    client.force_login(member)
    assert client.get(url(duel, "poll"), query).status_code == 404


def test_a_seat_number_of_5000_digits_is_a_sentence(client, owner, start_game, member):
    game = start_game([owner, member])
    client.force_login(member)
    response = client.post(url(game, "seat"), {"do": "take", "number": "9" * 5000}, **HTMX)
    assert response.status_code == 200
    assert "You already have a seat in this game." in response.content.decode()


def test_a_replay_step_of_5000_digits_is_the_start(client, duel, owner):
    from games.models import Game, GameStatus

    Game.objects.filter(pk=duel.pk).update(status=GameStatus.FINISHED)
    client.force_login(owner)
    assert client.get(url(duel, "replay"), {"step": "9" * 5000}).status_code == 200
