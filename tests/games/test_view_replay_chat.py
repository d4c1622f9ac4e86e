"""Table talk in the replay (games:replay): the messages written by the move shown, no later ones."""

from django.urls import reverse

from games import engine
from games.chat import ChatRequest
from games.models import Game, GameStatus
from games.services import playing, talk


def write(game, user, text):
    outcome = talk.chat(
        game_id=game.pk, group_slug=game.group.slug, user=user, request=ChatRequest(action="post", text=text)
    )
    assert outcome.error is None
    return outcome.message


def play_moves(game, count):
    people = {s.number: s.user for s in game.seats.all()}
    for _ in range(count):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        action = engine.bot_action(state, state.current)
        playing.play(game_id=game.pk, user=people[state.current], version=game.version, action=action)
    game.refresh_from_db()


def test_the_replay_shows_the_table_talk_as_it_stood_at_each_move(client, duel, owner, member):
    write(duel, owner, "at the deal")
    play_moves(duel, 3)
    write(duel, member, "after three moves")
    play_moves(duel, 2)
    Game.objects.filter(pk=duel.pk).update(status=GameStatus.FINISHED)
    client.force_login(member)
    url = reverse("games:replay", args=[duel.group.slug, duel.pk])
    start = client.get(url, {"step": 0}).content.decode()
    assert "at the deal" in start
    assert "after three moves" not in start
    third = client.get(url, {"step": 3}).content.decode()
    assert "at the deal" in third
    assert "after three moves" in third
    assert 'dir="auto"' in third


def test_an_outsider_gets_404_for_the_replay_and_its_chat(client, duel, owner, outsider):
    write(duel, owner, "private")
    Game.objects.filter(pk=duel.pk).update(status=GameStatus.FINISHED)
    client.force_login(outsider)
    url = reverse("games:replay", args=[duel.group.slug, duel.pk])
    assert client.get(url).status_code == 404
