"""An HTMX request made after the session expired sends the browser to the log-in page (HX-Redirect)
instead of swapping the log-in page into the small target."""

from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def htmx_headers(current_url):
    return {"HX-Request": "true", "HX-Current-URL": current_url}


def test_an_htmx_request_after_the_session_expired_gets_hx_redirect_to_log_in_and_back(client, group):
    page = f"http://testserver{group.get_absolute_url()}"
    response = client.post(
        reverse("group_invite_link", args=[group.slug]),
        {"action": "regenerate"},
        headers=htmx_headers(page),
    )
    assert response.status_code == 200
    assert "Location" not in response
    target = urlsplit(response["HX-Redirect"])
    assert target.path == reverse("account_login")
    assert parse_qs(target.query) == {"next": [group.get_absolute_url()]}
    assert response.content == b""
    assert not group.invitations.exists()


def test_the_next_page_keeps_its_query_string(client, group):
    page = f"http://testserver{group.get_absolute_url()}?tab=members"
    response = client.get(reverse("profile"), headers=htmx_headers(page))
    next_url = parse_qs(urlsplit(response["HX-Redirect"]).query)["next"]
    assert next_url == [f"{group.get_absolute_url()}?tab=members"]


def test_a_current_url_on_another_site_is_not_used_as_next(client, group):
    response = client.get(reverse("profile"), headers=htmx_headers("https://evil.example/steal"))
    next_url = parse_qs(urlsplit(response["HX-Redirect"]).query)["next"]
    assert next_url == [reverse("profile")]


def test_a_plain_request_still_gets_the_usual_redirect(client, group):
    response = client.get(group.get_absolute_url())
    assert response.status_code == 302
    assert response.url == f"{reverse('account_login')}?next={group.get_absolute_url()}"
    assert "HX-Redirect" not in response


def test_other_htmx_redirects_are_left_alone(client, owner, group):
    client.force_login(owner)
    response = client.post(
        reverse("group_leave", args=[group.slug]),
        headers=htmx_headers(f"http://testserver{group.get_absolute_url()}"),
    )
    assert response.status_code == 302
    assert "HX-Redirect" not in response


def test_a_logged_in_htmx_request_is_answered_as_before(client, owner, group):
    client.force_login(owner)
    response = client.post(
        reverse("group_invite_link", args=[group.slug]),
        {"action": "regenerate"},
        headers=htmx_headers(f"http://testserver{group.get_absolute_url()}"),
    )
    assert response.status_code == 200
    assert "HX-Redirect" not in response
    assert 'id="invite"' in response.text
