"""Hostile or mistaken input on the score-sheet forms: every refusal shows on the page next to the
field it is about, naming the player; numbers are bounded where they are read and never echoed; the
deal rules hold on every path (the service, not only the form)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Deal, Sheet
from scoring.services.deals import add_deal
from scoring.services.errors import SheetError
from tests.scoring.conftest import hand, keyed, make_sheet

pytestmark = pytest.mark.django_db


def _deal_url(group, sheet):
    return reverse("scoring:deal_new", args=[group.slug, sheet.pk])


def test_a_tampered_member_on_the_new_sheet_form_is_refused_with_the_error_shown(client, group, owner):
    client.force_login(owner)
    response = client.post(
        reverse("scoring:sheet_create", args=[group.slug, "classic"]),
        {"member_0": str(owner.pk), "member_1": "999999", "guest_2": "Gina"},
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Select a valid choice. 999999 is not one of the available choices." in page
    assert "This was not saved:" in page
    assert not Sheet.objects.exists()


def test_a_five_thousand_digit_winner_is_refused_without_echoing_it(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(owner)
    huge = "9" * 5000
    response = client.post(_deal_url(group, sheet), keyed({"winner": huge, "finish": "normal"}))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Choose who went out among the players of this sheet." in page
    assert "99999999" not in page
    assert not Deal.objects.exists()


@pytest.mark.parametrize("field", ["held_points_1", "position"])
def test_huge_typed_numbers_are_refused_at_the_field(client, group, owner, member, field):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(owner)
    data = {"winner": "0", "finish": "normal", "opened_1": "on", "held_points_1": "20", field: "7" * 5000}
    response = client.post(_deal_url(group, sheet), keyed(data))
    assert response.status_code == 200
    page = response.content.decode()
    assert (
        "Mona Member: type a whole number." if field == "held_points_1" else "Enter a whole number."
    ) in page
    assert not Deal.objects.exists()


def test_the_missing_cards_of_an_opened_player_are_asked_for_by_name_next_to_the_field(
    client, group, owner, member
):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"])
    client.force_login(owner)
    response = client.post(
        _deal_url(group, sheet), keyed({"winner": "0", "finish": "normal", "opened_2": "on", "position": "1"})
    )
    page = response.content.decode()
    assert "Say what Gina still holds: they had opened, so their cards count." in page
    # Listed at the top with a link to the field, and next to Gina's field itself.
    assert 'href="#id_held_points_2">Points held</a>: Say what Gina still holds' in page
    assert page.rindex("Say what Gina still holds") > page.index('id="player-2"')
    assert "This was not saved:" in page


def test_the_service_refuses_a_hand_and_foot_deal_without_what_a_losing_player_holds(group, owner, member):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    facts = {
        "sides": [
            {"red_books": 1, "black_books": 1, "melded_points": 200, "held": [None], "went_out": True},
            {"red_books": 0, "black_books": 0, "melded_points": 30, "held": [None]},
        ]
    }
    with pytest.raises(SheetError, match="Say what Mona Member still holds") as refused:
        add_deal(sheet, by=owner, facts=facts)
    assert refused.value.field == "held_points_1"
    assert not Deal.objects.exists()


def test_the_service_refuses_a_deal_holding_more_cards_than_were_dealt(group, owner, member):
    # Hand and Foot with two players: three decks, so three red 3s of hearts at most across the deal.
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    facts = {
        "sides": [
            {
                "red_books": 1,
                "black_books": 1,
                "melded": "",
                "melded_points": 200,
                "held": [None],
                "went_out": True,
            },
            {"red_books": 0, "black_books": 0, "melded_points": 30, "held": ["AH AH AH"]},
        ]
    }
    facts["sides"][0]["melded_points"] = None
    facts["sides"][0]["melded"] = "AH AS AD KH KS KD QH QS QD JH JS JD 10H 10S 10D"
    with pytest.raises(SheetError, match="lists 4 × AH, but the cards of this game hold only 3") as refused:
        add_deal(sheet, by=owner, facts=facts)
    assert refused.value.field == "held_cards_1"
    assert not Deal.objects.exists()


def test_a_hand_deal_across_players_cannot_hold_more_copies_than_the_decks(group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"])
    with pytest.raises(SheetError, match="KS"):
        add_deal(sheet, by=owner, facts=hand(0, [False, True, True], [None, "KS KS", "KS 7H"]))
    assert not Deal.objects.exists()


def test_the_picker_count_reads_a_bounded_text(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(owner)
    response = client.post(
        reverse("scoring:count_cards", args=[group.slug, sheet.pk]),
        {"field": "held_cards_1", "held_cards_1": "KS " * 100_000},
    )
    assert response.status_code == 200
