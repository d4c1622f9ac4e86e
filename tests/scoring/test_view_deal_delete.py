"""Deleting a deal: the deals after it move up, totals are derived again, the history keeps it."""

from __future__ import annotations

from django.urls import reverse

from scoring.models import DealChange
from scoring.services.deals import add_deal
from scoring.services.state import sheet_state
from tests.scoring.conftest import hand, make_sheet


def test_deleting_a_deal_recomputes_and_keeps_it_in_the_history(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"], first_dealer=0)
    first = add_deal(sheet, by=owner, facts=hand(0, [True] * 3, [None, 40, 10]))
    add_deal(sheet, by=owner, facts=hand(1, [True] * 3, [5, None, 6]))
    client.force_login(member)
    url = reverse("scoring:deal_delete", args=[group.slug, sheet.pk, first.pk])
    assert "Delete this deal?" in client.get(url).content.decode()
    assert client.post(url).status_code == 302
    state = sheet_state(sheet)
    assert state.status.totals == (5, -30, 6)
    assert state.status.next_dealer == 1
    assert [row.number for row in state.rows] == [1]
    assert DealChange.objects.filter(action="deleted", by=member, deal=first).exists()
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "Mona Member deleted deal 1" in page
    assert "Olivia Owner entered deal 2" in page


def test_deleting_by_htmx_answers_with_the_live_part(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    deal = add_deal(sheet, by=owner, facts=hand(0, [True, True], [None, 20]))
    client.force_login(owner)
    response = client.post(
        reverse("scoring:deal_delete", args=[group.slug, sheet.pk, deal.pk]), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="sheet-live"')
    # The table keeps the deleted deal's row, now the Undo notice, where the user tapped Delete.
    row = body.split(f'<tr id="deal-{deal.pk}" class="undo-row">')[1].split("</tr>")[0]
    assert "Deal deleted." in row
    assert reverse("scoring:deal_restore", args=[group.slug, sheet.pk, deal.pk]) in row
