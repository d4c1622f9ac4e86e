"""Site-wide middleware."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY
from django.contrib.auth import middleware as auth_middleware
from django.shortcuts import render, resolve_url
from django.utils import timezone
from django.utils.functional import SimpleLazyObject
from django_htmx.http import HttpResponseClientRedirect

from handsite.cache import SessionCacheUnreachable

RENAMED = {
    "handsite.backends.ModelBackend": "django.contrib.auth.backends.ModelBackend",
    "handsite.backends.AuthenticationBackend": "allauth.account.auth_backends.AuthenticationBackend",
}
"""Backends that sessions may name which the site no longer has, and the ones that replace them."""


def rename_old_backend(session) -> None:
    """A session naming a backend the site no longer has would read as logged out: it is given the
    backend that replaced it (saved with the session, once)."""
    old = session.get(BACKEND_SESSION_KEY)
    if old in RENAMED:
        session[BACKEND_SESSION_KEY] = RENAMED[old]


class AuthenticationMiddleware(auth_middleware.AuthenticationMiddleware):
    """Django's, plus: a session naming a backend the site no longer has (:data:`RENAMED`) is given its
    successor, so the deploy that removed it logged nobody out. Like
    Django's, it reads the session only when something asks for ``request.user`` (the poll does not);
    once read, ``request.user`` is the user itself, not the lazy object that read it (a move reads it
    some thirty times, each through the lazy object's proxy otherwise)."""

    def process_request(self, request):
        super().process_request(request)

        def read():
            user = _user(request)
            if request.__dict__.get("user") is lazy:  # not replaced meanwhile (log-in, log-out)
                request.user = user
            return user

        lazy = request.user = SimpleLazyObject(read)


def _user(request):
    if hasattr(request, "_cached_user"):
        return request._cached_user
    rename_old_backend(request.session)
    return auth_middleware.get_user(request)


class SessionCacheUnreachableMiddleware:
    """A log-out (or another deletion of a session) that Redis did not confirm changed nothing
    (handsite/sessions.py): the person is told so, and is still logged in, instead of a 500."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if isinstance(exception, SessionCacheUnreachable):
            return render(request, "handsite/session_unreachable.html", status=503)
        return None


class HtmxLoginRedirectMiddleware:
    """An HTMX request whose session has expired would be redirected to the log-in page, and htmx
    would follow that redirect and swap the whole log-in page into a small target (a button, a list).
    Instead the browser is told to go to the log-in page itself (`HX-Redirect`), with `next` set to the
    page the person was on (`HX-Current-URL`), so they come back to it after logging in.

    Goes after django_htmx's HtmxMiddleware (it reads `request.htmx`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        htmx = getattr(request, "htmx", None)
        if not htmx or response.status_code not in (301, 302, 303, 307, 308):
            return response
        login_path = urlsplit(resolve_url(settings.LOGIN_URL)).path
        if urlsplit(response.get("Location", "")).path != login_path:
            return response
        # The page the person is looking at (same origin only); else the page the request came from.
        next_url = htmx.current_url_abs_path or request.get_full_path()
        return HttpResponseClientRedirect(f"{login_path}?{urlencode({'next': next_url})}")


TIME_ZONE_COOKIE = "handsite_tz"


def activate_zone(name: str) -> None:
    from handsite import notification_prefs

    if name in notification_prefs.time_zone_names():
        timezone.activate(notification_prefs.zone_named(name))
    else:
        timezone.deactivate()


class ReaderTimeZoneMiddleware:
    """Pages show times in the reader's zone: the zone of their settings. A full page (a GET that is
    not htmx) of a signed-in person reads it from the settings (one small query), so a change made on
    one device shows on every other at its next page; the zone's cookie carries it to the moves, polls
    and fragments, which cost no query for it. The cookie is (re)set when the settings are saved and
    whenever a full page finds it differs from them. Before log-in the browser's own zone (site.js
    writes the cookie from the Intl API)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = request.COOKIES.get(TIME_ZONE_COOKIE, "")
        activate_zone(name)
        response = self.get_response(request)
        wanted = getattr(request, "reader_time_zone", None) or getattr(request, "_settings_zone", None)
        if wanted and wanted != name:
            response.set_cookie(TIME_ZONE_COOKIE, wanted, max_age=60 * 60 * 24 * 365, samesite="Lax")
        timezone.deactivate()
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        """A view that reads neither the session nor the user (``language_from_cookie``: health
        check, poll) keeps the cookie's zone; any other full page shows the settings' zone."""
        if getattr(view_func, "language_from_cookie", False):
            return None
        request._settings_zone = self.settings_zone(request)
        if request._settings_zone:
            activate_zone(request._settings_zone)
        return None

    @staticmethod
    def settings_zone(request) -> str | None:
        """The zone of the signed-in person's settings, read on full pages only (a GET without
        ``HX-Request`` from a browser holding a session): moves, polls and fragments keep the cookie's."""
        from handsite import notification_prefs

        if request.method != "GET" or request.headers.get("HX-Request"):
            return None
        if settings.SESSION_COOKIE_NAME not in request.COOKIES:
            return None  # nobody signed in: no session to read
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return None
        return notification_prefs.preference_of(user.pk).time_zone


PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=()"
"""Powerful features the site never uses, switched off for it and anything it could ever embed."""


class PermissionsPolicyMiddleware:
    """Adds ``Permissions-Policy`` (camera, microphone and geolocation off) to every response. The
    Content-Security-Policy comes from Django's own middleware and SECURE_CSP."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        return response
