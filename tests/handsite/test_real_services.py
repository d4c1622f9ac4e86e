"""A real Celery worker consumes the queue: with the embedded filesystem broker (no server) and with Redis.
Sender and worker are separate processes, as in the run setup (no eager mode)."""

import os
import subprocess
import sys
import uuid
from urllib.parse import urlsplit

import pytest

from tests.support import ROOT, removing_new_redis_keys, require_service, run_manage


def _env(tmp_path, redis_url=None):
    env = {"DEBUG": "1", "HANDSITE_VAR_DIR": str(tmp_path), "CELERY_DATA_DIR": str(tmp_path / "celery")}
    if redis_url:
        env["REDIS_URL"] = redis_url
    return env


def _ping_through_a_worker(tmp_path, redis_url=None):
    with removing_new_redis_keys(redis_url):
        _ping(tmp_path, redis_url)


def _ping(tmp_path, redis_url=None):
    queue = f"test-{uuid.uuid4().hex[:8]}"
    env = _env(tmp_path, redis_url)
    worker_env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")} | env
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "handsite",
            "worker",
            "--pool=solo",
            "-Q",
            queue,
            "-l",
            "warning",
        ],
        cwd=ROOT,
        env=worker_env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        result = run_manage(
            "shell",
            "-v",
            "0",
            "-c",
            f"from handsite.tasks import ping; print(ping.apply_async(queue={queue!r}).get(timeout=40))",
            env=env,
            timeout=90,
        )
    finally:
        worker.terminate()
        output = worker.communicate(timeout=30)[0]
    assert result.stdout.strip() == "pong", result.stderr + output


def test_a_worker_runs_tasks_from_the_embedded_broker(tmp_path):
    _ping_through_a_worker(tmp_path)


def test_a_worker_runs_tasks_from_redis(tmp_path):
    _ping_through_a_worker(tmp_path, redis_url=require_service("redis"))


def test_the_site_connects_to_postgres(tmp_path):
    # The server's maintenance database: the configured one may not exist yet (tests make their own).
    url = urlsplit(require_service("postgres"))._replace(path="/postgres").geturl()
    result = run_manage(
        "shell",
        "-v",
        "0",
        "-c",
        "from django.db import connection; connection.ensure_connection(); print(connection.vendor)",
        env={"DATABASE_URL": url, "HANDSITE_VAR_DIR": str(tmp_path)},
    )
    assert result.stdout.strip() == "postgresql", result.stderr


@pytest.mark.parametrize("service", ["postgres", "redis"])
def test_require_service_fails_under_ci_when_a_service_is_missing(service, monkeypatch):
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("DATABASE_URL", "postgres://postgres@127.0.0.1:1/none")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    with pytest.raises(pytest.fail.Exception, match="CI=true but"):
        require_service(service)


def test_require_service_skips_outside_ci_when_a_service_is_missing(monkeypatch):
    monkeypatch.setenv("CI", "")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    with pytest.raises(pytest.skip.Exception, match="not reachable"):
        require_service("redis")
