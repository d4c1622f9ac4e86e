"""The logged-out invitation path with mandatory e-mail verification: the person signs up in one
browser and confirms the address in another (the e-mail opened on a laptop, say). The invitation is
remembered on the new account, so the first log-in from anywhere lands them in the group."""

import re

import pytest
from django.test import Client, TestCase
from django.urls import reverse

from handsite.models import Membership, Role, User
from handsite.services import invitations
from tests.factories import PASSWORD
from tests.support import membership_of

pytestmark = pytest.mark.django_db

EMAIL = "nadia@example.com"


@pytest.fixture(autouse=True)
def _mandatory_verification(settings):
    settings.ACCOUNT_EMAIL_VERIFICATION = "mandatory"


@pytest.fixture
def link(owner, group):
    return invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))


def sign_up_through(link, mailoutbox) -> str:
    """Follow the invite link logged out and sign up in a browser of its own; the confirmation link
    (sent from the outbox once the sign-up's transaction commits)."""
    phone = Client()
    assert phone.get(link.get_absolute_url()).status_code == 200
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = phone.post(
            reverse("account_signup"),
            {"email": EMAIL, "display_name": "Nadia", "password1": PASSWORD, "password2": PASSWORD},
        )
    assert response.status_code == 302
    assert "_auth_user_id" not in phone.session  # mandatory: not logged in until confirmed
    (mail,) = [m for m in mailoutbox if EMAIL in m.to]
    return re.search(r"https?://[^/\s]+(/accounts/confirm-email/[^\s]+/)", mail.body).group(1)


def confirm_elsewhere(confirm_path) -> Client:
    laptop = Client()
    assert laptop.get(confirm_path).status_code == 200  # ACCOUNT_CONFIRM_EMAIL_ON_GET is off
    assert laptop.post(confirm_path).status_code == 302
    return laptop


def test_signing_up_remembers_the_invitation_but_joins_nothing_before_the_address_is_confirmed(
    link, group, mailoutbox
):
    sign_up_through(link, mailoutbox)
    user = User.objects.get(email=EMAIL)
    assert user.pending_invitation == link
    assert not Membership.objects.filter(user=user).exists()


def test_confirming_in_a_fresh_browser_and_logging_in_there_lands_the_person_in_the_group(
    link, group, mailoutbox
):
    confirm_path = sign_up_through(link, mailoutbox)
    laptop = confirm_elsewhere(confirm_path)

    response = laptop.post(reverse("account_login"), {"login": EMAIL, "password": PASSWORD})

    assert response.status_code == 302
    assert response.url == group.get_absolute_url()
    user = User.objects.get(email=EMAIL)
    assert membership_of(user, group).role == Role.MEMBER
    assert user.pending_invitation is None
    page = laptop.get(response.url)
    assert page.status_code == 200
    assert "Welcome to Thursday Hand!" in page.text


def test_the_remembered_invitation_is_used_once(link, group, mailoutbox):
    laptop = confirm_elsewhere(sign_up_through(link, mailoutbox))
    laptop.post(reverse("account_login"), {"login": EMAIL, "password": PASSWORD})
    user = User.objects.get(email=EMAIL)
    membership_of(user, group).delete()  # they leave the group

    again = Client()
    response = again.post(reverse("account_login"), {"login": EMAIL, "password": PASSWORD})

    assert response.url == reverse("home")
    assert not Membership.objects.filter(user=user).exists()


def test_a_link_switched_off_before_the_first_log_in_says_so_and_joins_nothing(
    owner, link, group, mailoutbox
):
    laptop = confirm_elsewhere(sign_up_through(link, mailoutbox))
    invitations.revoke_invite_link(actor_membership=membership_of(owner, group))

    response = laptop.post(reverse("account_login"), {"login": EMAIL, "password": PASSWORD}, follow=True)

    assert "switched off" in response.text
    user = User.objects.get(email=EMAIL)
    assert not Membership.objects.filter(user=user).exists()
    assert user.pending_invitation is None


def test_an_email_invitation_followed_logged_out_also_survives_another_browser(owner, group, mailoutbox):
    invitation = invitations.invite_by_email(actor_membership=membership_of(owner, group), email=EMAIL)
    laptop = confirm_elsewhere(sign_up_through(invitation, mailoutbox))

    laptop.post(reverse("account_login"), {"login": EMAIL, "password": PASSWORD})

    user = User.objects.get(email=EMAIL)
    assert membership_of(user, group).role == Role.MEMBER
    invitation.refresh_from_db()
    assert invitation.accepted_by == user
