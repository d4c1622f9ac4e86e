"""With Redis stopped, or hung (it takes connections and never answers), log-in, sign-up and password reset
answer at once and work: the cache that keeps allauth's rate limits (handsite/cache.py) logs a warning and
falls back to a local cache, whose rate limits still hold. With Redis back, Redis serves again."""

from __future__ import annotations

import socket
import time

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from handsite import cache as site_cache
from handsite.models import User
from tests.celery.conftest import OwnRedis
from tests.factories import PASSWORD
from tests.notifications.conftest import make_game, play_one_turn, player_to_move  # noqa: F401 (fixtures)
from tests.support import caches_on_redis

pytestmark = pytest.mark.django_db

FAST = 3.0  # seconds: an answer, not a hang (the bug took 10-24 s)


@pytest.fixture
def stopped_redis():
    server = OwnRedis()
    server.start()
    server.stop()
    return server


@pytest.fixture
def hung_redis():
    """A TCP server that accepts connections and never answers: a hung or overloaded Redis."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(64)
        yield f"redis://127.0.0.1:{sock.getsockname()[1]}/0"


def _use_redis_cache(settings, url):
    caches_on_redis(settings, url)


@pytest.fixture(params=["stopped", "hung"])
def redis_down(request, settings):
    url = request.getfixturevalue("stopped_redis").url if request.param == "stopped" else None
    url = url or request.getfixturevalue("hung_redis")
    _use_redis_cache(settings, url)
    yield url
    site_cache._down_until.clear()


def _timed(call):
    start = time.monotonic()
    response = call()
    return response, time.monotonic() - start


def test_log_in_works_at_once(redis_down, member, caplog):
    client = Client(raise_request_exception=False)
    response, seconds = _timed(
        lambda: client.post(reverse("account_login"), {"login": member.email, "password": PASSWORD})
    )
    assert response.status_code == 302
    assert seconds < FAST
    assert client.get(reverse("profile")).status_code == 200
    # (logged once, maybe already while the fixtures made the member: saving a user drops its copy)
    logged = [record.getMessage() for phase in ("setup", "call") for record in caplog.get_records(phase)]
    assert any("The Redis cache did not answer" in message for message in logged)


def test_sign_up_works_at_once(redis_down):
    client = Client(raise_request_exception=False)
    data = {"email": "nour@example.com", "display_name": "Nour", "password1": PASSWORD, "password2": PASSWORD}
    response, seconds = _timed(lambda: client.post(reverse("account_signup"), data))
    assert response.status_code == 302
    assert seconds < FAST
    assert User.objects.filter(email="nour@example.com").exists()


def test_password_reset_works_at_once(redis_down, member, django_capture_on_commit_callbacks):
    client = Client(raise_request_exception=False)
    with django_capture_on_commit_callbacks(execute=True):  # the outbox sends once the request commits
        response, seconds = _timed(
            lambda: client.post(reverse("account_reset_password"), {"email": member.email})
        )
    assert response.status_code == 302
    assert seconds < FAST
    assert len(mail.outbox) == 1


def test_rate_limits_still_hold_on_the_local_cache(redis_down, member):
    client = Client(raise_request_exception=False)
    url = reverse("account_login")
    wrong = [client.post(url, {"login": member.email, "password": "wrong-password"}) for _ in range(12)]
    page = wrong[-1].content.decode()
    assert wrong[-1].status_code in (200, 429)
    assert "Too many failed login attempts" in page


def test_only_the_first_failure_waits_for_redis(hung_redis, settings):
    _use_redis_cache(settings, hung_redis)
    (_, first) = _timed(lambda: cache.get("k"))
    (_, then) = _timed(lambda: [cache.set("k", i) for i in range(50)])
    assert first < 2 * site_cache.SOCKET_TIMEOUT + 0.5
    assert then < 0.5  # served locally without touching Redis again
    assert cache.get("k") == 49


def test_redis_serves_again_once_it_is_back(settings, monkeypatch):
    server = OwnRedis()
    server.start()
    try:
        _use_redis_cache(settings, server.url)
        cache.set("k", "on redis")
        server.stop()
        assert cache.get("k") is None  # Redis is gone: the local cache has nothing yet
        cache.set("k", "local")
        server.start()
        assert cache.get("k") == "local"  # still local until RETRY_AFTER has passed
        site_cache._down_until.clear()  # (as if it had)
        assert cache.get("k") is None  # a fresh redis-server: empty, and answering
        cache.set("k", "on redis again")
        assert cache.get("k") == "on redis again"
    finally:
        server.stop()
        site_cache._down_until.clear()


@pytest.mark.django_db(transaction=True)
def test_a_move_is_saved_at_once_while_the_broker_hangs(hung_redis, make_game, settings):  # noqa: F811
    from tests.celery.conftest import celery_app_on

    _use_redis_cache(settings, hung_redis)
    game = make_game()
    with celery_app_on(hung_redis) as app:
        app.conf.broker_transport_options = settings.REDIS_SOCKET_OPTIONS
        start = time.monotonic()
        mover = play_one_turn(game)  # the turn passes: a "your turn" task is queued after the commit
        seconds = time.monotonic() - start
    game.refresh_from_db()
    assert player_to_move(game) != mover
    assert seconds < 3 * FAST  # the publish gives up (socket timeouts, one retry); it hung for minutes before
