"""One wording for signing up and logging in, in each language, on the pages a newcomer sees first:
the welcome page, allauth's log-in and sign-up pages (overridden in templates/account/)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.i18n.arabic_site import visible_text

pytestmark = pytest.mark.django_db

CHOSEN = {"en": ("Sign up", "Log in"), "ar": ("إنشاء حساب", "تسجيل الدخول")}
# The other wordings of the same two things (allauth's own among them).
OTHERS = {
    "en": ("Sign In", "Sign in", "sign in", "Sign Up", "Signup", "signup", "Log In", "Login", "Register"),
    "ar": ("الاشتراك", "اشترك", "التسجيل", "تسجيل دخول", "سجل الدخول", "الدخول إلى"),
}
PAGES = (
    "welcome",
    "account_login",
    "account_signup",
    "account_reset_password",
    "account_reset_password_done",
    "account_email_verification_sent",
)


def _page(client, url_name, language):
    client.cookies["django_language"] = language
    url = reverse("home") if url_name == "welcome" else reverse(url_name)
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<html lang="{language}"' in html
    return html


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("url_name", PAGES)
def test_a_newcomer_reads_only_the_chosen_wordings(client, url_name, language):
    text = visible_text(_page(client, url_name, language))
    for chosen in CHOSEN[language]:
        assert chosen in text, (url_name, chosen)
    for other in OTHERS[language]:
        assert other not in text, (url_name, other)


@pytest.mark.parametrize("language", ["en", "ar"])
def test_the_page_titles_of_log_in_and_sign_up_use_the_chosen_wordings(client, language):
    sign_up, log_in = CHOSEN[language]
    assert f"<title>{log_in}" in _page(client, "account_login", language)
    assert f"<title>{sign_up}" in _page(client, "account_signup", language)
