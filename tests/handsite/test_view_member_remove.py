import pytest
from django.urls import reverse

from handsite.models import Membership
from tests.support import membership_of

pytestmark = pytest.mark.django_db


def url(group, user):
    return reverse("member_remove", args=[group.slug, membership_of(user, group).pk])


def test_an_admin_removes_a_member(client, admin, member, group):
    client.force_login(admin)
    response = client.post(url(group, member), follow=True)
    assert "was removed" in response.text
    assert not Membership.objects.filter(user=member, group=group).exists()


def test_a_removed_member_then_gets_404(client, admin, member, group):
    client.force_login(admin)
    client.post(url(group, member))
    client.force_login(member)
    assert client.get(reverse("group_detail", args=[group.slug])).status_code == 404


def test_the_last_owner_cannot_be_removed(client, owner, admin, group):
    client.force_login(admin)
    response = client.post(url(group, owner), follow=True)
    assert "Only an owner" in response.text
    assert Membership.objects.filter(user=owner, group=group).exists()


def test_a_member_may_not_remove_anyone(client, admin, member, group):
    client.force_login(member)
    assert client.post(url(group, admin)).status_code == 403
    assert Membership.objects.filter(user=admin, group=group).exists()
