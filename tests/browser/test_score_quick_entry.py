"""Quick entry at the table, on a 390 px phone: a 4-player deal in at most 6 taps plus the numbers,
on a form that fits in 1.5 phone screens; the winner's fields are hidden; an error names the player
next to their field."""

from __future__ import annotations

import pytest

from scoring import services
from scoring.models import Deal
from tests.scoring.conftest import make_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_four_player_deal_takes_at_most_six_taps_plus_the_numbers(
    new_phone, log_in, screenshot, group, owner, member
):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/")
    taps = 0

    def tap(locator):
        nonlocal taps
        locator.click()
        taps += 1

    tap(phone.locator("label.tile", has=phone.locator("#winner-2")))  # Gina went out ("Normal" is preset)
    expect(phone.locator("#player-2")).to_be_hidden()  # nothing to enter for the winner
    for seat, points in ((0, "25"), (1, "40"), (3, "12")):
        tap(phone.locator(f"#player-{seat} label.tile").first)  # had opened
        phone.fill(f"#id_held_points_{seat}", points)  # the numbers
    height = phone.evaluate("document.getElementById('deal-form').getBoundingClientRect().height")
    screenshot(phone, "quick-entry-390")
    assert height <= 1.5 * 844, f"the form is {height}px tall"
    tap(phone.get_by_role("button", name="Save the deal"))
    expect(phone.get_by_test_id("deals")).to_be_visible()
    assert taps <= 6
    deal = Deal.objects.get()
    assert deal.facts["winner"] == 2
    assert deal.facts["held"] == [25, 40, None, 12]
    assert deal.facts["opened"] == [True, True, False, True]
    assert services.sheet_state(sheet).status.scoring_deals_played == 1


def test_an_error_names_the_player_next_to_their_field(new_phone, log_in, screenshot, group, owner, member):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/")
    phone.locator("label.tile", has=phone.locator("#winner-0")).click()
    phone.locator("#player-1 label.tile").first.click()  # Mona had opened, but no points typed
    phone.get_by_role("button", name="Save the deal").click()
    expect(phone.locator("#player-1")).to_contain_text("Say what Mona Member still holds")
    screenshot(phone, "quick-entry-error-390")
    assert not Deal.objects.exists()
