"""With Redis (issue 17), each request reads its session and its user from Redis, not the database
(handsite/sessions.py, handsite/backends.py, the "auth" cache of handsite/cache.py), and nothing about
logging in and out weakens: logging out, a new session key, a changed password, a deactivated account
or a changed language take effect at the next request, and a Redis that stops or hangs sends the reads
to the database (no 500, nobody logged out) without leaving a stale copy behind for when it is back.

Each test runs its own redis-server (tests/celery/conftest.py), so stopping or pausing it disturbs
no other test."""

from __future__ import annotations

import pickle
import time

import pytest
import redis
from django.contrib.auth import BACKEND_SESSION_KEY
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from handsite import cache as site_cache
from handsite.backends import user_key
from tests.celery.conftest import own_redis  # noqa: F401 (fixture)
from tests.factories import PASSWORD
from tests.support import caches_on_redis, let_tombstones_expire, run_manage

pytestmark = pytest.mark.django_db

SESSION_PREFIX = "django.contrib.sessions.cached_db"


@pytest.fixture
def on_redis(own_redis, settings):  # noqa: F811 (fixture)
    caches_on_redis(settings, own_redis.url)
    yield own_redis
    site_cache._down_until.clear()
    site_cache._unreached.clear()


def logged_in(user, server) -> Client:
    """A browser of ``user`` that has made one request since its log-in's tombstone went (its session
    and its user are in Redis)."""
    client = Client()
    client.force_login(user)
    let_tombstones_expire(server.url)
    assert client.get(reverse("profile")).status_code == 200
    return client


def copy_in_redis(server, key: str):
    """What Redis holds under the "auth" cache's ``key`` (prefix "t", version 1), unpickled, or None."""
    raw = redis.Redis.from_url(server.url).get(f"t:1:{key}")
    return None if raw is None else pickle.loads(raw)


def is_logged_in(client) -> bool:
    response = client.get(reverse("profile"))
    assert response.status_code in (200, 302)
    return response.status_code == 200


def test_a_request_reads_its_session_and_its_user_from_redis_not_the_database(on_redis, member):
    client = logged_in(member, on_redis)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("profile"))
    assert response.status_code == 200
    assert response.context["user"] == member
    sqls = [query["sql"] for query in queries.captured_queries]
    assert not [sql for sql in sqls if "django_session" in sql or 'FROM "handsite_user"' in sql], sqls
    session_key = client.cookies["sessionid"].value
    assert copy_in_redis(on_redis, SESSION_PREFIX + session_key)["_auth_user_id"] == str(member.pk)
    assert copy_in_redis(on_redis, user_key(member.pk)) == member


def test_logging_out_removes_the_cached_session_and_the_old_cookie_is_a_visitor(on_redis, member):
    client = logged_in(member, on_redis)
    old = client.cookies["sessionid"].value
    assert client.post(reverse("account_logout")).status_code == 302
    assert copy_in_redis(on_redis, SESSION_PREFIX + old) == site_cache.TOMBSTONE
    thief = Client()
    thief.cookies["sessionid"] = old
    assert not is_logged_in(thief)


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
    assert copy_in_redis(on_redis, SESSION_PREFIX + old) == site_cache.TOMBSTONE
    assert is_logged_in(client)


def test_a_changed_password_logs_out_the_other_browsers_at_once(on_redis, member):
    here, elsewhere = logged_in(member, on_redis), logged_in(member, on_redis)
    assert copy_in_redis(on_redis, user_key(member.pk)) == member  # the copy with the old password
    response = here.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": "another-long-pass-77", "password2": "another-long-pass-77"},
    )
    assert response.status_code == 302
    assert is_logged_in(here)
    assert not is_logged_in(elsewhere)


def test_a_deactivated_account_is_logged_out_at_once(on_redis, member):
    client = logged_in(member, on_redis)
    member.is_active = False
    member.save()
    assert not is_logged_in(client)


def test_a_changed_language_shows_at_once(on_redis, member):
    """services.set_language writes with update(), which sends no post_save: it drops the copy itself."""
    member.language = "en"
    member.save()
    client = logged_in(member, on_redis)
    client.post(reverse("set_language"), {"language": "ar", "next": reverse("profile")})
    client.cookies.pop("django_language", None)  # the person's language, not the cookie's
    assert client.get(reverse("profile")).context["user"].language == "ar"
    assert 'lang="ar"' in client.get(reverse("profile")).text


def test_with_redis_stopped_the_database_answers_and_nobody_is_logged_out(on_redis, member, caplog):
    client = logged_in(member, on_redis)
    on_redis.stop()
    start = time.monotonic()
    response = client.get(reverse("profile"))
    assert time.monotonic() - start < 3
    assert response.status_code == 200
    assert response.context["user"] == member
    assert "sessions and users are read from the database" in caplog.text
    assert client.post(reverse("account_logout")).status_code == 302
    assert not is_logged_in(client)


def test_with_redis_hung_the_database_answers_at_once_and_nobody_is_logged_out(on_redis, member, settings):
    import socket

    client = logged_in(member, on_redis)
    with socket.socket() as hung:  # takes connections and never answers
        hung.bind(("127.0.0.1", 0))
        hung.listen(16)
        caches_on_redis(settings, f"redis://127.0.0.1:{hung.getsockname()[1]}/0")
        start = time.monotonic()
        response = client.get(reverse("profile"))
        assert time.monotonic() - start < 2 * site_cache.SOCKET_TIMEOUT + 1
        assert response.status_code == 200
        assert response.context["user"] == member


def test_a_log_out_while_redis_hangs_leaves_no_live_copy_once_redis_is_back(on_redis, member):
    """A hung Redis keeps its data: the copy of a session logged out meanwhile is still there when it
    answers again. The process remembers the key and, first thing once Redis answers, makes it a
    tombstone, so the old cookie is a visitor's."""
    client = logged_in(member, on_redis)
    old = client.cookies["sessionid"].value
    redis.Redis.from_url(on_redis.url).client_pause(3000, all=True)  # hangs for 3 s
    paused = time.monotonic()
    assert client.post(reverse("account_logout")).status_code == 302
    time.sleep(max(0.0, 3.1 - (time.monotonic() - paused)))
    assert copy_in_redis(on_redis, SESSION_PREFIX + old)["_auth_user_id"] == str(member.pk)  # stale
    site_cache._down_until.clear()  # as if RETRY_AFTER had passed
    thief = Client()
    thief.cookies["sessionid"] = old
    assert not is_logged_in(thief)
    assert copy_in_redis(on_redis, SESSION_PREFIX + old) == site_cache.TOMBSTONE


def test_a_copy_read_before_a_change_cannot_be_stored_after_it(on_redis, member):
    """A request that read the user just before the password changed, and stores its copy just after,
    finds a tombstone: add() fails, and the next request reads the new password."""
    from django.core.cache import caches

    stale = type(member).objects.get(pk=member.pk)
    member.set_password("another-long-pass-77")
    member.save()
    assert caches["auth"].add(user_key(member.pk), stale) is False
    assert caches["auth"].get(user_key(member.pk)) is None


def test_a_session_read_just_before_its_log_out_is_not_cached_after_it(on_redis, member):
    """A request whose session missed the cache reads the row, the person logs out elsewhere at that
    moment, then the request caches what it read: with add(), over the tombstone, it cannot."""
    from handsite.sessions import SessionStore

    client = logged_in(member, on_redis)
    key = client.cookies["sessionid"].value
    redis.Redis.from_url(on_redis.url).delete(f"t:1:{SESSION_PREFIX}{key}")  # a miss

    class LogOutMeanwhile(SessionStore):
        __qualname__ = "SessionStore"  # the class name salts the stored sessions' signatures

        def _get_session_from_db(self):
            row = super()._get_session_from_db()
            assert client.post(reverse("account_logout")).status_code == 302
            return row

    assert LogOutMeanwhile(key).load()["_auth_user_id"] == str(member.pk)  # read before the log-out
    assert copy_in_redis(on_redis, SESSION_PREFIX + key) == site_cache.TOMBSTONE
    thief = Client()
    thief.cookies["sessionid"] = key
    assert not is_logged_in(thief)


def test_a_session_from_before_issue_17_stays_logged_in(on_redis, member):
    """Sessions written by Django's database engine, naming Django's or allauth's own backend: read
    from the database (then cached), and given the site's backend (handsite/backends.py) on their next
    request, so the deploy logs nobody out."""
    from django.contrib.sessions.backends.db import SessionStore as DatabaseSession

    for old_backend, new_backend in [
        ("allauth.account.auth_backends.AuthenticationBackend", "handsite.backends.AuthenticationBackend"),
        ("django.contrib.auth.backends.ModelBackend", "handsite.backends.ModelBackend"),
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
        client = Client()
        client.cookies["sessionid"] = session.session_key
        assert is_logged_in(client)
        assert client.session[BACKEND_SESSION_KEY] == new_backend
        assert DatabaseSession(session.session_key).load()[BACKEND_SESSION_KEY] == new_backend


SHOW = (
    "from django.conf import settings; print(settings.SESSION_ENGINE, settings.SESSION_CACHE_ALIAS,"
    " ','.join(f'{a}={c[\"BACKEND\"]}' for a, c in settings.CACHES.items()))"
)


def test_with_redis_url_sessions_and_users_are_read_from_redis(tmp_path):
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
        "auth",
        "default=handsite.cache.FailOpenRedisCache,auth=handsite.cache.RedisCopyCache",
    ]


def test_without_redis_sessions_stay_in_the_database_and_users_are_read_from_it(tmp_path):
    """Each process has its own local cache then: a copy there would keep a logged-out session alive
    in the other processes."""
    result = run_manage("shell", "-v", "0", "-c", SHOW, env={"HANDSITE_VAR_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.contrib.sessions.backends.db",
        "default",
        "default=django.core.cache.backends.locmem.LocMemCache",
    ]


def test_sites_sharing_a_redis_database_never_read_each_others_sessions_or_users(tmp_path):
    """Users are cached by id: the "auth" cache's keys are named after the database (say, a staging
    site, or a bench's throwaway database, on the production Redis)."""
    show = "from django.conf import settings; print(settings.CACHES['auth']['KEY_PREFIX'])"
    prefixes = set()
    for database in ("sqlite:///one.sqlite3", "sqlite:///two.sqlite3"):
        env = {"HANDSITE_VAR_DIR": str(tmp_path), "REDIS_URL": "redis://h:6379/3", "DATABASE_URL": database}
        result = run_manage("shell", "-v", "0", "-c", show, env=env)
        assert result.returncode == 0, result.stderr
        prefixes.add(result.stdout.strip())
    assert len(prefixes) == 2


def redis_calls(server) -> dict[str, int]:
    stats = redis.Redis.from_url(server.url).info("commandstats")
    return {name.removeprefix("cmdstat_"): value["calls"] for name, value in stats.items()}


def test_a_session_seen_before_is_read_with_its_user_in_one_round_trip(on_redis, member):
    """handsite/sessions.py: the process remembers whose each session is, and reads the session and the
    copy of that user with one MGET."""
    from handsite import sessions

    client = logged_in(member, on_redis)
    assert sessions._user_of[client.cookies["sessionid"].value] == str(member.pk)
    before = redis_calls(on_redis)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("profile"))
    after = redis_calls(on_redis)
    assert response.status_code == 200
    assert response.context["user"] == member
    assert after.get("mget", 0) - before.get("mget", 0) == 1
    assert after.get("get", 0) - before.get("get", 0) == 0
    sqls = [query["sql"] for query in queries.captured_queries]
    assert not [sql for sql in sqls if "django_session" in sql or 'FROM "handsite_user"' in sql], sqls


def test_a_session_not_seen_before_reads_itself_then_its_user_and_is_remembered(on_redis, member):
    """Another process's session (or after a restart): two reads, as before; the next request, one."""
    from handsite import sessions

    client = logged_in(member, on_redis)
    sessions._user_of.clear()
    before = redis_calls(on_redis)
    assert is_logged_in(client)
    after = redis_calls(on_redis)
    assert after.get("get", 0) - before.get("get", 0) == 2
    assert after.get("mget", 0) - before.get("mget", 0) == 0
    assert sessions._user_of[client.cookies["sessionid"].value] == str(member.pk)


def test_a_wrong_guess_of_the_sessions_user_reads_the_right_user(on_redis, member, outsider):
    """The copy read with the session serves only the user the session names."""
    from handsite import sessions

    client = logged_in(member, on_redis)
    logged_in(outsider, on_redis)  # its copy is in Redis too
    sessions._user_of[client.cookies["sessionid"].value] = str(outsider.pk)
    response = client.get(reverse("profile"))
    assert response.status_code == 200
    assert response.context["user"] == member
    assert sessions._user_of[client.cookies["sessionid"].value] == str(member.pk)


@pytest.mark.parametrize("change", ["password", "deactivated", "logged out elsewhere"])
def test_a_change_shows_at_once_when_the_session_and_its_user_are_read_together(on_redis, member, change):
    from django.contrib.sessions.models import Session

    from handsite import sessions

    client = logged_in(member, on_redis)
    key = client.cookies["sessionid"].value
    assert key in sessions._user_of  # the next request reads both with one MGET
    if change == "password":
        member.set_password("another-long-pass-77")
        member.save()
    elif change == "deactivated":
        member.is_active = False
        member.save()
    else:
        sessions.SessionStore(key).flush()  # as another process does: this one still knows the key
        assert not Session.objects.filter(session_key=key).exists()
        sessions._user_of[key] = str(member.pk)
    before = redis_calls(on_redis)
    assert not is_logged_in(client)
    assert redis_calls(on_redis).get("mget", 0) - before.get("mget", 0) == 1


def test_with_redis_stopped_a_session_read_with_its_user_comes_from_the_database(on_redis, member):
    from handsite import sessions

    client = logged_in(member, on_redis)
    assert client.cookies["sessionid"].value in sessions._user_of
    on_redis.stop()
    response = client.get(reverse("profile"))
    assert response.status_code == 200
    assert response.context["user"] == member


def test_the_user_read_with_the_session_answers_only_request_user(on_redis, member):
    """The copy is taken once, by the first look at ``request.user``; nothing else reads it later."""
    from handsite.sessions import SessionStore

    client = logged_in(member, on_redis)
    store = SessionStore(client.cookies["sessionid"].value)
    assert store.load()["_auth_user_id"] == str(member.pk)
    assert store.take_user_copy() == (str(member.pk), member)
    assert store.take_user_copy() is None
