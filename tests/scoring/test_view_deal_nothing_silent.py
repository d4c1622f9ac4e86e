"""Issue 29: nothing wrong passes silently on the deal form. A figure typed for a player means they
had opened (it is never dropped); a figure the page hides is neither sent nor checked; a figure the
page shows but the rules would leave out is refused with a sentence naming the player beside the
field; impossible figures are refused with the reason; a kuwaiti win is an announcement unless said
otherwise."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Deal
from tests.scoring.conftest import keyed, make_sheet, points


def url(group, sheet):
    return reverse("scoring:deal_new", args=[group.slug, sheet.pk])


def _error_beside(page: str, field: str) -> str:
    """The text between a field's input and the next fieldset: where its error is drawn."""
    return page.split(f'name="{field}"')[1].split("</fieldset>")[0]


@pytest.mark.django_db
def test_points_typed_for_a_player_whose_opened_tile_is_not_ticked_count_as_opened(client, group, owner):
    sheet = make_sheet(group, owner, "classic", [owner, "Lina", "Omar"])
    client.force_login(owner)
    response = client.post(
        url(group, sheet),
        keyed({"winner": "0", "finish": "normal", "held_points_1": "17", "held_cards_2": "KS 7H"}),
    )
    assert response.status_code == 302
    assert points(sheet)[1:] == (17, 17)  # not 100 each: what was typed is what counts
    facts = Deal.objects.get().facts
    assert facts["opened"] == [False, True, True]
    assert facts["held"] == [None, 17, "KS 7H"]


@pytest.mark.django_db
def test_a_player_left_empty_had_not_opened_and_pays_the_penalty(client, group, owner):
    sheet = make_sheet(group, owner, "classic", [owner, "Lina"])
    client.force_login(owner)
    assert client.post(url(group, sheet), keyed({"winner": "0", "finish": "normal"})).status_code == 302
    assert points(sheet)[1] == 100


@pytest.mark.django_db
def test_the_winners_hidden_fields_are_neither_read_nor_checked(client, group, owner):
    sheet = make_sheet(group, owner, "classic", [owner, "Lina"])
    client.force_login(owner)
    data = {
        "winner": "0",
        "finish": "normal",
        "held_points_0": "abc",
        "held_cards_0": "ZZ",
        "held_points_1": "5",
    }
    assert client.post(url(group, sheet), keyed(data)).status_code == 302
    assert Deal.objects.get().facts["held"] == [None, 5]


@pytest.mark.django_db
def test_figures_typed_for_the_winners_partner_are_refused_by_name_beside_the_field(client, group, owner):
    sheet = make_sheet(group, owner, "classic", [owner, "Lina", "Omar", "Sara"], options={"teams": True})
    client.force_login(owner)
    data = {
        "winner": "0",
        "finish": "normal",
        "held_points_1": "10",
        "held_points_2": "25",
        "held_points_3": "5",
    }
    response = client.post(url(group, sheet), keyed(data))
    assert response.status_code == 200
    assert "Omar is on the side that went out, so their cards do not count" in _error_beside(
        response.content.decode(), "held_points_2"
    )
    assert not Deal.objects.exists()
    # The page hides the partner's block once the winner is chosen (and does not send it).
    page = client.get(url(group, sheet)).content.decode()
    assert 'id="player-2" data-seat="2" data-partners="0"' in page


@pytest.mark.django_db
def test_a_kuwaiti_irregularity_with_cards_typed_is_refused_by_name(client, group, owner):
    sheet = make_sheet(group, owner, "kuwaiti", [owner, "Lina", "Omar", "Sara"])
    client.force_login(owner)
    data = {"winner": "0", "finish": "regular", "irregular_1": "on", "held_points_1": "30"}
    response = client.post(url(group, sheet), keyed(data))
    assert response.status_code == 200
    assert "Lina is marked with an irregularity" in _error_beside(response.content.decode(), "held_points_1")
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_a_kuwaiti_win_without_how_is_an_announcement_and_the_page_preselects_it(client, group, owner):
    sheet = make_sheet(group, owner, "kuwaiti", [owner, "Lina", "Omar", "Sara"])
    client.force_login(owner)
    page = client.get(url(group, sheet)).content.decode()
    assert 'name="finish" value="announcement" checked' in page
    response = client.post(url(group, sheet), keyed({"winner": "0", "held_points_1": "30"}))
    assert response.status_code == 302
    assert Deal.objects.get().facts["finish"] == "announcement"


@pytest.mark.django_db
def test_hand_and_foot_left_in_hand_of_the_side_that_went_out_is_not_checked(client, group, owner):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, "Lina"])
    client.force_login(owner)
    data = {
        "went_out": "0",
        "red_books_0": "1",
        "black_books_0": "1",
        "melded_points_0": "300",
        "held_points_0": "40",  # hidden on the page once the side went out
        "melded_points_1": "100",
        "held_points_1": "35",
    }
    response = client.post(url(group, sheet), keyed(data))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Deal.objects.get().facts["sides"][0]["held"] == [None]


@pytest.mark.parametrize(
    ("field", "value", "sentence"),
    [
        (
            "melded_points_1",
            "99995",
            "Lina cannot have melded 99995 points: all the cards of this game are worth",
        ),
        ("held_points_1", "9000", "Lina cannot hold 9000 points: all the cards of this game are worth"),
        ("black_books_1", "40", "Lina cannot have 40 books"),
    ],
)
@pytest.mark.django_db
def test_impossible_hand_and_foot_figures_are_refused_with_the_reason(
    client, group, owner, field, value, sentence
):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, "Lina"])
    client.force_login(owner)
    data = {
        "went_out": "0",
        "red_books_0": "1",
        "black_books_0": "1",
        "melded_points_0": "300",
        "melded_points_1": "100",
        "held_points_1": "35",
        field: value,
    }
    response = client.post(url(group, sheet), keyed(data))
    assert response.status_code == 200
    assert sentence in response.content.decode()
    assert not Deal.objects.exists()


@pytest.mark.django_db
def test_impossible_hand_points_are_refused_beside_the_players_field(client, group, owner):
    sheet = make_sheet(group, owner, "classic", [owner, "Lina"])
    client.force_login(owner)
    response = client.post(
        url(group, sheet), keyed({"winner": "0", "finish": "normal", "held_points_1": "5000"})
    )
    assert response.status_code == 200
    assert "Lina cannot hold 5000 points" in _error_beside(response.content.decode(), "held_points_1")
    assert not Deal.objects.exists()
