"""The rules page of every rule set offered in game creation opens from the game-creation page, on a
phone (360 px) and a desktop (1280 px), and reads without sideways scrolling."""

import pytest

from games.models import VARIANT_CHOICES
from tests.factories import MembershipFactory, PlayerGroupFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NO_SIDEWAYS_SCROLL = "document.documentElement.scrollWidth <= window.innerWidth"
TABLES_FIT = "[...document.querySelectorAll('.table-scroll')].every(e => e.scrollWidth <= e.clientWidth)"


@pytest.mark.parametrize("width", [360, 1280])
def test_the_rules_of_each_rule_set_open_from_game_creation(browser, live_server, log_in, screenshot, width):
    from playwright.sync_api import expect

    group = PlayerGroupFactory(name="Rules Night", slug="rules-night")
    hala = MembershipFactory(group=group, user__display_name="Hala").user
    context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": 800})
    page = context.new_page()
    log_in(page, hala)
    for slug, name in VARIANT_CHOICES:
        page.goto(f"/groups/rules-night/games/new/?variant={slug}")
        assert page.evaluate(NO_SIDEWAYS_SCROLL), f"game creation scrolls sideways ({slug}, {width}px)"
        link = page.locator("#rules-link")
        expect(link).to_contain_text(str(name))
        with context.expect_page() as opened:
            link.click()
        rules = opened.value
        rules.wait_for_load_state()
        expect(rules.get_by_role("heading", level=1)).to_have_text(f"Rules of {name}")
        expect(rules.locator("#options")).to_be_visible()
        assert rules.evaluate(NO_SIDEWAYS_SCROLL), f"the rules page scrolls sideways ({slug}, {width}px)"
        assert rules.evaluate(TABLES_FIT), f"a scoring table scrolls sideways ({slug}, {width}px)"
        screenshot(rules, f"rules-{slug}-{width}")
        rules.close()
    # an option's help links to that option on the rules page
    page.goto("/groups/rules-night/games/new/?variant=kuwaiti")
    with context.expect_page() as opened:
        page.locator("#id_opt_deals_help a").click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/kuwaiti/#option-deals")
    expect(rules.locator("#option-deals")).to_be_in_viewport()
    screenshot(page, f"game-create-kuwaiti-{width}")
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_rules_read_right_to_left_in_arabic_on_a_phone(browser, live_server, screenshot, scheme):
    from games import engine

    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 360, "height": 800}, color_scheme=scheme
    )
    context.add_cookies([{"name": "django_language", "value": "ar", "url": live_server.url}])
    page = context.new_page()
    for slug in engine.VARIANTS:
        page.goto(f"/rules/{slug}/")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        assert page.evaluate(NO_SIDEWAYS_SCROLL), f"the rules page scrolls sideways ({slug}, Arabic)"
        assert page.evaluate(TABLES_FIT), f"a scoring table scrolls sideways ({slug}, Arabic)"
    screenshot(page, f"rules-hand-and-foot-teams-360-ar-{scheme}")
    context.close()
