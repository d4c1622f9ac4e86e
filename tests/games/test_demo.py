"""The demo data holds an unfinished game of each Hand rule set, a few moves in, with Amira to play."""

from django.core.management import call_command

from games import demo, engine
from games.models import Game, GameStatus


def test_there_is_an_unfinished_game_of_each_hand_rule_set_with_amira_to_play(db):
    call_command("demo_data")
    call_command("demo_data")  # idempotent
    games = {game.variant: game for game in Game.objects.all()}
    assert Game.objects.count() == len(demo.DEMO_GAMES)
    assert set(games) == {"classic", "jordanian", "saudi", "kuwaiti", "egyptian"}
    for game in games.values():
        assert game.status == GameStatus.ACTIVE
        state = engine.from_json(game.state)
        assert not state.finished
        assert game.version > 0  # not an empty table
        to_play = game.seats.get(number=state.current)
        assert to_play.user is not None
        assert to_play.user.email == "amira@example.com"
