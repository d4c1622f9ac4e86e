import pytest
from django.urls import reverse

from handsite.models import Invitation, OutgoingEmail

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


def test_with_htmx_sent_shows_in_place_with_the_pending_invitation(client, owner, group):
    client.force_login(owner)
    response = client.post(url(group), {"email": "friend@example.com"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section class="card" id="invite">')
    assert "Invitation sent to friend@example.com." in response.text
    assert "Invitations waiting for an answer" in response.text
    assert "friend@example.com</span>" in response.text
    # Not said a second time on the next page.
    assert "Invitation sent to" not in client.get(group.get_absolute_url()).text


def test_an_invitation_can_be_taken_back_and_its_link_stops_working(
    client, owner, group, mailoutbox, django_capture_on_commit_callbacks
):
    client.force_login(owner)
    client.post(url(group), {"email": "friend@example.com"}, HTTP_HX_REQUEST="true")  # e-mail not sent yet
    invitation = Invitation.objects.get(email="friend@example.com")
    take_back = reverse("group_invitation_take_back", args=[group.slug, invitation.pk])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(take_back, HTTP_HX_REQUEST="true")
    assert "The invitation to friend@example.com is taken back." in response.text
    assert "Invitations waiting for an answer" not in response.text
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None
    assert mailoutbox == []
    assert not OutgoingEmail.objects.filter(to="friend@example.com").exists()  # its waiting e-mail is gone
    client.logout()
    assert client.get(invitation.get_absolute_url()).status_code == 404  # the invalid-invitation page


def test_a_member_who_may_not_manage_cannot_take_an_invitation_back(client, owner, member, group):
    client.force_login(owner)
    client.post(url(group), {"email": "friend@example.com"})
    invitation = Invitation.objects.get(email="friend@example.com")
    client.force_login(member)
    response = client.post(reverse("group_invitation_take_back", args=[group.slug, invitation.pk]))
    assert response.status_code == 403
    invitation.refresh_from_db()
    assert invitation.revoked_at is None


def test_taking_back_an_invitation_of_another_group_changes_nothing(client, owner, group):
    from tests.factories import PlayerGroupFactory

    other = PlayerGroupFactory()
    invitation = Invitation.objects.create(group=other, email="x@example.com")
    client.force_login(owner)
    response = client.post(
        reverse("group_invitation_take_back", args=[group.slug, invitation.pk]), HTTP_HX_REQUEST="true"
    )
    assert "That invitation is no longer pending." in response.text
    invitation.refresh_from_db()
    assert invitation.revoked_at is None
