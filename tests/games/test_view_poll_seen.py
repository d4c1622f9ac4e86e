"""A game the player is looking at makes no unread notifications: the poll of a page in view (seen=1)
marks the game's notifications read before it counts the header's unread; a page out of view marks
nothing, and the unchanged poll stays one query between its presence writes."""

from django.urls import reverse

from games import engine
from games.chat import ChatRequest
from games.services import playing, talk
from games.views import poll_token
from handsite.models import Notification


def _poll(client, game, revision, user, **extra):
    url = reverse("games:poll", args=[game.group.slug, game.pk])
    query = {"r": revision, "u": user.pk, "t": poll_token(game.pk, user.pk), **extra}
    return client.get(url, query, HTTP_HX_REQUEST="true")


def _turn_passes_to_the_watcher(duel):
    state = engine.from_json(duel.state)
    people = {s.number: s.user for s in duel.seats.all()}
    mover, watcher = people[state.current], people[1 - state.current]
    discard = next(a for a in engine.legal_actions(state, state.current) if a["type"] == "discard")
    playing.play(game_id=duel.pk, user=mover, version=0, action=discard)
    return watcher


def _unread(user):
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def _unread_turns(user):
    return Notification.objects.filter(user=user, read_at__isnull=True, kind="your_turn").count()


def test_a_poll_in_view_reads_the_turn_it_shows_and_the_header_counts_none(client, duel):
    watcher = _turn_passes_to_the_watcher(duel)
    assert _unread_turns(watcher) == 1
    client.force_login(watcher)
    response = _poll(client, duel, duel.revision, watcher, seen="1")
    html = response.content.decode()
    assert "Your turn." in html
    assert _unread(watcher) == 0
    assert 'id="unread-badge" hx-swap-oob="true"></span>' in html


def test_a_poll_in_view_leaves_table_talk_unread_until_its_panel_is_opened(client, duel):
    watcher = _turn_passes_to_the_watcher(duel)
    speaker = next(s.user for s in duel.seats.all() if s.user != watcher)
    talk.chat(
        game_id=duel.pk, group_slug=duel.group.slug, user=speaker, request=ChatRequest("post", "Your go")
    )
    client.force_login(watcher)
    _poll(client, duel, duel.revision, watcher, seen="1")
    assert _unread_turns(watcher) == 0
    assert Notification.objects.filter(user=watcher, read_at__isnull=True, kind="chat").count() == 1


def test_a_poll_out_of_view_leaves_the_turn_unread(client, duel):
    watcher = _turn_passes_to_the_watcher(duel)
    client.force_login(watcher)
    html = _poll(client, duel, duel.revision, watcher).content.decode()
    assert "Your turn." in html
    assert _unread_turns(watcher) == 1
    assert 'class="badge"' in html.split('id="unread-badge"')[1]


def test_an_unchanged_poll_in_view_reads_them_with_its_presence_write_and_is_one_query_otherwise(
    client, duel, django_assert_max_num_queries
):
    watcher = _turn_passes_to_the_watcher(duel)
    duel.refresh_from_db()
    client.force_login(watcher)
    assert _poll(client, duel, duel.revision, watcher, seen="1").status_code == 200  # presence, every 30 s
    assert _unread(watcher) == 0
    with django_assert_max_num_queries(1):
        assert _poll(client, duel, duel.revision, watcher, seen="1").status_code == 204
