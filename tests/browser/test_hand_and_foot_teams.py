"""Hand and Foot's team rules in the browser: created with the partners choice on a phone, the waiting page
shows the teams, and the table and the scores read team against team at 360 and 1280 px, in English and
Arabic, light and dark, without sideways scrolling."""

import pytest

from games.models import Game, GameStatus
from games.services import leaving, seating
from tests.factories import MembershipFactory, PlayerGroupFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOOKS = [(360, "light", "en"), (360, "dark", "ar"), (1280, "light", "ar"), (1280, "dark", "en")]


def _page(browser, live_server, log_in, user, width, scheme, language):
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": 900}, color_scheme=scheme
    )
    page = context.new_page()
    log_in(page, user)
    page.context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
    type(user).objects.filter(pk=user.pk).update(language=language)
    return page


def _no_sideways_scroll(page) -> None:
    overflow = page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, overflow


def test_the_team_rules_are_created_with_partners_and_read_team_against_team(
    browser, live_server, log_in, screenshot
):
    from playwright.sync_api import expect

    group = PlayerGroupFactory(name="Foot Night", slug="foot-night")
    hala = MembershipFactory(group=group, user__display_name="Hala").user
    fadi = MembershipFactory(group=group, user__display_name="Fadi").user
    rana = MembershipFactory(group=group, user__display_name="Rana").user

    page = _page(browser, live_server, log_in, hala, 360, "light", "en")
    page.goto("/groups/foot-night/games/new/?variant=hand-and-foot-teams")
    expect(page.get_by_text("Team 1 (seats 1 and 3, opposite each other)")).to_be_visible(timeout=30_000)
    expect(page.get_by_label("Let the site draw the partners")).to_be_visible()
    page.select_option("select[name=seat_1]", str(fadi.pk))
    page.select_option("select[name=seat_2]", str(rana.pk))
    page.select_option("select[name=seat_3]", "bot")
    _no_sideways_scroll(page)
    screenshot(page, "handfoot-teams-create-360")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#teams")).to_contain_text("Hala and Rana", timeout=30_000)
    expect(page.locator("#teams")).to_contain_text("Fadi and Bot 4")
    screenshot(page, "handfoot-teams-waiting-360")
    game = Game.objects.get()
    assert game.variant == "hand-and-foot-teams"
    page.context.close()

    for user in (fadi, rana):
        seating.accept_seat(game_id=game.pk, user=user)
    for width, scheme, language in LOOKS:
        page = _page(browser, live_server, log_in, hala, width, scheme, language)
        page.goto(game.get_absolute_url())
        expect(page.locator("#side-0")).to_be_visible(timeout=30_000)
        expect(page.locator("#side-0 .tag-team")).to_be_visible()
        expect(page.locator("#seat-list .tag-team")).to_have_count(4)
        _no_sideways_scroll(page)
        screenshot(page, f"handfoot-teams-table-{width}-{scheme}-{language}")
        page.context.close()

    for number in range(3):  # everybody hands over to a bot: the bots finish the game
        leaving.hand_seat_to_bot(game_id=game.pk, number=number)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    for width, scheme, language in LOOKS:
        page = _page(browser, live_server, log_in, hala, width, scheme, language)
        page.goto(game.get_absolute_url())
        expect(page.locator(".standings li")).to_have_count(2, timeout=30_000)
        expect(page.locator("#scores thead th")).to_have_count(3)  # the deal and the two teams
        expect(page.locator("#scores thead")).to_contain_text("Hala & Rana")
        _no_sideways_scroll(page)
        screenshot(page, f"handfoot-teams-final-{width}-{scheme}-{language}")
        page.context.close()
