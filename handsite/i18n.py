"""Each person's language: stored on the user, proposed from the browser, used for every page they see
and every e-mail they receive (whoever's action sent it).

- ``language_of(user)``: the language to render anything for that person in (e-mails:
  ``with translation.override(language_of(user)): ...``).
- ``UserLanguageMiddleware``: activates a logged-in person's language for the request (after
  LocaleMiddleware, which handles the logged-out pages from the cookie and Accept-Language).
- ``set_language``: the footer's language switch; a logged-in person's choice is saved on them too.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.views.i18n import set_language as django_set_language

LANGUAGE_CHOICES = [("ar", "العربية"), ("en", "English")]
"""What a person may choose; each language named in itself (a reader of only one of them finds it)."""

CODES = frozenset(code for code, _name in LANGUAGE_CHOICES)


def supported(code: str | None) -> str | None:
    """``code`` ("ar", "ar-JO", "en-us") as one of the site's languages, or None."""
    if not code:
        return None
    try:
        found = translation.get_supported_language_variant(code)
    except LookupError:
        return None
    return found if found in CODES else None


def language_of(user) -> str:
    """The language to write to ``user`` in: theirs, else the site's default."""
    return supported(getattr(user, "language", "")) or settings.LANGUAGE_CODE


def language_for_address(email: str, fallback_user=None) -> str:
    """The language of an e-mail to ``email``: its owner's if they have an account, else the language
    of ``fallback_user`` (say, who sent an invitation to a friend who has none yet)."""
    from handsite.models import User

    owner = User.objects.filter(email__iexact=email).only("language").first()
    if owner is not None and owner.language:
        return language_of(owner)
    return language_of(fallback_user)


def proposed_language(request) -> str:
    """What the browser asks for (language cookie, then Accept-Language), as one of the site's."""
    return supported(translation.get_language_from_request(request)) or settings.LANGUAGE_CODE


def remember_language(user, code: str) -> None:
    from handsite import services  # services imports this module

    services.set_language(user, supported(code) or settings.LANGUAGE_CODE)


def language_from_cookie(view):
    """Marks a view that must not read the session or the user before it answers (the play page's
    one-query poll): its pages use the language cookie, which the middleware keeps equal to the
    person's language."""
    view.language_from_cookie = True
    return view


class UserLanguageMiddleware:
    """Every page of a logged-in person in their own language. A person who has none yet (an account
    from before languages were stored) gets the one their browser asks for, saved on their first visit.
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


def forget_request_language(**kwargs):
    """At the end of each request (request_finished): the thread goes back to the site's language, so
    a person's Arabic (set by LocaleMiddleware or UserLanguageMiddleware) never leaks into whatever the
    thread does next."""
    translation.deactivate()
