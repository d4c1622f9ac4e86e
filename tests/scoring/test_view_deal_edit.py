"""Correcting a past deal: everything after it is derived again (totals and the next dealer)."""

from __future__ import annotations

from django.urls import reverse

from scoring.models import DealChange
from scoring.services.deals import add_deal
from scoring.services.state import sheet_state
from tests.scoring.conftest import hand, make_sheet


def test_editing_a_past_deal_changes_the_totals_and_the_next_dealer(client, group, owner, member):
    sheet = make_sheet(group, owner, "jordanian", [owner, member, "Gina"], first_dealer=0)
    first = add_deal(sheet, by=owner, facts=hand(0, [True] * 3, [None, 40, 10]))
    add_deal(sheet, by=owner, facts=hand(1, [True] * 3, [20, None, 20]))
    state = sheet_state(sheet)
    assert state.status.totals == (-10, 10, 30)
    assert [row.dealer for row in state.rows] == [0, 1]
    assert state.status.next_dealer == 2  # seats 0 and 2 tie at 20; first after dealer 1 is seat 2

    client.force_login(member)
    edit = reverse("scoring:deal_edit", args=[group.slug, sheet.pk, first.pk])
    page = client.get(edit).content.decode()
    assert 'value="40"' in page
    response = client.post(
        edit,
        {
            "winner": "1",
            "finish": "normal",
            "opened_0": "on",
            "held_points_0": "40",
            "opened_2": "on",
            "held_points_2": "10",
        },
    )
    assert response.status_code == 302

    state = sheet_state(sheet)
    assert state.status.totals == (60, -60, 30)
    assert [row.dealer for row in state.rows] == [0, 0]
    assert state.status.next_dealer == 0  # dealer 0 is now among the tied highest
    change = DealChange.objects.filter(action="edited").get()
    assert change.by == member
    assert change.old_facts["winner"] == 0
    assert change.new_facts["winner"] == 1
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Mona Member edited deal 1" in page
    assert "Olivia Owner entered deal 2" in page


def test_an_edit_the_engine_refuses_changes_nothing(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    deal = add_deal(sheet, by=owner, facts=hand(0, [True, True], [None, 20]))
    client.force_login(owner)
    edit = reverse("scoring:deal_edit", args=[group.slug, sheet.pk, deal.pk])
    response = client.post(edit, {"winner": "0", "finish": "normal", "opened_1": "on", "held_points_1": "1"})
    assert "1 is not possible" in response.content.decode()
    deal.refresh_from_db()
    assert deal.facts["held"] == [None, 20]
    assert not DealChange.objects.filter(action="edited").exists()
