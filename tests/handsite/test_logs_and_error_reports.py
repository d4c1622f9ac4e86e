"""Logs an operator can read: time, level and logger on every line (the site's and Django's), one access
line per request from gunicorn, and errors reported to Sentry when SENTRY_DSN is set (a stand-in of
Sentry's ingest API on 127.0.0.1 receives the event). ADMINS by e-mail: tests/handsite/test_error_pages.py."""

from __future__ import annotations

import gzip
import http.server
import os
import re
import subprocess
import sys
import threading
import time
import urllib.request

import pytest

from tests.celery.conftest import celery_app_on, free_port, shared_redis, worker_process  # noqa: F401
from tests.support import ROOT, run_manage

LINE = re.compile(
    r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR|CRITICAL) [\w.]+ \[\d+\] "
)


def test_the_sites_and_djangos_lines_carry_time_level_and_logger(tmp_path):
    script = (
        "import logging; logging.getLogger('handsite.services').info('an e-mail was sent'); "
        "logging.getLogger('django.request').warning('Not Found: /nothing/')"
    )
    result = run_manage("shell", "-c", script, env={"HANDSITE_VAR_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert any(
        line.endswith("INFO handsite.services [" + line.split("[")[1].split("]")[0] + "] an e-mail was sent")
        for line in lines
    )
    assert all(LINE.match(line) for line in lines), lines


def test_gunicorn_writes_one_access_line_per_request(tmp_path):
    port = free_port()
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DATABASE_URL", "REDIS_URL"))},
        "DJANGO_SETTINGS_MODULE": "handsite.settings",
        "HANDSITE_VAR_DIR": str(tmp_path),
        "CELERY_DATA_DIR": str(tmp_path / "celery"),
    }
    command = [
        *(sys.executable, "-m", "gunicorn", "handsite.wsgi", "-c", ".ci/gunicorn.conf.py"),
        *("--workers", "1", "--bind", f"127.0.0.1:{port}"),
    ]
    with open(tmp_path / "gunicorn.log", "wb") as log:
        server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline, attempt = time.monotonic() + 60, 0
            while True:  # until the worker answers; each attempt asks for its own address
                attempt += 1
                try:
                    with urllib.request.urlopen(
                        f"http://127.0.0.1:{port}/healthz?probe={attempt}", timeout=10
                    ):
                        break
                except OSError:
                    assert time.monotonic() < deadline, (tmp_path / "gunicorn.log").read_text()
                    time.sleep(0.3)
            time.sleep(0.5)
        finally:
            server.terminate()
            server.wait(20)
    text = (tmp_path / "gunicorn.log").read_text()
    access = [line for line in text.splitlines() if f"GET /healthz?probe={attempt} " in line]
    assert len(access) == 1, text
    assert re.search(
        r'^\[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d [+-]\d{4}\] 127\.0\.0\.1 "GET /healthz\?probe=\d+ HTTP/1\.1" '
        r"200 \d+ \d+us",
        access[0],
    )


class _Ingest(http.server.BaseHTTPRequestHandler):
    received: list[bytes] = []

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        if self.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        type(self).received.append(body)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


def test_with_sentry_dsn_an_error_reaches_sentry(tmp_path):
    _Ingest.received = []
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Ingest)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        dsn = f"http://publickey@127.0.0.1:{server.server_address[1]}/1"
        script = (
            "import logging, sentry_sdk; "
            "logging.getLogger('handsite.services').error('e-mail 7 failed for good'); "
            "sentry_sdk.flush(10)"
        )
        result = run_manage("shell", "-c", script, env={"HANDSITE_VAR_DIR": str(tmp_path), "SENTRY_DSN": dsn})
    finally:
        server.shutdown()
    assert result.returncode == 0, result.stderr
    assert any(b"e-mail 7 failed for good" in body for body in _Ingest.received)


def test_without_sentry_dsn_nothing_is_set_up(tmp_path):
    script = "import sentry_sdk; print(sentry_sdk.get_client().is_active())"
    result = run_manage("shell", "-c", script, env={"HANDSITE_VAR_DIR": str(tmp_path)})
    assert result.stdout.split()[-1] == "False"


@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_logs_each_email_it_sent_in_the_same_format(shared_redis, tmp_path):  # noqa: F811
    """A `celery worker` process of its own (-l INFO) sends an outbox e-mail: its log says so, every
    line with time, level and logger."""
    from django.core import mail

    from handsite.services import email_outbox

    with celery_app_on(shared_redis) as app:
        queue = app.conf.task_default_queue
        with worker_process(shared_redis, queue, tmp_path / "worker") as second:
            # outside a transaction: queued to the worker at once
            (row,) = email_outbox.queue_email(
                mail.EmailMessage("Hi", "Body", None, ["nour@example.com"]), purpose="invitation"
            )
            deadline = time.monotonic() + 60
            while "sent to n…@example.com" not in second.log():
                assert time.monotonic() < deadline, second.log()
                time.sleep(0.2)
            log = second.log()
    lines = [line for line in log.splitlines() if line[:4].isdigit()]
    assert any(
        "INFO handsite.services.email_outbox [" in line and f"e-mail {row.pk} (invitation) sent" in line
        for line in lines
    )
    assert any(LINE.match(line) and "celery.app.trace" in line and "succeeded" in line for line in lines), log
