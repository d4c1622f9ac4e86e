"""The 400, 403, 404, 500 and CSRF-failure pages: in the site's layout, in the reader's language, with a
way back, never Django's bare English pages (DEBUG is off in tests, as in production)."""

from __future__ import annotations

import pytest
from django.db import connections
from django.db.utils import OperationalError
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db

ARABIC = {"HTTP_ACCEPT_LANGUAGE": "ar"}


def _in_layout(response) -> str:
    text = response.content.decode()
    assert 'class="site-header"' in text
    assert "handsite/site.css" in text
    assert 'href="/"' in text  # the way back home
    return text


@pytest.mark.parametrize(
    ("headers", "lang", "words"),
    [({}, "en", "Page not found"), (ARABIC, "ar", "الصفحة غير موجودة")],
)
def test_an_unknown_address_gets_the_sites_404_page_in_the_readers_language(client, headers, lang, words):
    response = client.get("/no-such-page/", **headers)
    assert response.status_code == 404
    text = _in_layout(response)
    assert f'lang="{lang}"' in text
    assert words in text


def test_a_group_page_an_outsider_opens_is_the_same_404_with_their_menu(client, outsider, group):
    client.force_login(outsider)
    response = client.get(group.get_absolute_url())
    assert response.status_code == 404
    text = _in_layout(response)
    assert reverse("profile") in text  # the logged-in person's menu
    assert "Page not found" in text


def test_a_page_from_the_site_offers_to_go_back_to_it(client):
    response = client.get("/no-such-page/", HTTP_REFERER="http://testserver/rules/")
    text = _in_layout(response)
    assert 'href="http://testserver/rules/"' in text
    assert "Back to the previous page" in text


def test_another_sites_referer_is_not_offered_as_a_way_back(client):
    text = _in_layout(client.get("/no-such-page/", HTTP_REFERER="https://evil.example/x"))
    assert "evil.example" not in text


def test_a_forbidden_action_gets_the_sites_403_page(client, member, group):
    client.force_login(member)
    response = client.post(reverse("group_invite_email", args=[group.slug]), {"email": "a@example.com"})
    assert response.status_code == 403
    assert "Not allowed" in _in_layout(response)


def test_a_logged_in_readers_403_is_in_their_own_language(client, member, group):
    member.language = "ar"
    member.save()
    client.force_login(member)
    response = client.post(reverse("group_invite_email", args=[group.slug]), {"email": "a@example.com"})
    assert response.status_code == 403
    text = _in_layout(response)
    assert 'lang="ar"' in text
    assert "غير مسموح" in text


@pytest.mark.parametrize(("headers", "words"), [({}, "Bad request"), (ARABIC, "طلب غير صالح")])
def test_a_refused_host_gets_the_sites_400_page(client, headers, words):
    response = client.get("/", HTTP_HOST="evil.example", **headers)
    assert response.status_code == 400
    text = _in_layout(response)
    assert words in text


@pytest.mark.parametrize(
    ("headers", "words"), [({}, "The form could not be sent"), (ARABIC, "تعذّر إرسال النموذج")]
)
def test_a_form_without_its_token_gets_the_sites_csrf_page(headers, words):
    browser = Client(enforce_csrf_checks=True)
    response = browser.post(reverse("account_login"), {"login": "a@example.com", "password": "x"}, **headers)
    assert response.status_code == 403
    text = _in_layout(response)
    assert words in text
    assert "CSRF verification failed" not in text


def test_a_form_from_an_old_page_is_explained_differently_from_cookies_off(client):
    browser = Client(enforce_csrf_checks=True)
    browser.get(reverse("account_login"))  # has the cookie now, but posts a stale token
    response = browser.post(
        reverse("account_login"), {"csrfmiddlewaretoken": "x" * 64, "login": "a@example.com"}
    )
    assert response.status_code == 403
    assert "reload the page" in response.content.decode()
    assert "Allow cookies" not in response.content.decode()


@pytest.fixture
def with_a_broken_view(settings):
    settings.ROOT_URLCONF = "tests.error_urls"


@pytest.mark.parametrize(("headers", "words"), [({}, "Something went wrong"), (ARABIC, "حدث خطأ")])
def test_a_bug_gets_the_sites_500_page(with_a_broken_view, headers, words):
    browser = Client(raise_request_exception=False)
    response = browser.get("/broken-for-tests/", **headers)
    assert response.status_code == 500
    text = _in_layout(response)
    assert words in text
    assert "RuntimeError" not in text


def test_the_500_page_is_drawn_without_the_menu_when_the_database_is_what_failed(
    with_a_broken_view, member, monkeypatch
):
    browser = Client(raise_request_exception=False)
    browser.force_login(member)

    def refuse(*args, **kwargs):
        raise OperationalError("the database went away")

    monkeypatch.setattr(connections["default"], "cursor", refuse)
    response = browser.get("/broken-for-tests/")
    assert response.status_code == 500
    text = response.content.decode()
    assert "Something went wrong" in text
    assert reverse("profile") not in text  # no menu: it needs the database


def test_errors_are_mailed_to_the_admins(with_a_broken_view, settings, mailoutbox):
    settings.ADMINS = ["ops@example.com"]
    Client(raise_request_exception=False).get("/broken-for-tests/")
    assert [m.to for m in mailoutbox] == [["ops@example.com"]]
    assert "RuntimeError" in mailoutbox[0].body
