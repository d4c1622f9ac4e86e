"""Ratings: openskill Plackett-Luce on the finishing order of counted sheets and online games,
shown as whole numbers on the 1500 scale; bots never rated, partners both rated, ties as ties;
incremental updates equal a full recompute after any sequence of adds, edits and deletes."""

from __future__ import annotations

import itertools

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from games.engine.match import MatchStatus
from scoring.models import RatedGame, Rating, rating_number
from scoring.services.deals import add_deal, delete_deal, edit_deal
from scoring.services.errors import SheetError
from scoring.services.online import record_online_game
from scoring.services.ratings import ratings_updating, recompute_ratings
from scoring.services.sheets import mark_do_not_count
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.scoring.conftest import hand, make_sheet

pytestmark = pytest.mark.django_db


def _finish(sheet, by, winner, loser_holds=10):
    """Five classic deals all won by ``winner``; the others hold ``loser_holds`` (a list per seat, or
    one number for all) each time."""
    players = sheet.players.count()
    deals = []
    for _ in range(5):
        held = list(loser_holds) if isinstance(loser_holds, list) else [loser_holds] * players
        held[winner] = None
        deals.append(add_deal(sheet, by=by, facts=hand(winner, [True] * players, held)))
    return deals


def _rating(group, key):
    return Rating.objects.get(group=group, player_key=key)


def _status(sides, totals, winners, lower=True):
    return MatchStatus(
        sides=sides,
        totals=totals,
        scoring_deals_played=5,
        scoring_deals_required=5,
        finished=True,
        winners=winners,
        next_dealer=None,
        next_deal_number=6,
        in_tie_break=False,
        lower_is_better=lower,
    )


def test_two_players_match_openskills_own_rate_and_read_on_the_1500_scale(group, owner, member):
    _finish(make_sheet(group, owner, "classic", [owner, member]), owner, winner=1)
    model = PlackettLuce()
    [[olivia], [mona]] = model.rate([[model.rating()], [model.rating()]], ranks=[2, 1])
    for key, expected in ((f"user:{owner.pk}", olivia), (f"user:{member.pk}", mona)):
        rating = _rating(group, key)
        assert (rating.mu, rating.sigma) == (expected.mu, expected.sigma)
        assert rating.rating == round(1500 + (expected.mu - 25) * 48)
        assert rating.last_change == rating.rating - 1500
        assert rating.provisional
    assert _rating(group, f"user:{member.pk}").rating > 1500 > _rating(group, f"user:{owner.pk}").rating


def test_four_players_over_two_games_match_openskill_and_losers_who_tie_rate_as_a_tie(group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    _finish(sheet, owner, winner=2, loser_holds=[10, 20, None, 20])  # Mona and Hadi tie for last
    second = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    _finish(second, owner, winner=0, loser_holds=[None, 10, 30, 20])
    model = PlackettLuce()
    ratings = {name: model.rating() for name in ("o", "m", "g", "h")}
    for order, ranks in ((("o", "m", "g", "h"), [2, 3, 1, 3]), (("o", "m", "g", "h"), [1, 2, 4, 3])):
        rated = model.rate([[ratings[name]] for name in order], ranks=ranks)
        ratings.update({name: team[0] for name, team in zip(order, rated, strict=True)})
    keys = {"o": f"user:{owner.pk}", "m": f"user:{member.pk}", "g": "guest:gina", "h": "guest:hadi"}
    for name, key in keys.items():
        stored = _rating(group, key)
        assert (stored.mu, stored.sigma) == (ratings[name].mu, ratings[name].sigma)
        assert stored.games == 2


def test_both_partners_of_a_team_are_rated_as_one_side(group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"], options={"teams": True})
    held = [None, 20, None, 20]  # seats 0 and 2 are partners and go out in turn
    for deal in range(5):
        winner = 0 if deal % 2 == 0 else 2
        facts = hand(
            winner, [True] * 4, [None if seat == winner else (20 if seat % 2 else 5) for seat in range(4)]
        )
        add_deal(sheet, by=owner, facts=facts)
    del held
    model = PlackettLuce()
    winners, losers = model.rate(
        [[model.rating(), model.rating()], [model.rating(), model.rating()]], ranks=[1, 2]
    )
    for key, expected in (
        (f"user:{owner.pk}", winners[0]),
        ("guest:gina", winners[1]),
        (f"user:{member.pk}", losers[0]),
        ("guest:hadi", losers[1]),
    ):
        stored = _rating(group, key)
        assert (stored.mu, stored.sigma) == (expected.mu, expected.sigma)
        assert stored.wins == (1 if expected in winners else 0)


def test_an_online_game_with_a_bot_is_practice_kept_but_never_rated(group, owner, member):
    players = [
        {"seat": 0, "user_id": owner.pk, "name": owner.name},
        {"seat": 1, "user_id": None, "name": "Bot"},
    ]
    record_online_game(
        group_id=group.pk,
        game_id=7,
        rule_set="classic",
        players=players,
        status=_status(((0,), (1,)), (40, 120), ((0,),)),
        finished_at=timezone.now(),
    )
    game = RatedGame.objects.get(source="online", source_id=7)
    assert game.practice
    assert game.ratings == {}
    assert not Rating.objects.exists()
    assert recompute_ratings(group.pk) == []
    assert RatedGame.objects.get(source="online", source_id=7).practice


def test_a_shared_online_win_rates_as_a_tie(group, owner, member):
    players = [{"seat": 0, "user_id": owner.pk, "name": "O"}, {"seat": 1, "user_id": member.pk, "name": "M"}]
    record_online_game(
        group_id=group.pk,
        game_id=8,
        rule_set="classic",
        players=players,
        status=_status(((0,), (1,)), (40, 40), ((0,), (1,))),
        finished_at=timezone.now(),
    )
    model = PlackettLuce()
    [[tied], _other] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 1])
    for user in (owner, member):
        stored = _rating(group, f"user:{user.pk}")
        assert (stored.mu, stored.sigma, stored.wins) == (tied.mu, tied.sigma, 1)
        assert stored.last_change == rating_number(tied.mu) - 1500


def test_provisional_ends_at_five_games(group, owner, member):
    for game in range(5):
        _finish(make_sheet(group, owner, "classic", [owner, member]), owner, winner=game % 2)
        assert _rating(group, f"user:{owner.pk}").provisional == (game < 4)


# --- incremental == full recompute ------------------------------------------------------------------

OPERATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("finish"), st.integers(0, 2), st.integers(0, 2)),
        st.tuples(st.just("edit"), st.integers(0, 30), st.integers(0, 2)),
        st.tuples(st.just("delete"), st.integers(0, 30)),
        st.tuples(st.just("exclude"), st.integers(0, 30), st.booleans()),
        st.tuples(st.just("online"), st.integers(0, 2), st.booleans()),
    ),
    min_size=1,
    max_size=7,
)


def _snapshot(group):
    return sorted(
        (r.family, r.player_key, r.games, r.wins, r.mu, r.sigma, r.rating, r.last_change)
        for r in Rating.objects.filter(group=group)
    )


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(operations=OPERATIONS)
def test_incremental_updates_equal_a_full_recompute_after_any_adds_edits_and_deletes(
    operations, django_capture_on_commit_callbacks
):
    group = PlayerGroupFactory()
    users = [MembershipFactory(group=group).user for _ in range(3)]
    sheets, game_ids = [], itertools.count(1000 * group.pk)
    for operation in operations:
        with django_capture_on_commit_callbacks(execute=True):
            kind = operation[0]
            if kind == "finish":
                _kind, size, winner = operation
                players = users[: 2 + size % 2] if size < 2 else [users[0], users[1], "Gina"]
                sheet = make_sheet(group, users[0], "classic", players)
                _finish(sheet, users[0], winner=winner % len(players), loser_holds=10 + winner)
                sheets.append(sheet)
            elif kind == "online":
                _kind, winner, bot = operation
                players = [{"seat": s, "user_id": u.pk, "name": u.name} for s, u in enumerate(users)]
                if bot:
                    players[2] = {"seat": 2, "user_id": None, "name": "Bot"}
                totals = [50, 50, 50]
                totals[winner] = 10
                record_online_game(
                    group_id=group.pk,
                    game_id=next(game_ids),
                    rule_set="classic",
                    players=players,
                    status=_status(((0,), (1,), (2,)), tuple(totals), ((winner,),)),
                    finished_at=timezone.now(),
                )
            elif sheets:
                live = [d for sheet in sheets for d in sheet.deals.filter(deleted_at__isnull=True)]
                if not live:
                    continue
                deal = live[operation[1] % len(live)]
                try:
                    if kind == "edit":
                        count = deal.sheet.players.count()
                        winner = operation[2] % count
                        held = [None if seat == winner else 150 for seat in range(count)]  # flips a game
                        edit_deal(deal, by=users[0], facts=hand(winner, [True] * count, held))
                    elif kind == "delete":
                        delete_deal(deal, by=users[0])
                    else:
                        mark_do_not_count(deal.sheet, by=users[0], do_not_count=operation[2])
                except SheetError:
                    pass
    assert not ratings_updating(group)
    incremental = _snapshot(group)
    recompute_ratings(group.pk)
    assert incremental == _snapshot(group)
