import pytest
from django.urls import reverse

from handsite.models import Invitation

pytestmark = pytest.mark.django_db


def url(group):
    return reverse("group_invite_link", args=[group.slug])


def test_an_owner_makes_a_link(client, owner, group):
    client.force_login(owner)
    client.post(url(group), {"action": "regenerate", "expires_in_days": ""})
    link = group.active_link_invitation()
    assert link is not None
    assert link.expires_at is None


def test_a_link_can_expire(client, owner, group):
    client.force_login(owner)
    client.post(url(group), {"action": "regenerate", "expires_in_days": "7"})
    link = group.active_link_invitation()
    assert (link.expires_at - link.created_at).days == 7


def test_with_htmx_regenerating_returns_the_new_link_only(client, owner, group):
    client.force_login(owner)
    client.post(url(group), {"action": "regenerate"})
    old = group.active_link_invitation()
    response = client.post(url(group), {"action": "regenerate"}, headers={"HX-Request": "true"})
    new = group.active_link_invitation()
    assert new != old
    assert new.token in response.text
    assert old.token not in response.text
    assert response.text.lstrip().startswith('<section class="card" id="invite">')


def test_revoking_switches_the_link_off(client, owner, group):
    client.force_login(owner)
    client.post(url(group), {"action": "regenerate"})
    client.post(url(group), {"action": "revoke"})
    assert group.active_link_invitation() is None


def test_a_bad_expiry_changes_nothing(client, owner, group):
    client.force_login(owner)
    response = client.post(url(group), {"action": "regenerate", "expires_in_days": "9999"}, follow=True)
    assert "Choose a valid" in response.text
    assert not Invitation.objects.exists()


def test_a_member_may_not_make_links(client, member, group):
    client.force_login(member)
    assert client.post(url(group), {"action": "regenerate"}).status_code == 403
    assert not Invitation.objects.exists()


def test_an_outsider_gets_404(client, owner, outsider, group):
    client.force_login(outsider)
    assert client.post(url(group), {"action": "regenerate"}).status_code == 404
