"""The main pages in Arabic in a real browser at 390 and 1280 px: right to left, nothing wider than the
screen, and a card reads "Q♠" (rank then suit) in the DOM and on screen, a run Q♠ K♠ A♠ from left to
right. Screenshots go to test-artifacts/arabic/ (light; the play page also dark)."""

import pytest

from tests.browser.conftest import ARTIFACTS
from tests.i18n.arabic_site import build

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (390, 1280)
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
BOXES = """(cards) => cards.map(card => {
    const rank = card.querySelector('.rank').getBoundingClientRect();
    const suit = card.querySelector('.suit').getBoundingClientRect();
    return {text: card.textContent.trim(), rank: rank.x, suit: suit.x, x: card.getBoundingClientRect().x};
})"""


@pytest.fixture
def site():
    return build()


def _open(browser, live_server, width, scheme="light"):
    context = browser.new_context(
        base_url=live_server.url,
        viewport={"width": width, "height": 900},
        device_scale_factor=1,
        color_scheme=scheme,
        locale="ar-JO",
    )
    return context, context.new_page()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_main_pages_in_arabic_are_right_to_left_and_fit_the_screen(
    browser, live_server, log_in, site, width
):
    context, page = _open(browser, live_server, width)
    log_in(page, site.reader)
    folder = ARTIFACTS / "arabic"
    folder.mkdir(parents=True, exist_ok=True)
    too_wide = {}
    try:
        for name, url in site.urls().items():
            page.goto(url)
            assert page.evaluate("document.documentElement.dir") == "rtl", name
            assert page.evaluate("document.documentElement.lang") == "ar", name
            overflow = page.evaluate(OVERFLOW)
            if overflow > 1:
                too_wide[name] = overflow
            page.screenshot(path=str(folder / f"{name.replace(' ', '-')}-{width}.png"), full_page=True)
    finally:
        context.close()
    assert not too_wide, f"wider than the screen (px): {too_wide}"


@pytest.mark.parametrize(("width", "scheme"), [(390, "light"), (1280, "light"), (390, "dark")])
def test_a_card_reads_rank_then_suit_and_a_run_reads_left_to_right(
    browser, live_server, log_in, site, width, scheme
):
    context, page = _open(browser, live_server, width, scheme)
    log_in(page, site.reader)
    try:
        page.goto(site.urls()["play"])
        page.screenshot(path=str(ARTIFACTS / "arabic" / f"play-cards-{width}-{scheme}.png"), full_page=True)
        cards = page.eval_on_selector_all(".melds .pcard.suit-S", BOXES)
    finally:
        context.close()
    by_text = {card["text"]: card for card in cards}
    assert {"Q♠", "K♠", "A♠"} <= set(by_text), cards  # DOM order: rank, then suit
    for card in by_text.values():
        assert card["rank"] < card["suit"], card  # on screen: the rank left of the suit
    assert by_text["Q♠"]["x"] < by_text["K♠"]["x"] < by_text["A♠"]["x"]  # the run, left to right
