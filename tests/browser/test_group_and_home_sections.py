"""The sections games and scoring register with handsite (handsite.sections) on the group page and the
home page, in a real browser at 360 and 1280 px, English and Arabic, light and dark: in their order, with
their games and sheets, nothing wider than the screen. Screenshots go to test-artifacts/sections/."""

import pytest
from django.urls import reverse

from games.services import seating
from tests.browser.conftest import ARTIFACTS
from tests.scoring.conftest import make_sheet

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
SECTION_IDS = "() => [...document.querySelectorAll('main section[id]')].map(s => s.id)"


@pytest.fixture
def filled(group, owner, member):
    for _ in range(3):
        game = seating.create_game(
            group=group, created_by=owner, variant="classic", options=None, seats=[owner, member]
        )
        seating.accept_seat(game_id=game.pk, user=member)
    make_sheet(group, owner, "classic", [owner, member, "Samir"])
    make_sheet(group, owner, "kuwaiti", [owner, member, "Samir", "Huda"])
    return group


@pytest.mark.parametrize(
    ("width", "language", "scheme"),
    [(360, "en", "light"), (1280, "en", "dark"), (360, "ar", "dark"), (1280, "ar", "light")],
)
def test_the_group_and_home_sections_show_in_order_and_fit_the_screen(
    browser, live_server, log_in, filled, member, width, language, scheme
):
    member.language = language
    member.save(update_fields=["language"])
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": 900}, color_scheme=scheme
    )
    page = context.new_page()
    log_in(page, member)
    folder = ARTIFACTS / "sections"
    folder.mkdir(parents=True, exist_ok=True)
    try:
        page.goto(reverse("group_detail", args=[filled.slug]))
        assert page.evaluate("document.documentElement.lang") == language
        ids = page.evaluate(SECTION_IDS)
        assert ids.index("games") < ids.index("score-sheets"), ids
        assert page.locator("#games .game-list li").count() == 3
        assert page.locator("#score-sheets .sheet-link").count() == 2
        assert page.evaluate(OVERFLOW) <= 1
        page.screenshot(path=str(folder / f"group-{width}-{language}-{scheme}.png"), full_page=True)
        page.goto(reverse("home"))
        assert page.locator("#my-games .game-list li").count() == 3
        assert page.evaluate(OVERFLOW) <= 1
        page.screenshot(path=str(folder / f"home-{width}-{language}-{scheme}.png"), full_page=True)
    finally:
        context.close()
