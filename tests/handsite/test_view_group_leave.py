import pytest
from django.urls import reverse

from handsite.models import Membership

pytestmark = pytest.mark.django_db


def url(group):
    return reverse("group_leave", args=[group.slug])


def test_it_asks_before_leaving(client, member, group):
    client.force_login(member)
    response = client.get(url(group))
    assert response.status_code == 200
    assert Membership.objects.filter(user=member, group=group).exists()


def test_a_member_leaves(client, member, group):
    client.force_login(member)
    response = client.post(url(group))
    assert response.url == reverse("home")
    assert not Membership.objects.filter(user=member, group=group).exists()


def test_the_last_owner_cannot_leave(client, owner, member, group):
    client.force_login(owner)
    response = client.post(url(group), follow=True)
    assert "last owner" in response.text
    assert Membership.objects.filter(user=owner, group=group).exists()


def test_an_outsider_gets_404(client, owner, outsider, group):
    client.force_login(outsider)
    assert client.post(url(group)).status_code == 404
