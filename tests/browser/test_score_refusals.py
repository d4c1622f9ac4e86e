"""A refused deal on a 390x844 phone, in English and Arabic: the sentence names the player by the
sheet's name and is drawn inside that player's block, beside the figure, where the thumb is; the
edit page says which deal it corrects. Screenshots of each."""

from __future__ import annotations

import re

import pytest

from scoring.models import Deal
from scoring.services.deals import add_deal
from tests.browser.conftest import ARTIFACTS
from tests.scoring.conftest import hand, make_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ARABIC = re.compile(r"[\u0600-\u06ff]")


def _in_view(page, sentence, name: str) -> None:
    """The refusal brought into view is not under the sticky Save bar; the screen as the player sees it."""
    box = sentence.bounding_box()
    bar = page.locator(".submit-bar").bounding_box()
    assert box["y"] + box["height"] <= bar["y"], "the refusal is under the Save bar"
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_refused_hand_figure_names_the_player_inside_their_block(
    open_as, screenshot, group, owner, language
):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, "Lina", "Omar"])
    page = open_as(owner, f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/", 390, 844, language=language)
    page.locator("label.tile", has=page.locator("#winner-0")).click()
    page.keyboard.type("1")  # Lina "holds 1 point": no card is worth less than 2
    page.locator("#deal-form button[type=submit]").click()
    beside = page.locator("#player-1 .errorlist")
    expect(beside).to_be_visible()
    sentence = beside.inner_text()
    assert "Lina" in sentence
    assert ("had opened and did not go out" in sentence) if language == "en" else ARABIC.search(sentence)
    assert not re.search(r"(Player|اللاعب) \d", sentence)
    expect(page.locator("#player-2 .errorlist")).to_have_count(0)
    beside.scroll_into_view_if_needed()
    _in_view(page, beside, f"score-refusal-hand-{language}-390")
    screenshot(page, f"score-refusal-hand-{language}-390-page")
    assert not Deal.objects.exists()


@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_hand_and_foot_side_going_out_without_books_is_told_beside_its_books(
    open_as, screenshot, group, owner, language
):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "hand-and-foot", [owner, "Lina", "Omar", "Sara", "Zaid"])
    page = open_as(owner, f"/groups/{group.slug}/sheets/{sheet.pk}/deals/new/", 390, 844, language=language)
    page.locator("label.tile", has=page.locator("#went-out-1")).click()  # Lina went out: no books typed
    for side in (0, 2, 3, 4):
        page.fill(f"#id_melded_points_{side}", "100")
        page.fill(f"#id_held_points_{side}", "20")
    page.fill("#id_melded_points_1", "150")
    page.locator("#deal-form button[type=submit]").click()
    beside = page.locator("#side-1 .errorlist")
    expect(beside).to_be_visible()
    sentence = beside.inner_text()
    assert "Lina" in sentence
    assert (
        ("Lina went out, so needs at least one red book" in sentence)
        if language == "en"
        else ARABIC.search(sentence)
    )
    beside.scroll_into_view_if_needed()
    _in_view(page, beside, f"score-refusal-handfoot-{language}-390")
    screenshot(page, f"score-refusal-handfoot-{language}-390-page")
    assert not Deal.objects.exists()


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_edit_page_says_which_deal_and_who_dealt_it(open_as, screenshot, group, owner, language):
    from playwright.sync_api import expect

    sheet = make_sheet(group, owner, "classic", [owner, "Lina", "Omar"], first_dealer=0)
    add_deal(sheet, by=owner, facts=hand(0, [False, True, True], [None, 20, 35]))
    second = add_deal(sheet, by=owner, facts=hand(1, [True, False, True], [10, None, 35]))
    page = open_as(
        owner, f"/groups/{group.slug}/sheets/{sheet.pk}/deals/{second.pk}/edit/", 390, 844, language=language
    )
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_contain_text("Lina")
    expect(heading).to_contain_text("2")
    screenshot(page, f"score-edit-heading-{language}-390")
