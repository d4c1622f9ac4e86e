"""The card picker's count (HTMX): the engine counts the picked cards with the sheet's values."""

from __future__ import annotations

from django.urls import reverse

from tests.scoring.conftest import make_sheet


def test_the_count_uses_the_indicator_on_a_jordanian_sheet(client, group, owner, member):
    sheet = make_sheet(group, owner, "jordanian", [owner, member])
    client.force_login(member)
    url = reverse("scoring:count_cards", args=[group.slug, sheet.pk])
    data = {"field": "held_cards_1", "held_cards_1": "JK AH", "indicator": "7H"}
    assert "2 cards: 26 points" in client.post(url, data).content.decode()
    data["indicator"] = ""
    assert "Say which card was the wild-card indicator" in client.post(url, data).content.decode()


def test_the_count_refuses_more_copies_than_the_decks_hold(client, group, owner, member):
    sheet = make_sheet(group, owner, "kuwaiti", [owner, member])
    client.force_login(member)
    url = reverse("scoring:count_cards", args=[group.slug, sheet.pk])
    body = client.post(url, {"field": "held_cards_0", "held_cards_0": "KS KS"}).content.decode()
    assert "1 × KS, not 2" in body


def test_the_opening_check_counts_a_saudi_opening_against_the_last_one(client, group, owner, member):
    sheet = make_sheet(group, owner, "saudi", [owner, member])
    client.force_login(member)
    url = reverse("scoring:opening_check", args=[group.slug, sheet.pk])
    body = client.post(url, {"melds": "QH KH AH\n3S 4S 5S 6S 7S", "last_opening": "58"}).content.decode()
    assert "31 + 25 = 56 (minimum 59)" in body
    assert "not enough." in body
