"""Who sees and changes a sheet: outsiders get 404 on every sheet page; members view; players enter."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Deal
from scoring.services.deals import add_deal
from scoring.services.sheets import link_guest
from tests.scoring.conftest import hand, keyed, make_sheet


@pytest.fixture
def sheet(group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Guest Gina"])
    add_deal(sheet, by=owner, facts=hand(0, [True, True, False], [None, 20, None]))
    return sheet


def sheet_urls(group, sheet):
    deal = sheet.deals.get()
    args = [group.slug, sheet.pk]
    return [
        ("get", reverse("scoring:sheet_list", args=[group.slug])),
        ("get", reverse("scoring:sheet_new", args=[group.slug])),
        ("get", reverse("scoring:sheet_create", args=[group.slug, "classic"])),
        ("get", reverse("scoring:group_export", args=[group.slug, "csv"])),
        ("get", reverse("scoring:sheet", args=args)),
        ("get", reverse("scoring:sheet_live", args=args)),
        ("get", reverse("scoring:deal_new", args=args)),
        ("get", reverse("scoring:deal_edit", args=[*args, deal.pk])),
        ("post", reverse("scoring:deal_delete", args=[*args, deal.pk])),
        ("post", reverse("scoring:sheet_do_not_count", args=args)),
        ("post", reverse("scoring:count_cards", args=args)),
        ("get", reverse("scoring:opening_check", args=args)),
        ("get", reverse("scoring:sheet_export", args=[*args, "json"])),
        ("post", reverse("scoring:link_guest", args=[group.slug])),
    ]


def test_an_outsider_gets_404_on_every_sheet_page(client, group, sheet, outsider):
    client.force_login(outsider)
    for method, url in sheet_urls(group, sheet):
        assert getattr(client, method)(url).status_code == 404, url
    assert Deal.objects.filter(deleted_at__isnull=True).count() == 1


def test_a_logged_out_visitor_is_sent_to_log_in(client, group, sheet):
    response = client.get(sheet.get_absolute_url())
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_a_member_who_is_not_on_the_sheet_views_it_but_cannot_enter(client, group, sheet, admin):
    # admin manages the group, so use a plain member who is not seated instead
    from tests.factories import MembershipFactory

    onlooker = MembershipFactory(group=group, user__display_name="Nadia Onlooker").user
    client.force_login(onlooker)
    page = client.get(sheet.get_absolute_url())
    assert page.status_code == 200
    assert "Enter deal 2" not in page.content.decode()
    assert client.get(reverse("scoring:deal_new", args=[group.slug, sheet.pk])).status_code == 403
    response = client.post(reverse("scoring:deal_new", args=[group.slug, sheet.pk]), keyed({"winner": "1"}))
    assert response.status_code == 403
    assert sheet.deals.count() == 1


def test_a_member_seated_on_the_sheet_enters_deals(client, group, sheet, member):
    client.force_login(member)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Enter deal 2" in page
    response = client.post(
        reverse("scoring:deal_new", args=[group.slug, sheet.pk]),
        keyed({"winner": "1", "finish": "normal", "opened_0": "on", "held_points_0": "12"}),
    )
    assert response.status_code == 302
    assert sheet.deals.count() == 2


def test_a_guest_linked_to_a_new_member_lets_them_enter_and_counts_as_them(client, group, sheet, owner):
    from tests.factories import MembershipFactory

    gina = MembershipFactory(group=group, user__display_name="Gina").user
    link_guest(group=group, by=owner, guest_name="guest gina", user=gina)
    client.force_login(gina)
    assert "Enter deal 2" in client.get(sheet.get_absolute_url()).content.decode()
    seat = sheet.players.get(seat=2)
    assert seat.user == gina
    assert seat.display_name == "Gina"
    assert seat.player_key == f"user:{gina.pk}"
