import pytest
from django.urls import reverse

from handsite.services import groups

pytestmark = pytest.mark.django_db


def test_a_visitor_sees_the_welcome_page_with_sign_up(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    assert reverse("account_signup") in response.text


def test_it_lists_the_groups_of_the_person(client, member, group, outsider):
    groups.create_group(owner=outsider, name="Not mine")
    client.force_login(member)
    response = client.get(reverse("home"))
    assert group.name in response.text
    assert "Not mine" not in response.text


def test_it_leaves_a_place_for_my_games(client, member):
    client.force_login(member)
    assert 'id="my-games"' in client.get(reverse("home")).text


def test_the_page_sets_language_direction_and_csrf_on_body(client, member):
    client.force_login(member)
    text = client.get(reverse("home")).text
    assert '<html lang="en" dir="ltr">' in text
    assert 'hx-headers=\'{"X-CSRFToken"' in text
    assert "vendor/htmx.min.js" in text


def test_arabic_pages_are_right_to_left(client, member):
    client.force_login(member)
    client.post(reverse("set_language"), {"language": "ar", "next": "/"})
    assert '<html lang="ar" dir="rtl">' in client.get(reverse("home")).text
