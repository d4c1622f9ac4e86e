"""The play table on phones and a desktop: at the start of a turn the hand (#hand) and the action bar
(#actions) are inside the viewport without scrolling, nothing scrolls sideways, in English and Arabic,
light and dark; a meld put aside survives a reload. Screenshots go to test-artifacts/."""

import pytest

from games import engine
from games.engine.deal import Turn
from games.models import Game
from games.services import playing, seating
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.rigging import Deck
from tests.support import wait_until_true

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 640), (390, 844), (1280, 800)]
HAND = "7H 8H 9H 5S 6S KS KH KD 2C 4D 6C 8D QS 3C JK"
OTHER = "2S 4S 6S 8C 10C QC 3D 5H 7D 9C JC AD AS 3S"


@pytest.fixture
def table(open_as):
    """A classic game Amira (to play, with chosen cards) against a bot, some melds on the table."""
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, seating.BOT], seed=5
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

    def open_page(width, height, *, language="en", dark=False):
        scale = 1 if width > 1000 else 2
        return open_as(
            amira, game.get_absolute_url(), width, height, language=language, dark=dark, scale=scale
        )

    return {"game": game, "open": open_page, "amira": amira}


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
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, omar]
    )
    seating.accept_seat(game_id=game.pk, user=omar)
    context = browser.new_context(base_url=live_server.url, viewport={"width": 360, "height": 640})
    page = context.new_page()
    log_in(page, amira)
    page.goto(game.get_absolute_url())
    page.locator("#leave summary").click()
    page.get_by_role("button", name="Leave the game…").click()
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


# --- The moves the selection drives ------------------------------------------------------------------

EXCHANGER = "7H 8H 9H 10H 5S 6S JK 7S 2C 4D 6C 8D QS 3C 5D"


@pytest.fixture
def exchange_table(open_as):
    """classic, Amira to play (play phase): she has opened with 7♥-10♥ and 5♠ 6♠ 🃏 (the joker as 7♠)
    and holds 7♠ 2♣ 4♦ 6♣ 8♦ Q♠ 3♣ 5♦."""
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, seating.BOT], seed=5
    )
    game = Game.objects.get(pk=game.pk)
    state = engine.from_json(game.state)
    deck = Deck("classic")
    state.deal.hands[0] = deck.pick(EXCHANGER)
    state.deal.hands[1] = deck.pick(OTHER)
    state.deal.discard = deck.pick("9S")
    state.deal.stock = deck.rest()[:40]
    state.deal.melds = []  # the bot's melds of the real deal would share cards with the rigged hands
    state.deal.opened = [False, False]
    state.deal.current = 0
    state.deal.phase = engine.PLAY
    state.deal.turn = Turn(seat=0, number=2, opened_before=False, drew="stock")
    state.deal.turns = [2, 2]
    ids = {c.face: c.id for c in state.deal.hands[0]}
    run = [ids[f] for f in ("7H", "8H", "9H", "10H")]
    jokers = [ids["5S"], ids["6S"], ids["JK"]]
    engine.apply(
        state,
        0,
        {"type": "meld", "melds": [{"cards": run}, {"cards": jokers, "wild_as": {str(ids["JK"]): "7S"}}]},
    )
    joker_meld = next(tm.id for tm in state.deal.melds if any(c.id == ids["JK"] for c in tm.meld.cards))
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_json(state), version=state.version, turn_seat=0, revision=game.revision + 1
    )

    def open_page(width, height=800, *, language="en", dark=False):
        return open_as(amira, game.get_absolute_url(), width, height, language=language, dark=dark)

    return {"game": game, "open": open_page, "ids": ids, "joker_meld": joker_meld}


def _tap(page, card_id):
    page.locator(f"label[for=pick-{card_id}]").click(position={"x": 8, "y": 12})  # the visible corner


@pytest.mark.parametrize(
    ("width", "height", "language", "dark"),
    [(360, 640, "en", False), (360, 640, "ar", True), (1280, 800, "en", True), (1280, 800, "ar", False)],
)
def test_selecting_a_card_brings_its_buttons_and_exchanges_the_wild_card(
    exchange_table, width, height, language, dark
):
    from playwright.sync_api import expect

    t = exchange_table
    page = t["open"](width, height, language=language, dark=dark)
    meld = page.locator(f"#meld-{t['joker_meld']}")
    exchange = meld.locator("button[name=exchange]")
    discard = page.locator("#actions button[value=discard]")
    expect(exchange).to_be_hidden()  # nothing selected: no button that needs cards
    expect(discard).to_be_hidden()
    expect(page.locator("#actions .tap-hint")).to_be_visible()
    shots = f"table-select-{width}-{language}-{'dark' if dark else 'light'}"
    page.screenshot(path=str(_path(f"{shots}-0")))

    _tap(page, t["ids"]["8D"])  # a card that is not the 7♠: the engine refuses, naming it
    expect(exchange).to_be_visible()
    expect(discard).to_be_visible()
    _inside(page, "#actions")
    exchange.click()
    expect(page.locator("#move-error")).to_contain_text("8♦")
    expect(page.locator(f"#pick-{t['ids']['8D']}")).to_be_checked()  # the selection stays
    page.screenshot(path=str(_path(f"{shots}-refused")))

    _tap(page, t["ids"]["8D"])
    _tap(page, t["ids"]["7S"])
    page.locator(f"#meld-{t['joker_meld']} button[name=exchange]").click()
    expect(page.locator(f"#pick-{t['ids']['JK']}")).to_have_count(1)  # the joker came to the hand
    expect(page.locator(f"#meld-{t['joker_meld']}")).to_contain_text("7♠")
    expect(page.locator("#move-error")).to_have_count(0)
    scroll = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll[0] <= scroll[1], scroll
    page.screenshot(path=str(_path(f"{shots}-exchanged")))
    state = engine.from_json(Game.objects.get(pk=t["game"].pk).state)
    assert t["ids"]["JK"] in [c.id for c in state.deal.hands[0]]


def test_cards_are_grouped_by_a_tap_and_dragged_and_the_order_survives_a_reload(exchange_table):
    from playwright.sync_api import expect

    t = exchange_table
    page = t["open"](1280, 800)
    hand = page.locator("#hand .pick")
    before = [hand.nth(i).get_attribute("value") for i in range(hand.count())]
    first, last = before[0], before[-1]
    _tap(page, int(last))
    _tap(page, int(first))
    page.locator("#dock button[value=group]").click()
    expect(page.locator("#hand .pick").nth(1)).to_have_attribute("value", last)
    grouped = [hand.nth(i).get_attribute("value") for i in range(hand.count())]
    assert grouped == [first, last, *before[1:-1]]

    # drag the first card past the third one, once the regrouping's view transition is over (while it
    # runs, the page's pointer events go to the transition's overlay)
    wait_until_true(page, "document.getAnimations().length === 0")
    box = page.locator(f"label[for=pick-{first}]").bounding_box()
    target = page.locator(f"label[for=pick-{grouped[2]}]").bounding_box()
    page.mouse.move(box["x"] + 8, box["y"] + 20)
    page.mouse.down()
    page.mouse.move(box["x"] + 30, box["y"] + 20, steps=3)
    page.mouse.move(target["x"] + target["width"] - 2, target["y"] + 20, steps=5)
    page.mouse.up()
    expect(page.locator("#hand .pick").nth(2)).to_have_attribute("value", first)
    dragged = [hand.nth(i).get_attribute("value") for i in range(hand.count())]
    assert dragged == [last, grouped[2], first, *grouped[3:]]
    expect(page.locator(f"#pick-{first}")).not_to_be_checked()  # the drag selected nothing
    page.reload()
    assert [hand.nth(i).get_attribute("value") for i in range(hand.count())] == dragged
    page.get_by_role("link", name="Sort by suit").click()
    expect(page.get_by_role("link", name="My order")).to_be_visible()
    page.screenshot(path=str(_path("table-arranged-1280")))


def test_ending_the_game_takes_the_offer_away_without_a_reload(table):
    from playwright.sync_api import expect

    from handsite.models import Membership, Role

    Membership.objects.filter(user=table["amira"]).update(role=Role.OWNER)  # an owner may end a game
    page = table["open"](360, 640)
    expect(page.locator("#leave")).to_be_visible()
    page.locator("#leave summary").click()
    page.get_by_role("button", name="End the game…").click()
    page.get_by_role("button", name="End the game for everybody").click()
    expect(page.locator("#game-head")).to_contain_text("ended the game early")
    expect(page.locator("#leave")).to_be_hidden()


def test_the_replay_reaches_deal_3_in_three_taps(browser, live_server, log_in):
    """From the play page of a finished game on a phone: open "What happened", "Replay the game", "Deal 3"."""
    from playwright.sync_api import expect

    from games.models import GameStatus

    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, seating.BOT], seed=31
    )
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
        state = engine.from_json(game.state)
        playing.play(game_id=game.pk, user=amira, version=game.version, action=engine.bot_action(state, 0))
    assert game.status == GameStatus.FINISHED
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": 360, "height": 640}, is_mobile=True
    )
    page = context.new_page()
    log_in(page, amira)
    page.goto(game.get_absolute_url())
    taps = 0
    if not page.locator("#panel-log").evaluate("panel => panel.open"):
        page.locator("#panel-log summary").click()
        taps += 1
    page.get_by_role("link", name="Replay the game").click()
    taps += 1
    page.locator(".replay-deals").get_by_role("link", name="Deal 3", exact=True).click()
    taps += 1
    expect(page.locator("#replay-where")).to_contain_text("deal 3")
    assert taps <= 3
    page.screenshot(path=str(_path("replay-deal-3-360")))
    context.close()
