from django.urls import reverse

from games import engine, services
from games.views import poll_token


def poll(client, game, revision, token=None):
    url = reverse("games:poll", args=[game.group.slug, game.pk])
    return client.get(url, {"r": revision, "t": token or poll_token(game.pk)}, HTTP_HX_REQUEST="true")


def test_an_unchanged_game_answers_204_with_one_query(client, duel, member, django_assert_max_num_queries):
    client.force_login(member)
    duel.group  # noqa: B018 - load the group outside the count (the URL needs its slug)
    with django_assert_max_num_queries(1):
        response = poll(client, duel, duel.revision)
    assert response.status_code == 204
    assert response.content == b""


def test_a_changed_game_answers_with_the_board(client, duel, owner, member):
    state = engine.from_json(duel.state)
    people = {s.number: s.user for s in duel.seats.all()}
    mover = people[state.current]
    watcher = people[1 - state.current]
    discard = next(a for a in engine.legal_actions(state, state.current) if a["type"] == "discard")
    services.play(game_id=duel.pk, user=mover, version=0, action=discard)
    client.force_login(watcher)
    response = poll(client, duel, duel.revision)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="game"' in html
    assert "Your turn." in html


def test_a_poll_without_the_pages_token_is_404(client, duel, outsider):
    client.force_login(outsider)
    assert poll(client, duel, duel.revision, token="forged").status_code == 404


def test_an_outsider_with_a_token_learns_nothing_of_a_changed_game(client, duel, outsider):
    client.force_login(outsider)
    assert poll(client, duel, duel.revision - 1).status_code == 404
