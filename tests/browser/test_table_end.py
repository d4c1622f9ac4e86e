"""The table's safety and endings at 360x640 and 1280x800, English and Arabic, light and dark: leaving and
ending ask first in a dialog (cancel changes nothing, confirm acts); a deal's result is on the table,
inside the viewport, right after the deal ends (Hand and Hand and Foot); the game's end offers the
rematch, which makes a new game with the same seats; the tab's title says when it is your turn; the
header's unread count does not grow while the table is open. Screenshots go to test-artifacts/."""

import re

import pytest
from playwright.sync_api import expect

from games import engine, table_end
from games.models import Game, GameStatus
from games.services import playing, seating
from handsite.models import Notification, Role
from tests.factories import MembershipFactory, PlayerGroupFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [
    (360, 640, "en", False),
    (360, 640, "ar", True),
    (1280, 800, "ar", False),
    (1280, 800, "en", True),
]
SCREEN_IDS = [f"{w}x{h}-{lang}-{'dark' if dark else 'light'}" for w, h, lang, dark in SCREENS]


def _shot(page, name):
    from tests.browser.conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def _inside(page, selector):
    box = page.locator(selector).bounding_box()
    viewport = page.viewport_size
    assert box is not None, selector
    where = (selector, box, viewport)
    assert box["y"] >= 0, where
    assert box["y"] + box["height"] <= viewport["height"] + 1, where
    assert box["x"] >= 0, where
    assert box["x"] + box["width"] <= viewport["width"] + 1, where


def _no_sideways_scroll(page):
    scroll = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert scroll[0] <= scroll[1], scroll


def _open(open_as, user, game, width, height, language, dark):
    return open_as(
        user,
        game.get_absolute_url(),
        width,
        height,
        language=language,
        dark=dark,
        scale=1 if width > 1000 else 2,
    )


def _save(game, state):
    """Writes a state played forward with the engine (the bots' moves as the person's too)."""
    fields = {
        "state": engine.to_json(state),
        "version": state.version,
        "turn_seat": state.current,
        "revision": game.revision + 1,
    }
    if state.finished:
        fields |= {"status": GameStatus.FINISHED, "turn_seat": None}
    Game.objects.filter(pk=game.pk).update(**fields)
    game.refresh_from_db()


def _game_against_a_bot(variant="classic", seed=5):
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira", role=Role.OWNER).user
    game = seating.create_game(
        group=group, created_by=amira, variant=variant, options={}, seats=[amira, seating.BOT], seed=seed
    )
    return amira, Game.objects.get(pk=game.pk)


def _play_until(state, done, limit=20000):
    for _ in range(limit):
        if done(state):
            return state
        engine.apply(state, state.current, engine.bot_action(state, state.current))
    raise AssertionError("the game never got there")


def _deal_just_ended(state):
    """The first deal is over and Amira is to start her first turn of the next one."""
    return (
        len(state.records) == 1
        and state.current == 0
        and not table_end.moved_in_deal(state.deal.events, 0)
        and not state.finished
    )


# --- Safety first: leaving and ending ask ----------------------------------------------------------


@pytest.mark.parametrize(("width", "height", "language", "dark"), SCREENS, ids=SCREEN_IDS)
def test_leaving_and_ending_ask_in_a_dialog_and_cancel_changes_nothing(
    open_as, width, height, language, dark
):
    amira, game = _game_against_a_bot()
    page = _open(open_as, amira, game, width, height, language, dark)
    page.locator("#leave summary").click()
    for opener, dialog, cancel_name in (("#leave-open", "#leave-dialog", 0), ("#end-open", "#end-dialog", 0)):
        page.locator(opener).click()
        expect(page.locator(dialog)).to_be_visible()
        assert page.locator(dialog).evaluate("d => d.open && d.matches(':modal')")
        _inside(page, dialog)
        _shot(page, f"confirm-{dialog[1:]}-{width}x{height}-{language}-{'dark' if dark else 'light'}")
        page.locator(dialog).locator("button[command=close]").nth(cancel_name).click()
        expect(page.locator(dialog)).to_be_hidden()
    page.keyboard.press("Escape")
    page.locator("#leave-open").click()
    page.keyboard.press("Escape")  # Escape cancels too
    expect(page.locator("#leave-dialog")).to_be_hidden()
    page.wait_for_timeout(300)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    seat = game.seats.get(number=0)
    assert not seat.bot
    assert seat.left_at is None
    expect(page.locator("#game")).to_have_attribute("data-status", "active")
    if language == "ar":
        expect(page.locator("#leave-dialog h2")).to_have_text("مغادرة هذه اللعبة؟")


def test_leaving_happens_on_confirming_in_the_dialog(open_as):
    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    omar = MembershipFactory(group=group, user__display_name="Omar").user
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, omar]
    )
    seating.accept_seat(game_id=game.pk, user=omar)
    page = open_as(amira, game.get_absolute_url(), 360, 640)
    page.locator("#leave summary").click()
    page.locator("#leave-open").click()
    expect(page.locator("#leave-dialog")).to_contain_text("A bot takes your seat")
    page.locator("#leave-dialog").get_by_role("button", name="Leave: a bot takes my seat").click()
    expect(page.locator("#leave-dialog")).to_be_hidden()
    expect(page.locator("#seat-list")).to_contain_text("left: a bot plays")
    expect(page.locator("#hand")).to_have_count(0)
    seat = game.seats.get(number=0)
    assert seat.bot
    assert seat.user == amira
    assert Game.objects.get(pk=game.pk).status == GameStatus.ACTIVE


def test_ending_happens_on_confirming_in_the_dialog(open_as):
    amira, game = _game_against_a_bot()
    page = open_as(amira, game.get_absolute_url(), 1280, 800, language="ar")
    page.locator("#leave summary").click()
    page.locator("#end-open").click()
    page.locator("#end-dialog button[name=do]").click()
    expect(page.locator("#game")).to_have_attribute("data-status", "abandoned")
    expect(page.locator("#end-dialog")).to_be_hidden()
    expect(page.locator("#leave")).to_be_hidden()
    assert Game.objects.get(pk=game.pk).status == GameStatus.ABANDONED


# --- The deal's end and the game's end on the table ------------------------------------------------


@pytest.mark.parametrize("variant", ["classic", "hand-and-foot"])
@pytest.mark.parametrize(("width", "height", "language", "dark"), SCREENS, ids=SCREEN_IDS)
def test_the_deal_result_is_on_the_table_inside_the_viewport_right_after_the_deal(
    open_as, variant, width, height, language, dark
):
    amira, game = _game_against_a_bot(variant)
    state = _play_until(engine.from_json(game.state), _deal_just_ended)
    _save(game, state)
    page = _open(open_as, amira, game, width, height, language, dark)
    result = page.locator("#deal-end")
    expect(result).to_be_visible()
    _inside(page, "#deal-end")
    _no_sideways_scroll(page)
    assert page.evaluate("window.scrollY") == 0
    rows = result.locator(".end-rows .end-side")
    expect(rows).to_have_count(2)
    totals = state.status().totals_by_seat()
    points = state.records[-1].score.points_by_seat()
    for seat, name in ((0, "Amira"), (1, None)):
        row = rows.nth(seat).locator("tr").first
        if name:
            expect(row.locator("th")).to_contain_text(name)
        expect(row.locator("td").nth(0)).to_have_text(str(points[seat]))
        expect(row.locator("td").nth(1)).to_have_text(str(totals[seat]))
        parts = rows.nth(seat).locator(".end-part td:nth-child(2)")  # the points' parts add up
        assert sum(int(parts.nth(i).inner_text()) for i in range(parts.count())) == points[seat]
    expect(result.locator(".end-how")).not_to_be_empty()
    expect(result.locator(".end-next")).to_contain_text("Amira")
    _shot(page, f"deal-end-{variant}-{width}x{height}-{language}-{'dark' if dark else 'light'}")
    page.locator("#next-deal").click()
    expect(result).to_be_hidden()
    expect(page.locator("#hand")).to_be_visible()
    page.wait_for_timeout(4500)  # a poll (nothing changed) leaves it closed
    page.reload()
    expect(page.locator("#deal-end")).to_be_hidden()  # closed for this tab


def test_game_over_shows_the_winner_and_the_rematch_makes_a_game_with_the_same_seats(open_as):
    amira, game = _game_against_a_bot(seed=31)
    state = _play_until(engine.from_json(game.state), lambda s: s.finished)
    _save(game, state)
    for width, height, language, dark in SCREENS:
        page = _open(open_as, amira, game, width, height, language, dark)
        expect(page.locator("#game-end")).to_be_visible()
        _inside(page, "#game-end")
        _no_sideways_scroll(page)
        expect(page.locator("#game-end .end-standings li")).to_have_count(2)
        expect(page.locator("#game-end .end-standings li.winner")).to_have_count(1)
        assert "/results/" in page.locator("#result-card-link").get_attribute("href")
        _shot(page, f"game-end-{width}x{height}-{language}-{'dark' if dark else 'light'}")
        page.context.close()
    page = open_as(amira, game.get_absolute_url(), 360, 640)
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: f"/games/{game.pk}/" not in url)
    rematch = Game.objects.exclude(pk=game.pk).get()
    assert Game.objects.get(pk=game.pk).rematch == rematch
    assert page.url.endswith(rematch.get_absolute_url())
    assert (rematch.variant, rematch.options, rematch.move_hours) == (
        game.variant,
        game.options,
        game.move_hours,
    )
    assert [(s.number, s.user_id, s.bot) for s in rematch.seats.order_by("number")] == [
        (0, amira.pk, False),
        (1, None, True),
    ]
    assert rematch.status == GameStatus.ACTIVE  # Amira and the bot: it deals at once
    expect(page.locator("#hand")).to_be_visible()
    page.goto(game.get_absolute_url())
    expect(page.locator("#rematch-link")).to_have_attribute("href", rematch.get_absolute_url())


# --- Knowing what happened -------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_tab_title_says_when_it_is_your_turn(amira_and_badr, open_as, language):
    _group, amira, badr, game = amira_and_badr
    game.refresh_from_db()
    mover, waiter = (amira, badr) if game.turn_seat == 0 else (badr, amira)
    page = open_as(mover, game.get_absolute_url(), 360, 640, language=language)
    expected = "(•) Your turn — " if language == "en" else "(•) دورك — "
    assert page.title().startswith(expected), page.title()
    assert f"#{game.pk}" in page.title()
    tab_icon = "link[rel=icon]"
    assert "tab-turn-" in page.locator(tab_icon).get_attribute("href")
    other = open_as(waiter, game.get_absolute_url(), 1280, 800, language=language)
    assert "(•)" not in other.title()
    assert "tab-turn-" not in other.locator(tab_icon).get_attribute("href")
    icon = other.request.get(other.locator(tab_icon).get_attribute("href"))
    assert icon.ok
    assert icon.headers["content-type"] == "image/png"
    # The mover draws: still their turn; once they have discarded, the other tab's title says so (poll).
    state = engine.from_json(Game.objects.get(pk=game.pk).state)
    seat = state.current
    for _ in range(200):
        action = engine.bot_action(state, seat)
        game.refresh_from_db()
        playing.play(game_id=game.pk, user=mover, version=game.version, action=action)
        state = engine.from_json(Game.objects.get(pk=game.pk).state)
        if state.current != seat:
            break
    expect(other).to_have_title(re.compile(r"^\(•\) "), timeout=10000)
    expect(other.locator(tab_icon)).to_have_attribute("href", re.compile("tab-turn-32"))


def test_the_unread_count_does_not_grow_while_the_table_is_open(amira_and_badr, open_as):
    _group, amira, badr, game = amira_and_badr
    game.refresh_from_db()
    watcher, mover = (amira, badr) if game.turn_seat == 1 else (badr, amira)
    page = open_as(watcher, game.get_absolute_url(), 360, 640)
    watcher_seat = 0 if watcher == amira else 1
    for turn in range(3):
        state = engine.from_json(Game.objects.get(pk=game.pk).state)
        player = mover if state.current != watcher_seat else watcher
        seat = state.current
        while state.current == seat and not state.finished:
            game.refresh_from_db()
            playing.play(
                game_id=game.pk, user=player, version=game.version, action=engine.bot_action(state, seat)
            )
            state = engine.from_json(Game.objects.get(pk=game.pk).state)
        expect(page.locator("#game")).to_have_attribute("data-version", str(state.version), timeout=15000)
        page.wait_for_timeout(500)
        assert not Notification.objects.filter(user=watcher, read_at__isnull=True).exists(), turn
        expect(page.locator("#unread-badge .badge")).to_have_count(0)
    assert Notification.objects.filter(user=watcher).exists()  # the turns were told, and read on the table
    _shot(page, "unread-stays-0-360")


def test_the_table_shows_the_whole_deal_log(amira_and_badr, open_as):
    _group, amira, badr, game = amira_and_badr
    state = engine.from_json(game.state)
    users = {0: amira, 1: badr}
    for _ in range(40):
        seat = state.current
        game.refresh_from_db()
        playing.play(
            game_id=game.pk, user=users[seat], version=game.version, action=engine.bot_action(state, seat)
        )
        state = engine.from_json(Game.objects.get(pk=game.pk).state)
        if len(state.records):
            break
    lines = [e for e in engine.visible_events(state.deal.events, 0) if e["type"] != "turn_started"]
    page = open_as(amira, game.get_absolute_url(), 1280, 800)
    expect(page.locator("#log li")).to_have_count(len(lines))
    assert len(lines) > 30
