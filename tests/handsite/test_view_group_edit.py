import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def url(group):
    return reverse("group_edit", args=[group.slug])


def test_an_admin_renames_the_group(client, admin, group):
    client.force_login(admin)
    response = client.post(url(group), {"name": "Friday Hand", "description": ""})
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.name == "Friday Hand"


def test_a_member_may_not_edit_the_group(client, member, group):
    client.force_login(member)
    assert client.post(url(group), {"name": "Mine now"}).status_code == 403
    group.refresh_from_db()
    assert group.name == "Thursday Hand"


def test_an_outsider_gets_404(client, owner, outsider, group):
    client.force_login(outsider)
    assert client.get(url(group)).status_code == 404
