"""Partnership Hand chosen in game creation on a phone: the seats regroup as two teams (partners
opposite), the game starts with the partners as seated, and the waiting page shows the teams."""

import pytest

from games.models import Game
from tests.factories import MembershipFactory, PlayerGroupFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
def test_a_partnership_is_chosen_and_seated_as_two_teams(browser, live_server, log_in, screenshot, width):
    from playwright.sync_api import expect

    group = PlayerGroupFactory(name="Team Night", slug="team-night")
    hala = MembershipFactory(group=group, user__display_name="Hala").user
    fadi = MembershipFactory(group=group, user__display_name="Fadi").user
    rana = MembershipFactory(group=group, user__display_name="Rana").user
    context = browser.new_context(base_url=live_server.url, viewport={"width": width, "height": 800})
    page = context.new_page()
    log_in(page, hala)
    page.goto("/groups/team-night/games/new/?variant=jordanian")
    team_1 = page.get_by_text("Team 1 (seats 1 and 3, opposite each other)")
    expect(team_1).to_be_hidden()
    expect(page.locator(".seat-4")).to_be_visible()
    page.get_by_label("Partnership Hand: 4 players, two teams").check()
    expect(team_1).to_be_visible()
    expect(page.locator(".seat-4")).to_be_hidden()
    expect(page.get_by_label("Let the site draw the partners")).to_be_visible()
    expect(page.get_by_label("Random seat order")).to_be_hidden()
    # Team 1 is drawn as seats 1 and 3, one under the other, then team 2
    boxes = [page.locator(f".seat-{n}").bounding_box()["y"] for n in (0, 2, 1, 3)]
    assert boxes == sorted(boxes)
    page.select_option("select[name=seat_1]", str(fadi.pk))
    page.select_option("select[name=seat_2]", str(rana.pk))
    page.select_option("select[name=seat_3]", "bot")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    screenshot(page, f"game-create-partnership-{width}")
    page.get_by_role("button", name="Start the game").click()
    expect(page.locator("#teams")).to_contain_text("Team 1: Hala and Rana")
    expect(page.locator("#teams")).to_contain_text("Team 2: Fadi and Bot 4")
    screenshot(page, f"game-waiting-partnership-{width}")
    game = Game.objects.get()
    assert game.options["teams"] is True
    assert [s.user for s in game.seats.order_by("number")] == [hala, fadi, rana, None]
    context.close()
