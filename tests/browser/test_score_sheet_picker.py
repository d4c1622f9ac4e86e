"""The deal form on a phone: opening it is one request (the picker's counts of cards already in the
fields come with the page); the server is asked again only when a field changes."""

import pytest

from scoring.models import Deal
from scoring.services.deals import add_deal
from tests.browser.test_score_sheet import log_in, pick
from tests.scoring.conftest import hand, make_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_opening_the_deal_form_makes_one_request_and_shows_the_counts(new_phone, group, owner, member):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    add_deal(sheet, by=owner, facts=hand(0, [True, True, True, True], [None, "KS 7H JK", "AS 2D", "5C 5C"]))
    phone = new_phone()
    log_in(phone, owner)
    requests = []
    phone.on("request", lambda request: requests.append(request))

    for path in (
        f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/",
        f"/groups/{group.slug}/sheets/{sheet.pk}/deals/{Deal.objects.get().pk}/edit/",
    ):
        requests.clear()
        phone.goto(path)
        phone.wait_for_load_state("networkidle")
        ours = [r for r in requests if r.resource_type in ("document", "xhr", "fetch")]
        assert [r.url.removeprefix(phone.url.split("/groups/")[0]) for r in ours] == [path]
    expect(phone.locator("#count-id_held_cards_1")).to_have_text("3 cards: 32 points")
    expect(phone.locator("#count-id_held_cards_3")).to_have_text("2 cards: 10 points")

    # Changing a field asks for its count once.
    requests.clear()
    pick(phone, 2, [("D", "K")])
    expect(phone.locator("#count-id_held_cards_2")).to_have_text("3 cards: 23 points")
    counts = [r for r in requests if "/count/" in r.url]
    assert len(counts) == 1
