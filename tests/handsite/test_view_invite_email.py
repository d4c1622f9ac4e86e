import pytest
from django.urls import reverse

from handsite.models import Invitation

pytestmark = pytest.mark.django_db


def url(group):
    return reverse("group_invite_email", args=[group.slug])


def test_the_email_carries_the_link(client, owner, group, mailoutbox, django_capture_on_commit_callbacks):
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(group), {"email": "friend@example.com"}, follow=True)
    assert "Invitation sent to friend@example.com" in response.text
    invitation = Invitation.objects.get(email="friend@example.com")
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == ["friend@example.com"]
    assert group.name in mailoutbox[0].subject
    assert f"http://127.0.0.1:8000/join/{invitation.token}/" in mailoutbox[0].body


def test_a_bad_address_sends_nothing(client, owner, group, mailoutbox, django_capture_on_commit_callbacks):
    client.force_login(owner)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url(group), {"email": "not an address"}, follow=True)
    assert "valid e-mail" in response.text
    assert not Invitation.objects.exists()
    assert mailoutbox == []


def test_a_member_may_not_invite_by_email(client, member, group, mailoutbox):
    client.force_login(member)
    assert client.post(url(group), {"email": "friend@example.com"}).status_code == 403
    assert not Invitation.objects.exists()
