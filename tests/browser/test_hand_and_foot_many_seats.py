"""Hand and Foot for 8 players online (its rules allow 2 to 8): created on a phone with eight seats, and its
table at 360 and 1280 px, English and Arabic, light and dark: every seat and every side is shown, and nothing
scrolls sideways."""

import pytest

from games import engine
from games.models import Game
from tests.factories import MembershipFactory, PlayerGroupFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _no_sideways_scroll(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, overflow


def test_eight_players_are_seated_and_their_table_fits_a_phone(browser, live_server, log_in, screenshot):
    from playwright.sync_api import expect

    group = PlayerGroupFactory(name="Big Table", slug="big-table")
    hala = MembershipFactory(group=group, user__display_name="Hala").user
    context = browser.new_context(base_url=live_server.url, viewport={"width": 360, "height": 800})
    page = context.new_page()
    log_in(page, hala)
    page.goto("/groups/big-table/games/new/?variant=hand-and-foot")
    expect(page.locator("select[name=seat_7]")).to_be_visible(timeout=30_000)
    for number in range(2, 8):
        page.select_option(f"select[name=seat_{number}]", "bot")
    _no_sideways_scroll(page)
    screenshot(page, "handfoot-eight-create-360")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#table")).to_be_visible(timeout=30_000)
    context.close()
    game = Game.objects.get()
    assert game.players == 8

    state = engine.from_json(game.state)  # the bots play until Hala's sixth turn: melds on the table
    while not (state.current == 0 and state.deal.turns[0] >= 6):
        engine.apply(state, state.current, engine.bot_action(state, state.current))
    Game.objects.filter(pk=game.pk).update(state=engine.to_json(state), revision=game.revision + 1)
    for width, scheme, language in (
        (360, "light", "en"),
        (360, "dark", "ar"),
        (1280, "dark", "en"),
        (1280, "light", "ar"),
    ):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": 900}, color_scheme=scheme
        )
        page = context.new_page()
        log_in(page, hala)
        page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        type(hala).objects.filter(pk=hala.pk).update(language=language)
        page.goto(game.get_absolute_url())
        expect(page.locator("#seat-list .seat")).to_have_count(8, timeout=30_000)
        expect(page.locator("#melds .foot-side")).to_have_count(8)
        _no_sideways_scroll(page)
        screenshot(page, f"handfoot-eight-table-{width}-{scheme}-{language}")
        context.close()
