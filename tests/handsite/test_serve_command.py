"""The README's run command (.ci/serve): migrate, demo data, then web + worker + beat on $PORT."""

import os
import signal
import socket
import subprocess
import time
import urllib.request

import pytest

from tests.support import ROOT


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def serve_env(tmp_path, **extra) -> dict[str, str]:
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("DJANGO_", "DEBUG", "SECRET_KEY", "PYTEST", "SITE_URL"))
        and k not in ("DATABASE_URL", "REDIS_URL", "PORT")
    }
    env.update(SKIP_INSTALL="1", HANDSITE_VAR_DIR=str(tmp_path / "var"), **extra)
    return env


def test_a_bad_port_is_refused_with_a_clear_message(tmp_path):
    result = subprocess.run(
        [str(ROOT / ".ci" / "serve")],
        cwd=ROOT,
        env=serve_env(tmp_path, PORT="eighty"),
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert "PORT must be a number" in result.stderr


@pytest.mark.slow
def test_the_run_command_serves_the_site_on_the_port_it_is_given(tmp_path):
    port = free_port()
    log = (tmp_path / "serve.log").open("w+")
    process = subprocess.Popen(
        [str(ROOT / ".ci" / "serve")],
        cwd=ROOT,
        env=serve_env(tmp_path, PORT=str(port)),
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,  # its own process group: stopping it stops web, worker and beat
    )
    try:
        deadline = time.monotonic() + 90
        page = None
        while time.monotonic() < deadline and process.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as response:
                    page = (response.status, response.read().decode())
                    break
            except OSError:
                time.sleep(0.5)
        log.seek(0)
        output = log.read()
        assert page is not None, output
        assert page[0] == 200
        assert "<html" in page[1]
        assert f"Log in at http://127.0.0.1:{port}/" in output
        assert "127.0.0.1:8000" not in output  # every start-up line names the real port
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        log.close()
