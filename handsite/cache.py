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
- :class:`RedisCopyCache` (the ``auth`` cache): copies of database rows read on every request, the
  session and the user (handsite/sessions.py, handsite/backends.py). A copy must never outlive the
  change of its row, so it has no local fallback (a logged-out session would live on in the other
  processes' local copies): while Redis does not answer, reads miss (the database answers) and writes
  are dropped.

    CACHES = {
        "default": {"BACKEND": "handsite.cache.FailOpenRedisCache", "LOCATION": REDIS_URL},
        "auth": {"BACKEND": "handsite.cache.RedisCopyCache", "LOCATION": REDIS_URL},
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
    """Django's client, but one ``redis.Redis`` per connection pool instead of a new one per call
    (building it costs about 45 µs of CPU, the read itself 25 µs). ``redis.Redis`` is thread-safe."""

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


TOMBSTONE = "handsite.cache:gone"
"""What :meth:`RedisCopyCache.delete` leaves in place of a copy; read as a miss."""

TOMBSTONE_SECONDS = 10
"""How long a deleted copy stays a tombstone, which ``add()`` cannot overwrite: a request that read the
row just before it changed cannot put the old row back (it fills the cache with ``add()`` a moment
later; ten seconds is a stalled process, not a busy one). Meanwhile that row is read from the database."""

COPY_SECONDS = 600
"""The longest a copy lives, however long its row does (a session: two weeks). Bounds how long a copy
can outlive a change whose invalidation never reached Redis (see :class:`RedisCopyCache`)."""

_unreached: dict[str, set[str]] = {}  # per LOCATION: keys whose copies may be stale in Redis


class RedisCopyCache(_BoundedRedisCache):
    """Copies of database rows in Redis: ``get``, ``add`` (fill after a miss), ``set`` (write the row's
    new value), ``delete`` (the row changed or went) and their ``_many`` forms; nothing else.

    - A deleted copy becomes a tombstone for :data:`TOMBSTONE_SECONDS` (reads miss, ``add`` fails), so a
      reader racing with the change cannot store the row it read before the change.
    - While Redis does not answer: reads miss, writes are dropped, and every key written or deleted
      meanwhile is remembered; the first call that reaches Redis again first turns those into
      tombstones, as a copy there may predate the change (a hung Redis keeps its data). A process that
      exits before Redis is back forgets them; :data:`COPY_SECONDS` bounds how long such a copy lives.
    """

    DOWN_MESSAGE = (
        "The Redis cache did not answer (%s in %s); sessions and users are read from the database for %d s."
    )

    def get_backend_timeout(self, timeout=DEFAULT_TIMEOUT):
        timeout = super().get_backend_timeout(timeout)
        return COPY_SECONDS if timeout is None else min(timeout, COPY_SECONDS)

    def _call(self, name: str, call, *, otherwise, touches=()):
        """``call()`` on Redis, or ``otherwise`` when Redis is down or fails (then the copies under
        ``touches`` are remembered as possibly stale)."""
        if not self.redis_down:
            try:
                self._bury_unreached()
                return call()
            except FAILURES as error:
                self._failed(name, error)
        if touches:
            self._remember(touches)
        return otherwise

    def _remember(self, keys) -> None:
        with _lock:
            _unreached[self._location] = _unreached.get(self._location, set()) | set(keys)

    def _bury(self, keys) -> None:
        pipeline = self._cache.get_client(write=True).pipeline(transaction=False)
        for key in keys:
            pipeline.set(key, self._cache._serializer.dumps(TOMBSTONE), ex=TOMBSTONE_SECONDS)
        pipeline.execute()

    def _bury_unreached(self) -> None:
        if not _unreached.get(self._location):
            return
        with _lock:
            keys = _unreached.pop(self._location, set())
        try:
            self._bury(keys)
        except FAILURES:
            self._remember(keys)
            raise

    @staticmethod
    def _live(value):
        return None if isinstance(value, str) and value == TOMBSTONE else value

    def get(self, key, default=None, version=None):
        key = self.make_and_validate_key(key, version=version)
        value = self._live(self._call("get", lambda: self._cache.get(key, None), otherwise=None))
        return default if value is None else value

    def get_many(self, keys, version=None):
        found = self._call("get_many", lambda: RedisCache.get_many(self, keys, version=version), otherwise={})
        return {key: value for key, value in found.items() if self._live(value) is not None}

    def has_key(self, key, version=None):
        return self.get(key, version=version) is not None

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        timeout = self.get_backend_timeout(timeout)
        return self._call(
            "add", lambda: self._cache.add(key, value, timeout), otherwise=False, touches=(key,)
        )

    def set(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        key = self.make_and_validate_key(key, version=version)
        timeout = self.get_backend_timeout(timeout)
        self._call("set", lambda: self._cache.set(key, value, timeout), otherwise=None, touches=(key,))

    def delete(self, key, version=None):
        self.delete_many([key], version=version)
        return True

    def delete_many(self, keys, version=None):
        keys = [self.make_and_validate_key(key, version=version) for key in keys]
        if keys:
            self._call("delete", lambda: self._bury(keys), otherwise=None, touches=keys)

    def set_many(self, data, timeout=DEFAULT_TIMEOUT, version=None):
        for key, value in data.items():
            self.set(key, value, timeout, version=version)
        return []

    def _unsupported(self, *args, **kwargs):
        raise NotImplementedError("RedisCopyCache keeps copies of rows: get, add, set and delete only")

    touch = incr = decr = clear = _unsupported
