"""A move's answer on the play page, in the browser: the page keeps its chat panel (messages and what the
player is typing) and its score sheet while no deal ends (hx-preserve), the table and the log are new,
and a seat that moved since the player's last move is marked. Screenshots at 360 and 1280 px, English
and Arabic, light and dark (test-artifacts/, and notes/shots/render/ when that folder exists)."""

import shutil
from pathlib import Path

import pytest

from games import engine
from games.chat import ChatRequest
from games.models import Game
from games.services import playing, talk

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTES = Path("/work/wt/notes/shots/render")


@pytest.fixture
def second_deal(open_as, amira_and_badr):
    """Amira against Badr, the first deal played out (the score sheet has a line), Amira to draw in the
    second deal after Badr's move, and a message of table talk."""
    group, amira, badr, game = amira_and_badr
    people = [amira, badr]
    while True:
        game = Game.objects.get(pk=game.pk)
        state = engine.from_json(game.state)
        if state.deal.number == 1 and state.current == 0 and sum(state.deal.turns) >= 2:
            break
        seat = state.current
        playing.play(
            game_id=game.pk, user=people[seat], version=game.version, action=engine.bot_action(state, seat)
        )
    talk.chat(
        game_id=game.pk,
        group_slug=group.slug,
        user=badr,
        request=ChatRequest(action="post", text="يلا، دورك"),
    )

    def open_page(width, *, language="en", dark=False):
        return open_as(amira, game.get_absolute_url(), width, language=language, dark=dark)

    return {"game": game, "open": open_page}


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_move_keeps_the_chat_and_the_score_sheet_and_marks_who_moved(
    second_deal, screenshot, width, language, dark
):
    from playwright.sync_api import expect

    page = second_deal["open"](width, language=language, dark=dark)
    expect(page.locator("#seat-list .seat-moved")).to_have_count(1)  # Badr moved since Amira's last move
    expect(page.locator("#seat-list .seat-moved .seat-name")).to_have_text("بدر")
    name = f"{width}-{language}-{'dark' if dark else 'light'}"
    _keep(screenshot(page, f"before-move-{name}"))
    for panel in ("chat", "scores"):
        if not page.locator(f"#panel-{panel}").evaluate("element => element.open"):
            page.locator(f"#panel-{panel} > summary").click()
    page.fill("#chat-text", "half a thought")
    sheet = page.locator("#score-sheet").inner_html()
    assert 'id="last-deal"' in sheet
    expect(page.locator("#scores tbody tr")).to_have_count(1)
    lines = page.locator("#log li").count()
    page.evaluate(
        "for (const id of ['game', 'chat', 'score-sheet']) document.getElementById(id).dataset.before = 'yes'"
    )

    page.locator("#actions button[name=act][value=draw]").click()
    expect(page.locator("#actions button[name=act][value=draw]")).to_have_count(0)  # the answer is in
    expect(page.locator("#log li")).to_have_count(lines + 1)  # the log is new
    expect(page.locator("#chat-log .chat-text")).to_have_text(["يلا، دورك"])  # the chat panel is kept
    assert page.input_value("#chat-text") == "half a thought"
    assert page.locator("#score-sheet").inner_html() == sheet  # the sheet is kept as it was
    for kept in ("#chat", "#score-sheet"):  # the page's own elements, not new copies
        expect(page.locator(f"{kept}[data-before=yes]")).to_have_count(1)
    expect(page.locator("#game[data-before]")).to_have_count(0)
    expect(page.locator("#scores tbody tr")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    _keep(screenshot(page, f"move-answer-{name}"))
    # The next press goes through with the token field the page kept (the live server checks it).
    expect(page.locator("#play-csrf[value]")).to_have_count(1)
    page.locator("#hand label").first.click(position={"x": 8, "y": 12})
    page.locator("#actions button[name=act][value=discard]").click()
    expect(page.locator("#actions .waiting-turn")).to_be_visible()
    expect(page.locator("#move-error")).to_have_count(0)


def _keep(path):
    if NOTES.parent.exists():
        NOTES.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, NOTES / path.name)
