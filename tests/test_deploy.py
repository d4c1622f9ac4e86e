"""deploy/ holds what runs the site: systemd units (web, a Celery worker per queue with its own node
name, the one beat) checked by `systemd-analyze verify`, and an nginx site checked by `nginx -t`.
Where a tool is missing the test skips with a reason (fails under CI=true: .ci/system-packages
installs both)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings

from tests.support import ROOT, skip_or_fail

UNITS = ROOT / "deploy" / "systemd"
SITE = ROOT / "deploy" / "nginx" / "handsite.conf"
INSTALLED_AT = "/srv/handsite"


def _tool(*names: str) -> str:
    for name in names:
        found = shutil.which(name) or next(
            (p for p in (f"/usr/sbin/{name}", f"/sbin/{name}") if Path(p).exists()), None
        )
        if found:
            return found
    package = "nginx-light" if names[0] == "nginx" else "systemd"
    skip_or_fail(f"{names[0]} is not installed (Debian: apt-get install {package})")


def _exec_starts() -> dict[str, str]:
    return {
        path.name: re.search(r"^ExecStart=(.+)$", path.read_text(), re.MULTILINE).group(1)
        for path in sorted(UNITS.glob("*.service"))
    }


def test_the_units_pass_systemd_analyze_verify_with_this_checkout_as_the_installed_site(tmp_path):
    analyze = _tool("systemd-analyze")
    # The units name the installed checkout; verify checks that their commands exist, so point them here.
    for path in UNITS.iterdir():
        (tmp_path / path.name).write_text(path.read_text().replace(INSTALLED_AT, str(ROOT)))
    units = [str(tmp_path / "handsite.target"), *sorted(str(p) for p in tmp_path.glob("*.service"))]
    result = subprocess.run(
        [analyze, "verify", "--man=no", *units], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    # Unknown keys or sections are only warned about: any word about our units is a defect.
    assert [line for line in result.stderr.splitlines() if "handsite" in line] == []


def test_the_workers_consume_every_queue_of_the_settings_each_under_its_own_node_name_and_one_beat_runs():
    commands = _exec_starts()
    workers = {name: command for name, command in commands.items() if " worker " in command}
    queues = [
        q for command in workers.values() for q in re.search(r"--queues=(\S+)", command).group(1).split(",")
    ]
    assert sorted(queues) == sorted(queue.name for queue in settings.CELERY_TASK_QUEUES)
    assert {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()} <= set(queues)
    nodes = [re.search(r" -n (\S+)", command).group(1) for command in workers.values()]
    assert len(set(nodes)) == len(nodes) == len(workers) == 3
    assert [name for name, command in commands.items() if command.split()[2:4] == ["handsite", "beat"]] == [
        "handsite-beat.service"
    ]
    web = commands["handsite-web.service"]
    assert "handsite.wsgi" in web
    assert "--bind 127.0.0.1:8000" in web
    assert "--access-logfile -" in web
    target = (UNITS / "handsite.target").read_text()
    assert all(name in target for name in commands)


def test_the_nginx_site_passes_nginx_t_and_proxies_with_the_scheme_it_was_reached_by(tmp_path):
    nginx = _tool("nginx")
    openssl = shutil.which("openssl") or skip_or_fail("openssl is not installed")
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=hand.example.com",
         "-keyout", str(tmp_path / "privkey.pem"), "-out", str(tmp_path / "fullchain.pem")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    site = SITE.read_text()
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in site
    assert "proxy_pass http://handsite_web;" in site
    assert "server 127.0.0.1:8000" in site
    site = site.replace("/etc/letsencrypt/live/hand.example.com/", f"{tmp_path}/").replace(
        "/var/log/nginx/", f"{tmp_path}/"
    )
    (tmp_path / "handsite.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid;\nerror_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n access_log off;\n include {tmp_path}/handsite.conf;\n}}\n"
    )
    result = subprocess.run(
        [nginx, "-t", "-p", str(tmp_path), "-e", str(tmp_path / "error.log"),
         "-c", str(tmp_path / "nginx.conf")],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "test is successful" in result.stderr
    assert "[warn]" not in result.stderr, result.stderr


@pytest.mark.parametrize("path", sorted(p.name for p in UNITS.glob("*.service")))
def test_every_unit_runs_as_the_site_user_from_the_environment_file(path):
    text = (UNITS / path).read_text()
    assert "User=handsite" in text
    assert "EnvironmentFile=/etc/handsite/env" in text
    assert "WantedBy=handsite.target" in text
    assert "PartOf=handsite.target" in text
