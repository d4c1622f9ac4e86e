"""A press on an action button of the play page while the chat field has focus (on a phone: while the
keyboard is up) makes the move. While the field has focus the dock stands back in its place below; the
press must not be lost to the dock springing back to the bottom of the screen as the field lets go
(a tap at 360 px in Arabic sent nothing). Screenshots at 360 and 1280 px, English and Arabic, light and
dark (test-artifacts/, and notes/shots/tap/ when that folder exists)."""

import shutil
from pathlib import Path

import pytest

from tests.browser.test_play_move_answer import second_deal  # noqa: F401 (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTES = Path("/work/wt/notes/shots/tap")


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_a_press_on_draw_while_typing_in_the_chat_draws(second_deal, screenshot, width, language, dark):  # noqa: F811
    from playwright.sync_api import expect

    page = second_deal["open"](width, language=language, dark=dark)
    for panel in ("chat", "scores"):
        if not page.locator(f"#panel-{panel}").evaluate("element => element.open"):
            page.locator(f"#panel-{panel} > summary").click()
    page.fill("#chat-text", "half a thought")  # the field has focus
    name = f"{width}-{language}-{'dark' if dark else 'light'}"
    _keep(screenshot(page, f"typing-{name}"))
    draw = page.locator("#actions button[name=act][value=draw]")
    if width < 1000:
        draw.tap()  # touch events, then the mouse events of a tap
    else:
        draw.click()
    expect(draw).to_have_count(0)  # the answer is in: Amira drew
    expect(page.locator("#move-error")).to_have_count(0)
    assert page.input_value("#chat-text") == "half a thought"
    expect(page.locator("#chat-text")).not_to_be_focused()  # the field let go, as after any press
    _keep(screenshot(page, f"drawn-{name}"))


def _keep(path):
    if NOTES.parent.exists():
        NOTES.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, NOTES / path.name)
