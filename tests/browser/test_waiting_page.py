"""The play page of a game not dealt yet (templates/games/play.html's own partial, with _head.html and
_waiting.html) on a phone and a desktop, in English and Arabic,
light and dark: the game bar and the seats fit the screen."""

import pytest

from games.services import seating
from tests.factories import MembershipFactory, PlayerGroupFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("width", "language", "dark"),
    [(360, "ar", True), (360, "en", False), (1280, "ar", False), (1280, "en", True)],
)
def test_the_waiting_page_fits_the_screen_with_its_game_bar_and_seats(
    open_as, screenshot, width, language, dark
):
    from playwright.sync_api import expect

    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    badr = MembershipFactory(group=group, user__display_name="بدر").user
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, badr]
    )
    page = open_as(amira, game.get_absolute_url(), width, language=language, dark=dark)
    expect(page.locator("#game-head")).to_contain_text("Friday Hand")
    expect(page.locator("#game")).to_have_attribute("data-status", "waiting")
    expect(page.locator("#game")).to_contain_text("بدر")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, f"game-waiting-{width}-{language}-{'dark' if dark else 'light'}")
