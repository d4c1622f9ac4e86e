"""Visible Edit/Delete on every deal row, deletion with "Undo", "Undo last deal", deleting or editing
a deal of a finished game says what changes, and "Rematch with the same players"."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.models import Deal, DealChange, Sheet
from scoring.services.deals import add_deal
from scoring.services.state import sheet_state
from tests.scoring.conftest import hand, keyed, make_sheet

pytestmark = pytest.mark.django_db


def _finished(group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Layla"], first_dealer=1)
    deals = [add_deal(sheet, by=owner, facts=hand(2, [True] * 3, [10, 10, None])) for _ in range(5)]
    return sheet, deals


def test_every_deal_row_has_visible_edit_and_delete(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    add_deal(sheet, by=owner, facts=hand(0, [True, True], [None, 20]))
    client.force_login(owner)
    page = client.get(sheet.get_absolute_url()).content.decode()
    row = page.split('<tr id="deal-')[1].split("<details>")[0]
    assert 'data-testid="edit-deal"' in row
    assert 'data-testid="delete-deal"' in row


def test_a_deleted_deal_can_be_undone_and_undo_last_deal_deletes_the_last(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    first = add_deal(sheet, by=owner, facts=hand(0, [True, True], [None, 20]))
    last = add_deal(sheet, by=owner, facts=hand(1, [True, True], [30, None]))
    client.force_login(owner)
    page = client.get(sheet.get_absolute_url()).content.decode()
    undo_last = page.split('data-testid="undo-last"')[0].rsplit("<form", 1)[1]
    assert reverse("scoring:deal_delete", args=[group.slug, sheet.pk, last.pk]) in undo_last
    response = client.post(reverse("scoring:deal_delete", args=[group.slug, sheet.pk, last.pk]))
    assert response.url == f"{sheet.get_absolute_url()}?deleted={last.pk}#deal-{last.pk}"
    page = client.get(response.url).content.decode()
    assert "Deal deleted." in page
    restore = reverse("scoring:deal_restore", args=[group.slug, sheet.pk, last.pk])
    assert restore in page
    client.post(restore)
    assert list(Deal.objects.filter(deleted_at__isnull=True).order_by("position")) == [first, last]
    assert DealChange.objects.filter(action="restored").count() == 1
    assert sheet_state(sheet).status.scoring_deals_played == 2
    # A tampered ?deleted= is ignored.
    assert client.get(sheet.get_absolute_url(), {"deleted": "9" * 5000}).status_code == 200


def test_deleting_a_deal_of_a_finished_game_says_what_changes(client, group, owner, member):
    sheet, deals = _finished(group, owner, member)
    client.force_login(owner)
    page = client.get(
        reverse("scoring:deal_delete", args=[group.slug, sheet.pk, deals[-1].pk])
    ).content.decode()
    assert "Layla would no longer be the winner." in page
    assert "The game would be open again: deal 5 would be entered next" in page


def test_editing_a_deal_of_a_finished_game_says_what_changed(client, group, owner, member):
    sheet, deals = _finished(group, owner, member)
    client.force_login(owner)
    url = reverse("scoring:deal_edit", args=[group.slug, sheet.pk, deals[0].pk])
    data = {"winner": "0", "finish": "normal", "opened_1": "on", "held_points_1": "150", "opened_2": "on"}
    data["held_points_2"] = "150"
    response = client.post(url, keyed(data), follow=True)
    page = response.content.decode()
    # Olivia 10 (-30 + 4 × 10), Mona 190, Layla 30 (150 - 4 × 30): Olivia wins now.
    assert "Layla is no longer the winner." in page
    assert "Olivia Owner is now the winner." in page
    sheet.refresh_from_db()
    assert sheet.winner_seats == [0]


def test_rematch_starts_a_new_sheet_with_the_same_players_and_the_next_dealer(client, group, owner, member):
    sheet, _deals = _finished(group, owner, member)
    client.force_login(owner)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert 'data-testid="rematch"' in page
    response = client.post(reverse("scoring:sheet_rematch", args=[group.slug, sheet.pk]))
    new = Sheet.objects.exclude(pk=sheet.pk).get()
    assert response.url == new.get_absolute_url()
    assert [(p.seat, p.user_id, p.name) for p in new.players.order_by("seat")] == [
        (p.seat, p.user_id, p.name) for p in sheet.players.order_by("seat")
    ]
    assert (new.rule_set, new.options, new.first_dealer) == (sheet.rule_set, sheet.options, 2)


def test_an_outsider_cannot_rematch_or_restore(client, group, owner, member, outsider):
    sheet, _deals = _finished(group, owner, member)
    client.force_login(outsider)
    assert client.post(reverse("scoring:sheet_rematch", args=[group.slug, sheet.pk])).status_code == 404
    assert Sheet.objects.count() == 1
