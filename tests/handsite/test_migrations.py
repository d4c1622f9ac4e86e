"""handsite's migrations stand on their own: they depend on no other app of the site, a database that
applied the seven migrations the squash replaces is up to date, and ``migrate`` from an empty database
builds every table (SQLite and PostgreSQL) with nothing left for ``makemigrations`` to write."""

import uuid

import psycopg
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

from tests.support import require_service, run_manage

SQUASH = ("handsite", "0001_squashed_0007_user_language")
REPLACED = [
    ("handsite", "0001_initial"),
    ("handsite", "0002_notifications"),
    ("handsite", "0003_user_pending_invitation"),
    ("handsite", "0004_notification_generic_fields"),
    ("handsite", "0005_notification_generic_data"),
    ("handsite", "0006_notification_without_game"),
    ("handsite", "0007_user_language"),
]


def test_handsite_migrations_depend_on_no_app_of_the_site_but_handsite():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    outside = sorted(
        (key[1], parent)
        for key, migration in loader.disk_migrations.items()
        if key[0] == "handsite"
        for parent in migration.dependencies
        if parent[0] in ("games", "scoring")
    )
    assert outside == []
    assert loader.disk_migrations[SQUASH].replaces == REPLACED


@pytest.mark.django_db(transaction=True)
def test_a_database_that_applied_the_replaced_migrations_has_nothing_of_handsite_to_migrate():
    recorder = MigrationRecorder(connection)
    before = set(recorder.applied_migrations())
    recorder.record_unapplied(*SQUASH)
    for app, name in REPLACED:
        recorder.record_applied(app, name)
    try:
        executor = MigrationExecutor(connection)
        assert SQUASH in executor.loader.applied_migrations
        leaves = executor.loader.graph.leaf_nodes()
        assert executor.migration_plan(leaves) == []
    finally:  # the table as it was, so later tests' migration plans see the same history
        for app, name in set(recorder.applied_migrations()) - before:
            recorder.record_unapplied(app, name)
        for app, name in before - set(recorder.applied_migrations()):
            recorder.record_applied(app, name)


def _migrate_from_zero_and_check(database_url: str) -> None:
    env = {"DATABASE_URL": database_url}
    migrated = run_manage("migrate", "--no-input", env=env, timeout=240)
    assert migrated.returncode == 0, migrated.stderr
    assert "Applying handsite.0001_squashed_0007_user_language... OK" in migrated.stdout
    checked = run_manage("makemigrations", "--check", "--dry-run", env=env, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_migrate_from_an_empty_sqlite_database_builds_everything(tmp_path):
    _migrate_from_zero_and_check(f"sqlite:///{tmp_path / 'fresh.sqlite3'}")


def test_migrate_from_an_empty_postgresql_database_builds_everything():
    url = require_service("postgres")
    server = url.rsplit("/", 1)[0]
    name = f"handsite_from_zero_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        _migrate_from_zero_and_check(f"{server}/{name}")
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
