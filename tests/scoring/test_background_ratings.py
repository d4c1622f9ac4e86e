"""Background scoring: ratings recomputed from the raw facts when an online game ends or a sheet
changes (scoring/tasks.py, games/results.py)."""

import re

import pytest

from games import engine
from games.models import Game
from games.results import record_result
from games.services import playing, seating
from scoring.models import OnlineResult, Rating
from scoring.services.deals import add_deal, delete_deal, edit_deal
from scoring.services.ratings import ratings_updating, side_ranks
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
        playing.play(game_id=game.pk, user=seat.user, version=game.version, action=action)
    raise AssertionError("the game did not end")


def test_a_finished_online_game_counts_in_the_groups_ratings(
    owner, member, group, django_capture_on_commit_callbacks
):
    game = seating.create_game(
        group=group,
        created_by=owner,
        variant="classic",
        options=None,
        seats=[owner, member],
        seed=99,
    )
    seating.accept_seat(game_id=game.pk, user=member)
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
    assert side_ranks([120, 40, 40], lower_is_better=True) == [2, 1, 1]
    assert side_ranks([120, 40, 300], lower_is_better=False) == [2, 3, 1]


def _finish_classic(sheet, by, winner):
    """Five classic deals all won by ``winner``; the others hold 10 each time."""
    from tests.scoring.conftest import hand

    players = sheet.players.count()
    deals = []
    for _ in range(5):
        held = [10] * players
        held[winner] = None
        deals.append(add_deal(sheet, by=by, facts=hand(winner, [True] * players, held)))
    return deals


def _ratings(group):
    return [(r.player_key, r.games, r.wins) for r in Rating.objects.filter(group=group).order_by("-ordinal")]


def test_a_finished_sheet_is_rated_at_once_and_corrections_are_replayed_after_the_commit(
    owner, member, group, django_capture_on_commit_callbacks
):
    from tests.scoring.conftest import hand, make_sheet

    sheet = make_sheet(group, owner, "classic", [owner, member])
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        deals = _finish_classic(sheet, owner, winner=0)
    olivia, mona = f"user:{owner.pk}", f"user:{member.pk}"
    # The game that finished last is rated incrementally in the same transaction: no task queued.
    assert callbacks == []
    assert _ratings(group) == [(olivia, 1, 1), (mona, 1, 0)]
    assert not ratings_updating(group)

    # Corrections: Mona went out in deals 1-3 and Olivia held 100 each time, so Mona wins the game
    # (Olivia 3 × 100 - 2 × 30 = 240, Mona -3 × 30 + 2 × 10 = -70). Only the edit that changes the
    # game's result (the second: Olivia 110, Mona -30) queues the replay; until it runs, "updating".
    queued = []
    for deal in deals[:3]:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            edit_deal(deal, by=owner, facts=hand(1, [True, True], [100, None]))
        queued.append(len(callbacks))
        assert ratings_updating(group) == bool(callbacks)
        if callbacks:
            assert _ratings(group) == [(olivia, 1, 1), (mona, 1, 0)]  # the previous figures meanwhile
            callbacks[0]()
        assert not ratings_updating(group)
    assert queued == [0, 1, 0]
    sheet.refresh_from_db()
    assert sheet.winner_seats == [1]
    assert _ratings(group) == [(mona, 1, 1), (olivia, 1, 0)]

    # Deleting a deal leaves the game unfinished: it no longer counts.
    with django_capture_on_commit_callbacks(execute=True):
        delete_deal(deals[0], by=owner)
    assert _ratings(group) == []


def test_the_standings_page_shows_the_ratings_in_order_with_games_played(
    client, owner, member, group, django_capture_on_commit_callbacks
):
    from django.urls import reverse

    from tests.scoring.conftest import make_sheet

    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(2):
            _finish_classic(make_sheet(group, owner, "classic", [owner, member, "Gina"]), owner, winner=1)
    client.force_login(owner)
    page = client.get(reverse("scoring:standings", args=[group.slug])).content.decode()
    assert "A rating estimates a player's skill" in page
    table = page.split('data-testid="leaderboard"')[1].split("</table>")[0]
    rows = [row.split("</tr>")[0] for row in table.split("<tr data-key=")[1:]]
    cells = [row.split('<th scope="row">')[1].split('<span class="second-line')[0] for row in rows]
    names = [re.sub(r"<[^>]+>", "", cell).split("(")[0].strip() for cell in cells]
    # Gina and Olivia lost the same way: equal ratings, by name; everyone is provisional (2 games).
    assert names == ["Mona Member", "Gina", "Olivia Owner"]
    assert all("provisional" in row for row in rows)
    mona = Rating.objects.get(group=group, player_key=f"user:{member.pk}")
    assert mona.rating > 1500
    assert f"<bdi>{mona.rating}</bdi>" in rows[0]
    assert f'data-testid="last-change">+{mona.last_change}</bdi>' in rows[0]
    assert '<td class="num col-games">2</td>\n              <td class="num col-wins">2</td>' in rows[0]
    assert '<td class="num col-games">2</td>\n              <td class="num col-wins">0</td>' in rows[2]
