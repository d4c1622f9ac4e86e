"""Helpers for tests that need real services (PostgreSQL, Redis, chromium).

Normally a missing service skips the test with a reason. Under CI=true every service must be there, so
a missing one fails the test instead.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
# The tests' own Redis database when REDIS_URL does not name one: never db 0, which a site on this
# machine may be using (tests/conftest.py refuses a REDIS_URL naming db 0).
TEST_REDIS_DB = 15
DEFAULT_URLS = {
    "postgres": "postgres://postgres@127.0.0.1:5432/postgres",
    "redis": f"redis://127.0.0.1:6379/{TEST_REDIS_DB}",
}


def redis_db_of(url: str) -> int:
    """The database number a redis:// URL names (0 when it names none, as Redis takes it)."""
    path = urlsplit(url).path.strip("/")
    return int(path) if path.isdigit() else 0


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def skip_or_fail(reason: str):
    """Skip with the reason; under CI=true, fail with it."""
    if in_ci():
        pytest.fail(f"CI=true but {reason}", pytrace=False)
    pytest.skip(reason)


def _reachable(url: str) -> bool:
    parts = urlsplit(url)
    try:
        with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 0), timeout=2):
            return True
    except OSError:
        return False


def service_url(name: str) -> str:
    """The URL to use for a service: from the environment when it points there, else the default."""
    if name == "postgres":
        url = os.environ.get("DATABASE_URL", "")
        return url if url.startswith(("postgres://", "postgresql://")) else DEFAULT_URLS["postgres"]
    if name == "redis":
        return os.environ.get("REDIS_URL") or DEFAULT_URLS["redis"]
    raise ValueError(f"unknown service {name!r}")


def require_service(name: str) -> str:
    """The URL of a running service, or skip (fail under CI=true) when it is not running.
    Names: "postgres", "redis", "chromium" (returns the executable path)."""
    if name == "chromium":
        if not Path(CHROMIUM).exists():
            skip_or_fail(f"chromium is not installed at {CHROMIUM}")
        return CHROMIUM
    url = service_url(name)
    if not _reachable(url):
        skip_or_fail(f"{name} is not reachable at {url}")
    return url


def run_manage(*args: str, env: dict[str, str], timeout: int = 60) -> subprocess.CompletedProcess:
    """Run manage.py in a fresh interpreter with exactly this extra environment (settings are read at
    import, so settings tests need their own process)."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DEBUG", "SECRET_KEY"))}
    for name in ("DATABASE_URL", "REDIS_URL", "ALLOWED_HOSTS", "EMAIL_MODE", "SITE_URL"):
        base.pop(name, None)
    base.update(env)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=base,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def membership_of(user, group):
    return user.memberships.get(group=group)


def request_queries(captured: list[dict]) -> list[str]:
    """The statements one request sent, as production counts them: everything but its own transaction's
    BEGIN and COMMIT (Django logs neither). Inside a test's transaction that outermost ``atomic`` is a
    SAVEPOINT ... RELEASE pair instead: dropped here once. Any other savepoint — one inside the move,
    as ``notify()``'s around its INSERT — is two more round trips and is counted."""
    sqls = [query["sql"] for query in captured]
    first = next((i for i, sql in enumerate(sqls) if sql.lstrip().upper().startswith("SAVEPOINT")), None)
    if first is None:
        return sqls
    release = f"RELEASE {sqls[first].strip()}"
    after = next((i for i in range(first + 1, len(sqls)) if sqls[i].strip() == release), None)
    return [sql for i, sql in enumerate(sqls) if i not in (first, after)]


@contextlib.contextmanager
def row_locked_elsewhere(instance):
    """While the block runs, another connection holds ``instance``'s row with SELECT ... FOR UPDATE
    (a player moving or answering right now), so scans using SKIP LOCKED must pass it by."""
    import threading

    from django.db import connection, transaction

    locked, release = threading.Event(), threading.Event()

    def hold():
        with transaction.atomic():
            list(type(instance).objects.select_for_update().filter(pk=instance.pk))
            locked.set()
            release.wait(10)
        connection.close()

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert locked.wait(10), "the other connection never took the row lock"
        yield
    finally:
        release.set()
        holder.join()


def caches_on_redis(settings, url: str, prefix: str = "t") -> None:
    """The site's settings with REDIS_URL=``url``: both caches on it (the fail-open one, and the one of
    sessions) and sessions read from Redis, written through to the database."""
    from handsite import cache

    cache._down_until.clear()
    settings.CACHES = {
        "default": {"BACKEND": "handsite.cache.FailOpenRedisCache", "LOCATION": url, "KEY_PREFIX": prefix},
        "sessions": {"BACKEND": "handsite.cache.SessionCache", "LOCATION": url, "KEY_PREFIX": prefix},
    }
    settings.SESSION_ENGINE = "handsite.sessions"
    settings.SESSION_CACHE_ALIAS = "sessions"


def redis_keys(url: str, match: str = "*") -> set[bytes] | None:
    """The keys of the Redis database ``url`` names (matching ``match``), or None when it does not
    answer at once."""
    import redis

    try:
        server = redis.Redis.from_url(url, socket_timeout=0.5, socket_connect_timeout=0.5)
        return set(server.scan_iter(match=match, count=1000))
    except redis.RedisError:
        return None


def delete_redis_keys(url: str, match: str, *, timeout: float = 2.0) -> None:
    """Delete the keys matching ``match`` (a test's own prefix) from the database ``url`` names; a
    server that does not answer within ``timeout`` seconds (a test stopped or hung it) is left as it
    is."""
    import redis

    try:
        server = redis.Redis.from_url(url, socket_timeout=timeout, socket_connect_timeout=timeout)
        keys = list(server.scan_iter(match=match, count=1000))
        if keys:
            server.delete(*keys)
    except redis.RedisError:
        pass


@contextlib.contextmanager
def removing_new_redis_keys(url: str | None):
    """A block that runs a real Celery worker or client on the Redis database ``url`` (None: no Redis):
    the keys they made (kombu's bindings, task results) are deleted after it. Keys of the tests' own
    cache prefixes (``test-…``, deleted by their tests) are left alone: another test may be using them."""
    before = redis_keys(url) if url else None
    try:
        yield
    finally:
        if before is not None:
            import redis

            made = [key for key in (redis_keys(url) or set()) - before if not key.startswith(b"test-")]
            if made:
                redis.Redis.from_url(url, socket_timeout=2).delete(*made)


def wait_until_true(page, expression: str, timeout: float = 10.0) -> None:
    """Wait until ``expression`` (JavaScript) is true in ``page``. Playwright's wait_for_function polls
    with a function built from a string inside the page, which the site's Content-Security-Policy
    (no 'unsafe-eval') refuses whenever the first check is false; each check here is an evaluate."""
    import time

    stop = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > stop:
            raise AssertionError(f"still false after {timeout} s: {expression}")
        page.wait_for_timeout(100)
