"""Database connection settings: persistent connections with health checks by default (issue 17)."""

import time

import psycopg
import pytest
from django.db import close_old_connections, connection

from tests.support import require_service, run_manage

SHOW = (
    "from django.conf import settings; d = settings.DATABASES['default'];"
    " print(d['CONN_MAX_AGE'], d['CONN_HEALTH_CHECKS'])"
)


def database_settings(tmp_path, **env) -> list[str]:
    result = run_manage("shell", "-v", "0", "-c", SHOW, env={"HANDSITE_VAR_DIR": str(tmp_path), **env})
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_connections_persist_five_minutes_with_health_checks_by_default(tmp_path, monkeypatch):
    monkeypatch.delenv("DB_CONN_MAX_AGE", raising=False)
    assert database_settings(tmp_path) == ["300", "True"]


def test_db_conn_max_age_zero_opens_a_connection_per_request(tmp_path):
    assert database_settings(tmp_path, DB_CONN_MAX_AGE="0") == ["0", "True"]


def test_the_same_settings_apply_to_postgresql(tmp_path, monkeypatch):
    monkeypatch.delenv("DB_CONN_MAX_AGE", raising=False)
    env = {"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/handsite"}
    assert database_settings(tmp_path, **env) == ["300", "True"]


PREPARE = (
    "from django.conf import settings; o = settings.DATABASES['default']['OPTIONS'];"
    " print(o.get('server_side_binding'), o.get('prepare_threshold'))"
)


def test_postgresql_prepares_statements_unless_db_prepared_statements_is_off(tmp_path, monkeypatch):
    """Django's server_side_binding and psycopg's prepare_threshold (Django's defaults prepare
    nothing); off behind a pooler that cannot keep prepared statements (README "Running at scale")."""
    monkeypatch.delenv("DB_PREPARED_STATEMENTS", raising=False)
    env = {"HANDSITE_VAR_DIR": str(tmp_path), "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/handsite"}
    for flag, expected in ((None, "True 5"), ("0", "False None"), ("1", "True 5")):
        extra = {} if flag is None else {"DB_PREPARED_STATEMENTS": flag}
        result = run_manage("shell", "-v", "0", "-c", PREPARE, env={**env, **extra})
        assert result.returncode == 0, result.stderr
        assert result.stdout.split() == expected.split()


def test_a_negative_db_conn_max_age_stops_start_up(tmp_path):
    result = run_manage("check", env={"HANDSITE_VAR_DIR": str(tmp_path), "DB_CONN_MAX_AGE": "-1"})
    assert result.returncode != 0
    assert "DB_CONN_MAX_AGE=-1 is below the minimum 0" in result.stderr


@pytest.mark.django_db(transaction=True)
def test_a_persistent_connection_the_server_dropped_is_replaced_at_the_next_request():
    """PostgreSQL restarted (or a proxy dropped the connection) between two requests: the next request
    checks the kept connection, finds it dead and opens a new one instead of answering 500."""
    if connection.vendor != "postgresql":
        require_service("postgres")
        pytest.skip("runs on the PostgreSQL flavour of the suite (DATABASE_URL=postgres://...)")
    assert connection.settings_dict["CONN_HEALTH_CHECKS"] is True
    assert connection.settings_dict["CONN_MAX_AGE"] > 0
    close_old_connections()  # a request starts
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        kept = cursor.fetchone()[0]
    close_old_connections()  # the request ends: the connection is kept
    assert connection.connection is not None
    conf = connection.settings_dict
    with psycopg.connect(
        host=conf["HOST"] or "127.0.0.1",
        port=conf["PORT"] or 5432,
        user=conf["USER"],
        password=conf["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [kept])
        _wait_until_gone(other, kept)  # terminating is asked; the server ends the process a moment later
    close_old_connections()  # the next request starts
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] != kept


def _wait_until_gone(other, pid: int) -> None:
    for _ in range(100):
        if other.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid]).fetchone() is None:
            return
        time.sleep(0.05)
    raise AssertionError(f"backend {pid} still there")


class CountingCursor(psycopg.Cursor):
    """A psycopg cursor that counts what it runs (the health check bypasses Django's query log)."""

    executed: list[str] = []

    def execute(self, query, params=None, **kwargs):
        CountingCursor.executed.append(str(query))
        return super().execute(query, params, **kwargs)


@pytest.mark.django_db(transaction=True)
def test_a_kept_connection_is_checked_once_per_request_by_djangos_health_check():
    """CONN_HEALTH_CHECKS: Django checks a kept connection at the first query of a request, once, and
    not again at the request's other queries."""
    if connection.vendor != "postgresql":
        require_service("postgres")
        pytest.skip("runs on the PostgreSQL flavour of the suite (DATABASE_URL=postgres://...)")
    close_old_connections()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        kept = cursor.fetchone()[0]
    close_old_connections()  # the request ends: the connection is kept
    raw, usual = connection.connection, connection.connection.cursor_factory
    raw.cursor_factory = CountingCursor
    CountingCursor.executed.clear()
    try:
        close_old_connections()  # the next request starts
        for _ in range(3):
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                assert cursor.fetchone()[0] == kept
    finally:
        raw.cursor_factory = usual
    assert CountingCursor.executed == ["SELECT 1"] + ["SELECT pg_backend_pid()"] * 3
