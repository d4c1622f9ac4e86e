"""The play table on phones and a desktop: at the start of a turn the hand (#hand) and the action bar
(#actions) are inside the viewport without scrolling, nothing scrolls sideways, in English and Arabic,
light and dark; a meld put aside survives a reload. Screenshots go to test-artifacts/."""

import pytest

from games import engine, services
from games.models import Game
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.rigging import Deck

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 640), (390, 844), (1280, 800)]
HAND = "7H 8H 9H 5S 6S KS KH KD 2C 4D 6C 8D QS 3C JK"
OTHER = "2S 4S 6S 8C 10C QC 3D 5H 7D 9C JC AD AS 3S"


@pytest.fixture
def table(browser, live_server, log_in):
    """A classic game Amira (to play, with chosen cards) against a bot, some melds on the table."""
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    game = services.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, services.BOT], seed=5
    )
    game = Game.objects.get(pk=game.pk)
    state = engine.from_json(game.state)
    deck = Deck("classic")
    state.deal.hands[0] = deck.pick(HAND)
    state.deal.hands[1] = deck.pick(OTHER)
    state.deal.discard = deck.pick("9S")
    state.deal.stock = deck.rest()[:40]
    state.deal.current = 0
    state.deal.phase = engine.DRAW
    state.deal.turns = [2, 2]
    rigged = engine.to_json(state)
    Game.objects.filter(pk=game.pk).update(state=rigged, turn_seat=0, revision=game.revision + 1)
    contexts = []

    def open_page(width, height, *, language="en", dark=False):
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": width, "height": height},
            device_scale_factor=1 if width > 1000 else 2,
            is_mobile=width < 1000,
            has_touch=width < 1000,
            color_scheme="dark" if dark else "light",
        )
        contexts.append(context)
        if language != "en":
            context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page = context.new_page()
        log_in(page, amira)  # (logging in stores a language on the person: set theirs after it)
        type(amira).objects.filter(pk=amira.pk).update(language=language)
        page.goto(game.get_absolute_url())
        return page

    yield {"game": game, "open": open_page, "amira": amira}
    for context in contexts:
        context.close()


def _inside(page, selector):
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    assert box is not None, selector
    where = (selector, box, viewport)
    assert box["y"] >= 0, where
    assert box["y"] + box["height"] <= viewport["height"] + 1, where
    assert box["x"] >= 0, where
    assert box["x"] + box["width"] <= viewport["width"] + 1, where


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_hand_and_the_actions_are_on_screen_at_the_start_of_a_turn(table, width, height, language, dark):
    page = table["open"](width, height, language=language, dark=dark)
    page.locator("#hand").wait_for()
    _inside(page, "#hand")
    _inside(page, "#actions")
    assert page.locator("#hand .pick").count() == 15
    scroll = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll[0] <= scroll[1], scroll
    assert page.evaluate("document.documentElement.dir") == ("rtl" if language == "ar" else "ltr")
    name = f"table-{width}x{height}-{language}-{'dark' if dark else 'light'}"
    page.screenshot(path=str(_path(name)))  # what the player sees without scrolling


def _path(name):
    from tests.browser.conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS / f"{name}.png"


def test_a_meld_put_aside_survives_a_reload(table):
    from playwright.sync_api import expect

    page = table["open"](390, 844)
    state = engine.from_json(Game.objects.get(pk=table["game"].pk).state)
    run = [c.id for c in state.deal.hands[0] if c.face in ("7H", "8H", "9H")]
    for card_id in run:
        page.locator(f"label[for=pick-{card_id}]").click(position={"x": 8, "y": 12})  # the visible corner
    page.locator("#actions").get_by_role("button", name="Add as a meld", exact=True).click()
    expect(page.locator("#pending .pcard")).to_have_count(3)
    page.reload()
    expect(page.locator("#pending .pcard")).to_have_count(3)
    for card_id in run:
        expect(page.locator(f"#pick-{card_id}")).to_have_count(0)
    _inside(page, "#hand")
    _inside(page, "#actions")


def test_leaving_hands_the_seat_to_a_bot(browser, live_server, log_in):
    from playwright.sync_api import expect

    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    omar = MembershipFactory(group=group, user__display_name="Omar").user
    game = services.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, omar]
    )
    services.accept_seat(game_id=game.pk, user=omar)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 360, "height": 640})
    page = context.new_page()
    log_in(page, amira)
    page.goto(game.get_absolute_url())
    page.on("dialog", lambda dialog: dialog.accept())
    page.locator("#leave summary").click()
    page.get_by_role("button", name="Leave: a bot takes my seat").click()
    expect(page.get_by_text("A bot plays your seat now; you are watching.")).to_be_visible()
    expect(page.locator("#seat-list")).to_contain_text("left: a bot plays")
    expect(page.locator("#hand")).to_have_count(0)
    seat = game.seats.get(number=0)
    assert seat.bot
    assert seat.user == amira
    assert Game.objects.get(pk=game.pk).status == "active"  # Omar plays on against the bot
    page.screenshot(path=str(_path("table-360-left")))
    context.close()
