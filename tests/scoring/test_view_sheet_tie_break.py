"""The end of a game on the sheet: a tie for the best total after the rule set's deals is broken by
extra deals (classic by default), or is a shared win (the tie-break option off)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.services.deals import add_deal
from scoring.services.errors import SheetError
from scoring.services.standings import group_standings
from scoring.services.state import sheet_state
from tests.scoring.conftest import hand, keyed, make_sheet

# Classic, three players: Olivia and Mona both end five deals on -10, Gina on 170.
TIED_AFTER_FIVE = [
    hand(0, [True, True, True], [None, 20, 50]),
    hand(1, [True, True, True], [20, None, 50]),
    hand(0, [True, True, True], [None, 20, 50]),
    hand(1, [True, True, True], [20, None, 50]),
    hand(2, [True, True, True], [10, 10, None]),
]


def play(sheet, by, deals):
    for facts in deals:
        add_deal(sheet, by=by, facts=facts)


def live_part(client, sheet):
    page = client.get(sheet.get_absolute_url()).content.decode()
    return page.split('id="sheet-live"')[1].split('data-testid="history"')[0]


def test_a_classic_game_tied_after_five_deals_goes_on_to_a_tie_break_deal_and_then_has_a_winner(
    client, group, owner, member
):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"])
    play(sheet, owner, TIED_AFTER_FIVE)
    client.force_login(member)
    live = live_part(client, sheet)
    assert "Tied: a tie-break deal is played." in live
    assert "Enter deal 6" in live
    assert 'data-testid="winner"' not in live
    sheet.refresh_from_db()
    assert not sheet.finished
    assert list(sheet_state(sheet).status.totals_by_seat()) == [-10, -10, 170]

    # The tie-break deal is entered like any other and marked "TB" in the table.
    response = client.post(
        reverse("scoring:deal_new", args=[group.slug, sheet.pk]),
        keyed(
            {
                "winner": "0",
                "finish": "normal",
                "opened_1": "on",
                "held_points_1": "10",
                "opened_2": "on",
                "held_points_2": "10",
            }
        ),
    )
    assert response.status_code == 302
    live = live_part(client, sheet)
    assert "🏆 Winner: Olivia Owner" in live
    assert "Tied:" not in live
    assert "Enter deal" not in live
    assert "TB 6" in live
    sheet.refresh_from_db()
    assert (sheet.finished, sheet.winner_seats) == (True, [0])
    assert list(sheet_state(sheet).status.totals_by_seat()) == [-40, 0, 180]
    # The game is over: no seventh deal.
    with pytest.raises(SheetError, match="already over"):
        add_deal(sheet, by=owner, facts=hand(1, [True, True, True], [10, None, 10]))


def test_a_tie_break_deal_that_stays_tied_is_followed_by_another(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"])
    play(sheet, owner, [*TIED_AFTER_FIVE, hand(2, [True, True, True], [10, 10, None])])
    client.force_login(owner)
    live = live_part(client, sheet)
    assert "Tied: a tie-break deal is played." in live
    assert "Enter deal 7" in live


def test_with_the_tie_break_option_off_a_tie_is_a_shared_win(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina"], options={"tie_break": False})
    play(sheet, owner, TIED_AFTER_FIVE)
    client.force_login(member)
    live = live_part(client, sheet)
    assert "🏆 Shared win: Olivia Owner · Mona Member" in live
    assert "Tied:" not in live
    assert "Enter deal" not in live
    sheet.refresh_from_db()
    assert (sheet.finished, sheet.winner_seats) == (True, [0, 1])
    standings = {s.name: (s.wins, s.sheets) for s in group_standings(group)}
    assert standings == {"Olivia Owner": (1, 1), "Mona Member": (1, 1), "Gina": (0, 1)}


def test_hand_and_foot_has_no_tie_break_a_tie_for_the_highest_total_is_shared(client, group, owner, member):
    sheet = make_sheet(group, owner, "hand-and-foot", [owner, member])
    side = {"red_books": 1, "black_books": 1, "melded_points": 200, "held": [0]}
    deals = [
        {"sides": [{**side, "went_out": True, "held": []}, side]},
        {"sides": [side, {**side, "went_out": True, "held": []}]},
    ]
    assert sheet_state(sheet).status.scoring_deals_required == 4
    play(sheet, owner, deals * 2)  # each side goes out twice: equal totals
    client.force_login(owner)
    sheet.refresh_from_db()
    live = live_part(client, sheet)
    assert "🏆 Shared win: Olivia Owner · Mona Member" in live
    assert sheet.winner_seats == [0, 1]
