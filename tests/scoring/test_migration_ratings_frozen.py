"""Migration scoring/0005 rates the games already played with its own frozen copy of the rating logic
(historical models only, no call into scoring.services): on a database with finished sheets and online
results it gives the ratings that today's full recompute gives."""

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.support import ROOT

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("scoring", "0004_drop_cached_sheet_totals")]
RATED = [("scoring", "0005_ratings_1500_scale")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    # The other apps stay where they are (their newest state), so their historical models fit the tables.
    targets = targets + [node for node in executor.loader.graph.leaf_nodes() if node[0] != "scoring"]
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def _deal(winner, held):
    return {"winner": winner, "finish": "normal", "opened": [True] * len(held), "held": held}


def test_the_migration_imports_nothing_of_the_app_but_the_pure_engine_and_openskill():
    tree = ast.parse((Path(ROOT) / "scoring/migrations/0005_ratings_1500_scale.py").read_text())
    modules = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    modules |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert {module.split(".")[0] for module in modules} <= {"django", "games", "openskill"}
    assert all(module.startswith("games.engine") for module in modules if module.startswith("games"))


def test_the_frozen_migration_rates_old_games_as_the_services_do_today():
    old = _migrate(BEFORE)
    User = old.get_model("handsite", "User")
    Group = old.get_model("handsite", "PlayerGroup")
    Sheet = old.get_model("scoring", "Sheet")
    SheetPlayer = old.get_model("scoring", "SheetPlayer")
    Deal = old.get_model("scoring", "Deal")
    OnlineResult = old.get_model("scoring", "OnlineResult")
    olivia = User.objects.create(username="o@example.com", email="o@example.com", display_name="Olivia")
    mona = User.objects.create(username="m@example.com", email="m@example.com")
    group = Group.objects.create(name="G", slug="g")
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    for index, winner in enumerate((0, 1, 0, 2)):
        sheet = Sheet.objects.create(
            group=group,
            rule_set="classic",
            options={},
            first_dealer=0,
            finished=True,
            created_at=start + dt.timedelta(days=index),  # entered the day it was played and finished
            finished_at=start + dt.timedelta(days=index),
            winner_seats=[winner],
        )
        SheetPlayer.objects.create(sheet=sheet, seat=0, name="Olivia", user=olivia)
        SheetPlayer.objects.create(sheet=sheet, seat=1, name="mona", user=mona)
        SheetPlayer.objects.create(sheet=sheet, seat=2, name="Gus")
        for position in range(1, 6):
            held = [None if seat == winner else 10 * (seat + 1) for seat in range(3)]
            Deal.objects.create(sheet=sheet, position=position, facts=_deal(winner, held))
    OnlineResult.objects.create(
        group=group,
        game_id=5,
        rule_set="classic",
        finished=True,
        finished_at=start + dt.timedelta(days=9),
        players=[
            {"seat": 0, "user_id": olivia.pk, "name": "Olivia"},
            {"seat": 1, "user_id": mona.pk, "name": "mona"},
        ],
        sides=[[0], [1]],
        totals=[90, 40],
        deals=5,
        winner_seats=[1],
        lower_is_better=True,
    )
    try:
        rated = _migrate(RATED)
        stored = {
            r.player_key: (r.rating, r.games, r.wins, r.last_change, r.name)
            for r in rated.get_model("scoring", "Rating").objects.filter(group_id=group.pk)
        }
        games = rated.get_model("scoring", "RatedGame").objects.filter(group_id=group.pk).count()
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
    assert games == 5
    assert stored[f"user:{olivia.pk}"][1:3] == (5, 2)  # sheets 1 and 3 won, the online game lost
    from scoring.models import Rating
    from scoring.services.ratings import recompute_ratings

    recompute_ratings(group.pk)
    today = {
        r.player_key: (r.rating, r.games, r.wins, r.last_change, r.name)
        for r in Rating.objects.filter(group_id=group.pk)
    }
    assert stored == today
