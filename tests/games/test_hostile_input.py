"""Hostile move, seat and poll requests get a sentence or a 404, never a 500 or Python's own message, and
change nothing (issue 11: numbers over 4,300 digits, deeply nested JSON)."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Game, Move

HUGE = "9" * 5000
NESTED = "[" * 5000 + "]" * 5000
HTMX = {"HTTP_HX_REQUEST": "true"}


def _client(user=None) -> Client:
    client = Client(raise_request_exception=False)
    if user is not None:
        client.force_login(user)
    return client


def _unchanged(game):
    fresh = Game.objects.get(pk=game.pk)
    assert (fresh.version, fresh.revision) == (game.version, game.revision)
    assert Move.objects.filter(game=game).count() == game.version


@pytest.mark.parametrize("field", ["preset", "staged"])
def test_deeply_nested_json_in_a_move_is_refused_or_ignored(duel, owner, field):
    url = reverse("games:move", args=[duel.group.slug, duel.pk])
    act = {"preset": "lay_down", "staged": "lay_down"}[field]
    response = _client(owner).post(url, {field: NESTED, "act": act, "version": duel.version}, **HTMX)
    assert response.status_code == 200  # the page with a sentence (the move form reads no JSON at all)
    _unchanged(duel)


def test_an_outsiders_nested_json_move_gets_404(duel, outsider):
    url = reverse("games:move", args=[duel.group.slug, duel.pk])
    response = _client(outsider).post(url, {"preset": NESTED, "version": duel.version})
    assert response.status_code == 404
    _unchanged(duel)


@pytest.mark.parametrize(
    "data",
    [
        {"act": "discard", "cards": HUGE},
        {"act": "stage", "cards": HUGE},
        {"act": f"unstage:{HUGE}"},
        {"act": f"lay_off:{HUGE}", "cards": "1"},
        {"act": "meld", "cards": [HUGE, "1"]},
    ],
)
def test_five_thousand_digit_numbers_in_a_move_get_a_sentence(duel, owner, data):
    url = reverse("games:move", args=[duel.group.slug, duel.pk])
    response = _client(owner).post(url, {**data, "version": duel.version}, **HTMX)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Exceeds the limit" not in page
    _unchanged(duel)


def test_a_five_thousand_digit_seat_number_is_refused(owner, member, admin, start_game):
    game = start_game([owner, member, admin], seed=5)
    url = reverse("games:seat", args=[game.group.slug, game.pk])
    response = _client(owner).post(url, {"do": "bot", "number": HUGE}, **HTMX)
    assert response.status_code == 200
    assert Game.objects.get(pk=game.pk).revision == game.revision


def test_a_poll_with_five_thousand_digit_numbers_is_404(duel, member):
    url = reverse("games:poll", args=[duel.group.slug, duel.pk])
    client = _client(member)
    assert client.get(url, {"u": HUGE, "r": "0", "t": "x"}).status_code == 404
    assert client.get(url, {"u": str(member.pk), "r": HUGE, "t": "x"}).status_code == 404


def test_a_logged_out_poll_with_five_thousand_digit_numbers_goes_to_the_log_in_page(duel):
    url = reverse("games:poll", args=[duel.group.slug, duel.pk])
    response = _client().get(url, {"u": HUGE, "r": HUGE, "t": "x"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("account_login"))


@pytest.mark.parametrize("digit", ["²", "①", "١"])
def test_unicode_digits_in_a_move_get_a_sentence(duel, owner, digit):
    """``str.isdigit()`` says yes to "²" and "①", which ``int()`` refuses."""
    url = reverse("games:move", args=[duel.group.slug, duel.pk])
    for data in ({"act": "discard", "cards": digit}, {"act": "lay_off", "meld": digit, "cards": "1"}):
        response = _client(owner).post(url, {**data, "version": duel.version}, **HTMX)
        assert response.status_code == 200
    _unchanged(duel)


@pytest.mark.parametrize("game", ["²", "①", "9" * 5000])
def test_the_rules_page_ignores_a_game_id_that_is_no_number(member, game):
    response = _client(member).get(reverse("games:rules", args=["classic"]), {"game": game})
    assert response.status_code == 200
