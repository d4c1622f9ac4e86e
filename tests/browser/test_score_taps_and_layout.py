"""Entry in a few taps at 390x844: a 4-player Hand deal and a 5-player Hand and Foot deal entered from
the sheet page, counting every tap: on the page (a link, a tile, a field, Save) and on the keyboard
every key that moves to another box (its "Next"); only digits are free. A box the page moves to by
itself (after who went out, after a one-digit count of books) costs nothing, and the figures stored
prove the digits landed where they belong. Each form's height against 1.5 screens; 5- and 6-player
sheets at 360 px do not widen the page. Screenshots in English and Arabic, light and dark."""

from __future__ import annotations

import pytest

from scoring.models import Deal
from scoring.services.deals import add_deal, edit_deal
from tests.scoring.conftest import hand, make_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREEN = 844


class Counter:
    """Taps and digits, as a player's thumb would make them."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.digits = 0

    def focused(self) -> str:
        return self.page.evaluate("document.activeElement.id")

    def tap(self, locator):
        locator.click()
        self.taps += 1

    def type(self, text: str, *, then: str = "next"):
        """Digits into the box in focus, then ``then``: "next" (the keyboard's Next: a tap), "moves on"
        (the page moves on by itself: checked) or "stay" (the last box)."""
        assert text.isdigit()
        box = self.focused()
        self.page.keyboard.type(text)
        self.digits += len(text)
        if then == "next":
            self.page.keyboard.press("Enter")
            self.taps += 1
        if then in ("next", "moves on"):
            assert self.focused() != box, f"the focus stayed in {box}"


def _form_height(page) -> float:
    return page.evaluate("document.getElementById('deal-form').getBoundingClientRect().height")


def test_a_four_player_hand_deal_takes_at_most_six_taps_plus_digits(
    new_phone, log_in, screenshot, group, owner
):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, "Lina", "Omar", "Sara"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/")
    count = Counter(phone)
    count.tap(phone.get_by_role("link", name="Enter deal 1"))
    count.tap(phone.locator("label.tile", has=phone.locator("#winner-2")))  # Omar went out
    assert count.focused() == "id_held_points_0"  # on to the first figure without a tap
    count.type("25")
    count.type("40")
    count.type("12", then="stay")
    assert _form_height(phone) <= 1.5 * SCREEN, f"the form is {_form_height(phone)} px tall"
    screenshot(phone, "score-taps-hand-4-390")
    count.tap(phone.get_by_role("button", name="Save the deal"))
    expect(phone.get_by_test_id("deals")).to_be_visible()
    print(f"4-player Hand deal: {count.taps} taps, {count.digits} digits")
    assert count.taps <= 6
    assert Deal.objects.get().facts["held"] == [25, 40, None, 12]


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_five_player_hand_and_foot_deal_takes_at_most_twelve_taps_plus_digits(
    new_phone, log_in, screenshot, group, owner, language
):
    from playwright.sync_api import expect

    owner.language = language
    owner.save()
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, "Lina", "Omar", "Sara", "Zaid"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/")
    count = Counter(phone)
    count.tap(phone.locator(f"a[href$='/sheets/{sheet.pk}/deals/new/']").first)  # "Enter deal 1"
    count.tap(phone.locator("label.tile", has=phone.locator("#went-out-1")))  # Lina went out
    assert count.focused() == "id_red_books_0"
    # Side by side in page order: red books, black books (each moves on by itself), melded points,
    # left in hand (not for Lina).
    figures = {
        0: ("1", "0", "240", "35"),
        1: ("1", "1", "310"),
        2: ("0", "1", "190", "60"),
        3: ("0", "0", "120", "85"),
        4: ("1", "0", "205", "20"),
    }
    for side, values in figures.items():
        for index, value in enumerate(values):
            last = side == 4 and index == len(values) - 1
            count.type(value, then="stay" if last else "moves on" if index < 2 else "next")
    height = _form_height(phone)
    screenshot(phone, f"score-taps-handfoot-5-390-{language}")
    count.tap(phone.locator("#deal-form button[type=submit]"))
    expect(phone.get_by_test_id("deals")).to_be_visible()
    print(f"5-player Hand and Foot deal: {count.taps} taps, {count.digits} digits, form {height} px")
    assert count.taps <= 12
    sides = Deal.objects.get().facts["sides"]
    assert [(side["red_books"], side["black_books"]) for side in sides] == [
        (1, 0),
        (1, 1),
        (0, 1),
        (0, 0),
        (1, 0),
    ]
    assert [side["melded_points"] for side in sides] == [240, 310, 190, 120, 205]
    assert [side["held"] for side in sides] == [[35], [None], [60], [85], [20]]
    assert height <= 1.5 * SCREEN, f"the form is {height} px tall"


def test_twelve_books_can_still_be_typed_by_going_back_to_the_box(new_phone, log_in, group, owner):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, "Lina"])
    phone = new_phone()
    log_in(phone, owner)
    phone.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/")
    phone.locator("label.tile", has=phone.locator("#went-out-0")).click()
    phone.keyboard.type("1")
    assert phone.evaluate("document.activeElement.id") == "id_black_books_0"
    phone.locator("#id_red_books_0").click()
    phone.keyboard.press("End")
    phone.keyboard.type("2")
    assert phone.evaluate("document.activeElement.id") == "id_red_books_0"
    assert phone.input_value("#id_red_books_0") == "12"


@pytest.mark.parametrize("players", [5, 6])
@pytest.mark.parametrize("rule_set", ["hand-and-foot", "classic"])
def test_five_and_six_player_sheets_do_not_widen_the_page_at_360_px(
    new_phone, log_in, screenshot, group, owner, players, rule_set
):
    if rule_set == "classic" and players > 5:
        pytest.skip("classic seats at most 5 players")
    names = ["Olivia Owner", "Lina Abdelrahman", "Omar Al-Khatib", "Sara", "Zaid Haddad", "Huda"][:players]
    sheet = make_sheet(group, owner, rule_set, [owner, *names[1:]])
    if rule_set == "classic":
        add_deal(
            sheet, by=owner, facts=hand(0, [False, True, True, True, True], [None, 1250 // 50, 30, 45, 5])
        )
    phone = new_phone(width=360)
    log_in(phone, owner)
    for url in (
        f"/groups/{group.slug}/sheets/{sheet.pk}/",
        f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/",
    ):
        phone.goto(url)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"{url} is {width} px wide at 360 px"
    screenshot(phone, f"score-{rule_set}-{players}-players-360")


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_deal_form_and_sheet_in_both_languages_and_schemes(
    open_as, screenshot, group, owner, member, language, dark
):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"])
    deal = add_deal(sheet, by=owner, facts=hand(0, [False, True, True], [None, 20, 35]))
    edit_deal(deal, by=member, facts=hand(0, [False, True, True], [None, 45, 35]))
    scheme = "dark" if dark else "light"
    for width in (390, 1280):
        page = open_as(
            owner, f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/", width, language=language, dark=dark
        )
        page.locator("label.tile", has=page.locator("#winner-1")).click()
        page.fill("#id_held_points_0", "5000")
        page.locator("#deal-form button[type=submit]").click()
        page.wait_for_selector(".errorlist")
        screenshot(page, f"score-form-error-{language}-{scheme}-{width}")
        page.goto(f"/groups/{group.slug}/sheets/{sheet.pk}/#history")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        screenshot(page, f"score-sheet-history-{language}-{scheme}-{width}")
