"""The live sheet: the page polls a small fragment; an unchanged sheet answers 204 with nothing."""

from __future__ import annotations

from django.urls import reverse

from scoring.services.deals import add_deal
from tests.scoring.conftest import hand, make_sheet


def test_an_unchanged_poll_is_an_empty_204_and_a_changed_one_brings_the_new_deal(
    client, group, owner, member
):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(member)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert 'hx-trigger="every 5s"' in page  # a hidden page sends none (site.js; no eval under the CSP)
    live = reverse("scoring:sheet_live", args=[group.slug, sheet.pk])
    unchanged = client.get(live, {"version": sheet.version}, headers={"HX-Request": "true"})
    assert unchanged.status_code == 204
    assert unchanged.content == b""

    add_deal(sheet, by=owner, facts=hand(0, [True, True], [None, 27]))
    changed = client.get(live, {"version": sheet.version}, headers={"HX-Request": "true"})
    assert changed.status_code == 200
    body = changed.content.decode()
    assert "Cards left: 27" in body
    sheet.refresh_from_db()
    assert f"version={sheet.version}" in body
    assert "<html" not in body


def test_the_sheet_page_shows_a_qr_code_of_its_link(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(member)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "<svg" in page
    assert f"http://testserver/groups/{group.slug}/sheets/{sheet.pk}/" in page


def test_a_poll_after_the_session_expired_goes_through_the_login_redirect(client, group, owner, member):
    """The poll view is a normal group view: no session means the login redirect (which the site-wide
    middleware turns into HX-Redirect for htmx), never a 204 that would leave a stale sheet up."""
    sheet = make_sheet(group, owner, "classic", [owner, member])
    live = reverse("scoring:sheet_live", args=[group.slug, sheet.pk])
    response = client.get(live, {"version": sheet.version}, headers={"HX-Request": "true"})
    assert response.status_code == 200  # htmx follows HX-Redirect, not a 302
    assert response.headers["HX-Redirect"].startswith(reverse("account_login"))
    assert "Olivia Owner" not in response.content.decode()
