"""/rules/ lists every rule set with a link to its rules page; the welcome and home pages say what Hand
and Hand and Foot are and link it."""

import pytest
from django.urls import reverse

from games import engine

pytestmark = pytest.mark.django_db

TWO_SENTENCES = "Hand is a rummy game from the Gulf and the Levant"


def test_rules_lists_every_rule_set_with_its_page(client):
    response = client.get("/rules/")
    assert response.status_code == 200
    for slug in engine.VARIANTS:
        assert f'href="{reverse("games:rules", args=[slug])}"' in response.text
        assert client.get(reverse("games:rules", args=[slug])).status_code == 200
    assert TWO_SENTENCES in response.text
    assert "4–4" not in response.text


def test_the_welcome_page_says_what_the_games_are_and_links_the_rules(client):
    html = client.get("/").text
    assert TWO_SENTENCES in html
    assert "Hand and Foot is its North-American cousin" in html
    assert 'href="/rules/"' in html


def test_the_home_page_does_too(client, member):
    client.force_login(member)
    html = client.get("/").text
    assert TWO_SENTENCES in html
    assert 'href="/rules/"' in html


def test_rules_in_arabic(client):
    html = client.get("/rules/", HTTP_ACCEPT_LANGUAGE="ar").text
    assert TWO_SENTENCES not in html
    assert "القواعد" in html
