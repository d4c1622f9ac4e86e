import pytest
from django.urls import reverse

from handsite.models import PlayerGroup, Role

pytestmark = pytest.mark.django_db


def test_it_needs_a_login(client):
    response = client.get(reverse("group_create"))
    assert response.status_code == 302
    assert reverse("account_login") in response.url


def test_it_creates_a_group_with_the_creator_as_owner(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("group_create"), {"name": "Cousins", "description": "Fridays at Nour's"})
    group = PlayerGroup.objects.get(name="Cousins")
    assert response.status_code == 302
    assert response.url == group.get_absolute_url()
    assert group.memberships.get().user == outsider
    assert group.memberships.get().role == Role.OWNER


def test_a_missing_name_shows_the_form_again_and_creates_nothing(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("group_create"), {"name": "", "description": "x"})
    assert response.status_code == 200
    assert "This field is required" in response.text
    assert not PlayerGroup.objects.exists()


def test_the_new_group_page_shows_the_invite_link_it_promises(client, outsider):
    client.force_login(outsider)
    form = client.get(reverse("group_create")).text
    assert 'name="invite_link"' in form
    assert "checked" in form.split('name="invite_link"', 1)[1].split(">", 1)[0]
    response = client.post(reverse("group_create"), {"name": "Cousins", "invite_link": "on"}, follow=True)
    group = PlayerGroup.objects.get(name="Cousins")
    link = group.active_link_invitation()
    assert link is not None
    assert link.expires_at is None
    assert "Invite your friends with the link below." in response.text
    assert f"/join/{link.token}/" in response.text


def test_the_organiser_can_create_a_group_without_a_link(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("group_create"), {"name": "Cousins"}, follow=True)
    assert PlayerGroup.objects.get(name="Cousins").active_link_invitation() is None
    assert "the link below" not in response.text
    assert "Make an invite link below or invite friends by e-mail." in response.text
