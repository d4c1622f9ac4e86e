import datetime

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from handsite.models import Membership, Role
from handsite.services import invitations
from tests.factories import PASSWORD
from tests.support import membership_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def link(owner, group):
    return invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))


def url(invitation_or_token):
    token = getattr(invitation_or_token, "token", invitation_or_token)
    return reverse("invitation", args=[token])


def test_it_shows_the_group_and_a_join_button(client, link, group, outsider):
    client.force_login(outsider)
    response = client.get(url(link))
    assert response.status_code == 200
    assert group.name in response.text
    assert not Membership.objects.filter(user=outsider).exists()


def test_joining_adds_a_member_and_opens_the_group(client, link, group, outsider):
    client.force_login(outsider)
    response = client.post(url(link))
    assert response.url == group.get_absolute_url()
    assert membership_of(outsider, group).role == Role.MEMBER


def test_joining_twice_creates_no_second_membership(client, link, group, member):
    client.force_login(member)
    response = client.post(url(link), follow=True)
    assert "already in" in response.text
    assert Membership.objects.filter(user=member, group=group).count() == 1


@pytest.mark.parametrize("method", ["get", "post"])
def test_an_unknown_token_shows_a_clear_page_and_creates_nothing(client, outsider, method):
    client.force_login(outsider)
    response = getattr(client, method)(url("made-up-token"))
    assert response.status_code == 404
    assert "not valid" in response.text
    assert not Membership.objects.filter(user=outsider).exists()


def test_a_revoked_link_shows_a_clear_page_and_creates_nothing(client, owner, link, group, outsider):
    invitations.revoke_invite_link(actor_membership=membership_of(owner, group))
    client.force_login(outsider)
    response = client.post(url(link))
    assert response.status_code == 404
    assert "switched off" in response.text
    assert not Membership.objects.filter(user=outsider).exists()


def test_an_expired_link_shows_a_clear_page_and_creates_nothing(client, owner, group, outsider):
    link = invitations.regenerate_invite_link(
        actor_membership=membership_of(owner, group), expires_in=datetime.timedelta(days=1)
    )
    client.force_login(outsider)
    with time_machine.travel(timezone.now() + datetime.timedelta(days=2)):
        response = client.post(url(link))
    assert response.status_code == 404
    assert "expired" in response.text
    assert not Membership.objects.filter(user=outsider).exists()


def test_a_visitor_is_offered_sign_up_and_log_in(client, link, group):
    response = client.get(url(link))
    assert response.status_code == 200
    assert reverse("account_signup") in response.text
    assert reverse("account_login") in response.text


def test_a_visitor_who_signs_up_lands_in_the_group(client, link, group):
    client.get(url(link))
    response = client.post(
        reverse("account_signup"),
        {
            "email": "newcomer@example.com",
            "display_name": "Newcomer",
            "password1": PASSWORD,
            "password2": PASSWORD,
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == group.get_absolute_url()
    membership = Membership.objects.get(user__email="newcomer@example.com")
    assert membership.group == group
    assert membership.role == Role.MEMBER
    assert f"Welcome to {group.name}" in response.text


def test_a_visitor_who_logs_in_lands_in_the_group(client, link, group, outsider):
    client.get(url(link))
    response = client.post(
        reverse("account_login"), {"login": outsider.email, "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain[-1][0] == group.get_absolute_url()
    assert membership_of(outsider, group).role == Role.MEMBER
    assert f"Welcome to {group.name}" in response.text


def test_a_visitor_whose_link_is_revoked_before_log_in_joins_nothing(client, owner, link, group, outsider):
    client.get(url(link))
    invitations.revoke_invite_link(actor_membership=membership_of(owner, group))
    response = client.post(
        reverse("account_login"), {"login": outsider.email, "password": PASSWORD}, follow=True
    )
    assert "switched off" in response.text
    assert not Membership.objects.filter(user=outsider).exists()
