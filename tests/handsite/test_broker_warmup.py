"""warm_broker() opens one broker connection when a web worker starts, and never stops the worker.

Each test uses its own Celery app configured from settings like the project app, with its own
broker URL and a unique key prefix: kombu pools connections by their parameters, so a test never sees
a connection another test (or the project app) opened.
"""

import logging
import socket
import time
import uuid

from celery import Celery

from handsite.celery import warm_broker
from tests.support import require_service

PASSWORD = "s3cret-warmup-password"


def _app(broker_url: str, *, eager: bool = False) -> Celery:
    app = Celery("warmup-test", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    app.conf.broker_url = broker_url
    app.conf.broker_transport_options = {"global_keyprefix": f"warmup-{uuid.uuid4().hex}"}
    app.conf.broker_connection_timeout = 2
    app.conf.task_always_eager = eager
    return app


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _is_connected(app: Celery) -> bool:
    with app.pool.acquire(block=True, timeout=2) as connection:
        return connection.connected


def test_an_unreachable_broker_logs_a_warning_without_the_password_and_does_not_raise(caplog):
    app = _app(f"redis://:{PASSWORD}@127.0.0.1:{_closed_port()}/0")

    started = time.perf_counter()
    with caplog.at_level(logging.WARNING, logger="handsite.celery"):
        assert warm_broker(app) is False

    assert time.perf_counter() - started < 5
    warnings = [r for r in caplog.records if r.name == "handsite.celery" and r.levelno == logging.WARNING]
    assert len(warnings) == 1
    assert "broker connection" in warnings[0].getMessage()
    assert PASSWORD not in caplog.text
    assert not _is_connected(app)


def test_eager_mode_opens_no_connection_and_logs_nothing(caplog):
    app = _app(f"redis://:{PASSWORD}@127.0.0.1:{_closed_port()}/0", eager=True)

    with caplog.at_level(logging.DEBUG, logger="handsite.celery"):
        assert warm_broker(app) is False

    assert not [r for r in caplog.records if r.name == "handsite.celery"]


def test_it_really_connects_to_redis_and_leaves_the_connection_in_the_pool():
    app = _app(require_service("redis"))
    assert not _is_connected(app)

    assert warm_broker(app) is True

    assert _is_connected(app)


def test_the_project_app_is_warmed_by_default_and_does_nothing_in_the_tests_eager_mode(caplog):
    from handsite.celery import app

    assert app.conf.task_always_eager  # tests/conftest.py
    with caplog.at_level(logging.DEBUG, logger="handsite.celery"):
        assert warm_broker() is False
    assert not [r for r in caplog.records if r.name == "handsite.celery"]
