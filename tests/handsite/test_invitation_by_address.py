"""A group invitation sent to an address is for that address's account (issue 31): a verified address of
the account, or a new account signing up with it. A forwarded one is refused with a clear page; the
group's shareable link works for anyone as before; the inviter hears who joined."""

import pytest
from allauth.account.models import EmailAddress
from django.urls import reverse

from handsite.models import Membership, Notification
from handsite.notifications import GROUP_JOINED, describe
from handsite.services import invitations
from tests.factories import UserFactory
from tests.support import membership_of

pytestmark = pytest.mark.django_db
ADDRESS = "nadia@example.com"


@pytest.fixture
def invitation(owner, group):
    return invitations.invite_by_email(actor_membership=membership_of(owner, group), email=ADDRESS)


def join(client, invitation):
    return client.post(reverse("invitation", args=[invitation.token]))


def test_a_forwarded_address_invitation_is_refused_for_another_account(client, outsider, group, invitation):
    client.force_login(outsider)
    page = client.get(reverse("invitation", args=[invitation.token]))
    assert "sent to another e-mail address" in page.text
    assert "Ask the person who invited you for the group&#x27;s link" in page.text
    response = join(client, invitation)
    assert "sent to another e-mail address" in response.text
    assert not Membership.objects.filter(group=group, user=outsider).exists()
    invitation.refresh_from_db()
    assert invitation.accepted_at is None  # still there for the person it names


def test_an_unverified_copy_of_the_address_on_an_old_account_is_not_enough(client, outsider, invitation):
    outsider.email = ADDRESS
    outsider.save(update_fields=["email"])
    EmailAddress.objects.create(user=outsider, email=ADDRESS, verified=False, primary=True)
    client.force_login(outsider)
    join(client, invitation)
    assert not Membership.objects.filter(group=invitation.group, user=outsider).exists()


def test_the_account_with_that_verified_address_joins_and_the_inviter_hears_who(
    client, owner, group, invitation
):
    nadia = UserFactory(email="other@example.com", display_name="Nadia")
    EmailAddress.objects.create(user=nadia, email=ADDRESS.upper(), verified=True, primary=False)
    client.force_login(nadia)
    join(client, invitation)
    assert Membership.objects.filter(group=group, user=nadia).exists()
    told = Notification.objects.get(user=owner, kind=GROUP_JOINED)
    line = describe(told)
    assert "Nadia joined" in line
    assert ADDRESS in line


def test_a_new_account_signing_up_with_the_address_joins(client, group, invitation):
    nadia = UserFactory(email=ADDRESS)  # signed up after the invitation was sent, not verified yet
    client.force_login(nadia)
    join(client, invitation)
    assert Membership.objects.filter(group=group, user=nadia).exists()


def test_the_groups_shareable_link_still_works_for_anyone(client, owner, outsider, group):
    link = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    client.force_login(outsider)
    join(client, link)
    assert Membership.objects.filter(group=group, user=outsider).exists()
