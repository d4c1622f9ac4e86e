"""The home page's "My games": each game with who plays in it, whose turn it is and since when."""

import datetime

from django.utils import timezone

from games.models import Game
from games.services import seating


def _line(home, game):
    start = home.index(game.get_absolute_url())
    return home[start : home.index("</li>", start)]


def test_each_game_names_its_players_and_whose_turn_it_is_since_when(client, owner, member, start_game):
    game = start_game([owner, member])
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    mover = {0: owner, 1: member}[game.turn_seat]
    waiter = member if mover == owner else owner
    Game.objects.filter(pk=game.pk).update(turn_started_at=timezone.now() - datetime.timedelta(hours=3))
    client.force_login(waiter)
    line = _line(client.get("/").content.decode(), game)
    assert f"{owner.name} · {member.name}" in line
    assert f"{mover.name} to play, for 3\xa0hours" in line
    client.force_login(mover)
    line = _line(client.get("/").content.decode(), game)
    assert "your turn for 3\xa0hours" in line


def test_a_game_waiting_for_players_names_them_without_a_turn(client, owner, member, start_game):
    game = start_game([owner, member, seating.BOT])
    client.force_login(owner)
    line = _line(client.get("/").content.decode(), game)
    assert f"{owner.name} · {member.name} · Bot 3" in line
    assert "to play" not in line
