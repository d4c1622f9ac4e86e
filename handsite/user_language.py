"""The person's language at each request, saved on them: the middleware that activates it, the footer's
language switch and the proposal at log-in. (What a language is and whose it is: :mod:`handsite.i18n`.)
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.views.i18n import set_language as django_set_language

from handsite.i18n import language_of, proposed_language, supported
from handsite.services import accounts


def remember_language(user, code: str) -> None:
    """Save ``code`` (any language tag, or empty) as the person's language: one of the site's, else the
    site's default."""
    accounts.set_language(user, supported(code) or settings.LANGUAGE_CODE)


class UserLanguageMiddleware:
    """Every page of a logged-in person in their own language. A person who has none yet gets the one
    their browser asks for, saved on their first visit.
    The language cookie is kept equal to it, so pages that do not look at the person (see
    ``language_from_cookie``) and pages after logging out are in it too.

    Goes after AuthenticationMiddleware (and so after LocaleMiddleware)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        code = getattr(request, "_user_language", None)
        stale = code and request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) != code
        if stale and settings.LANGUAGE_COOKIE_NAME not in response.cookies:  # a choice made now wins
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                code,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
            )
        return response

    def process_view(self, request, view_func, view_args, view_kwargs):
        if getattr(view_func, "language_from_cookie", False):
            return None
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            if not supported(user.language):
                remember_language(user, proposed_language(request))
            code = language_of(user)
            translation.activate(code)
            request.LANGUAGE_CODE = code
            request._user_language = code
        return None


def set_language(request):
    """Django's set_language (cookie, redirect to ``next``), plus: a logged-in person's choice becomes
    their language for pages and e-mails."""
    response = django_set_language(request)
    if request.method == "POST" and request.user.is_authenticated:
        remember_language(request.user, request.POST.get("language", ""))
    return response


def propose_at_login(sender, request, user, **kwargs):
    """user_logged_in: a person who has no language yet gets the one their browser asks for (once)."""
    if not supported(getattr(user, "language", "")):
        remember_language(user, proposed_language(request) if request is not None else "")
