import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from handsite.models import User
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def test_a_new_person_signs_up_with_a_display_name(client, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):  # the outbox sends once the sign-up commits
        response = client.post(
            reverse("account_signup"),
            {
                "email": "nour@example.com",
                "display_name": "Nour",
                "password1": PASSWORD,
                "password2": PASSWORD,
            },
        )
    assert response.status_code == 302
    user = User.objects.get(email="nour@example.com")
    assert user.name == "Nour"
    assert client.get(reverse("home")).context["user"] == user
    # Development: verification is optional, but the confirmation e-mail is still sent.
    assert any("nour@example.com" in mail.to for mail in mailoutbox)


def test_signing_up_twice_with_one_email_is_refused(client, member):
    response = client.post(
        reverse("account_signup"),
        {"email": member.email, "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 200
    assert User.objects.filter(email=member.email).count() == 1


def test_a_person_logs_in_with_email_and_password(client, member):
    response = client.post(reverse("account_login"), {"login": member.email, "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("home")


def test_a_wrong_password_is_refused(client, member):
    response = client.post(reverse("account_login"), {"login": member.email, "password": "wrong-password"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session


def test_failed_logins_are_rate_limited(client, member):
    for _ in range(6):
        client.post(reverse("account_login"), {"login": member.email, "password": "nope"})
    response = client.post(reverse("account_login"), {"login": member.email, "password": PASSWORD})
    assert "Too many failed login attempts" in response.text
    assert "_auth_user_id" not in client.session


def test_mandatory_verification_keeps_an_unverified_person_out(client, settings, member):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"
    EmailAddress.objects.create(user=member, email=member.email, verified=False, primary=True)
    response = client.post(reverse("account_login"), {"login": member.email, "password": PASSWORD})
    assert "_auth_user_id" not in client.session
    assert response.status_code == 302
    assert "confirm-email" in response.url


def test_password_reset_sends_an_email(client, member, mailoutbox, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account_reset_password"), {"email": member.email})
    assert len(mailoutbox) == 1
    assert "/accounts/password/reset/key/" in mailoutbox[0].body


def test_account_pages_use_the_site_layout(client):
    text = client.get(reverse("account_login")).text
    assert "handsite/site.css" in text
    assert 'class="site-header"' in text


def test_a_person_changes_their_password(client, member):
    client.force_login(member)
    response = client.post(
        reverse("account_change_password"),
        {"oldpassword": PASSWORD, "password1": "another-long-pass-77", "password2": "another-long-pass-77"},
    )
    assert response.status_code == 302
    member.refresh_from_db()
    assert member.check_password("another-long-pass-77")


def test_a_person_logs_out_with_a_post_and_is_a_visitor_again(client, member):
    client.force_login(member)
    response = client.post(reverse("account_logout"))
    assert response.status_code == 302
    assert response.url == reverse("home")
    assert "_auth_user_id" not in client.session
    assert client.get(reverse("home")).context["user"].is_anonymous


def test_opening_the_log_out_page_asks_first_and_keeps_the_person_logged_in(client, member):
    client.force_login(member)
    response = client.get(reverse("account_logout"))
    assert response.status_code == 200
    assert 'class="site-header"' in response.text
    assert client.session["_auth_user_id"] == str(member.pk)


def test_the_sign_up_form_proposes_the_browsers_zone_and_keeps_the_one_chosen(client):
    from handsite.models import NotificationPreference

    page = client.get(reverse("account_signup")).content.decode()
    assert 'name="time_zone"' in page
    assert "data-browser-zone" in page  # site.js fills it from the Intl API
    response = client.post(
        reverse("account_signup"),
        {
            "email": "huda@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "time_zone": "Asia/Amman",
        },
        HTTP_COOKIE="handsite_tz=Europe/London",  # the form's choice wins over the cookie
    )
    assert response.status_code == 302
    user = User.objects.get(email="huda@example.com")
    assert NotificationPreference.objects.get(user=user).time_zone == "Asia/Amman"


def test_a_zone_that_does_not_exist_is_refused_at_sign_up_with_a_message(client):
    response = client.post(
        reverse("account_signup"),
        {
            "email": "huda@example.com",
            "password1": PASSWORD,
            "password2": PASSWORD,
            "time_zone": "Mars/Olympus",
        },
    )
    assert response.status_code == 200
    assert "Choose a time zone from the list, such as Asia/Amman." in response.content.decode()
    assert not User.objects.filter(email="huda@example.com").exists()
