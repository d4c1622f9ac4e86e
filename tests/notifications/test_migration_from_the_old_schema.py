"""A database with the old outbox (a foreign key from handsite to games, game columns) migrates to the
generic outbox keeping every row, its exactly-once key, its topic and its unread state; and handsite's
code imports nothing of games."""

import ast
import datetime as dt
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.support import ROOT

pytestmark = pytest.mark.django_db(transaction=True)

OLD = [("handsite", "0003_user_pending_invitation"), ("games", "0003_deadline_index_skips_nothing")]
NEW = [("handsite", "0006_notification_without_game")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


def test_old_turn_and_digest_rows_become_generic_rows_with_the_same_keys():
    old = _migrate(OLD)
    User = old.get_model("handsite", "User")
    Group = old.get_model("handsite", "PlayerGroup")
    Game = old.get_model("games", "Game")
    Notification = old.get_model("handsite", "Notification")
    user = User.objects.create(username="a@example.com", email="a@example.com")
    group = Group.objects.create(name="G", slug="g")
    game = Game.objects.create(group=group, variant="classic", players=2, seed=1)
    turn = Notification.objects.create(user=user, kind="your_turn", game=game, seat=1, turn=7, number=0)
    read = Notification.objects.create(
        user=user, kind="reminder", game=game, seat=1, turn=7, number=2, read_at=dt.datetime.now(dt.UTC)
    )
    digest = Notification.objects.create(user=user, kind="digest", day=dt.date(2026, 3, 3))
    try:
        new = _migrate(NEW)
        rows = {row.pk: row for row in new.get_model("handsite", "Notification").objects.all()}
        assert rows[turn.pk].key == f"game:{game.pk}:1:7:your_turn:0"
        assert rows[turn.pk].topic == f"game:{game.pk}"
        assert rows[turn.pk].data == {"game": game.pk, "seat": 1, "turn": 7, "number": 0}
        assert rows[read.pk].key == f"game:{game.pk}:1:7:reminder:2"
        assert rows[read.pk].read_at is not None
        assert rows[turn.pk].read_at is None
        assert rows[digest.pk].key == f"digest:{user.pk}:2026-03-03"
        # The key the new code writes for the same turn is the migrated one: it is not written twice.
        from games.notifications import turn_key

        assert turn_key(game.pk, 1, 7, "your_turn") == rows[turn.pk].key
        columns = {
            c.name
            for c in connection.introspection.get_table_description(
                connection.cursor(), "handsite_notification"
            )
        }
        assert "game_id" not in columns
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


def test_handsite_code_imports_nothing_of_games_or_scoring():
    offenders = []
    for path in sorted((Path(ROOT) / "handsite").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [
                f"{path.name}: {name}" for name in names if name.split(".")[0] in ("games", "scoring")
            ]
    assert offenders == []
