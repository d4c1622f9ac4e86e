"""A sheet has a date played (today unless said) and an optional place; the sheet list shows
the rule set and that date. Existing sheets take their creation date (migration 0007)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from scoring.models import Sheet


def test_a_sheet_started_with_a_date_and_place_shows_them_in_the_list(client, group, owner, member):
    client.force_login(owner)
    url = reverse("scoring:sheet_create", args=[group.slug, "kuwaiti"])
    form = client.get(url).content.decode()
    assert f'value="{timezone.localdate().isoformat()}"' in form
    response = client.post(
        url,
        {
            "member_0": owner.pk,
            "member_1": member.pk,
            "guest_2": "Gina",
            "guest_3": "Hadi",
            "first_dealer": "0",
            "played_on": "2026-11-20",
            "place": "Abu Omar's diwan",
        },
    )
    sheet = Sheet.objects.get()
    assert response["Location"] == sheet.get_absolute_url()
    assert (sheet.played_on, sheet.place) == (dt.date(2026, 11, 20), "Abu Omar's diwan")
    listing = client.get(reverse("scoring:sheet_list", args=[group.slug])).content.decode()
    assert '<time datetime="2026-11-20">' in listing
    assert "Kuwaiti" in listing
    assert "Abu Omar&#x27;s diwan" in listing


def test_a_sheet_started_without_a_date_is_played_today(client, group, owner, member):
    client.force_login(owner)
    url = reverse("scoring:sheet_create", args=[group.slug, "classic"])
    client.post(url, {"member_0": owner.pk, "member_1": member.pk, "first_dealer": "0"})
    assert Sheet.objects.get().played_on == timezone.localdate()


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    targets = targets + [node for node in executor.loader.graph.leaf_nodes() if node[0] != "scoring"]
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_existing_sheets_take_their_creation_date_and_deals_get_a_first_version():
    old = _migrate([("scoring", "0006_player_statistics")])
    Group = old.get_model("handsite", "PlayerGroup")
    OldSheet = old.get_model("scoring", "Sheet")
    OldDeal = old.get_model("scoring", "Deal")
    group = Group.objects.create(name="G", slug="g")
    created = dt.datetime(2025, 3, 9, 20, 0, tzinfo=dt.UTC)
    sheet = OldSheet.objects.create(
        group=group, rule_set="classic", options={}, first_dealer=0, created_at=created
    )
    OldDeal.objects.create(sheet=sheet, position=1, facts={"winner": None})
    try:
        new = _migrate([("scoring", "0007_deal_form_id_version_date_played")])
        assert new.get_model("scoring", "Sheet").objects.get(pk=sheet.pk).played_on == timezone.localdate(
            created
        )
        deal = new.get_model("scoring", "Deal").objects.get()
        assert (deal.version, deal.client_id) == (1, None)
    finally:  # the later migrations back, for the tests after this one
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
