"""The README's test command (.ci/test) ends every run with how many tests were skipped and why."""

import os
import subprocess
import sys

from tests.support import ROOT

SKIPPING = """
import pytest

def test_runs():
    assert True

def test_needs_a_browser():
    pytest.skip("chromium is not installed")

@pytest.mark.parametrize("n", [1, 2])
def test_needs_redis(n):
    pytest.skip("Redis is not running")
"""


def _run(tmp_path, source: str) -> subprocess.CompletedProcess:
    test_file = tmp_path / "test_sample.py"
    test_file.write_text(source)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    env.update(SKIP_INSTALL="1", PYTEST_WORKERS="0")
    return subprocess.run(
        [str(ROOT / ".ci" / "test"), "-q", str(test_file)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_the_run_ends_with_the_skipped_tests_counted_by_reason(tmp_path):
    result = _run(tmp_path, SKIPPING)
    assert result.returncode == 0, result.stdout + result.stderr
    tail = result.stdout.strip().splitlines()[-3:]
    assert tail == [
        "== skipped: 3 tests",
        "      2  Redis is not running",
        "      1  chromium is not installed",
    ]


def test_a_run_without_skips_says_so(tmp_path):
    report = tmp_path / "junit.xml"
    report.write_text('<testsuites><testsuite><testcase name="a"/></testsuite></testsuites>')
    result = subprocess.run(
        [sys.executable, str(ROOT / ".ci" / "skipped.py"), str(report)], capture_output=True, text=True
    )
    assert result.stdout.strip() == "== skipped: none"
