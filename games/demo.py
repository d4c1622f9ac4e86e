"""Demo content for `manage.py demo_data` (the extension point in handsite/demo.py): an unfinished game of
each Hand rule set in the demo group, a few moves in. In every one of them it is Amira's turn when the
demo starts (the classic one has Omar too), so logging in as Amira shows a table waiting for her."""

from __future__ import annotations

from games import engine
from games.models import Game
from games.services import playing, seating

DEMO_SEED = 20240611
# rule set -> (seed, the people seated besides the bot, in seat order)
DEMO_GAMES = {
    "classic": (DEMO_SEED, ("amira", "omar")),
    "jordanian": (DEMO_SEED + 1, ("layla", "amira")),
    "saudi": (DEMO_SEED + 2, ("amira", "sam")),
    "kuwaiti": (DEMO_SEED + 3, ("omar", "amira")),
    "egyptian": (DEMO_SEED + 4, ("sam", "amira")),
}
MAX_DEMO_MOVES = 40


def _play_until_amiras_turn(game: Game, people: dict, amira_seat: int) -> None:
    """A few moves of the bot's choosing for the people, until it is Amira's turn again after some."""
    for played in range(MAX_DEMO_MOVES):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        seat = state.current
        if state.finished or seat not in people or (seat == amira_seat and played >= 4):
            return
        action = engine.bot_action(state, seat)
        playing.play(game_id=game.pk, user=people[seat], version=game.version, action=action)


def load(demo) -> None:
    for variant, (seed, keys) in DEMO_GAMES.items():
        game = Game.objects.filter(group=demo.group, seed=seed).first()
        if game is None:
            seated = [demo.users[key] for key in keys]
            game = seating.create_game(
                group=demo.group,
                created_by=demo.users["amira"],
                variant=variant,
                options={},
                seats=[*seated, seating.BOT],
                move_hours=72,
                seed=seed,
            )
            for user in seated:
                if user != demo.users["amira"]:
                    seating.accept_seat(game_id=game.pk, user=user)
            people = dict(enumerate(seated))
            _play_until_amiras_turn(game, people, keys.index("amira"))
        demo.write(f"Demo game: {game.get_absolute_url()} ({game.get_variant_display()}, against a bot)")
