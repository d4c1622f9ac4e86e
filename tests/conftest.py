"""The fixed cast every test uses: `owner`, `admin`, `member` of `group`, and an `outsider` who is in no
group. Later apps reuse these fixtures and tests/factories.py."""

import uuid

import pytest
from django.core.cache import cache

from handsite.celery import app as celery_app
from handsite.models import Role
from tests.factories import PASSWORD, MembershipFactory, PlayerGroupFactory, UserFactory


@pytest.fixture(autouse=True, scope="session")
def _celery_runs_tasks_in_process():
    """Unit tests run tasks in the test process. A real worker is exercised in
    tests/handsite/test_real_services.py and tests/celery/; the run setup never uses eager mode."""
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture(autouse=True)
def _fresh_cache(settings):
    """allauth's rate limits live in the cache (and with Redis, sessions and users in the "auth" one);
    each test gets its own key prefix, so it starts with none used, even on a shared Redis with parallel
    test workers."""
    prefix = f"test-{uuid.uuid4().hex}"
    settings.CACHES = {alias: {**config, "KEY_PREFIX": prefix} for alias, config in settings.CACHES.items()}
    yield
    if "locmem" in settings.CACHES["default"]["BACKEND"]:
        cache.clear()


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
