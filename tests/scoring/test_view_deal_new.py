"""Entering a deal on the phone form: good facts are saved; bad input gets a form error in place and
nothing is saved."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Deal, DealChange
from tests.scoring.conftest import keyed, make_sheet


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
        keyed(
            {
                "winner": "0",
                "finish": "normal",
                "opened_1": "on",
                "held_cards_1": "ks 7h jk",
                "opened_2": "on",
                "held_points_2": "13",
            }
        ),
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
        (
            {"winner": ["0", "1"]},
            "Only one can go out in a deal; Olivia Owner and Mona Member are both marked.",
        ),
        ({"winner": "0", "opened_1": "on", "held_points_1": "-5"}, "negative"),
        (
            {"winner": "0", "opened_1": "on", "held_points_1": "400"},
            "Mona Member cannot hold 400 points: the cards left in one hand are worth at most",
        ),
        ({"winner": "0", "opened_1": "on", "held_points_1": "1"}, "1 is not possible"),
        ({"winner": "7"}, "Choose who went out among the players of this sheet."),
        ({"winner": "0", "finish": "colored"}, "Colored Hand is a kuwaiti hand; Hand does not score it."),
        ({"winner": "0", "opened_1": "on"}, "Say what Mona Member still holds"),
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
    response = client.post(url(group, sheet), keyed(data))
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Deal.objects.exists()
    assert not DealChange.objects.exists()
    sheet.refresh_from_db()
    assert sheet.version == 1


def test_a_void_deal_scores_nothing_and_keeps_the_deal_number(client, group, sheet, owner):
    client.force_login(owner)
    assert client.post(url(group, sheet), keyed({"void": "on"})).status_code == 302
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Enter deal 1" in page
    assert "Void deal: no score." in page


def test_a_kuwaiti_sheet_takes_named_hands_and_irregularities(client, group, owner, member):
    sheet = make_sheet(group, owner, "kuwaiti", [owner, member, "Gina"])
    client.force_login(owner)
    response = client.post(
        url(group, sheet),
        keyed(
            {
                "winner": "0",
                "finish": "colored",
                "opened_1": "on",
                "held_cards_1": "8H 9H JK",
                "irregular_2": "on",
            }
        ),
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
        keyed(
            {
                "went_out": "0",
                "red_books_0": "1",
                "black_books_0": "1",
                "melded_cards_0": "KS KH KD KC KS KH KD AS AH AD AC AS AH JK 5S 5H 5D 5C",
                "red_books_1": "1",
                "black_books_1": "0",
                "melded_points_1": "65",
                "held_cards_1": "JK 3H 9C",
            }
        ),
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
    response = client.post(url(group, sheet), keyed(data))
    assert (
        "Only one can go out in a deal; Olivia Owner and Mona Member are both marked."
        in response.content.decode()
    )
    assert not Deal.objects.exists()


def test_no_deal_is_entered_after_the_game_is_over(client, group, owner, member):
    sheet = make_sheet(group, owner, "hand-and-foot-teams", [owner, member, "Gina", "Hadi"])
    from scoring.services.deals import add_deal
    from scoring.services.errors import SheetError

    facts = {
        "sides": [
            {"red_books": 1, "black_books": 1, "melded_points": 200, "held": [None, None], "went_out": True},
            {"red_books": 0, "black_books": 0, "melded_points": 30, "held": [0, 0]},
        ]
    }
    for _ in range(3):
        add_deal(sheet, by=owner, facts=facts)
    client.force_login(owner)
    response = client.get(url(group, sheet))
    assert response.status_code == 302
    with pytest.raises(SheetError, match="already over"):
        add_deal(sheet, by=owner, facts=facts)


def test_a_blank_hand_and_foot_deal_is_refused_and_the_opening_minimum_stays(client, group, owner, member):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    client.force_login(owner)
    # What a browser sends for the untouched form (every field empty), and a post with nothing at all.
    blank = {f"{name}_{i}": "" for i in (0, 1) for name in ("red_books", "black_books", "melded_points")}
    blank.update({f"held_points_{i}": "" for i in (0, 1)} | {f"held_cards_{i}": "" for i in (0, 1)})
    response = client.post(url(group, sheet), keyed(blank))
    assert response.status_code == 200
    assert "Say who went out, or that the draw pile ran out." in response.content.decode()
    response = client.post(url(group, sheet), keyed({}))
    assert response.status_code == 200
    assert "Say who went out, or that the draw pile ran out." in response.content.decode()
    assert not Deal.objects.exists()
    assert "Opening minimum: 50." in client.get(url(group, sheet)).content.decode()


def test_a_hand_and_foot_side_that_did_not_go_out_must_say_what_it_holds(client, group, owner, member):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    client.force_login(owner)
    data = {"went_out": "0", "red_books_0": "1", "black_books_0": "1", "melded_points_0": "200"}
    data.update({"red_books_1": "0", "black_books_1": "0", "melded_points_1": "30"})
    response = client.post(url(group, sheet), keyed(data))
    assert response.status_code == 200
    assert (
        "Say what Mona Member still holds in hand and foot (type 0 if nothing)." in response.content.decode()
    )
    assert not Deal.objects.exists()
    # 0 typed on purpose is an answer.
    assert client.post(url(group, sheet), keyed({**data, "held_points_1": "0"})).status_code == 302
    assert Deal.objects.get().facts["sides"][1]["held"] == [0]


def test_the_draw_pile_running_out_is_chosen_explicitly_and_everybody_says_what_they_hold(
    client, group, owner, member
):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    client.force_login(owner)
    data = {"went_out": "none", "red_books_0": "1", "melded_points_0": "200", "held_points_0": "40"}
    data.update({"melded_points_1": "30"})
    response = client.post(url(group, sheet), keyed(data))
    assert "Say what Mona Member still holds" in response.content.decode()
    assert "Say what Olivia Owner still holds" not in response.content.decode()
    assert not Deal.objects.exists()
    response = client.post(url(group, sheet), keyed({**data, "held_cards_1": "3H 9C"}))
    assert response.status_code == 302, response.content.decode()
    deal = Deal.objects.get()
    assert deal.facts["pile_ran_out"] is True
    assert not any(side["went_out"] for side in deal.facts["sides"])
    edit = reverse("scoring:deal_edit", args=[group.slug, sheet.pk, deal.pk])
    assert 'value="none" id="id_pile_ran_out" checked' in client.get(edit).content.decode()


def test_a_side_going_out_and_the_draw_pile_running_out_together_are_refused(client, group, owner, member):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    client.force_login(owner)
    data = {"went_out": ["0", "none"], "red_books_0": "1", "black_books_0": "1", "melded_points_0": "200"}
    data.update({"melded_points_1": "30", "held_points_1": "10"})
    response = client.post(url(group, sheet), keyed(data))
    assert "Either a side went out or the draw pile ran out, not both." in response.content.decode()
    assert not Deal.objects.exists()


def test_in_team_hand_and_foot_only_the_partner_of_the_side_that_went_out_may_be_left_blank(
    client, group, owner, member
):
    sheet = make_sheet(group, owner, "hand-and-foot-teams", [owner, member, "Gina", "Hadi"])
    client.force_login(owner)
    data = {"went_out": "0", "red_books_0": "1", "black_books_0": "1", "melded_points_0": "200"}
    data.update({"melded_points_1": "30", "held_points_1": "25"})
    response = client.post(url(group, sheet), keyed(data))
    body = response.content.decode()
    assert "Say what Hadi still holds" in body
    assert "Say what Gina still holds" not in body
    assert not Deal.objects.exists()
    assert client.post(url(group, sheet), keyed({**data, "held_points_3": "0"})).status_code == 302


def test_a_void_deal_with_a_winner_is_refused_in_place(client, group, sheet, owner):
    client.force_login(owner)
    response = client.post(url(group, sheet), keyed({"void": "on", "winner": "1", "finish": "normal"}))
    assert response.status_code == 200
    body = response.content.decode()
    assert "A void deal has no winner" in body
    assert 'name="void" id="id_void" checked' in body
    assert not Deal.objects.exists()
    assert not DealChange.objects.exists()


def test_the_winners_own_opened_flag_follows_how_they_went_out(client, group, owner, member):
    """The form hides the winner's block: a kuwaiti announcement win means they had announced; a
    "Hand" means they had not opened, whatever a stale tick says."""
    kuwaiti = make_sheet(group, owner, "kuwaiti", [owner, member])
    client.force_login(owner)
    response = client.post(
        url(group, kuwaiti),
        keyed({"winner": "0", "finish": "announcement", "opened_1": "on", "held_points_1": "20"}),
    )
    assert response.status_code == 302
    assert Deal.objects.get(sheet=kuwaiti).facts["opened"] == [True, True]
    classic = make_sheet(group, owner, "classic", [owner, member])
    response = client.post(url(group, classic), keyed({"winner": "1", "finish": "hand", "opened_1": "on"}))
    assert response.status_code == 302
    assert Deal.objects.get(sheet=classic).facts["opened"] == [False, False]
