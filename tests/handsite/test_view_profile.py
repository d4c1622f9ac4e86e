import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_a_person_changes_their_display_name(client, member):
    client.force_login(member)
    client.post(reverse("profile"), {"display_name": "Mona L."})
    member.refresh_from_db()
    assert member.name == "Mona L."


def test_without_a_display_name_the_email_name_is_shown(client, member):
    member.display_name = ""
    member.save()
    assert member.name == member.email.split("@")[0]


def test_it_needs_a_login(client):
    assert client.get(reverse("profile")).status_code == 302
