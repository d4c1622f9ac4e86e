"""The session engine with Redis (settings: ``SESSION_ENGINE`` when ``REDIS_URL`` is set): Django's
``cached_db``, reading each request's session from the ``auth`` cache (handsite/cache.py's
RedisCopyCache) and writing through to the database, which stays the record (sessions from before,
or from while Redis was down, are read from it and cached).

One change to Django's: a session read from the database after a miss is cached with ``add()``, not
``set()``. The copy of a session deleted meanwhile (logged out, key cycled at log-in) is a tombstone
that ``add()`` cannot overwrite, so a request that read the row just before cannot bring it back.

Without Redis the site keeps Django's plain database sessions: a per-process cache would keep a
logged-out session alive in the other processes."""

from __future__ import annotations

from django.contrib.sessions.backends import cached_db


class SessionStore(cached_db.SessionStore):
    # Named SessionStore like Django's: the class name salts the signature of every stored session, so
    # the sessions of Django's database engine (before issue 17) stay readable.
    def load(self):
        data = self._cache.get(self.cache_key)  # RedisCopyCache: a miss while Redis is down
        if data is not None:
            return data
        row = self._get_session_from_db()
        if row is None:
            return {}
        data = self.decode(row.session_data)
        self._cache.add(self.cache_key, data, self.get_expiry_age(expiry=row.expire_date))
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
