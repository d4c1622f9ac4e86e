"""Table talk in the browser: a player opens the chat panel on a phone and writes; the other player's
page (a desktop, the panel open beside the table) gets it with the poll, while what they are typing
survives the refresh; no CSP violation, nothing scrolls sideways. Screenshots at 360 and 1280 px,
English and Arabic, light and dark (test-artifacts/, and notes/shots/chat/ when that folder exists)."""

import shutil
from pathlib import Path

import pytest

from games.chat import ChatRequest
from games.models import Game
from games.services import talk as table_talk
from handsite.models import Notification

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NOTES = Path("/work/wt/notes/shots/chat")


@pytest.fixture
def talk(open_as, amira_and_badr):
    group, amira, badr, game = amira_and_badr

    def say(user, text):
        outcome = table_talk.chat(
            game_id=game.pk, group_slug=group.slug, user=user, request=ChatRequest(action="post", text=text)
        )
        assert outcome.error is None

    def open_page(user, width, *, language="en", dark=False):
        return open_as(user, game.get_absolute_url(), width, language=language, dark=dark)

    return {"game": game, "amira": amira, "badr": badr, "say": say, "open": open_page}


def _no_sideways_scroll(page):
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")


def _viewport_shot(page, name):
    from tests.browser.conftest import ARTIFACTS

    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def _shot(page, name, screenshot):
    path = screenshot(page, name)
    if NOTES.parent.exists():
        NOTES.mkdir(parents=True, exist_ok=True)
        shutil.copy(path, NOTES / path.name)


def test_a_message_written_on_a_phone_reaches_the_other_page_with_the_poll_and_keeps_their_draft(talk):
    phone = talk["open"](talk["amira"], 360)
    desk = talk["open"](talk["badr"], 1280)
    desk.locator("#panel-chat[open] #chat-text").wait_for()  # open beside the table on a wide screen
    desk.fill("#chat-text", "half a thought")
    desk.focus("#chat-text")

    phone.locator("#panel-chat > summary").click()
    phone.fill("#chat-text", "<b>Yalla</b> https://example.com — let's go")
    # Typing at the foot of the screen, the docked hand does not cover the line.
    assert phone.evaluate(
        """() => { const box = document.getElementById("chat-text");
        box.scrollIntoView({block: "end"}); box.focus({preventScroll: true});
        const r = box.getBoundingClientRect();
        return document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2) === box; }"""
    )
    phone.press("#chat-text", "Enter")
    phone.locator("#chat-log .chat-mine .chat-text").filter(has_text="<b>Yalla</b>").wait_for()
    assert phone.input_value("#chat-text") == ""
    assert phone.locator("#chat-log a").count() == 0  # the link is text
    _no_sideways_scroll(phone)

    desk.locator("#chat-log .chat-text").filter(has_text="let's go").wait_for(timeout=15000)
    assert desk.input_value("#chat-text") == "half a thought"  # the poll's refresh kept the draft
    assert desk.evaluate("document.activeElement && document.activeElement.id") == "chat-text"
    _no_sideways_scroll(desk)
    # The panel is open: the message is seen, so it is not unread any more (the header follows).
    unread = Notification.objects.filter(user=talk["badr"], kind="chat", read_at__isnull=True)
    for _ in range(50):
        if not unread.exists():
            break
        desk.wait_for_timeout(200)
    assert not unread.exists()


def test_a_closed_chat_panel_on_a_phone_shows_a_dot_when_a_message_arrives(talk):
    phone = talk["open"](talk["badr"], 360)
    phone.locator("#panel-chat").wait_for()
    assert not phone.locator("#panel-chat").evaluate("element => element.open")
    talk["say"](talk["amira"], "Your turn, Badr")
    phone.locator("#panel-chat.chat-new").wait_for(timeout=15000)
    assert Notification.objects.filter(user=talk["badr"], kind="chat", read_at__isnull=True).count() == 1
    phone.locator("#panel-chat > summary").click()
    phone.locator("#panel-chat:not(.chat-new)").wait_for()
    unread = Notification.objects.filter(user=talk["badr"], kind="chat", read_at__isnull=True)
    for _ in range(50):
        if not unread.exists():
            break
        phone.wait_for_timeout(200)
    assert not unread.exists()


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_chat_panel_looks_right(talk, screenshot, width, language, dark):
    talk["say"](talk["amira"], "Good luck, everyone!")
    talk["say"](talk["badr"], "بالتوفيق للجميع! من سيوزّع أولًا؟")
    talk["say"](talk["amira"], "<script>alert(1)</script> is just text here")
    talk["say"](talk["badr"], "A long message " + "that goes on and on " * 12)
    page = talk["open"](talk["amira"], width, language=language, dark=dark)
    panel = page.locator("#panel-chat")
    if not panel.evaluate("element => element.open"):
        panel.locator("summary").click()
    page.locator("#chat-log .chat-message").nth(3).wait_for()
    assert page.locator("#chat-log .chat-text[dir=auto]").count() == 4
    _no_sideways_scroll(page)
    name = f"chat-{width}-{language}-{'dark' if dark else 'light'}"
    _shot(page, name, screenshot)
    page.locator("#chat-text").scroll_into_view_if_needed()
    _shot(page, name + "-viewport", _viewport_shot)


@pytest.mark.parametrize(("width", "language", "dark"), [(360, "ar", False), (1280, "en", True)])
def test_the_replay_shows_the_table_talk_of_the_moment(talk, screenshot, width, language, dark):
    talk["say"](talk["amira"], "Good game!")
    talk["say"](talk["badr"], "شكرًا، لعبة حلوة")
    Game.objects.filter(pk=talk["game"].pk).update(status="finished")
    page = talk["open"](talk["amira"], width, language=language, dark=dark)
    page.goto(talk["game"].get_absolute_url() + "replay/?step=0")
    page.locator("#replay-chat .chat-text").nth(1).wait_for()
    assert page.locator("#replay-chat .chat-text[dir=auto]").count() == 2
    _no_sideways_scroll(page)
    _shot(page, f"replay-{width}-{language}-{'dark' if dark else 'light'}", screenshot)
