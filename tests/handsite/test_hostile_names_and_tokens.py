"""Bad input gets a clear message and changes nothing: names with control characters are refused where
they are typed (sign-up, profile, a group's name), and an invitation token with a NUL (which PostgreSQL
cannot even compare) is an invalid invitation, not a 500. Runs on PostgreSQL too (DATABASE_URL)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from handsite.models import PlayerGroup, User
from tests.factories import PASSWORD
from tests.support import membership_of

pytestmark = pytest.mark.django_db

REFUSED = "Names cannot contain control characters"
NUL_REFUSED = "Null characters are not allowed"  # Django's own check of every form field comes first


def refused(response) -> bool:
    text = response.content.decode()
    return REFUSED in text or NUL_REFUSED in text


HOSTILE = ["Nour\x00", "Nour\x07", "No\tur", "Nour\nSami", "\u202eruoN", "Nour\u2066x", "\x1b[31mNour"]


@pytest.mark.parametrize("token", ["%00", "abc%00def", "%00" * 40])
def test_an_invitation_link_with_a_nul_is_an_invalid_invitation(client, token):
    response = Client(raise_request_exception=False).get(f"/join/{token}/")
    assert response.status_code == 404
    assert "This invitation link is not valid" in response.content.decode()


def test_an_invitation_link_with_a_nul_followed_logged_in_is_refused_too(client, member):
    client.force_login(member)
    response = client.post("/join/%00/")
    assert response.status_code == 404


@pytest.mark.parametrize("name", HOSTILE)
def test_signing_up_with_a_control_character_in_the_name_is_refused(client, name):
    data = {"email": "nour@example.com", "display_name": name, "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("account_signup"), data)
    assert response.status_code == 200
    assert refused(response)
    assert not User.objects.filter(email="nour@example.com").exists()


@pytest.mark.parametrize("name", HOSTILE)
def test_a_profile_name_with_a_control_character_is_refused(client, member, name):
    client.force_login(member)
    before = User.objects.get(pk=member.pk).display_name
    response = client.post(reverse("profile"), {"display_name": name, "language": "en"})
    assert response.status_code == 200
    assert refused(response)
    assert User.objects.get(pk=member.pk).display_name == before


@pytest.mark.parametrize("name", HOSTILE)
def test_a_group_name_with_a_control_character_is_refused_at_creation_and_edit(client, owner, group, name):
    client.force_login(owner)
    response = client.post(reverse("group_create"), {"name": name, "description": ""})
    assert response.status_code == 200
    assert refused(response)
    assert PlayerGroup.objects.count() == 1
    response = client.post(reverse("group_edit", args=[group.slug]), {"name": name, "description": ""})
    assert refused(response)
    assert PlayerGroup.objects.get(pk=group.pk).name == "Thursday Hand"


@pytest.mark.parametrize("name", ["نور", "Nour\u200f", "Zoë 🂡", "Nour\u200dSami"])
def test_names_in_any_script_with_direction_marks_or_joiners_are_welcome(client, member, name):
    client.force_login(member)
    response = client.post(reverse("profile"), {"display_name": name, "language": "en"})
    assert response.status_code == 302
    assert User.objects.get(pk=member.pk).display_name == name


def test_a_group_description_may_keep_its_line_breaks(client, owner, group):
    client.force_login(owner)
    response = client.post(
        reverse("group_edit", args=[group.slug]),
        {"name": "Thursday Hand", "description": "Line one\nLine two"},
    )
    assert response.status_code == 302
    assert membership_of(owner, group).group.description == "Line one\nLine two"
