"""Demo content for `manage.py demo_data` (the extension point in handsite/demo.py): a classic game in
the demo group, Amira and Omar against a practice bot, a few moves in."""

from __future__ import annotations

from games import engine, services
from games.models import Game

DEMO_SEED = 20240611


def load(demo) -> None:
    amira, omar = demo.users["amira"], demo.users["omar"]
    game = Game.objects.filter(group=demo.group, seed=DEMO_SEED).first()
    if game is None:
        game = services.create_game(
            group=demo.group,
            created_by=amira,
            variant="classic",
            options={},
            seats=[amira, omar, services.BOT],
            move_hours=72,
            seed=DEMO_SEED,
        )
        services.accept_seat(game_id=game.pk, user=omar)
        people = {0: amira, 1: omar}
        for _ in range(6):  # a few moves, so the table is not empty
            game.refresh_from_db()
            state = engine.from_json(game.state)
            seat = state.current
            if seat not in people:
                break
            services.play(
                game_id=game.pk,
                user=people[seat],
                version=game.version,
                action=engine.bot_action(state, seat),
            )
    demo.write(f"Demo game: {game.get_absolute_url()} (Amira and Omar against a bot)")
