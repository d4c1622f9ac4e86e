"""The fixed cast every test uses: `owner`, `admin`, `member` of `group`, and an `outsider` who is in no
group. Later apps reuse these fixtures and tests/factories.py."""

import os
import uuid

import pytest
from django.core.cache import cache

from handsite.celery import app as celery_app
from handsite.models import Role
from tests.factories import PASSWORD, MembershipFactory, PlayerGroupFactory, UserFactory
from tests.support import delete_redis_keys, redis_db_of, redis_keys, service_url


def pytest_configure(config):
    """The suite uses the Redis database it is given, never db 0 (where a site on this machine may keep
    its broker, sessions and cache): a REDIS_URL naming db 0 stops the run before any test."""
    url = os.environ.get("REDIS_URL")
    if url and redis_db_of(url) == 0:
        raise pytest.UsageError(
            f"REDIS_URL={url} names Redis db 0: give the tests a database of their own, "
            "e.g. redis://127.0.0.1:6379/15 (tests never touch db 0)"
        )


def _is_controller(config) -> bool:
    return not hasattr(config, "workerinput")  # pytest-xdist's workers have it; a plain run is a controller


def pytest_sessionstart(session):
    """Remember the keys the tests' Redis database held before the run (None: no Redis here)."""
    if _is_controller(session.config):
        session.config._redis_keys_before = redis_keys(service_url("redis"))


# The Redis key prefixes the tests of this process used: swept once more when the process ends, for
# a live server's request still in flight when its test's own cleanup ran.
_REDIS_PREFIXES_USED: set[tuple[str, str]] = set()


def pytest_sessionfinish(session, exitstatus):
    """The run leaves no key behind in the tests' Redis database: any new one fails the run."""
    for location, prefix in _REDIS_PREFIXES_USED:
        delete_redis_keys(location, f"{prefix}:*", timeout=10)
    before = getattr(session.config, "_redis_keys_before", None)
    if not _is_controller(session.config) or before is None:
        return
    left = sorted(
        key.decode(errors="replace") for key in (redis_keys(service_url("redis")) or set()) - before
    )
    if left:
        url = service_url("redis")
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = f"the tests left {len(left)} keys in {url}: {', '.join(left[:10])}"
        if reporter:
            reporter.write_line(f"FAILED (Redis keys left behind): {message}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(autouse=True, scope="session")
def _celery_runs_tasks_in_process():
    """Unit tests run tasks in the test process. A real worker is exercised in
    tests/handsite/test_real_services.py and tests/celery/; the run setup never uses eager mode."""
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager = False


def _redis_prefixes(caches: dict) -> set[tuple[str, str]]:
    """(location, key prefix) of each cache on Redis under a test's own prefix."""
    return {
        (str(config["LOCATION"]), str(config["KEY_PREFIX"]))
        for config in caches.values()
        if str(config.get("LOCATION", "")).startswith(("redis://", "rediss://", "unix://"))
        and str(config.get("KEY_PREFIX", "")).startswith("test-")
    }


@pytest.fixture(autouse=True)
def _fresh_cache(settings):
    """allauth's rate limits live in the cache (and with Redis, sessions and users in the "auth" one);
    each test gets its own key prefix, so it starts with none used, even on a shared Redis with parallel
    test workers."""
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {alias: {**config, "KEY_PREFIX": prefix} for alias, config in settings.CACHES.items()}
    used = _redis_prefixes(settings.CACHES)
    yield
    if "locmem" in settings.CACHES["default"]["BACKEND"]:
        cache.clear()
    # A test's keys in Redis (its own prefix, kept even where the test gave a cache another one, and any
    # other it set with tests.support.caches_on_redis) are deleted with it, so the run leaves none behind.
    used |= _redis_prefixes(settings.CACHES)
    for location, key_prefix in used:
        delete_redis_keys(location, f"{key_prefix}:*")
    _REDIS_PREFIXES_USED.update(used)


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def group(db):
    return PlayerGroupFactory(name="Thursday Hand", slug="thursday-hand")


@pytest.fixture
def owner(group):
    return MembershipFactory(group=group, role=Role.OWNER, user__display_name="Olivia Owner").user


@pytest.fixture
def admin(group):
    return MembershipFactory(group=group, role=Role.ADMIN, user__display_name="Adam Admin").user


@pytest.fixture
def member(group):
    return MembershipFactory(group=group, role=Role.MEMBER, user__display_name="Mona Member").user


@pytest.fixture
def outsider(db):
    return UserFactory(display_name="Oscar Outsider")


@pytest.fixture
def cast(owner, admin, member, outsider):
    """All four people at once."""
    return {"owner": owner, "admin": admin, "member": member, "outsider": outsider}


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    """Real hashing is slow on purpose; tests need none of that."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
