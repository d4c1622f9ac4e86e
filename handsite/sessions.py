"""The session engine with Redis (settings: ``SESSION_ENGINE`` when ``REDIS_URL`` is set): Django's
``cached_db``, reading each request's session from the ``auth`` cache (handsite/cache.py's
RedisCopyCache) and writing through to the database, which stays the record (sessions from before,
or from while Redis was down, are read from it and cached).

Two changes to Django's:

- A session read from the database after a miss is cached with ``add()``, not ``set()``. The copy of a
  session deleted meanwhile (logged out, key cycled at log-in) is a tombstone that ``add()`` cannot
  overwrite, so a request that read the row just before cannot bring it back.
- The session and the copy of its user (handsite/backends.py) are read in one round trip to Redis
  (MGET) when the process has seen the session before: it remembers which user each session key it
  read or wrote belongs to (a key belongs to one user for its whole life: Django gives a session a new
  key at log-in and at log-out). The copy read with the session is the one a read just after it would
  get, with the same rules (a tombstone or a miss sends the read to the database); it is used only for
  the user the session names (a wrong guess costs the second round trip of before), and only to answer
  ``request.user`` (handsite/middleware.py).

Without Redis the site keeps Django's plain database sessions: a per-process cache would keep a
logged-out session alive in the other processes."""

from __future__ import annotations

import contextlib
import threading

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import cached_db

from handsite import backends

KNOWN_SESSIONS = 20_000
"""How many session keys a process remembers the user of (the oldest is forgotten first)."""

_user_of: dict[str, str] = {}  # session key -> id of the user it names, as the session stores it
_forget_lock = threading.Lock()


def _learn(session_key: str | None, data) -> None:
    user_id = data.get(SESSION_KEY) if session_key else None
    if not isinstance(user_id, str):
        if session_key:
            _user_of.pop(session_key, None)
        return
    if _user_of.get(session_key) == user_id:
        return
    if len(_user_of) >= KNOWN_SESSIONS:
        # another thread may forget one meanwhile
        with _forget_lock, contextlib.suppress(KeyError, RuntimeError, StopIteration):
            del _user_of[next(iter(_user_of))]
    _user_of[session_key] = user_id


class SessionStore(cached_db.SessionStore):
    # Named SessionStore like Django's: the class name salts the signature of every stored session, so
    # the sessions of Django's database engine (before issue 17) stay readable.

    user_copy = None
    """``(user id, the user's cached copy or None)`` read with the session, until taken."""

    def take_user_copy(self):
        """What :meth:`load` read of the session's user (see above), once; None when it read nothing."""
        copy, self.user_copy = self.user_copy, None
        return copy

    def load(self):
        session_key = self.session_key
        key = self.cache_key
        guess = _user_of.get(session_key)
        if guess is not None and settings.SESSION_CACHE_ALIAS == backends.CACHE:
            user_key = backends.user_key(guess)
            found = self._cache.get_many([key, user_key])  # RedisCopyCache: {} while Redis is down
            data = found.get(key)
            self.user_copy = (guess, found.get(user_key))
        else:
            data = self._cache.get(key)  # RedisCopyCache: a miss while Redis is down
        if data is None:
            row = self._get_session_from_db()
            if row is None:
                data = {}
            else:
                data = self.decode(row.session_data)
                self._cache.add(key, data, self.get_expiry_age(expiry=row.expire_date))
        _learn(session_key, data)
        return data

    async def aload(self):
        data = await self._cache.aget(await self.acache_key())
        if data is not None:
            return data
        row = await self._aget_session_from_db()
        if row is None:
            return {}
        data = self.decode(row.session_data)
        expiry_age = await self.aget_expiry_age(expiry=row.expire_date)
        await self._cache.aadd(await self.acache_key(), data, expiry_age)
        return data

    def save(self, must_create=False):
        super().save(must_create)
        _learn(self.session_key, self._session)

    def delete(self, session_key=None):
        gone = session_key or self.session_key
        if gone:
            _user_of.pop(gone, None)
        self.user_copy = None
        super().delete(session_key)
