"""Answers are compressed for a browser that asks (Django's GZipMiddleware): a move's answer, the play
page. The BREACH precautions the README names hold: the CSRF token in a page is masked afresh for every
answer, and a move's answer carries no token at all."""

import gzip
import re

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, moves

pytestmark = pytest.mark.django_db

TOKEN_IN_PAGE = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')


def _move(duel, **headers):
    state = engine.from_json(duel.state)
    seat = duel.seats.select_related("user").get(number=state.current)
    client = Client()
    client.force_login(seat.user)
    press = moves.requests_for(state, seat.number, engine.bot_action(state, seat.number))[0]
    return client.post(
        reverse("games:move", args=[duel.group.slug, duel.pk]),
        press.as_post(duel.version),
        HTTP_HX_REQUEST="true",
        **headers,
    )


def test_a_moves_answer_is_gzipped_when_the_browser_accepts_gzip(duel):
    response = _move(duel, HTTP_ACCEPT_ENCODING="gzip, deflate, br, zstd")
    assert response.status_code == 200
    assert response["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in response["Vary"]
    html = gzip.decompress(response.content)
    assert b'id="game"' in html
    assert len(response.content) * 3 < len(html)  # the board compresses well
    assert b'csrfmiddlewaretoken" value=' not in html  # nothing secret beside what players type


def test_a_moves_answer_is_sent_as_is_when_the_browser_does_not_ask_for_gzip(duel):
    response = _move(duel)
    assert response.status_code == 200
    assert not response.has_header("Content-Encoding")
    assert "Accept-Encoding" in response["Vary"]
    assert b'id="game"' in response.content


def test_the_play_page_is_gzipped_and_masks_its_csrf_token_afresh_each_time(duel):
    client = Client(HTTP_ACCEPT_ENCODING="gzip")
    client.force_login(duel.seats.get(number=0).user)
    url = reverse("games:play", args=[duel.group.slug, duel.pk])
    tokens = set()
    for _ in range(2):
        response = client.get(url)
        assert response["Content-Encoding"] == "gzip"
        tokens.update(TOKEN_IN_PAGE.findall(gzip.decompress(response.content)))
    assert len(tokens) == 2  # the same secret, masked differently: no fixed string for BREACH to guess
