"""Table talk on the play page (games:play): the chat panel beside the log, the header's unread count,
opening the game marks its messages read, a move's answer keeps the page's messages without reading them."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine, moves
from games.chat import SHOWN, ChatRequest
from games.models import ChatMessage
from games.services import talk
from handsite.models import Notification

HTMX = {"HTTP_HX_REQUEST": "true"}


def write(game, user, text):
    outcome = talk.chat(
        game_id=game.pk, group_slug=game.group.slug, user=user, request=ChatRequest(action="post", text=text)
    )
    assert outcome.error is None, outcome.error
    return outcome.message


def unread_chat(user):
    return Notification.objects.filter(user=user, kind="chat", read_at__isnull=True).count()


def test_the_play_page_has_a_table_talk_panel_with_the_messages_and_a_line_to_write(
    client, duel, owner, member
):
    write(duel, owner, "Yalla, let's play")
    client.force_login(member)
    html = client.get(duel.get_absolute_url()).content.decode()
    assert 'id="panel-chat"' in html
    assert "Table talk" in html
    assert html.index('id="panel-log"') < html.index('id="panel-chat"')  # beside the log
    assert "Yalla, let&#x27;s play" in html
    assert 'id="chat-text"' in html
    assert 'form="chat-form"' in html
    assert '<form id="chat-form"' in html
    # The chat's form is not inside the play form (forms do not nest).
    play_form = html[
        html.index('<form id="play-form"') : html.index("</form>", html.index('<form id="play-form"'))
    ]
    assert 'id="chat-form"' not in play_form


def test_unread_messages_count_in_the_header_until_the_game_is_opened(client, duel, owner, member):
    client.force_login(member)
    home = reverse("home")
    before = unread_chat(member)
    write(duel, owner, "one")
    write(duel, owner, "two")
    assert unread_chat(member) == before + 2
    html = client.get(home).content.decode()
    total = Notification.objects.filter(user=member, read_at__isnull=True).count()
    assert f'aria-label="{total} unread">{total}</span>' in html
    client.get(duel.get_absolute_url())
    assert unread_chat(member) == 0


def test_the_page_shows_only_the_newest_messages(client, duel, owner, settings):
    settings.GAMES_CHAT_PER_MINUTE = 1000
    for number in range(SHOWN + 5):
        write(duel, owner, f"line {number:03d}")
    client.force_login(owner)
    html = client.get(duel.get_absolute_url()).content.decode()
    assert "line 004" not in html
    assert "line 005" in html
    assert f"line {SHOWN + 4:03d}" in html
    assert html.index("line 005") < html.index(f"line {SHOWN + 4:03d}")  # oldest first, newest last


def test_a_moves_htmx_answer_keeps_the_pages_chat_panel_and_reads_no_message(client, duel, owner, member):
    write(duel, owner, "before the move")
    state = engine.from_json(duel.state)
    people = {s.number: s.user for s in duel.seats.all()}
    client.force_login(people[state.current])
    action = engine.bot_action(state, state.current)
    press = next(iter(moves.requests_for(state, state.current, action)))
    url = reverse("games:move", args=[duel.group.slug, duel.pk])
    with CaptureQueriesContext(connection) as queries:
        response = client.post(url, press.as_post(duel.version), **HTMX)
    html = response.content.decode()
    assert '<div id="chat" class="chat" hx-preserve="true"></div>' in html  # kept as the page has it
    assert "before the move" not in html
    assert 'id="chat-text"' not in html  # what the player is typing stays too
    assert '<form id="chat-form" class="chat-form" hx-preserve="true"></form>' in html
    assert not any("games_chatmessage" in q["sql"] for q in queries.captured_queries)


def test_a_deleted_message_shows_as_deleted_on_the_page(client, duel, owner, member):
    message = write(duel, owner, "secret plan")
    talk.chat(
        game_id=duel.pk,
        group_slug=duel.group.slug,
        user=owner,
        request=ChatRequest(action="delete", message=message.pk),
    )
    client.force_login(member)
    html = client.get(duel.get_absolute_url()).content.decode()
    assert "secret plan" not in html
    assert "Message deleted." in html
    assert ChatMessage.objects.filter(pk=message.pk).exists()


def test_only_the_writer_and_admins_see_a_delete_button(client, duel, owner, member, admin):
    write(duel, owner, "mine")
    button = 'name="delete"'
    client.force_login(owner)
    assert button in client.get(duel.get_absolute_url()).content.decode()
    client.force_login(member)
    assert button not in client.get(duel.get_absolute_url()).content.decode()
    client.force_login(admin)
    assert button in client.get(duel.get_absolute_url()).content.decode()


def test_an_outsider_sees_no_chat_of_a_game(client, duel, owner, outsider):
    write(duel, owner, "private")
    client.force_login(outsider)
    assert client.get(duel.get_absolute_url()).status_code == 404
