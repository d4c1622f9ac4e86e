"""The site's caches on Redis, which keep the site working when Redis is down or hangs.

Both talk to Redis with short socket timeouts and no sleeping retries (``OPTIONS`` may override them),
reuse one Redis client per connection pool (Django's makes one per call: a third of a cache read's
CPU), and after Redis failed to answer leave it alone for :data:`RETRY_AFTER` seconds (so no request
pays for a dead Redis more than once a while; the state is shared by every cache on one LOCATION).

- :class:`FailOpenRedisCache` (the ``default`` cache): allauth keeps its rate limits (log-in, sign-up,
  password reset) in it; with Django's plain RedisCache a stopped or unreachable Redis made those pages
  hang and answer 500. While Redis does not answer it logs a warning and serves the call from a local
  in-process cache instead. Rate limits then hold per process: weaker than across the site, never
  switched off, and the site keeps working.
- :class:`SessionCache` (the ``sessions`` cache): the copies of Django's ``cached_db`` sessions. It
  has no local fallback (a logged-out session would live on in the other processes' local copies):
  while Redis does not answer, reads miss (the database answers) and writes are dropped, and a delete
  that Redis does not confirm raises (handsite/sessions.py then refuses the log-out).

    CACHES = {
        "default": {"BACKEND": "handsite.cache.FailOpenRedisCache", "LOCATION": REDIS_URL},
        "sessions": {"BACKEND": "handsite.cache.SessionCache", "LOCATION": REDIS_URL},
    }
"""

from __future__ import annotations

import logging
import threading
import time

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
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


class _ReusedClient(RedisCacheClient):
    """Django's client, but one ``redis.Redis`` kept per connection pool (Django's builds one at every
    call, which costs more CPU than the read itself). ``redis.Redis`` is thread-safe."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class _BoundedRedisCache(RedisCache):
    """RedisCache with short timeouts and the shared "Redis is down" state of its LOCATION."""

    DOWN_MESSAGE = "The Redis cache did not answer (%s in %s); Redis is left alone for %d s."

    def __init__(self, server, params):
        params = {**params, "OPTIONS": {**params.get("OPTIONS", {})}}
        options = params["OPTIONS"]
        options.setdefault("socket_connect_timeout", SOCKET_TIMEOUT)
        options.setdefault("socket_timeout", SOCKET_TIMEOUT)
        options.setdefault("retry", Retry(NoBackoff(), 0))
        super().__init__(server, params)
        self._class = _ReusedClient
        self._location = server if isinstance(server, str) else ",".join(server)

    @property
    def redis_down(self) -> bool:
        return time.monotonic() < _down_until.get(self._location, 0.0)

    def _failed(self, name: str, error: Exception) -> None:
        with _lock:
            first = not self.redis_down
            _down_until[self._location] = time.monotonic() + RETRY_AFTER
        if first:
            log.warning(self.DOWN_MESSAGE, type(error).__name__, name, RETRY_AFTER)


class FailOpenRedisCache(_BoundedRedisCache):
    DOWN_MESSAGE = (
        "The Redis cache did not answer (%s in %s); using a local cache for %d s. Rate limits hold "
        "per process meanwhile."
    )

    def __init__(self, server, params):
        super().__init__(server, params)
        local = {
            key: params[key] for key in ("TIMEOUT", "KEY_PREFIX", "VERSION", "KEY_FUNCTION") if key in params
        }
        self._local = LocMemCache(f"handsite-redis-fallback:{self._location}", local)


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


class SessionCacheUnreachable(Exception):
    """A session's cached copy could not be deleted: Redis did not answer."""


class SessionCache(_BoundedRedisCache):
    """The cache of Django's ``cached_db`` sessions (handsite/sessions.py): ``get``, ``set``, ``add``,
    ``delete`` and their ``_many`` forms, nothing else.

    - While Redis does not answer, reads miss (the database answers) and ``set`` / ``add`` are dropped.
    - ``delete`` always asks Redis, even while it is known to be down, and raises
      :class:`SessionCacheUnreachable` when Redis does not confirm it: a copy that may still be in
      Redis must not be taken for deleted (a hung Redis keeps its data, and every process would read
      the logged-out session again once Redis answers).
    """

    DOWN_MESSAGE = "The Redis cache did not answer (%s in %s); sessions are read from the database for %d s."

    def _call(self, name: str, call, *, otherwise):
        """``call()`` on Redis, or ``otherwise`` when Redis is down or fails."""
        if not self.redis_down:
            try:
                return call()
            except FAILURES as error:
                self._failed(name, error)
        return otherwise

    def get(self, key, default=None, version=None):
        return self._call("get", lambda: RedisCache.get(self, key, default, version), otherwise=default)

    def get_many(self, keys, version=None):
        return self._call("get_many", lambda: RedisCache.get_many(self, keys, version), otherwise={})

    def has_key(self, key, version=None):
        return self._call("has_key", lambda: RedisCache.has_key(self, key, version), otherwise=False)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("add", lambda: RedisCache.add(self, key, value, timeout, version), otherwise=False)

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        self._call("set", lambda: RedisCache.set(self, key, value, timeout, version), otherwise=None)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        return self._call("set_many", lambda: RedisCache.set_many(self, data, timeout, version), otherwise=[])

    def delete(self, key, version=None):
        self.delete_many([key], version=version)
        return True

    def delete_many(self, keys, version=None):
        try:
            RedisCache.delete_many(self, keys, version)
        except FAILURES as error:
            self._failed("delete", error)
            raise SessionCacheUnreachable(str(error)) from error

    def _unsupported(self, *args, **kwargs):
        raise NotImplementedError("SessionCache: get, add, set and delete only")

    touch = incr = decr = clear = _unsupported
