"""A three-deal classic game logged on a 390px phone with the card picker, while a second phone
follows the live sheet."""

import re

import pytest

from scoring.models import Sheet
from scoring.services.state import sheet_state
from tests.factories import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def log_in(page, user):
    page.goto("/accounts/login/")
    page.fill("input[name=login]", user.email)
    page.fill("input[name=password]", PASSWORD)
    page.get_by_role("button", name="Log in").click()


def pick(page, who, cards):
    """Open the picker for a field and tap the cards: [("S", "K"), ("H", "7"), "JK"]."""
    page.locator(f"#player-{who} [data-picker-open]").click()
    picker = page.locator("#picker")
    for card in cards:
        if card == "JK":
            picker.get_by_role("button", name="Joker").click()
        else:
            suit, rank = card
            picker.locator(f"[data-suit={suit}]").click()
            picker.locator(f"[data-rank='{rank}']").click()
    return picker


def test_a_three_deal_game_is_logged_on_a_phone_with_the_card_picker(
    new_phone, screenshot, group, owner, member
):
    from playwright.sync_api import expect

    phone = new_phone()
    log_in(phone, owner)
    phone.goto(group.get_absolute_url())
    phone.get_by_role("link", name="New score sheet").click()
    phone.get_by_role("link", name=re.compile("^Hand Hand: 2–5 players")).click()
    phone.select_option("#id_member_0", label="Olivia Owner")
    phone.select_option("#id_member_1", label="Mona Member")
    phone.fill("#id_guest_2", "Gina")
    phone.select_option("#id_first_dealer", label="Player 1")
    phone.get_by_role("button", name="Start the sheet").click()
    expect(phone.get_by_test_id("next-dealer")).to_contain_text("Deal 1 is dealt by Olivia Owner")
    sheet = Sheet.objects.get()

    follower = new_phone()
    log_in(follower, member)
    follower.goto(sheet.get_absolute_url())
    expect(follower.get_by_text("No deals yet.")).to_be_visible()

    # Deal 1: Olivia goes out; Mona had opened and holds KS 7H JK (picked); Gina had not opened.
    phone.get_by_role("link", name="Enter deal 1").click()
    phone.get_by_role("radio", name="Olivia Owner").check()
    phone.locator("#player-1").get_by_text("Opened", exact=True).click()
    picker = pick(phone, 1, [("S", "K"), ("H", "7"), "JK"])
    expect(phone.locator("#count-id_held_cards_1")).to_have_text("3 cards: 32 points")
    expect(picker.locator("[data-picker-cards]")).to_have_text("KS 7H JK")
    screenshot(phone, "score-sheet-picker-phone")
    picker.get_by_role("button", name="Done").click()
    phone.get_by_role("button", name="Save the deal").click()
    expect(phone.get_by_test_id("totals")).to_contain_text("32")

    # The other phone sees the deal within 10 seconds, without reloading.
    expect(follower.get_by_test_id("deals")).to_contain_text("-30", timeout=10_000)
    expect(follower.get_by_test_id("totals")).to_contain_text("100")

    # Deal 2: Mona goes out "Hand"; Olivia holds 5C 5C (two decks: the same card twice); Gina typed 9.
    phone.get_by_role("link", name="Enter deal 2").click()
    phone.get_by_role("radio", name="Mona Member").check()
    phone.get_by_role("radio", name=re.compile("“Hand”")).check()
    phone.locator("#player-0").get_by_text("Opened", exact=True).click()
    pick(phone, 0, [("C", "5"), ("C", "5")])
    expect(phone.locator("#count-id_held_cards_0")).to_have_text("2 cards: 10 points")
    phone.locator("#player-2").get_by_text("Opened", exact=True).click()
    phone.fill("#id_held_points_2", "9")
    phone.get_by_role("button", name="Save the deal").click()
    expect(phone.get_by_test_id("next-dealer")).to_contain_text("Deal 3 is dealt by Gina")

    # Deal 3: a mistake first (two winners cannot be chosen with radios; a hand value no cards make).
    phone.get_by_role("link", name="Enter deal 3").click()
    phone.get_by_role("radio", name="Gina").check()
    phone.locator("#player-0").get_by_text("Opened", exact=True).click()
    phone.fill("#id_held_points_0", "500")
    phone.get_by_role("button", name="Save the deal").click()
    expect(phone.get_by_role("alert")).to_contain_text(
        "Olivia Owner cannot hold 500 points: the cards left in one hand are worth at most"
    )
    phone.fill("#id_held_points_0", "")
    pick(phone, 0, [("D", "A"), ("D", "2")])
    phone.get_by_role("button", name="Save the deal").click()

    totals = phone.get_by_test_id("totals")
    # Olivia -30 + 20 + 13 = 3; Mona 32 - 60 + 100 = 72; Gina 100 + 18 - 30 = 88.
    expect(totals).to_contain_text("3")
    expect(totals).to_contain_text("72")
    expect(totals).to_contain_text("88")
    phone.get_by_test_id("deals").locator("summary").last.click()
    screenshot(phone, "score-sheet-phone")
    expect(follower.get_by_test_id("totals")).to_contain_text("88", timeout=10_000)
    screenshot(follower, "score-sheet-follower-phone")
    sheet.refresh_from_db()
    assert list(sheet_state(sheet).status.totals_by_seat()) == [3, 72, 88]
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
