"""The replay jumps to any deal (one tap from the replay page), to any move, plays on by itself at a
chosen speed, and shows each finished deal's result."""

import re

import pytest
from django.urls import reverse

from games import engine
from games.models import Game, GameStatus, Move
from games.services import playing, seating


@pytest.fixture
def finished(owner, start_game):
    """A classic game owner vs bot, played to its end through services (the bot's choices)."""
    game = start_game([owner, seating.BOT], seed=31)
    for _ in range(3000):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            break
        state = engine.from_json(game.state)
        playing.play(game_id=game.pk, user=owner, version=game.version, action=engine.bot_action(state, 0))
    assert game.status == GameStatus.FINISHED
    return game


def url(game):
    return reverse("games:replay", args=[game.group.slug, game.pk])


def test_one_tap_reaches_the_start_of_deal_3(client, owner, finished):
    client.force_login(owner)
    html = client.get(url(finished)).content.decode()  # tap 1: the replay page
    link = re.search(r'href="\?step=(\d+)"[^>]*>Deal 3<', html)
    assert link is not None
    step = int(link.group(1))
    first_of_deal_3 = Move.objects.filter(game=finished, deal=2).order_by("seq").first()
    assert step == first_of_deal_3.seq - 1  # the moves before it
    page = client.get(url(finished), {"step": step}).content.decode()  # tap 2
    assert "· deal 3" in page


def test_each_finished_deal_has_its_result_and_play_on_goes_by_itself(client, owner, finished):
    client.force_login(owner)
    steps = Move.objects.filter(game=finished).count()
    html = client.get(url(finished), {"step": steps}).content.decode()
    rows = re.findall(r"<tr><td>(\d+)", html.split('id="replay-results"')[1])
    assert len(rows) == len(engine.from_json(Game.objects.get(pk=finished.pk).state).records)
    autoplay = client.get(url(finished), {"step": 5, "play": "1"}, HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-get="?step=6&amp;play=1" hx-trigger="load delay:1s"' in autoplay
    assert "load delay" not in client.get(url(finished), {"step": 5, "play": "99"}).content.decode()
