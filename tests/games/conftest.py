"""Fixtures for online-play tests: games of the fixed cast (tests/conftest.py)."""

import pytest

from games.models import Game
from games.services import seating


@pytest.fixture
def start_game(owner):
    """start_game(seats=[...], variant="classic", **kwargs) -> Game, created by the owner."""

    def start(seats, variant="classic", options=None, created_by=None, **kwargs):
        creator = created_by or owner
        game = seating.create_game(
            group=creator.memberships.first().group,
            created_by=creator,
            variant=variant,
            options=options,
            seats=seats,
            **kwargs,
        )
        return Game.objects.get(pk=game.pk)

    return start


@pytest.fixture
def duel(owner, member, start_game):
    """A classic game owner vs member, both accepted and dealt (seed fixed)."""
    game = start_game([owner, member], seed=1234)
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    return game
