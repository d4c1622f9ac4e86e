"""Table talk, the chat view (games:chat): who may write and delete, the rate limit, the length cap,
escaping (a message is text: no markup, no clickable link), hostile input. Every refusal is a sentence
and changes nothing."""

import pytest
from django.urls import reverse

from games.chat import message_key
from games.models import ChatMessage, Game
from games.services import seating, talk
from handsite.models import Notification

HTMX = {"HTTP_HX_REQUEST": "true"}


def chat_url(game):
    return reverse("games:chat", args=[game.group.slug, game.pk])


def say(client, game, text, **extra):
    return client.post(chat_url(game), {"text": text}, **{**HTMX, **extra})


def delete(client, game, message):
    return client.post(chat_url(game), {"delete": message.pk}, **HTMX)


def write(game, user, text):
    """A message written through the service (the view's one path)."""
    from games.chat import ChatRequest

    outcome = talk.chat(
        game_id=game.pk, group_slug=game.group.slug, user=user, request=ChatRequest(action="post", text=text)
    )
    assert outcome.error is None, outcome.error
    return outcome.message


def test_a_player_at_the_table_writes_and_sees_the_message_in_the_chat(client, duel, owner):
    client.force_login(owner)
    revision = duel.revision
    response = say(client, duel, "  Good luck, everyone!  ")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="chat"' in html
    assert "Good luck, everyone!" in html
    message = ChatMessage.objects.get(game=duel)
    assert (message.author, message.text, message.version) == (owner, "Good luck, everyone!", duel.version)
    duel.refresh_from_db()
    assert duel.revision == revision + 1  # the poll of every open page brings it


def test_the_other_players_get_an_unread_in_site_notification_that_is_never_emailed(
    client, duel, owner, member, mailoutbox
):
    client.force_login(owner)
    say(client, duel, "Hello Mona")
    message = ChatMessage.objects.get(game=duel)
    row = Notification.objects.get(key=message_key(duel.pk, message.pk, member.pk))
    assert row.read_at is None
    assert row.state == "skipped"
    assert not Notification.objects.filter(user=owner, kind="chat").exists()  # not for the writer
    assert mailoutbox == []


def test_an_outsider_gets_404_and_nothing_is_written(client, duel, outsider):
    client.force_login(outsider)
    assert say(client, duel, "hi").status_code == 404
    assert client.post(chat_url(duel), {"delete": "1"}).status_code == 404
    assert client.get(chat_url(duel)).status_code == 404  # not even "wrong method"
    assert not ChatMessage.objects.exists()


def test_a_logged_out_visitor_is_sent_to_the_log_in_page(client, duel):
    response = say(client, duel, "hi")
    assert response.status_code in (200, 302)
    assert "login" in (response.headers.get("HX-Redirect") or response.headers.get("Location") or "")
    assert not ChatMessage.objects.exists()


def test_a_group_member_who_is_not_at_the_table_may_read_but_not_write(client, duel, admin):
    client.force_login(admin)
    html = say(client, duel, "Go Olivia!").content.decode()
    assert "Only the players at this table can write here." in html
    assert not ChatMessage.objects.exists()


def test_html_is_shown_as_text_and_links_are_not_made_clickable(client, duel, owner, member):
    client.force_login(owner)
    say(client, duel, '<script>alert("x")</script> see https://evil.example/x <b>bold</b>')
    client.force_login(member)
    page = client.get(duel.get_absolute_url()).content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page
    assert "<script>alert" not in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page
    assert 'href="https://evil.example' not in page
    assert "https://evil.example/x" in page  # shown, as text
    assert 'dir="auto"' in page


def test_an_empty_message_is_refused_with_a_sentence(client, duel, owner):
    client.force_login(owner)
    html = say(client, duel, "   ").content.decode()
    assert "Write something first." in html
    assert not ChatMessage.objects.exists()


def test_a_message_of_500_characters_is_kept_and_one_of_501_refused(client, duel, owner):
    client.force_login(owner)
    say(client, duel, "x" * 500)
    assert ChatMessage.objects.get().text == "x" * 500
    revision = Game.objects.get(pk=duel.pk).revision
    html = say(client, duel, "y" * 501).content.decode()
    assert "A message can be at most 500 characters long; yours has 501." in html
    assert ChatMessage.objects.count() == 1
    assert Game.objects.get(pk=duel.pk).revision == revision
    assert 'value="' + "y" * 501 + '"' in html  # what they wrote is kept to be shortened


@pytest.mark.parametrize(
    "data",
    [
        {"text": "a\x00b"},
        {"text": "²" * 600},
        {"delete": "9" * 5000},
        {"delete": "-1"},
        {"delete": "１２"},
        {"delete": "12", "text": "both"},
        {"read": "x" * 10000},
        {"delete": "", "read": ""},
        {},
    ],
)
def test_hostile_input_gets_an_answer_never_a_500_and_changes_nothing(client, duel, owner, data):
    client.force_login(owner)
    revision = Game.objects.get(pk=duel.pk).revision
    response = client.post(chat_url(duel), data, **HTMX)
    assert response.status_code == 200
    assert Game.objects.get(pk=duel.pk).revision == revision
    assert not ChatMessage.objects.exists()


def test_control_characters_are_replaced_not_stored(client, duel, owner):
    client.force_login(owner)
    say(client, duel, "tab\there\x07bell")
    assert ChatMessage.objects.get().text == "tab\there bell"


def test_the_writer_deletes_their_own_message_and_everybody_sees_that_it_was_deleted(
    client, duel, owner, member
):
    message = write(duel, owner, "Oops, wrong game")
    key = message_key(duel.pk, message.pk, member.pk)
    assert Notification.objects.get(key=key).read_at is None
    client.force_login(owner)
    html = delete(client, duel, message).content.decode()
    assert "Message deleted." in html
    assert "Oops, wrong game" not in html
    message.refresh_from_db()
    assert message.text == ""
    assert message.deleted_by == owner
    assert Notification.objects.get(key=key).read_at is not None  # nobody's unread message any more


def test_another_player_may_not_delete_a_message(client, duel, owner, member):
    message = write(duel, owner, "Mine")
    client.force_login(member)
    html = delete(client, duel, message).content.decode()
    assert "Only the person who wrote a message, or a group admin, can delete it." in html
    message.refresh_from_db()
    assert message.text == "Mine"
    assert message.deleted_at is None


def test_a_group_admin_deletes_any_message_and_it_says_an_admin_removed_it(client, duel, admin, member):
    message = write(duel, member, "rude words")
    client.force_login(admin)
    html = delete(client, duel, message).content.decode()
    assert "Removed by a group admin." in html
    message.refresh_from_db()
    assert message.text == ""
    assert message.deleted_by == admin


def test_a_message_of_another_game_cannot_be_deleted_from_this_one(client, duel, owner, member, start_game):
    other = start_game([owner, member], seed=99)
    seating.accept_seat(game_id=other.pk, user=member)
    message = write(other, owner, "elsewhere")
    client.force_login(owner)
    html = delete(client, duel, message).content.decode()
    assert "That message is not there any more." in html
    message.refresh_from_db()
    assert message.deleted_at is None


def test_the_eleventh_message_in_a_minute_is_refused_with_a_clear_sentence(client, duel, owner, settings):
    settings.GAMES_CHAT_PER_MINUTE = 10
    client.force_login(owner)
    for number in range(10):
        say(client, duel, f"message {number}")
    html = say(client, duel, "one too many").content.decode()
    assert "at most 10 messages a minute" in html
    assert ChatMessage.objects.count() == 10
    assert 'value="one too many"' in html  # kept for later


def test_with_redis_down_the_rate_limit_still_holds_and_nothing_fails(client, duel, owner, settings):
    """handsite's cache falls back to a local one while Redis does not answer: the limit holds per
    process (a dead port: nothing listens on it)."""
    from handsite import cache as site_cache

    site_cache._down_until.clear()
    settings.CACHES = {
        **settings.CACHES,  # with REDIS_URL, the "auth" cache of sessions and users
        "default": {
            "BACKEND": "handsite.cache.FailOpenRedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",
            "KEY_PREFIX": f"chat-{duel.pk}-{owner.pk}",
        },
    }
    settings.GAMES_CHAT_PER_MINUTE = 3
    client.force_login(owner)
    for number in range(3):
        assert say(client, duel, f"message {number}").status_code == 200
    html = say(client, duel, "one too many").content.decode()
    assert "at most 3 messages a minute" in html
    assert ChatMessage.objects.count() == 3
    site_cache._down_until.clear()


def test_a_cache_that_fails_outright_lets_the_message_through(client, duel, owner, monkeypatch):
    class Broken:
        def add(self, *args, **kwargs):
            raise ConnectionError("the cache is down")

        incr = add

    monkeypatch.setattr("games.chat.cache", Broken())
    client.force_login(owner)
    response = say(client, duel, "still here")
    assert response.status_code == 200
    assert ChatMessage.objects.get().text == "still here"  # never a 500


def test_without_htmx_a_message_is_written_and_the_page_shown_again(client, duel, owner):
    client.force_login(owner)
    response = client.post(chat_url(duel), {"text": "plain post"})
    assert response.status_code == 302
    assert response.headers["Location"].endswith("#chat")
    assert ChatMessage.objects.get().text == "plain post"


def test_without_htmx_a_refusal_shows_the_page_with_the_sentence(client, duel, owner):
    client.force_login(owner)
    response = client.post(chat_url(duel), {"text": ""})
    assert response.status_code == 200
    html = response.content.decode()
    assert "Write something first." in html
    assert 'id="game"' in html


def test_seeing_the_chat_marks_its_messages_read_and_answers_the_header_count(client, duel, owner, member):
    write(duel, owner, "one")
    write(duel, owner, "two")
    assert Notification.objects.filter(user=member, kind="chat", read_at__isnull=True).count() == 2
    client.force_login(member)
    response = client.post(chat_url(duel), {"read": "1"}, **HTMX)
    assert response.status_code == 200
    assert 'id="unread-badge"' in response.content.decode()
    assert not Notification.objects.filter(user=member, kind="chat", read_at__isnull=True).exists()


def test_writing_marks_what_came_before_read_for_the_writer(client, duel, owner, member):
    write(duel, owner, "your move?")
    client.force_login(member)
    say(client, duel, "thinking")
    assert not Notification.objects.filter(user=member, kind="chat", read_at__isnull=True).exists()


def test_bots_do_not_chat_and_get_no_notification(client, owner, start_game):
    game = start_game([owner, seating.BOT], seed=7)
    client.force_login(owner)
    say(client, game, "just me and the bot")
    assert ChatMessage.objects.filter(game=game).count() == 1
    assert not Notification.objects.filter(kind="chat").exists()
