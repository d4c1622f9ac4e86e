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


def test_the_deal_form_renders_the_first_count_itself_and_asks_the_server_only_on_change(
    client, group, owner, member
):
    from scoring.models import Deal
    from scoring.services.deals import add_deal
    from tests.scoring.conftest import hand

    sheet = make_sheet(group, owner, "jordanian", [owner, member, "Gina"])
    add_deal(
        sheet,
        by=owner,
        facts=hand(0, [True, True, True], [None, "JK AH", "KS KS"], indicator="7H"),
    )
    client.force_login(owner)
    edit = reverse("scoring:deal_edit", args=[group.slug, sheet.pk, Deal.objects.get().pk])
    page = client.get(edit).content.decode()
    assert "load" not in page.split('hx-trigger="')[1].split('"')[0]
    assert 'hx-trigger="input changed delay:250ms"' in page
    assert (
        '<output class="count small" id="count-id_held_cards_1" aria-live="polite">2 cards: 26 points' in page
    )
    assert (
        '<output class="count small" id="count-id_held_cards_2" aria-live="polite">2 cards: 20 points' in page
    )
    assert '<output class="count small" id="count-id_held_cards_0" aria-live="polite"></output>' in page
    # A form sent back with an error keeps the counts (and shows the engine's refusal of a bad field).
    response = client.post(
        edit, {"winner": "0", "indicator": "7H", "opened_1": "on", "held_cards_1": "KS KS KS"}
    )
    assert (
        '<output class="count small" id="count-id_held_cards_1" aria-live="polite"><span class="count-error">'
        in (response.content.decode())
    )


MELDED = "KS KH KD KC KS KH KD AS AH AD AC AS AH JK 5S 5H 5D 5C"


def test_a_hand_and_foot_form_counts_melded_cards_with_the_page(client, group, owner, member):
    from scoring.models import Deal
    from scoring.services.deals import add_deal
    from scoring.services.table import count_cards

    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    facts = {
        "sides": [
            {"red_books": 1, "black_books": 1, "melded": MELDED, "held": [None], "went_out": True},
            {"red_books": 0, "black_books": 0, "melded_points": 30, "held": ["3H 9C"]},
        ]
    }
    add_deal(sheet, by=owner, facts=facts)
    client.force_login(owner)
    page = client.get(reverse("scoring:deal_edit", args=[group.slug, sheet.pk, Deal.objects.get().pk]))
    body = page.content.decode()
    value = count_cards(sheet, MELDED, kind="melded").total
    assert f'id="count-id_melded_cards_0" aria-live="polite">18 cards: {value} points' in body
    assert 'id="count-id_held_cards_1" aria-live="polite">2 cards:' in body
