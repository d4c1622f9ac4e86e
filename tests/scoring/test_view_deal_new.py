"""Entering a deal on the phone form: good facts are saved; bad input gets a form error in place and
nothing is saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Deal, DealChange
from tests.scoring.conftest import make_sheet


@pytest.fixture
def sheet(group, owner, member):
    return make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])


def url(group, sheet):
    return reverse("scoring:deal_new", args=[group.slug, sheet.pk])


def test_the_form_shows_every_player_the_picker_and_the_dealer(client, group, sheet, owner):
    client.force_login(owner)
    page = client.get(url(group, sheet)).content.decode()
    for name in ("Olivia Owner", "Mona Member", "Gina", "Hadi"):
        assert name in page
    assert 'id="picker"' in page
    assert "Dealt by Olivia Owner." in page


def test_example_1_entered_with_cards_and_typed_points_is_saved(client, group, sheet, owner):
    client.force_login(owner)
    response = client.post(
        url(group, sheet),
        {
            "winner": "0",
            "finish": "normal",
            "opened_1": "on",
            "held_cards_1": "ks 7h jk",
            "opened_2": "on",
            "held_points_2": "13",
        },
    )
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert deal.facts["held"] == [None, "KS 7H JK", 13, None]
    assert DealChange.objects.get().action == "created"
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Cards left: KS 7H JK = 32" in page
    assert "Not opened" in page


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"winner": ["0", "1"]}, "Only one player can go out in a deal"),
        ({"winner": "0", "opened_1": "on", "held_points_1": "-5"}, "negative"),
        (
            {"winner": "0", "opened_1": "on", "held_points_1": "400"},
            "No cards left in one hand are worth 400",
        ),
        ({"winner": "0", "opened_1": "on", "held_points_1": "1"}, "1 is not possible"),
        ({"winner": "7"}, "Player 8 is not in this game"),
        ({"winner": "0", "finish": "colored"}, "Colored Hand is a kuwaiti hand; Hand does not score it."),
        ({"winner": "0", "opened_1": "on"}, "Say what player 2 still holds"),
        ({"winner": "0", "opened_1": "on", "held_cards_1": "KS KS KS"}, "2 × KS, not 3"),
        (
            {"winner": "0", "opened_1": "on", "held_cards_1": "KS 7H", "held_points_1": "30"},
            "worth 17, not the 30",
        ),
        ({"finish": "normal"}, "Say who went out, or mark the deal as void."),
    ],
)
def test_bad_input_gets_a_form_error_in_place_and_nothing_is_saved(
    client, group, sheet, owner, data, message
):
    client.force_login(owner)
    data = {"finish": "normal", **data}
    response = client.post(url(group, sheet), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Deal.objects.exists()
    assert not DealChange.objects.exists()
    sheet.refresh_from_db()
    assert sheet.version == 1


def test_a_void_deal_scores_nothing_and_keeps_the_deal_number(client, group, sheet, owner):
    client.force_login(owner)
    assert client.post(url(group, sheet), {"void": "on"}).status_code == 302
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Enter deal 1" in page
    assert "Void deal: no score." in page


def test_a_kuwaiti_sheet_takes_named_hands_and_irregularities(client, group, owner, member):
    sheet = make_sheet(group, owner, "kuwaiti", [owner, member, "Gina"])
    client.force_login(owner)
    response = client.post(
        url(group, sheet),
        {
            "winner": "0",
            "finish": "colored",
            "opened_1": "on",
            "held_cards_1": "8H 9H JK",
            "irregular_2": "on",
        },
    )
    assert response.status_code == 302
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Colored Hand: ×4" in page
    assert "Irregularity (Colored Hand)" in page
    assert "148" in page
    assert "600" in page


def test_a_hand_and_foot_deal_from_the_form(client, group, owner, member):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    client.force_login(owner)
    response = client.post(
        url(group, sheet),
        {
            "went_out": "0",
            "red_books_0": "1",
            "black_books_0": "1",
            "melded_cards_0": "KS KH KD KC KS KH KD AS AH AD AC AS AH JK 5S 5H 5D 5C",
            "red_books_1": "1",
            "black_books_1": "0",
            "melded_points_1": "65",
            "held_cards_1": "JK 3H 9C",
        },
    )
    assert response.status_code == 302, response.content.decode()
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "1130" in page
    assert "Opening minimum: 90." in page


def test_two_hand_and_foot_sides_going_out_is_refused(client, group, owner, member):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    client.force_login(owner)
    data = {"went_out": ["0", "1"], "red_books_0": "1", "black_books_0": "1", "melded_points_0": "200"}
    data.update({"red_books_1": "1", "black_books_1": "1", "melded_points_1": "200"})
    response = client.post(url(group, sheet), data)
    assert "Only one player can go out in a deal" in response.content.decode()
    assert not Deal.objects.exists()


def test_no_deal_is_entered_after_the_game_is_over(client, group, owner, member):
    sheet = make_sheet(group, owner, "hand-and-foot-teams", [owner, member, "Gina", "Hadi"])
    from scoring import services

    facts = {
        "sides": [
            {"red_books": 1, "black_books": 1, "melded_points": 200, "held": [None, None], "went_out": True},
            {"red_books": 0, "black_books": 0, "melded_points": 30, "held": [None, None]},
        ]
    }
    for _ in range(3):
        services.add_deal(sheet, by=owner, facts=facts)
    client.force_login(owner)
    response = client.get(url(group, sheet))
    assert response.status_code == 302
    with pytest.raises(services.SheetError, match="already over"):
        services.add_deal(sheet, by=owner, facts=facts)
