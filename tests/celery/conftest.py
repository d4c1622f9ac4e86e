"""A real Celery worker in this process (celery.contrib.testing.worker.start_worker) on a real Redis.

Each test gets its own Celery app (set as the current app, so the site's shared tasks go through it)
with its own queue on a dedicated Redis database; unit tests elsewhere keep running tasks eagerly.
No Redis (or no redis-server for the outage test): skipped with the reason, failed under CI=true.
"""

from __future__ import annotations

import contextlib
import os
import re
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from shutil import which
from urllib.parse import quote, urlsplit

import celery.contrib.testing.tasks  # noqa: F401  (the ping task start_worker checks with)
import pytest
from celery import Celery
from celery.contrib.testing.worker import start_worker
from django.core import mail
from django.db import connection
from kombu import Queue

from handsite.celery import app as site_app
from tests.support import ROOT, require_service, skip_or_fail

REDIS_DB = 13  # a database of its own on the machine's Redis


@contextlib.contextmanager
def celery_app_on(broker_url: str, *, by_queue: bool = False):
    """An app whose tasks all go to one queue of the test's own; ``by_queue``: the site's routes, with
    each named queue ("mail", "scans", ...) renamed to one of the test's own (:func:`queue_of`)."""
    app = Celery(f"handsite-it-{uuid.uuid4().hex[:6]}", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    queue = f"it-{uuid.uuid4().hex[:8]}"
    routing = {"task_default_queue": queue, "task_queues": None, "task_routes": None}
    if by_queue:
        own = {
            q.name: Queue(f"{queue}-{q.name}", routing_key=f"{queue}-{q.name}") for q in app.conf.task_queues
        }
        routing = {
            "task_default_queue": own[app.conf.task_default_queue].name,
            "task_queues": list(own.values()),
            "task_routes": {
                pattern: {**route, "queue": own[route["queue"]].name}
                for pattern, route in app.conf.task_routes.items()
            },
        }
    app.conf.update(
        broker_url=broker_url,
        result_backend=broker_url,
        task_always_eager=False,
        broker_connection_retry_on_startup=True,
        broker_transport_options={},
        **routing,
    )
    app.set_current()
    app.set_default()
    try:
        yield app
    finally:
        site_app.set_current()
        site_app.set_default()


def queue_of(app, name: str) -> str:
    """The test's own name for the site's queue ``name`` (an app made with ``by_queue=True``)."""
    return next(q.name for q in app.conf.task_queues if q.name.endswith(f"-{name}"))


@contextlib.contextmanager
def worker(app, name: str = "w1", pool: str = "solo", concurrency: int = 1, queues: list[str] | None = None):
    """A worker in this process; ``queues``: only these (the test's names), else all of the app's."""
    hostname = f"{name}-{uuid.uuid4().hex[:6]}@it"
    options = {"queues": queues} if queues else {}
    with start_worker(
        app, pool=pool, concurrency=concurrency, hostname=hostname, shutdown_timeout=20, **options
    ):
        yield


def test_database_url() -> str:
    """A DATABASE_URL for the database this test runs on (the test database, not the configured one),
    so that another process sees the same rows. Needs ``django_db(transaction=True)``."""
    conf = connection.settings_dict
    if connection.vendor == "sqlite":
        name = str(conf["NAME"])
        if name == ":memory:" or name.startswith("file:"):
            raise AssertionError("an in-memory SQLite test database cannot be shared with another process")
        return f"sqlite:///{Path(name).resolve()}"
    if connection.vendor == "postgresql":
        user = quote(conf.get("USER") or "", safe="")
        password = quote(conf.get("PASSWORD") or "", safe="")
        auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
        host = conf.get("HOST") or "127.0.0.1"
        port = f":{conf['PORT']}" if conf.get("PORT") else ""
        return f"postgres://{auth}{host}{port}/{quote(conf['NAME'], safe='')}"
    raise AssertionError(f"no DATABASE_URL for {conf['ENGINE']}")


class WorkerProcess:
    """A second, separate Celery worker: `celery -A handsite worker` in its own process, consuming the
    test's queue on the test's Redis and writing to the test database. Its e-mails are files under
    ``var_dir``/mail (EMAIL_MODE=file); its log (INFO: every task received and its result) is
    ``var_dir``/worker.log."""

    SEPARATOR = b"-" * 79

    def __init__(self, broker_url: str, queue: str, var_dir: Path, name: str = "second"):
        self.var_dir = var_dir
        var_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = var_dir / "worker.log"
        self.mail_dir = var_dir / "mail"
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST_", "CELERY_"))}
        env.update(
            DJANGO_SETTINGS_MODULE="handsite.settings",
            DATABASE_URL=test_database_url(),
            REDIS_URL=broker_url,
            EMAIL_MODE="file",
            HANDSITE_VAR_DIR=str(var_dir),
            CELERY_DATA_DIR=str(var_dir / "celery"),
        )
        command = [
            *(sys.executable, "-m", "celery", "-A", "handsite", "worker"),
            *("-Q", queue, "-P", "solo", "-c", "1", "-l", "INFO", "-n", f"{name}-{uuid.uuid4().hex[:6]}@%h"),
            *("--without-gossip", "--without-mingle", "--without-heartbeat"),
        ]
        self.log_file = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop)
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=self.log_file, stderr=subprocess.STDOUT
        )

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def wait_until_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if " ready." in self.log():
                return
            if self.process.poll() is not None:
                raise AssertionError(f"the second worker exited ({self.process.returncode}):\n{self.log()}")
            time.sleep(0.1)
        raise AssertionError(f"the second worker was not ready in {timeout} s:\n{self.log()}")

    def results(self, task_name: str) -> list[str]:
        """The return value of every run of ``task_name`` that finished, as logged."""
        pattern = rf"Task {re.escape(task_name)}\[[^\]]+\] succeeded in [0-9.e-]+s: (.*)"
        return [value.strip().strip("'\"") for value in re.findall(pattern, self.log())]

    def received(self, task_name: str) -> int:
        return len(re.findall(rf"Task {re.escape(task_name)}\[[^\]]+\] received", self.log()))

    def emails(self) -> list[bytes]:
        """Every e-mail this worker sent (the file backend ends each with a line of 79 dashes)."""
        messages = []
        for path in sorted(self.mail_dir.glob("*")) if self.mail_dir.exists() else []:
            parts = path.read_bytes().split(b"\n" + self.SEPARATOR + b"\n")
            messages.extend(part for part in parts if part.strip())
        return messages

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()  # warm shutdown
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        self.log_file.close()


@contextlib.contextmanager
def worker_process(broker_url: str, queue: str, var_dir: Path):
    process = WorkerProcess(broker_url, queue, var_dir)
    try:
        process.wait_until_ready()
        yield process
    finally:
        process.stop()


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
