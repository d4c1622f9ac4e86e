"""Site-wide middleware."""

from __future__ import annotations

from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.shortcuts import resolve_url
from django_htmx.http import HttpResponseClientRedirect


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
