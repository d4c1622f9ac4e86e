"""Hand and Foot's play table on a narrow phone and a desktop, in English and Arabic, light and dark: the
table, the hand and the action bar are on the page, nothing scrolls sideways, the page reads the
language's way. Screenshots go to test-artifacts/."""

import pytest
from playwright.sync_api import expect

from games import engine
from games.models import Game
from games.services import seating
from tests.factories import MembershipFactory, PlayerGroupFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def foot_table():
    """A Hand and Foot game: Amira against a bot, a few turns played (melds on the table)."""
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    game = seating.create_game(
        group=group,
        created_by=amira,
        variant="hand-and-foot",
        options={},
        seats=[amira, seating.BOT],
        seed=5,
    )
    game = Game.objects.get(pk=game.pk)
    state = engine.from_json(game.state)
    for _ in range(30):  # both seats play (the bot's moves as Amira's too) until she is to draw again
        engine.apply(state, state.current, engine.bot_action(state, state.current))
        if state.current == 0 and state.deal.phase == engine.DRAW and state.deal.melds:
            break
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_json(state),
        version=state.version,
        turn_seat=state.current,
        revision=game.revision + 1,
    )
    return amira, game


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_hand_and_foot_table_fits_a_phone_and_a_desktop(
    open_as, screenshot, foot_table, width, language, dark
):
    amira, game = foot_table
    page = open_as(amira, game.get_absolute_url(), width, language=language, dark=dark, scale=1)
    expect(page.locator("#hand")).to_be_visible(timeout=30_000)
    for region in ("#table", "#seat-list", "#discard-pile", "#rule-state", "#melds", "#actions"):
        expect(page.locator(region)).to_be_visible()
    assert page.locator("#hand .pick").count() > 0
    assert page.locator("#actions button[value=draw]").count() == 1
    scroll = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll[0] <= scroll[1], scroll
    assert page.evaluate("document.documentElement.dir") == ("rtl" if language == "ar" else "ltr")
    screenshot(page, f"handfoot-table-{width}-{language}-{'dark' if dark else 'light'}")
