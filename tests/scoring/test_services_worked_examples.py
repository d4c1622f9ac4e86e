"""Every worked example of shared/rules/scoring-examples.md (1-13), through the score sheet's service:
a sheet is created, the deal's facts are entered, and the derived scores are checked."""

from __future__ import annotations

import pytest

from scoring.services.deals import add_deal
from scoring.services.errors import SheetError, part_text
from scoring.services.state import sheet_state
from scoring.services.table import check_opening, count_cards
from tests.scoring.conftest import hand, points


def test_example_1_classic_normal_going_out(sheet_factory, owner):
    sheet = sheet_factory("classic", ["A", "B", "C", "D"])
    add_deal(sheet, by=owner, facts=hand(0, [True, True, True, False], [None, "KS 7H JK", "AS 2D", None]))
    assert points(sheet) == (-30, 32, 13, 100)
    state = sheet_state(sheet)
    assert [part_text(p) for p in state.rows[0].score.sides[1].parts] == ["Cards left: KS 7H JK = 32"]


def test_example_2_classic_going_out_hand_doubles(sheet_factory, owner):
    sheet = sheet_factory("classic", ["A", "B", "C"])
    add_deal(sheet, by=owner, facts=hand(2, [True, False, False], ["5C 5D 9S", None, None], "hand"))
    assert points(sheet) == (38, 200, -60)


@pytest.mark.parametrize(
    ("rule_set", "low_run"),
    [("classic", 6), ("saudi", 6), ("kuwaiti", 6), ("jordanian", 16), ("egyptian", 16)],
)
def test_example_3_opening_values_through_the_sheets_opening_check(sheet_factory, rule_set, low_run):
    sheet = sheet_factory(rule_set, ["A", "B", "C"])
    assert check_opening(sheet, ["AS 2S 3S"]).total == low_run
    assert check_opening(sheet, ["QH KH AH"], indicator="AS").total == 31
    assert check_opening(sheet, ["10C 10D JK"], indicator="AS").total == 30
    assert check_opening(sheet, ["9S 10S JK"], wild_as=["JS"], indicator="AS").total == 29


def test_example_4_saudi_escalating_opening(sheet_factory):
    sheet = sheet_factory("saudi", ["A", "B", "C"])
    first = check_opening(sheet, ["QH KH AH", "9C 9D 9S"])
    assert (first.total, first.minimum, first.enough) == (58, 51, True)
    refused = check_opening(sheet, ["QH KH AH", "3S 4S 5S 6S 7S"], last_opening=58)
    assert (refused.total, refused.minimum, refused.enough) == (56, 59, False)
    accepted = check_opening(sheet, ["QH KH AH", "7S 7D 7C 7H"], last_opening=58)
    assert (accepted.total, accepted.enough) == (59, True)
    assert check_opening(sheet, ["QH KH AH"], last_opening=59).minimum == 60


def test_example_5_jordanian_indicator_through_picker_opening_check_and_a_deal(sheet_factory, owner):
    sheet = sheet_factory("jordanian", ["A", "B", "C"])
    # Cards left in hand: with indicator 7H a joker is a natural ace (11), an AH is wild (15).
    assert count_cards(sheet, "JK AH AC", indicator="7H").values == (11, 15, 11)
    assert count_cards(sheet, "JK AH", indicator="AS").values == (15, 11)
    assert check_opening(sheet, ["QH KH JK"], indicator="7H").total == 31
    assert check_opening(sheet, ["5S 5D AH"], indicator="7H").total == 15
    for illegal in ("5S AH JK", "AH AH 5S 5D"):
        with pytest.raises(SheetError):
            check_opening(sheet, [illegal], indicator="7H")
    add_deal(sheet, by=owner, facts=hand(0, [True, True, True], [None, "JK AH", "2C"], indicator="7H"))
    assert points(sheet) == (-30, 26, 2)


def test_example_6_jordanian_next_dealer_is_the_first_tied_highest_after_the_dealer(sheet_factory, owner):
    sheet = sheet_factory("jordanian", ["A", "B", "C", "D"], first_dealer=3)
    add_deal(sheet, by=owner, facts=hand(0, [True] * 4, [None, 45, 45, 12]))
    state = sheet_state(sheet)
    assert points(sheet) == (-30, 45, 45, 12)
    assert state.rows[0].dealer == 3
    assert state.status.next_dealer == 1


def test_example_7_kuwaiti_colored_hand(sheet_factory, owner):
    sheet = sheet_factory("kuwaiti", ["A", "B", "C"])
    add_deal(sheet, by=owner, facts=hand(0, [False, True, False], [None, "8H 9H JK", None], "colored"))
    assert points(sheet) == (-120, 148, 400)


def test_example_8_kuwaiti_announcement_win(sheet_factory, owner):
    sheet = sheet_factory("kuwaiti", ["A", "B", "C"])
    add_deal(sheet, by=owner, facts=hand(0, [True, True, False], [None, "AS 3C", None], "announcement"))
    assert points(sheet) == (-30, 14, 100)


def test_example_9_egyptian_suited_hand(sheet_factory, owner):
    sheet = sheet_factory("egyptian", ["A", "B", "C"])
    add_deal(sheet, by=owner, facts=hand(0, [False, True, False], [None, 12, None], "suited"))
    assert points(sheet) == (-240, 96, 800)


def test_example_10_classic_teams(sheet_factory, owner):
    sheet = sheet_factory("classic", ["A", "B", "C", "D"], options={"teams": True})
    add_deal(sheet, by=owner, facts=hand(1, [True, True, False, True], [20, None, None, "KS"]))
    state = sheet_state(sheet)
    assert {side.seats: side.points for side in state.rows[0].score.sides} == {(0, 2): 120, (1, 3): -30}
    assert state.side_names == ["A & C", "B & D"]
    assert state.status.totals == (120, -30)


def test_example_11_hand_and_foot(sheet_factory, owner):
    sheet = sheet_factory("hand-and-foot", ["A", "B"])
    facts = {
        "sides": [
            {
                "red_books": 1,
                "black_books": 1,
                "melded": "KS KH KD KC KS KH KD AS AH AD AC AS AH JK 5S 5H 5D 5C",
                "held": [None],
                "went_out": True,
            },
            {
                "red_books": 1,
                "black_books": 0,
                "melded": "7S 7H 7D 7C 7S 7H 7D QS QH QD",
                "held": ["JK 3H 9C"],
            },
        ]
    }
    add_deal(sheet, by=owner, facts=facts)
    assert points(sheet) == (1130, 10)


def test_example_12_hand_and_foot_teams_with_a_typed_foot(sheet_factory, owner):
    sheet = sheet_factory("hand-and-foot-teams", ["A", "B", "C", "D"])
    facts = {
        "sides": [
            {
                "red_books": 1,
                "black_books": 1,
                "melded_points": 1120 - 100 - 500 - 300,
                "held": [None, "QH 3D"],
                "went_out": True,
            },
            # Seat 1 holds 3H 7C; seat 3's foot was never picked up and is typed as 85.
            {"red_books": 0, "black_books": 0, "melded": "KS KH KD KC JK 5S 5H 5D", "held": ["3H 7C", 85]},
        ]
    }
    add_deal(sheet, by=owner, facts=facts)
    state = sheet_state(sheet)
    assert {side.seats: side.points for side in state.rows[0].score.sides} == {(0, 2): 1120, (1, 3): -490}
    assert state.status.next_opening_minimum == 90


def test_example_13_hand_and_foot_openings_through_the_sheets_opening_check(sheet_factory):
    sheet = sheet_factory("hand-and-foot-teams", ["A", "B", "C", "D"])
    assert check_opening(sheet, ["AS AH AD"]).enough
    check = check_opening(sheet, ["7S 7H 7D 7C", "4S 4H 4D"])
    assert (check.total, check.minimum, check.enough) == (55, 50, True)
    assert check_opening(sheet, ["KS KH JK"]).total == 70
    with pytest.raises(SheetError, match="outnumber"):
        check_opening(sheet, ["AS JK JK"])
