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
