"""``GET /healthz`` for load balancers: 200 when the database answers and the broker is reachable, 503
naming the part that failed; no session, no cookie, no HTTPS redirect."""

from __future__ import annotations

import socket
import time

import pytest
from django.db import connections
from django.db.utils import OperationalError

from handsite import health
from tests.celery.conftest import OwnRedis, celery_app_on
from tests.support import run_manage

pytestmark = pytest.mark.django_db


def test_it_answers_ok_when_the_database_and_the_broker_answer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.text == "ok\ndatabase: ok\nbroker: ok\n"
    assert response["Content-Type"].startswith("text/plain")
    assert "Set-Cookie" not in response.headers
    assert not response.cookies
    assert "no-cache" in response["Cache-Control"]


def test_it_reads_no_session_even_when_the_caller_sends_a_cookie(client, member):
    client.force_login(member)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert "Cookie" not in response.get("Vary", "")


def test_it_answers_503_naming_the_database_when_the_database_fails(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(connections["default"], "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.text == "failed\ndatabase: OperationalError\nbroker: ok\n"


def test_it_answers_ok_on_a_redis_broker_that_runs_and_503_at_once_when_it_is_stopped(client):
    server = OwnRedis()
    server.start()
    try:
        with celery_app_on(server.url) as app:
            app.conf.broker_transport_options = {"socket_connect_timeout": 1, "socket_timeout": 1}
            assert client.get("/healthz").status_code == 200
            server.stop()
            start = time.monotonic()
            response = client.get("/healthz")
            seconds = time.monotonic() - start
    finally:
        server.stop()
    assert response.status_code == 503
    assert "database: ok\nbroker: " in response.text
    assert "broker: ok" not in response.text
    assert seconds < 5


def test_a_hung_broker_that_takes_connections_and_never_answers_is_a_failure(client):
    with socket.socket() as hung:
        hung.bind(("127.0.0.1", 0))
        hung.listen(8)
        url = f"redis://127.0.0.1:{hung.getsockname()[1]}/0"
        with celery_app_on(url) as app:
            app.conf.broker_transport_options = {"socket_connect_timeout": 1, "socket_timeout": 1}
            start = time.monotonic()
            assert health.broker_problem(app) is not None
            assert time.monotonic() - start < 5


def test_only_get_and_head_are_answered(client):
    assert client.head("/healthz").status_code == 200
    assert client.post("/healthz").status_code == 405


def test_in_production_it_is_not_redirected_to_https_while_other_pages_are(tmp_path):
    """DEBUG=0 with the HTTPS redirect on: a plain-HTTP /healthz is answered, the home page redirected."""
    script = (
        "from django.test import Client; c = Client(); "
        "print(c.get('/healthz', headers={'host': 'hand.example.com'}).status_code, "
        "c.get('/', headers={'host': 'hand.example.com'}).status_code)"
    )
    result = run_manage(
        "shell",
        "-c",
        script,
        env={
            "DEBUG": "0",
            "SECRET_KEY": "x" * 60,
            "ALLOWED_HOSTS": "hand.example.com",
            "HANDSITE_VAR_DIR": str(tmp_path),
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
            "CELERY_DATA_DIR": str(tmp_path / "celery"),
        },
    )
    assert result.returncode == 0, result.stderr
    healthz, home = result.stdout.split()[-2:]
    assert home == "301"
    assert healthz in ("200", "503")  # answered over HTTP (this database has no tables: that is fine here)
