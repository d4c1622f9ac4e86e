import pytest
from django.urls import reverse

from handsite import services
from tests.support import membership_of

pytestmark = pytest.mark.django_db


def url(group):
    return reverse("group_detail", args=[group.slug])


def test_it_shows_members_and_their_roles(client, owner, admin, member, group):
    client.force_login(member)
    text = client.get(url(group)).text
    for person in (owner, admin, member):
        assert person.name in text
    assert "Owner" in text
    assert "Admin" in text


def test_an_outsider_gets_404(client, owner, group, outsider):
    client.force_login(outsider)
    assert client.get(url(group)).status_code == 404


def test_an_unknown_group_gets_404(client, member):
    client.force_login(member)
    assert client.get(reverse("group_detail", args=["nope"])).status_code == 404


def test_a_visitor_is_sent_to_log_in(client, group):
    response = client.get(url(group))
    assert response.status_code == 302
    assert reverse("account_login") in response.url


def test_it_has_places_for_games_and_score_sheets(client, member, group):
    client.force_login(member)
    text = client.get(url(group)).text
    assert 'id="games"' in text
    assert 'id="score-sheets"' in text


def test_managers_see_the_invite_link(client, owner, admin, group):
    link = services.regenerate_invite_link(actor_membership=membership_of(owner, group))
    client.force_login(admin)
    text = client.get(url(group)).text
    assert link.token in text
    assert "data-copy" in text


def test_members_do_not_see_the_invite_link_or_role_controls(client, owner, member, group):
    link = services.regenerate_invite_link(actor_membership=membership_of(owner, group))
    client.force_login(member)
    text = client.get(url(group)).text
    assert link.token not in text
    assert 'name="role"' not in text
