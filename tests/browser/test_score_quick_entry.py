"""Quick entry at the table, on a 390 px phone: a 4-player deal in at most 6 taps plus the numbers,
on a form that fits in 1.5 phone screens; the winner's fields are hidden; an error names the player
next to their field."""

from __future__ import annotations

import pytest

from scoring.models import Deal
from scoring.services.state import sheet_state
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
    assert sheet_state(sheet).status.scoring_deals_played == 1


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


@pytest.mark.parametrize("rule_set", ["hand-and-foot", "hand-and-foot-teams"])
def test_a_hand_and_foot_deal_is_taps_plus_numbers_on_the_number_keypad(
    new_phone, log_in, screenshot, group, owner, member, rule_set
):
    from playwright.sync_api import expect

    players = [owner, member] if rule_set == "hand-and-foot" else [owner, member, "Gina", "Hadi"]
    sheet = make_sheet(group, owner, rule_set, players)
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/")
    numbers = phone.locator("#deal-form input[type=number]:visible")
    for index in range(numbers.count()):  # every number opens the phone's number keypad, in a big box
        box = numbers.nth(index)
        assert box.get_attribute("inputmode") == "numeric"
        assert box.bounding_box()["height"] >= 44
    taps = 0
    phone.locator("label.tile", has=phone.locator("#went-out-0")).click()  # side 0 went out
    taps += 1
    for row in phone.locator("#side-0 .held-row").all():
        expect(row).to_be_hidden()  # nothing left to say for them
    for name, value in (("red_books_0", "1"), ("black_books_0", "1"), ("melded_points_0", "200")):
        phone.fill(f"#id_{name}", value)
    phone.fill("#id_melded_points_1", "30")
    other = [1] if rule_set == "hand-and-foot" else [1, 3]
    for seat in other:
        phone.fill(f"#id_held_points_{seat}", "25")
    height = phone.evaluate("document.getElementById('deal-form').getBoundingClientRect().height")
    screenshot(phone, f"quick-entry-{rule_set}-390")
    assert height <= 1.5 * 844, f"the form is {height}px tall"
    phone.get_by_role("button", name="Save the deal").click()
    taps += 1
    expect(phone.get_by_test_id("deals")).to_be_visible()
    assert taps == 2
    deal = Deal.objects.get()
    assert deal.facts["sides"][0]["went_out"] is True
    assert deal.facts["sides"][0]["melded_points"] == 200
    assert deal.facts["sides"][1]["held"] == [25] * len(other)
