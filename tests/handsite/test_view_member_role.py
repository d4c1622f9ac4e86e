import pytest
from django.urls import reverse

from handsite.models import Role
from tests.support import membership_of

pytestmark = pytest.mark.django_db


def url(group, user):
    return reverse("member_role", args=[group.slug, membership_of(user, group).pk])


def test_an_admin_promotes_a_member(client, admin, member, group):
    client.force_login(admin)
    response = client.post(url(group, member), {"role": "admin"})
    assert response.status_code == 302
    assert membership_of(member, group).role == Role.ADMIN


def test_with_htmx_it_returns_only_the_members_section(client, owner, member, group):
    client.force_login(owner)
    response = client.post(url(group, member), {"role": "admin"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section class="card" id="members">')
    assert "<html" not in response.text
    assert membership_of(member, group).role == Role.ADMIN


def test_a_forbidden_change_is_refused_with_a_message(client, owner, admin, group):
    client.force_login(admin)
    response = client.post(url(group, owner), {"role": "member"}, follow=True)
    assert "Only an owner" in response.text
    assert membership_of(owner, group).role == Role.OWNER


def test_a_forbidden_change_with_htmx_shows_the_message_inline(client, owner, admin, group):
    client.force_login(admin)
    response = client.post(url(group, owner), {"role": "member"}, headers={"HX-Request": "true"})
    assert 'role="alert"' in response.text
    assert "Only an owner" in response.text
    assert membership_of(owner, group).role == Role.OWNER


def test_a_bad_role_is_refused(client, owner, member, group):
    client.force_login(owner)
    response = client.post(url(group, member), {"role": "emperor"}, follow=True)
    assert "Choose a role" in response.text
    assert membership_of(member, group).role == Role.MEMBER


def test_a_member_may_not_change_roles(client, admin, member, group):
    client.force_login(member)
    assert client.post(url(group, admin), {"role": "member"}).status_code == 403
    assert membership_of(admin, group).role == Role.ADMIN


def test_an_outsider_gets_404(client, member, outsider, group):
    client.force_login(outsider)
    assert client.post(url(group, member), {"role": "admin"}).status_code == 404


def test_a_get_is_not_allowed(client, owner, member, group):
    client.force_login(owner)
    assert client.get(url(group, member)).status_code == 405
