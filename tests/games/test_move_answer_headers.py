"""The headers and cookies of a move's answer (an htmx POST by a logged-in player, the CSRF token in its
header as the play page sends it), of the play page and of the logged-out welcome page, exactly: the
middleware that adds them (handsite/settings.py MIDDLEWARE) may change for speed, never what it sends.
Also with the production settings (DEBUG=0: HSTS, secure cookies)."""

import pytest
from django.test import Client
from django.urls import reverse

from games import engine, moves

TOKEN = "headercsrftoken0123456789abcdefg"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


def _expected(vary: str, production: bool) -> list[tuple[str, str]]:
    return [
        ("Content-Type", "text/html; charset=utf-8"),
        ("X-Frame-Options", "DENY"),
        ("Vary", vary),
        ("Content-Language", "en"),
        ("Permissions-Policy", "camera=(), microphone=(), geolocation=()"),
        ("Content-Security-Policy", CSP),
        *(
            [("Strict-Transport-Security", "max-age=31536000; includeSubDomains; preload")]
            if production
            else []
        ),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "same-origin"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
    ]


def _cookies(response) -> dict[str, str]:
    """Each cookie set, with its attributes (not its value, not when it expires)."""
    found = {}
    for name, morsel in response.cookies.items():
        attributes = [key for key in ("path", "samesite", "secure", "httponly", "max-age") if morsel[key]]
        found[name] = " ".join(f"{key}={morsel[key]}" for key in attributes)
    return found


@pytest.fixture(params=["development", "production"])
def production(request, settings):
    if request.param == "production":
        settings.SECURE_HSTS_SECONDS = 31536000
        settings.SECURE_HSTS_INCLUDE_SUBDOMAINS = True
        settings.SECURE_HSTS_PRELOAD = True
        settings.SESSION_COOKIE_SECURE = True
        settings.CSRF_COOKIE_SECURE = True
    return request.param == "production"


def _headers(response) -> list[tuple[str, str]]:
    return [(name, value) for name, value in response.headers.items() if name != "Content-Length"]


def _player(user, production) -> Client:
    client = Client(enforce_csrf_checks=True, HTTP_HOST="127.0.0.1")
    client.force_login(user)
    client.cookies["csrftoken"] = TOKEN
    return client


def _move(duel, production, *, token=True, language_cookie=False):
    state = engine.from_json(duel.state)
    seat = duel.seats.select_related("user").get(number=state.current)
    client = _player(seat.user, production)
    if language_cookie:
        client.cookies["django_language"] = "en"
    press = moves.requests_for(state, seat.number, engine.bot_action(state, seat.number))[0]
    origin = "https://127.0.0.1" if production else "http://127.0.0.1"
    csrf = {"HTTP_X_CSRFTOKEN": TOKEN} if token else {}
    return client.post(
        reverse("games:move", args=[duel.group.slug, duel.pk]),
        press.as_post(duel.version),
        HTTP_HX_REQUEST="true",
        HTTP_REFERER=f"{origin}/",
        HTTP_ORIGIN=origin,
        secure=production,
        **csrf,
    )


def test_a_moves_answer_sends_exactly_these_headers_and_cookies(duel, production):
    response = _move(duel, production)
    assert response.status_code == 200
    assert _headers(response) == _expected("Accept-Language, Cookie, Accept-Encoding", production)
    # The person's language, for a browser whose cookie lacks it (handsite/i18n.py).
    assert _cookies(response) == {"django_language": "path=/ samesite=Lax"}
    assert response.cookies["django_language"].value == "en"


def test_a_moves_answer_to_a_browser_with_the_language_cookie_sets_no_cookie(duel, production):
    response = _move(duel, production, language_cookie=True)
    assert response.status_code == 200
    assert _headers(response) == _expected("Accept-Language, Cookie, Accept-Encoding", production)
    assert not response.cookies


def test_a_move_without_the_csrf_token_is_forbidden_and_not_played(duel, production):
    version = duel.version
    response = _move(duel, production, token=False)
    assert response.status_code == 403
    duel.refresh_from_db()
    assert duel.version == version


def test_the_play_page_sends_exactly_these_headers_and_cookies(duel, production):
    client = _player(duel.seats.get(number=0).user, production)
    response = client.get(reverse("games:play", args=[duel.group.slug, duel.pk]), secure=production)
    assert response.status_code == 200
    assert _headers(response) == _expected("Cookie, Accept-Language, Accept-Encoding", production)
    secure = " secure=True" if production else ""
    assert _cookies(response) == {
        "django_language": "path=/ samesite=Lax",
        "handsite_tz": "path=/ samesite=Lax max-age=31536000",
        "csrftoken": f"path=/ samesite=Lax{secure} max-age=31449600",
    }  # the session is read, never rewritten by a page: no sessionid cookie again


def test_the_logged_out_welcome_page_sends_exactly_these_headers_and_cookies(db, production):
    response = Client(HTTP_HOST="127.0.0.1").get(reverse("home"), secure=production)
    assert response.status_code == 200
    assert _headers(response) == _expected("Cookie, Accept-Language, Accept-Encoding", production)
    secure = " secure=True" if production else ""
    assert _cookies(response) == {"csrftoken": f"path=/ samesite=Lax{secure} max-age=31449600"}
