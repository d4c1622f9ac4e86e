"""Each person's language: stored on the user, proposed from the browser, used for every page they see
and every e-mail they receive (whoever's action sent it).

- ``language_of(user)``: the language to render anything for that person in (e-mails:
  ``with translation.override(language_of(user)): ...``).
- ``language_for_address(email)``: the language of an e-mail to an address.

Reads only: handsite.models imports this module. The request side (the middleware, the footer's switch,
the proposal at log-in), which saves a person's language, is :mod:`handsite.user_language`.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import translation

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
    owner = get_user_model().objects.filter(email__iexact=email).only("language").first()
    if owner is not None and owner.language:
        return language_of(owner)
    return language_of(fallback_user)


def proposed_language(request) -> str:
    """What the browser asks for (language cookie, then Accept-Language), as one of the site's."""
    return supported(translation.get_language_from_request(request)) or settings.LANGUAGE_CODE


def language_from_cookie(view):
    """Marks a view that must not read the session or the user before it answers (the play page's
    one-query poll): its pages use the language cookie, which the middleware keeps equal to the
    person's language."""
    view.language_from_cookie = True
    return view


def forget_request_language(**kwargs):
    """At the end of each request (request_finished): the thread goes back to the site's language, so
    a person's Arabic (set by LocaleMiddleware or UserLanguageMiddleware) never leaks into whatever the
    thread does next."""
    translation.deactivate()
