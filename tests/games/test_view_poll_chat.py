"""Table talk arrives with the play page's poll (games:poll): a message moves the game's revision, so
the unchanged poll stays 204 with one query and the changed one brings the message and the header count."""

from django.urls import reverse

from games.chat import ChatRequest
from games.models import Game
from games.services import talk
from games.views import poll_token


def poll(client, game, revision, user):
    url = reverse("games:poll", args=[game.group.slug, game.pk])
    query = {"r": revision, "u": user.pk, "t": poll_token(game.pk, user.pk)}
    return client.get(url, query, HTTP_HX_REQUEST="true")


def test_the_poll_brings_a_new_message_with_the_header_count(client, duel, owner, member):
    client.force_login(member)
    page_revision = duel.revision
    poll(client, duel, page_revision, member)  # the first poll writes presence
    assert poll(client, duel, page_revision, member).status_code == 204
    talk.chat(
        game_id=duel.pk,
        group_slug=duel.group.slug,
        user=owner,
        request=ChatRequest(action="post", text="Hi Mona!"),
    )
    response = poll(client, duel, page_revision, member)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Hi Mona!" in html
    assert 'id="unread-badge" hx-swap-oob="true"' in html
    assert 'class="badge"' in html


def test_after_a_message_the_unchanged_poll_is_still_204_with_one_query(
    client, duel, owner, member, django_assert_max_num_queries
):
    talk.chat(
        game_id=duel.pk,
        group_slug=duel.group.slug,
        user=owner,
        request=ChatRequest(action="post", text="hello"),
    )
    revision = Game.objects.get(pk=duel.pk).revision
    client.force_login(member)
    duel.group  # noqa: B018 - the URL needs the slug
    poll(client, duel, revision, member)  # presence
    with django_assert_max_num_queries(1):
        response = poll(client, duel, revision, member)
    assert response.status_code == 204
    assert response.content == b""
