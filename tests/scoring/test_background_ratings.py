"""Background scoring: ratings recomputed from the raw facts when an online game ends or a sheet
changes (scoring/tasks.py, games/results.py)."""

import pytest

from games import engine, services
from games.models import Game
from games.results import record_result
from scoring import services as scoring_services
from scoring.models import OnlineResult, Rating
from scoring.tasks import recompute_group_ratings

pytestmark = pytest.mark.django_db


def _play_to_the_end(game):
    for _ in range(5000):
        game = Game.objects.get(pk=game.pk)
        state = engine.from_json(game.state)
        if state.finished:
            return game
        seat = game.seats.get(number=state.current)
        action = engine.bot_action(state, state.current)
        services.play(game_id=game.pk, user=seat.user, version=game.version, action=action)
    raise AssertionError("the game did not end")


def test_a_finished_online_game_counts_in_the_groups_ratings(
    owner, member, group, django_capture_on_commit_callbacks
):
    game = services.create_game(
        group=group,
        created_by=owner,
        variant="classic",
        options=None,
        seats=[owner, member],
        seed=99,
    )
    services.accept_seat(game_id=game.pk, user=member)
    with django_capture_on_commit_callbacks(execute=True):
        game = _play_to_the_end(game)
    result = OnlineResult.objects.get(game_id=game.pk)
    assert result.finished
    assert result.winner_seats
    ratings = {r.player_key: r for r in Rating.objects.filter(group=group)}
    assert set(ratings) == {f"user:{owner.pk}", f"user:{member.pk}"}
    winner = game.seats.get(number=result.winner_seats[0]).user
    loser = owner if winner == member else member
    assert ratings[f"user:{winner.pk}"].ordinal > ratings[f"user:{loser.pk}"].ordinal
    assert ratings[f"user:{winner.pk}"].wins == 1
    before = sorted((r.player_key, r.mu, r.sigma) for r in Rating.objects.all())
    assert record_result(game.pk) is True
    assert recompute_group_ratings(group.pk) == 2
    assert sorted((r.player_key, r.mu, r.sigma) for r in Rating.objects.all()) == before  # idempotent


def test_ranks_follow_the_rule_sets_direction():
    assert scoring_services._ranks([120, 40, 40], lower_is_better=True) == [2, 1, 1]
    assert scoring_services._ranks([120, 40, 300], lower_is_better=False) == [2, 3, 1]
