"""Deleting a junk sheet: its creator or a group admin, after a confirmation page; it leaves lists,
standings, statistics and ratings at once; admins see it with its history and can restore it for 30
days; the daily purge removes it after that."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.urls import reverse
from django.utils import timezone

from handsite.models import Role
from scoring import tasks
from scoring.models import DealFact, PlayerGame, RatedGame, Rating, Sheet
from scoring.services.access import can_delete_sheet
from scoring.services.deals import add_deal
from scoring.services.errors import SheetPermissionDenied
from scoring.services.ratings import ratings_updating, recompute_ratings
from scoring.services.sheets import delete_sheet
from scoring.services.standings import counted_sheets, group_standings
from tests.factories import MembershipFactory
from tests.scoring.conftest import hand, make_sheet

pytestmark = pytest.mark.django_db


def _finished(group, creator, players):
    sheet = make_sheet(group, creator, "classic", players, title="Junk")
    for _ in range(5):
        add_deal(sheet, by=creator, facts=hand(0, [True] * len(players), [None] + [10] * (len(players) - 1)))
    sheet.refresh_from_db()
    assert sheet.finished
    return sheet


def _delete_url(group, sheet):
    return reverse("scoring:sheet_delete", args=[group.slug, sheet.pk])


def test_the_creator_confirms_on_a_page_then_the_sheet_is_gone_from_list_and_standings(
    client, group, owner, member
):
    sheet = _finished(group, member, [member, owner])
    client.force_login(member)
    assert "Delete this sheet" in client.get(sheet.get_absolute_url()).content.decode()
    confirm = client.get(_delete_url(group, sheet))
    assert confirm.status_code == 200
    assert "Delete the sheet" in confirm.content.decode()
    assert Sheet.objects.filter(pk=sheet.pk).exists()  # the page alone deletes nothing
    response = client.post(_delete_url(group, sheet))
    assert response.status_code == 302
    sheet = Sheet.all_objects.get(pk=sheet.pk)
    assert sheet.deleted_by == member
    assert sheet.deleted_at is not None
    assert not Sheet.objects.filter(pk=sheet.pk).exists()
    listing = client.get(reverse("scoring:sheet_list", args=[group.slug])).content.decode()
    assert sheet.get_absolute_url() not in listing
    assert client.get(sheet.get_absolute_url()).status_code == 404
    standings = client.get(reverse("scoring:standings", args=[group.slug])).content.decode()
    assert "Mona Member" not in standings
    assert group_standings(group) == []


def test_deleting_takes_the_sheet_out_of_ratings_and_statistics_at_once(
    group, owner, member, django_capture_on_commit_callbacks
):
    kept = _finished(group, owner, [owner, member])
    junk = _finished(group, member, [member, owner])
    assert RatedGame.objects.filter(source="sheet", source_id=junk.pk).exists()
    assert DealFact.objects.filter(source="sheet", source_id=junk.pk).exists()
    with django_capture_on_commit_callbacks(execute=True):  # the queued ratings replay runs
        delete_sheet(junk, by=member)
    assert not ratings_updating(group)
    assert not RatedGame.objects.filter(source="sheet", source_id=junk.pk).exists()
    assert not DealFact.objects.filter(source="sheet", source_id=junk.pk).exists()
    assert PlayerGame.objects.filter(game__source_id=junk.pk, game__source="sheet").count() == 0
    # The ratings are those of the one game left, as a full recompute makes them.
    stored = {(r.player_key, r.family): (r.mu, r.games) for r in Rating.objects.filter(group=group)}
    recompute_ratings(group.pk)
    again = {(r.player_key, r.family): (r.mu, r.games) for r in Rating.objects.filter(group=group)}
    assert stored == again
    assert {games for _, games in stored.values()} == {1}
    assert kept.pk in {s.pk for s in counted_sheets(group)}


def test_a_group_admin_deletes_a_sheet_someone_else_made(client, group, owner, admin, member):
    sheet = _finished(group, member, [member, owner])
    client.force_login(admin)
    assert client.post(_delete_url(group, sheet)).status_code == 302
    assert Sheet.all_objects.get(pk=sheet.pk).deleted_by == admin


def test_a_member_who_neither_made_it_nor_manages_the_group_cannot_delete(client, group, owner, member):
    sheet = _finished(group, owner, [owner, member])
    client.force_login(member)
    assert "Delete this sheet" not in client.get(sheet.get_absolute_url()).content.decode()
    assert client.get(_delete_url(group, sheet)).status_code == 403
    assert client.post(_delete_url(group, sheet)).status_code == 403
    assert Sheet.objects.filter(pk=sheet.pk).exists()
    with pytest.raises(SheetPermissionDenied):
        delete_sheet(sheet, by=member)


def test_admins_see_the_deleted_sheet_with_its_history_and_restore_it(client, group, owner, admin, member):
    sheet = _finished(group, member, [member, owner])
    delete_sheet(sheet, by=member)
    deleted_url = reverse("scoring:sheets_deleted", args=[group.slug])
    client.force_login(member)
    assert client.get(deleted_url).status_code == 403
    assert client.post(reverse("scoring:sheet_restore", args=[group.slug, sheet.pk])).status_code == 403
    client.force_login(admin)
    page = client.get(deleted_url).content.decode()
    assert f'data-sheet="{sheet.pk}"' in page
    assert "Mona Member deleted this sheet" in page
    assert "Mona Member entered deal 5" in page
    with time_machine.travel(timezone.now() + dt.timedelta(days=29), tick=False):
        client.force_login(admin)  # a session of 29 days ago has expired
        response = client.post(reverse("scoring:sheet_restore", args=[group.slug, sheet.pk]))
    assert response.status_code == 302
    assert response.url == sheet.get_absolute_url()
    sheet = Sheet.objects.get(pk=sheet.pk)
    assert sheet.deleted_at is None
    assert RatedGame.objects.filter(source="sheet", source_id=sheet.pk).exists()
    assert DealFact.objects.filter(source="sheet", source_id=sheet.pk).exists()
    assert [s.name for s in group_standings(group)] == ["Mona Member", "Olivia Owner"]
    assert "Adam Admin restored this sheet" in client.get(sheet.get_absolute_url()).content.decode()


def test_the_daily_purge_removes_sheets_deleted_more_than_30_days_ago(client, group, owner, admin, member):
    old = _finished(group, member, [member, owner])
    delete_sheet(old, by=member)
    with time_machine.travel(timezone.now() + dt.timedelta(days=20), tick=False):
        recent = _finished(group, member, [member, owner])
        delete_sheet(recent, by=owner)
    with time_machine.travel(timezone.now() + dt.timedelta(days=30, hours=1), tick=False):
        client.force_login(admin)
        page = client.get(reverse("scoring:sheets_deleted", args=[group.slug])).content.decode()
        assert f'data-sheet="{old.pk}"' not in page
        assert f'data-sheet="{recent.pk}"' in page
        assert client.post(reverse("scoring:sheet_restore", args=[group.slug, old.pk])).status_code == 404
        assert tasks.purge_deleted_sheets() == 1
    assert not Sheet.all_objects.filter(pk=old.pk).exists()
    assert Sheet.all_objects.filter(pk=recent.pk).exists()


def test_the_purge_runs_daily_from_the_beat_schedule(settings):
    entry = settings.CELERY_BEAT_SCHEDULE["purge-deleted-sheets"]
    assert entry["task"] == "scoring.tasks.purge_deleted_sheets"


def test_a_second_plain_member_is_refused_even_for_a_sheet_they_played(group, owner, member):
    other = MembershipFactory(group=group, role=Role.MEMBER, user__display_name="Nadia").user
    sheet = _finished(group, member, [member, other])
    assert not can_delete_sheet(sheet, other)
    assert can_delete_sheet(sheet, member)
    assert can_delete_sheet(sheet, owner)
