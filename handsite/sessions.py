"""The session engine with Redis (settings: ``SESSION_ENGINE`` when ``REDIS_URL`` is set): Django's
``cached_db`` (each request's session read from the ``sessions`` cache, written through to the
database, which stays the record), with a log-out that holds in every process:

- A session is deleted from the cache first, and only once Redis confirmed it from the database (then
  from the cache again, for a request that read the row in between). When Redis does not answer
  (stopped or hung), the deletion raises :class:`handsite.cache.SessionCacheUnreachable` and changes
  nothing: the person is told the log-out did not happen (handsite/middleware.py) instead of keeping
  a copy in Redis that every process would read again once Redis answers.
- A visitor's session whose key is cycled at log-in authenticates nobody: its copy is dropped when
  Redis answers, and the log-in goes on when it does not.

Without Redis the site keeps Django's plain database sessions: a per-process cache would keep a
logged-out session alive in the other processes."""

from __future__ import annotations

import contextlib

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends import cached_db
from django.contrib.sessions.backends.db import SessionStore as DBStore

from handsite.cache import SessionCacheUnreachable


class SessionStore(cached_db.SessionStore):
    # Named SessionStore like Django's: the class name salts the signature of every stored session, so
    # the sessions of Django's own engines stay readable.

    def delete(self, session_key=None):
        session_key = session_key or self.session_key
        if session_key is None:
            return
        cache_key = self.cache_key_prefix + session_key
        self._cache.delete(cache_key)  # raises while Redis does not answer: nothing changed
        DBStore.delete(self, session_key)
        self._cache.delete(cache_key)

    def flush(self):
        # Django's clears the data first: a refused deletion would then send the browser a cookie-less
        # answer while the session lives on. Here the session is deleted first, then forgotten.
        self.delete(self.session_key)
        self.clear()
        self._session_key = None

    def cycle_key(self):
        if SESSION_KEY in self._session:  # a logged-in session: its old copy must go (delete())
            super().cycle_key()
            return
        data, old = self._session, self.session_key
        self.create()
        self._session_cache = data
        if old:
            DBStore.delete(self, old)
            # a visitor's data, read by nobody once the new key is in the cookie
            with contextlib.suppress(SessionCacheUnreachable):
                self._cache.delete(self.cache_key_prefix + old)
