"""With Redis, each request reads its session from Redis (Django's cached_db: handsite/sessions.py, the
"sessions" cache of handsite/cache.py) and its user from the database, and nothing about logging in and
out weakens: logging out, a new session key, a changed password, a deactivated account or any change of
the user's row (``update()`` included) take effect at the next request, in every process; a Redis that
stops or hangs sends the reads to the database (no 500, nobody logged out), and a log-out that Redis
cannot confirm is refused (it changes nothing) instead of leaving a live copy behind for when it is
back.

Each test runs its own redis-server on a free port (tests/celery/conftest.py), so stopping or freezing
it disturbs no other test."""

from __future__ import annotations

import pickle
import signal
import time

import pytest
import redis
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from handsite import cache as site_cache
from handsite.models import User
from tests.celery.conftest import own_redis  # noqa: F401 (fixture)
from tests.factories import PASSWORD
from tests.support import caches_on_redis, run_manage

pytestmark = pytest.mark.django_db

SESSION_PREFIX = "django.contrib.sessions.cached_db"


@pytest.fixture
def on_redis(own_redis, settings):  # noqa: F811 (fixture)
    caches_on_redis(settings, own_redis.url)
    yield own_redis
    if own_redis.process is not None:
        own_redis.process.send_signal(signal.SIGCONT)
    site_cache._down_until.clear()


def logged_in(user) -> Client:
    """A browser of ``user`` that has made one request since it logged in (its session is in Redis)."""
    client = Client()
    client.force_login(user)
    assert client.get(reverse("profile")).status_code == 200
    return client


def copy_in_redis(server, key: str):
    """What Redis holds under the "sessions" cache's ``key`` (prefix "t", version 1), unpickled, or None."""
    raw = redis.Redis.from_url(server.url).get(f"t:1:{key}")
    return None if raw is None else pickle.loads(raw)


def is_logged_in(client) -> bool:
    response = client.get(reverse("profile"))
    assert response.status_code in (200, 302)
    return response.status_code == 200


def with_cookie(session_key: str) -> Client:
    client = Client()
    client.cookies["sessionid"] = session_key
    return client


def another_process() -> None:
    """As a process that never saw Redis fail: each gunicorn worker keeps its own "Redis is down"
    state (handsite/cache.py)."""
    site_cache._down_until.clear()


def test_a_request_reads_its_session_from_redis_and_its_user_from_the_database(on_redis, member):
    client = logged_in(member)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("profile"))
    assert response.status_code == 200
    assert response.context["user"] == member
    sqls = [query["sql"] for query in queries.captured_queries]
    assert not [sql for sql in sqls if "django_session" in sql], sqls
    assert [sql for sql in sqls if 'FROM "handsite_user"' in sql], sqls
    session_key = client.cookies["sessionid"].value
    assert copy_in_redis(on_redis, SESSION_PREFIX + session_key)["_auth_user_id"] == str(member.pk)


def test_logging_out_removes_the_cached_session_and_the_old_cookie_is_a_visitor(on_redis, member):
    client = logged_in(member)
    old = client.cookies["sessionid"].value
    assert client.post(reverse("account_logout")).status_code == 302
    assert copy_in_redis(on_redis, SESSION_PREFIX + old) is None
    assert not is_logged_in(with_cookie(old))


def test_logging_in_cycles_the_session_key_and_the_visitors_cached_session_goes(on_redis, member):
    client = Client()
    visit = client.session  # a visitor's session (say, an invitation followed before logging in)
    visit["seen"] = True
    visit.save()
    old = visit.session_key
    assert copy_in_redis(on_redis, SESSION_PREFIX + old) == {"seen": True}
    response = client.post(reverse("account_login"), {"login": member.email, "password": PASSWORD})
    assert response.status_code == 302
    assert client.cookies["sessionid"].value != old
    assert copy_in_redis(on_redis, SESSION_PREFIX + old) is None
    assert is_logged_in(client)


def test_a_changed_password_logs_out_the_other_browsers_at_once(on_redis, member):
    here, elsewhere = logged_in(member), logged_in(member)
    response = here.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": "another-long-pass-77", "password2": "another-long-pass-77"},
    )
    assert response.status_code == 302
    assert is_logged_in(here)
    assert not is_logged_in(elsewhere)


def test_a_deactivated_account_is_logged_out_at_once(on_redis, member):
    client = logged_in(member)
    member.is_active = False
    member.save()
    assert not is_logged_in(client)


def test_a_user_changed_by_update_is_never_served_stale(on_redis, member):
    """``update()`` sends no signal: the user is read from the database at every request, so nothing
    has to be told."""
    client = logged_in(member)
    User.objects.filter(pk=member.pk).update(display_name="Renamed by update")
    assert client.get(reverse("profile")).context["user"].display_name == "Renamed by update"
    User.objects.filter(pk=member.pk).update(is_active=False)
    assert not is_logged_in(client)


def test_a_changed_language_shows_at_once(on_redis, member):
    member.language = "en"
    member.save()
    client = logged_in(member)
    client.post(reverse("set_language"), {"language": "ar", "next": reverse("profile")})
    client.cookies.pop("django_language", None)  # the person's language, not the cookie's
    assert client.get(reverse("profile")).context["user"].language == "ar"
    assert 'lang="ar"' in client.get(reverse("profile")).text


def test_with_redis_stopped_the_database_answers_and_nobody_is_logged_out(on_redis, member, caplog):
    client = logged_in(member)
    on_redis.stop()
    start = time.monotonic()
    response = client.get(reverse("profile"))
    assert time.monotonic() - start < 3
    assert response.status_code == 200
    assert response.context["user"] == member
    assert "sessions are read from the database" in caplog.text


def test_with_redis_hung_the_database_answers_at_once_and_nobody_is_logged_out(on_redis, member, settings):
    import socket

    client = logged_in(member)
    with socket.socket() as hung:  # takes connections and never answers
        hung.bind(("127.0.0.1", 0))
        hung.listen(16)
        caches_on_redis(settings, f"redis://127.0.0.1:{hung.getsockname()[1]}/0")
        start = time.monotonic()
        response = client.get(reverse("profile"))
        assert time.monotonic() - start < 2 * site_cache.SOCKET_TIMEOUT + 1
        assert response.status_code == 200
        assert response.context["user"] == member


def test_a_log_out_after_a_redis_freeze_holds_in_every_process(on_redis, member):
    """Redis frozen (SIGSTOP) keeps its data. The process that saw it fail reads from the database for a
    while; a log-out there once Redis answers again still deletes the copy in Redis, so the old cookie
    is a visitor's in that process and in every other one, request after request (three trials)."""
    for _trial in range(3):
        client = logged_in(member)
        old = client.cookies["sessionid"].value
        on_redis.process.send_signal(signal.SIGSTOP)
        try:
            assert is_logged_in(client)  # from the database; this process now leaves Redis alone
        finally:
            on_redis.process.send_signal(signal.SIGCONT)
        assert _sessions_cache().redis_down
        assert client.post(reverse("account_logout")).status_code == 302
        assert copy_in_redis(on_redis, SESSION_PREFIX + old) is None
        for _request in range(4):
            assert not is_logged_in(with_cookie(old))  # this process
        another_process()
        for _request in range(4):
            assert not is_logged_in(with_cookie(old))


def test_a_log_out_while_redis_is_frozen_is_refused_and_changes_nothing(on_redis, member):
    """Redis frozen during the log-out cannot confirm the deletion of the session's copy: the person is
    told, stays logged in in every process (the session is still in the database), and the next
    log-out, once Redis answers, holds everywhere."""
    client = logged_in(member)
    old = client.cookies["sessionid"].value
    on_redis.process.send_signal(signal.SIGSTOP)
    try:
        start = time.monotonic()
        response = client.post(reverse("account_logout"))
        assert time.monotonic() - start < 4 * site_cache.SOCKET_TIMEOUT + 1
        assert response.status_code == 503
        assert "If you were logging out, you are still logged in." in response.text
        assert client.cookies["sessionid"].value == old
        assert is_logged_in(client)  # from the database
    finally:
        on_redis.process.send_signal(signal.SIGCONT)
    another_process()
    assert is_logged_in(with_cookie(old))  # as it was told: still logged in, everywhere
    assert client.post(reverse("account_logout")).status_code == 302
    assert not is_logged_in(with_cookie(old))
    another_process()
    assert not is_logged_in(with_cookie(old))


def test_a_log_in_works_while_redis_is_down(on_redis, member):
    """The visitor's session cycled at log-in authenticates nobody: its copy cannot be deleted while
    Redis is down, and the log-in goes on."""
    client = Client()
    visit = client.session
    visit["seen"] = True
    visit.save()
    on_redis.stop()
    response = client.post(reverse("account_login"), {"login": member.email, "password": PASSWORD})
    assert response.status_code == 302
    assert is_logged_in(client)


def _sessions_cache():
    from django.core.cache import caches

    return caches["sessions"]


def test_sessions_naming_the_sites_former_backends_stay_logged_in(on_redis, member):
    """Sessions naming the backends the site had (handsite.backends, gone) are given Django's and
    allauth's own on their next request, so the deploy logs nobody out."""
    from django.contrib.sessions.backends.db import SessionStore as DatabaseSession

    for old_backend, new_backend in [
        ("handsite.backends.AuthenticationBackend", "allauth.account.auth_backends.AuthenticationBackend"),
        ("handsite.backends.ModelBackend", "django.contrib.auth.backends.ModelBackend"),
    ]:
        session = DatabaseSession()
        session.update(
            {
                "_auth_user_id": str(member.pk),
                BACKEND_SESSION_KEY: old_backend,
                "_auth_user_hash": member.get_session_auth_hash(),
            }
        )
        session.create()
        client = with_cookie(session.session_key)
        assert is_logged_in(client)
        assert client.session[BACKEND_SESSION_KEY] == new_backend
        assert DatabaseSession(session.session_key).load()[BACKEND_SESSION_KEY] == new_backend


SHOW = (
    "from django.conf import settings; print(settings.SESSION_ENGINE, settings.SESSION_CACHE_ALIAS,"
    " ','.join(f'{a}={c[\"BACKEND\"]}' for a, c in settings.CACHES.items()))"
)


def test_with_redis_url_sessions_are_read_from_redis(tmp_path):
    result = run_manage(
        "shell",
        "-v",
        "0",
        "-c",
        SHOW,
        env={"HANDSITE_VAR_DIR": str(tmp_path), "REDIS_URL": "redis://h:6379/3"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "handsite.sessions",
        "sessions",
        "default=handsite.cache.FailOpenRedisCache,sessions=handsite.cache.SessionCache",
    ]


def test_without_redis_sessions_stay_in_the_database(tmp_path):
    """Each process has its own local cache then: a copy there would keep a logged-out session alive
    in the other processes."""
    result = run_manage("shell", "-v", "0", "-c", SHOW, env={"HANDSITE_VAR_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.contrib.sessions.backends.db",
        "default",
        "default=django.core.cache.backends.locmem.LocMemCache",
    ]


def test_sites_sharing_a_redis_database_never_read_each_others_sessions(tmp_path):
    """The "sessions" cache's keys are named after the database (say, a staging site, or a bench's
    throwaway database, on the production Redis)."""
    show = "from django.conf import settings; print(settings.CACHES['sessions']['KEY_PREFIX'])"
    prefixes = set()
    for database in ("sqlite:///one.sqlite3", "sqlite:///two.sqlite3"):
        env = {"HANDSITE_VAR_DIR": str(tmp_path), "REDIS_URL": "redis://h:6379/3", "DATABASE_URL": database}
        result = run_manage("shell", "-v", "0", "-c", show, env=env)
        assert result.returncode == 0, result.stderr
        prefixes.add(result.stdout.strip())
    assert len(prefixes) == 2


def test_the_refused_log_out_is_told_in_arabic_to_an_arabic_reader(on_redis, member):
    member.language = "ar"
    member.save()
    client = logged_in(member)
    on_redis.process.send_signal(signal.SIGSTOP)
    try:
        response = client.post(reverse("account_logout"))
    finally:
        on_redis.process.send_signal(signal.SIGCONT)
    assert response.status_code == 503
    assert "فما زلت مسجّل الدخول" in response.text
    assert 'lang="ar"' in response.text
