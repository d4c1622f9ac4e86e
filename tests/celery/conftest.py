"""A real Celery worker in this process (celery.contrib.testing.worker.start_worker) on a real Redis.

Each test gets its own Celery app (set as the current app, so the site's shared tasks go through it)
with its own queue on a dedicated Redis database; unit tests elsewhere keep running tasks eagerly.
No Redis (or no redis-server for the outage test): skipped with the reason, failed under CI=true.
"""

from __future__ import annotations

import contextlib
import socket
import subprocess
import time
import uuid
from shutil import which
from urllib.parse import urlsplit

import celery.contrib.testing.tasks  # noqa: F401  (the ping task start_worker checks with)
import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from django.core import mail

from handsite.celery import app as site_app
from tests.support import require_service, skip_or_fail

REDIS_DB = 13  # a database of its own on the machine's Redis


@contextlib.contextmanager
def celery_app_on(broker_url: str):
    app = Celery(f"handsite-it-{uuid.uuid4().hex[:6]}", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    queue = f"it-{uuid.uuid4().hex[:8]}"
    app.conf.update(
        broker_url=broker_url,
        result_backend=broker_url,
        task_always_eager=False,
        task_default_queue=queue,
        broker_connection_retry_on_startup=True,
        broker_transport_options={},
    )
    app.set_current()
    app.set_default()
    try:
        yield app
    finally:
        site_app.set_current()
        site_app.set_default()


@contextlib.contextmanager
def worker(app, name: str = "w1", pool: str = "solo", concurrency: int = 1):
    hostname = f"{name}-{uuid.uuid4().hex[:6]}@it"
    with start_worker(app, pool=pool, concurrency=concurrency, hostname=hostname, shutdown_timeout=20):
        yield


def wait_for_mail(count: int, timeout: float = 30) -> list:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(mail.outbox) >= count:
            return mail.outbox
        time.sleep(0.1)
    raise AssertionError(f"expected {count} e-mails, got {len(mail.outbox)}")


@pytest.fixture
def shared_redis():
    url = require_service("redis")
    parts = urlsplit(url)
    return f"redis://{parts.hostname}:{parts.port or 6379}/{REDIS_DB}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class OwnRedis:
    """A redis-server of this test's own on a free port (never the machine's shared one)."""

    def __init__(self):
        self.binary = which("redis-server")
        if self.binary is None:
            skip_or_fail("redis-server is not installed")
        self.port = free_port()
        self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self):
        self.process = subprocess.Popen(
            [self.binary, "--port", str(self.port), "--save", "", "--appendonly", "no", "--daemonize", "no"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with (
                contextlib.suppress(OSError),
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5),
            ):
                return
            time.sleep(0.05)
        raise AssertionError("redis-server did not start")

    def stop(self):
        if self.process is not None:
            self.process.terminate()
            self.process.wait(10)
            self.process = None


@pytest.fixture
def own_redis():
    server = OwnRedis()
    server.start()
    yield server
    server.stop()
