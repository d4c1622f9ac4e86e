import pytest
from django.urls import reverse

from handsite.services import invitations
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
    link = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    client.force_login(admin)
    text = client.get(url(group)).text
    assert link.token in text
    assert "data-copy" in text


def test_members_do_not_see_the_invite_link_or_role_controls(client, owner, member, group):
    link = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    client.force_login(member)
    text = client.get(url(group)).text
    assert link.token not in text
    assert 'name="role"' not in text


def test_the_invite_link_can_be_shared_on_whatsapp_url_encoded(client, owner, group):
    from urllib.parse import parse_qs, urlsplit

    group.name = "Hand & <Friends>"
    group.save(update_fields=["name"])
    link = invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    client.force_login(owner)
    page = client.get(url(group)).text
    share = next(part.split('"')[0] for part in page.split('href="')[1:] if part.startswith("https://wa.me/"))
    assert share.startswith("https://wa.me/?text=")
    assert " " not in share
    assert "<" not in share
    assert "&amp;" not in share.split("?", 1)[1]
    text = parse_qs(urlsplit(share).query)["text"][0]
    assert "“Hand & <Friends>”" in text
    assert text.endswith("\nhttp://testserver" + link.get_absolute_url())


def test_the_invite_link_reads_left_to_right_and_names_are_isolated(client, owner, group):
    invitations.regenerate_invite_link(actor_membership=membership_of(owner, group))
    client.force_login(owner)
    page = client.get(url(group)).text
    assert '<input id="invite-url" type="text" readonly dir="ltr"' in page
    assert '<h1><bdi dir="auto">Thursday Hand</bdi></h1>' in page
    assert '<bdi dir="auto">Olivia Owner</bdi>' in page
