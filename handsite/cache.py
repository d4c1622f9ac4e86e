"""The site's cache on Redis that keeps the site working when Redis is down or hangs.

allauth keeps its rate limits (log-in, sign-up, password reset) in the cache; with Django's plain
RedisCache a stopped or unreachable Redis made those pages hang and answer 500. :class:`FailOpenRedisCache`:

- talks to Redis with short socket timeouts and no sleeping retries (``OPTIONS`` may override them);
- when Redis does not answer, logs a warning and serves the call from a local in-process cache
  instead, and keeps doing so for :data:`RETRY_AFTER` seconds without touching Redis (so no request
  pays for a dead Redis more than once a while). Rate limits then hold per process: weaker than across
  the site, never switched off, and the site keeps working.

    CACHES = {"default": {"BACKEND": "handsite.cache.FailOpenRedisCache", "LOCATION": REDIS_URL}}
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError
from redis.retry import Retry

log = logging.getLogger(__name__)

RETRY_AFTER = 30.0
"""Seconds the local cache serves alone after Redis failed to answer."""

SOCKET_TIMEOUT = 0.5
"""Seconds to connect to Redis, and to wait for one answer (a cache call takes about a millisecond)."""

FAILURES = (RedisConnectionError, RedisTimeoutError, OSError)

_down_until: dict[str, float] = {}  # per LOCATION, shared by every thread of the process
_lock = threading.Lock()

METHODS = (
    "add",
    "get",
    "set",
    "touch",
    "delete",
    "get_many",
    "has_key",
    "incr",
    "set_many",
    "delete_many",
    "clear",
)


class FailOpenRedisCache(RedisCache):
    def __init__(self, server, params):
        params = {**params, "OPTIONS": {**params.get("OPTIONS", {})}}
        options = params["OPTIONS"]
        options.setdefault("socket_connect_timeout", SOCKET_TIMEOUT)
        options.setdefault("socket_timeout", SOCKET_TIMEOUT)
        options.setdefault("retry", Retry(NoBackoff(), 0))
        super().__init__(server, params)
        self._location = server if isinstance(server, str) else ",".join(server)
        local = {
            key: params[key] for key in ("TIMEOUT", "KEY_PREFIX", "VERSION", "KEY_FUNCTION") if key in params
        }
        self._local = LocMemCache(f"handsite-redis-fallback:{self._location}", local)

    @property
    def redis_down(self) -> bool:
        return time.monotonic() < _down_until.get(self._location, 0.0)

    def _failed(self, name: str, error: Exception) -> None:
        with _lock:
            first = not self.redis_down
            _down_until[self._location] = time.monotonic() + RETRY_AFTER
        if first:
            log.warning(
                "The Redis cache did not answer (%s in %s); using a local cache for %d s. Rate limits hold "
                "per process meanwhile.",
                type(error).__name__,
                name,
                RETRY_AFTER,
            )


def _fail_open(name: str):
    redis_method = getattr(RedisCache, name)
    local_method = getattr(LocMemCache, name)

    def method(self, *args, **kwargs):
        if not self.redis_down:
            try:
                return redis_method(self, *args, **kwargs)
            except FAILURES as error:
                self._failed(name, error)
        return local_method(self._local, *args, **kwargs)

    method.__name__ = name
    method.__doc__ = f"Redis's ``{name}``, or the local cache's while Redis does not answer."
    return method


for _name in METHODS:
    setattr(FailOpenRedisCache, _name, _fail_open(_name))
