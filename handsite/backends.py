"""The site's authentication backends: Django's and allauth's, reading the user of each request from
the ``auth`` cache (Redis, handsite/cache.py's RedisCopyCache) when there is one, instead of a query.

Django still checks the session against the user on every request (``get_session_auth_hash``, from the
password), and a copy never outlives a change of its row:

- every save or delete of a user drops the copy (``services.forget_user``, on the signals connected
  in apps.py), at once and again after the transaction commits; the dropped copy is a tombstone for
  ten seconds, so a request that read the row just before cannot put it back (copies are stored with
  ``add()``);
- code that changes users without ``save()`` calls ``services.forget_user`` (``set_language``);
  nothing else does: no ``update()``, ``bulk_update()`` or raw SQL on users in handsite, games, scoring,
  Django's auth or allauth (checked for issue 17). A new one must call it too;
- the key names the user model's columns and Django's version, so a deploy that changes them starts
  afresh; copies live at most ``COPY_SECONDS`` (10 minutes) whatever happens.

Without Redis (no ``auth`` cache) they are exactly Django's and allauth's.
"""

from __future__ import annotations

import contextvars
import functools
import hashlib

import django
from allauth.account import auth_backends as allauth_backends
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, backends, get_user_model
from django.core.cache import caches

CACHE = "auth"

RENAMED = {
    "django.contrib.auth.backends.ModelBackend": "handsite.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend": "handsite.backends.AuthenticationBackend",
}
"""The backends sessions named before these took over (issue 17), and their successors."""


def auth_cache():
    return caches[CACHE] if CACHE in settings.CACHES else None


@functools.cache
def _shape() -> str:
    columns = ",".join(field.attname for field in get_user_model()._meta.concrete_fields)
    return hashlib.sha256(f"{django.__version__}:{columns}".encode()).hexdigest()[:12]


def user_key(user_id) -> str:
    return f"user:{_shape()}:{user_id}"


def rename_old_backend(session) -> None:
    """A session from before these backends names its old one, no longer in AUTHENTICATION_BACKENDS
    (Django would read it as logged out): give it the successor (saved with the session, once)."""
    old = session.get(BACKEND_SESSION_KEY)
    if old in RENAMED:
        session[BACKEND_SESSION_KEY] = RENAMED[old]


_read_with_session = contextvars.ContextVar("handsite_user_read_with_session", default=None)


class read_with_session:
    """``with read_with_session(copy):`` while Django finds the user of the request's session, the
    backends take the user's copy from ``copy``, ``(user id, cached copy or None)`` as
    handsite/sessions.py read it in the session's round trip to Redis, instead of reading it again
    (only for that user id; None: read as usual)."""

    def __init__(self, copy):
        self.copy = copy

    def __enter__(self):
        self.token = _read_with_session.set(self.copy)

    def __exit__(self, *exc):
        _read_with_session.reset(self.token)


class CachedUser:
    """``get_user`` (the user of a session) from the cache; on a miss from the database, then cached."""

    def get_user(self, user_id):
        cache = auth_cache()
        if cache is None:
            return super().get_user(user_id)
        key = user_key(user_id)
        read = _read_with_session.get()  # (id, copy) read with the session; a None copy: a miss
        user = read[1] if read is not None and read[0] == str(user_id) else cache.get(key)
        if user is None:
            user = super().get_user(user_id)  # None for an inactive user: not cached
            if user is not None:
                cache.add(key, user, None)  # as long as the cache keeps copies
            return user
        return user if self.user_can_authenticate(user) else None


class ModelBackend(CachedUser, backends.ModelBackend):
    pass


class AuthenticationBackend(CachedUser, allauth_backends.AuthenticationBackend):
    pass
