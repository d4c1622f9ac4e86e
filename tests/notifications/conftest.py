"""Games of the fixed cast for notification tests (owner vs member, classic, a day per move)."""

import pytest

from games import engine, services
from games.models import Game, TimeoutRule
from handsite import services as site_services


@pytest.fixture
def make_game(owner, member):
    def make(seats=None, move_hours=24, timeout_rule=TimeoutRule.AUTO_MOVE, seed=1234):
        game = services.create_game(
            group=owner.memberships.first().group,
            created_by=owner,
            variant="classic",
            options=None,
            seats=seats or [owner, member],
            move_hours=move_hours,
            timeout_rule=timeout_rule,
            seed=seed,
        )
        if member in (seats or [owner, member]):
            services.accept_seat(game_id=game.pk, user=member)
        return Game.objects.get(pk=game.pk)

    return make


@pytest.fixture
def game(make_game):
    return make_game()


def player_to_move(game):
    game.refresh_from_db()
    return next(seat.user for seat in game.seats.all() if seat.number == game.turn_seat)


def play_one_turn(game):
    """The player to move draws and discards (two engine actions: the turn passes once)."""
    game.refresh_from_db()
    mover = player_to_move(game)
    state = engine.from_json(game.state)
    seat = state.current
    while True:
        action = engine.bot_action(state, seat)
        services.play(game_id=game.pk, user=mover, version=game.version, action=action)
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.current != seat:
            return mover


@pytest.fixture
def prefs():
    """prefs(user, **fields): set a person's notification preferences."""

    def set_prefs(user, **fields):
        pref = site_services.preference_for(user)
        for name, value in fields.items():
            setattr(pref, name, value)
        pref.save()
        return pref

    return set_prefs
