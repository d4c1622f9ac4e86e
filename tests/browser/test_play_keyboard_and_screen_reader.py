"""The play page for keyboards and screen readers, at 360x640 and 1280x800, English and Arabic: a whole
turn (draw, then discard) takes at most 10 keys from the page's load, the focus never falls to <body>
after a move; the live region reads the other players' moves as a poll brings them, then "Your turn";
a poll keeps the focus on the card it was on; a card is found by its name in words
(tests/games/test_play_page_accessible_names.py checks the names and the meld buttons' in both languages).
Screenshots go to test-artifacts/."""

import pytest
from playwright.sync_api import expect

from games import engine
from games.models import Game
from games.services import playing, seating
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.rigging import Deck
from tests.support import wait_until_true

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = [(360, 640), (1280, 800)]
HAND = "7H 8H 9H 5S 6S KS KH KD 2C 4D 6C 8D QS 3C JK"
OTHER = "2S 4S 6S 8C 10C QC 3D 5H 7D 9C JC AD AS 3S"
FOCUSED = """(() => {
    const e = document.activeElement;
    return e === document.body ? "body" : e.id || `${e.name}=${e.value}`;
})()"""


def _rig(game, *, current, phase, stock=None):
    state = engine.from_json(Game.objects.get(pk=game.pk).state)
    deck = Deck("classic")
    state.deal.hands[0] = deck.pick(HAND)
    state.deal.hands[1] = deck.pick(OTHER)
    state.deal.discard = deck.pick("9S")
    on_top = deck.pick(stock) if stock else []  # the stock's top is its last card
    state.deal.stock = deck.rest()[: 40 - len(on_top)] + on_top
    state.deal.current = current
    state.deal.phase = phase
    state.deal.turns = [2, 2]
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_json(state), turn_seat=current, revision=game.revision + 1
    )


@pytest.fixture
def against_bot():
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, seating.BOT], seed=5
    )
    _rig(game, current=0, phase=engine.DRAW)
    return amira, Game.objects.get(pk=game.pk)


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("language", ["en", "ar"])
def test_a_draw_and_discard_turn_takes_ten_keys_at_most_and_the_focus_never_falls_to_the_body(
    open_as, against_bot, screenshot, width, height, language
):
    amira, game = against_bot
    page = open_as(amira, game.get_absolute_url(), width, height, language=language)
    page.locator("#hand").wait_for()
    keys = []

    def press(key):
        keys.append(key)
        page.keyboard.press(key)

    press("Tab")
    expect(page.locator(".skip-link")).to_be_focused()
    press("Enter")
    expect(page.locator("#actions button[value=draw]")).to_be_focused()
    press("Enter")  # draw
    expect(page.locator("#hand .pick")).to_have_count(16)
    expect(page.locator("#hand .pick:focus")).to_have_count(1)  # the drawn card
    drawn = page.evaluate("document.activeElement.value")
    assert drawn not in [str(c) for c in _hand_ids(game, before=True)]
    press("Space")  # select it
    expect(page.locator("#hand .pick:checked")).to_have_count(1)
    for _ in range(6):
        if page.evaluate("document.activeElement.value") == "discard":
            break
        press("Shift+Tab")
    expect(page.locator("#actions button[value=discard]")).to_be_focused()
    screenshot(page, f"keyboard-turn-{width}-{language}-before-discard")
    press("Enter")  # discard: the bot plays, and it is Amira's turn again
    expect(page.locator("#hand .pick")).to_have_count(15)
    expect(page.locator(f"#pick-{drawn}")).to_have_count(0)
    wait_until_true(page, "document.activeElement !== document.body")
    assert page.evaluate(FOCUSED) != "body"
    assert len(keys) <= 10, keys
    expect(page.locator("#announcer")).not_to_be_empty()
    screenshot(page, f"keyboard-turn-{width}-{language}-after")


def _hand_ids(game, *, before):
    state = engine.from_json(Game.objects.get(pk=game.pk).state)
    return [card.id for card in state.deal.hands[0]][: 15 if before else None]


def test_the_arrow_keys_move_along_the_hand_which_is_one_tab_stop(open_as, against_bot):
    amira, game = against_bot
    page = open_as(amira, game.get_absolute_url(), 1280)
    page.locator("#hand").wait_for()
    assert page.locator("#hand .pick[tabindex='0']").count() == 1
    assert page.locator("#hand .pick[tabindex='-1']").count() == 14
    first = page.locator("#hand .pick").nth(0)
    first.focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#hand .pick").nth(1)).to_be_focused()
    page.keyboard.press("End")
    expect(page.locator("#hand .pick").nth(14)).to_be_focused()
    page.keyboard.press("Tab")
    assert page.evaluate("!document.activeElement.closest('#hand')")  # one Tab leaves the hand


@pytest.fixture
def two_players():
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    badr = MembershipFactory(group=group, user__display_name="Badr").user
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, badr], seed=5
    )
    seating.accept_seat(game_id=game.pk, user=badr)
    _rig(game, current=0, phase=engine.DRAW, stock="5D")
    return amira, badr, Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_live_region_reads_the_other_players_moves_as_a_poll_brings_them_and_the_focus_stays(
    open_as, two_players, screenshot, language
):
    amira, badr, game = two_players
    page = open_as(badr, game.get_absolute_url(), 360, 640, language=language)
    page.locator("#hand").wait_for()
    card = page.locator("#hand .pick").nth(3)
    card.focus()
    focused = card.get_attribute("id")
    for action in ({"type": "draw"}, None):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if action is None:
            drawn = next(c for c in state.deal.hands[0] if c.face == "5D")
            action = {"type": "discard", "card": drawn.id}
        playing.play(game_id=game.pk, user=amira, version=game.version, action=action)
    expect(page.locator("#turn.your-turn")).to_be_visible(timeout=15_000)  # the poll brought it
    said = page.locator("#announcer")
    if language == "en":
        expect(said).to_contain_text("Amira")
        expect(said).to_contain_text("5 of diamonds")
        expect(said).to_contain_text("Your turn.")
    else:
        expect(said).to_contain_text("ديناري")
        expect(said).to_contain_text("دورك.")
    assert page.evaluate("document.activeElement.id") == focused
    screenshot(page, f"live-region-{language}")


def test_a_screen_reader_finds_each_card_by_its_name_and_the_pages_heading(open_as, two_players):
    amira, _badr, game = two_players
    state = engine.from_json(game.state)
    page = open_as(amira, game.get_absolute_url(), 1280)
    page.locator("#hand").wait_for()
    queen = next(c for c in state.deal.hands[0] if c.face == "QS")
    expect(page.get_by_role("checkbox", name="queen of spades", exact=True)).to_have_count(1)
    assert page.locator(f"#pick-{queen.id}").count() == 1
    expect(page.get_by_role("img", name="joker", exact=True).first).to_be_visible()
    expect(page.locator("h1")).to_have_count(1)
