"""Exports of a sheet and of the group's sheets: raw facts and derived scores, as CSV and JSON."""

from __future__ import annotations

import csv
import datetime as dt
import io

from django.urls import reverse

from scoring.services.deals import add_deal
from scoring.services.sheets import mark_do_not_count
from tests.scoring.conftest import hand, make_sheet


def test_a_sheet_exports_as_json_with_facts_scores_and_totals_and_no_internal_ids(
    client, group, owner, member
):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    add_deal(sheet, by=owner, facts=hand(0, [True, True, True, False], [None, "KS 7H JK", "AS 2D", None]))
    client.force_login(member)
    response = client.get(reverse("scoring:sheet_export", args=[group.slug, sheet.pk, "json"]))
    assert response["Content-Disposition"].endswith('.json"')
    (data,) = response.json()["sheets"]
    assert data["rule_set"] == "classic"
    assert data["deals"][0]["facts"]["held"][1] == "KS 7H JK"
    assert data["deals"][0]["points_by_seat"] == [-30, 32, 13, 100]
    assert data["deals"][0]["dealer"] == "Olivia Owner"
    assert data["deals"][0]["score"]["sides"][1]["parts"][0]["label"] == "Cards left: {cards} = {value}"
    assert data["totals"] == [-30, 32, 13, 100]
    assert data["players"][0] == {"seat": 1, "name": "Olivia Owner", "guest": False}
    # Seats count from 1 everywhere, like the players: the deal's winner, the score's sides and parts.
    assert data["deals"][0]["facts"]["winner"] == 1
    assert [side["seats"] for side in data["deals"][0]["score"]["sides"]] == [[1], [2], [3], [4]]
    part_seats = {
        part["seat"]
        for side in data["deals"][0]["score"]["sides"]
        for part in side["parts"]
        if part["seat"] is not None
    }
    assert part_seats
    assert part_seats <= {1, 2, 3, 4}
    assert 0 not in part_seats
    assert (data["status"], data["partnership"], data["played_on"]) == (
        "unfinished",
        False,
        str(sheet.played_on),
    )
    text = response.content.decode()
    for internal in ('"id"', '"user_id"', '"position"', f'"{owner.email}"'):
        assert internal not in text


def test_the_groups_sheets_export_as_a_wide_csv_one_row_per_deal_one_column_per_player(
    client, group, owner, member
):
    one = make_sheet(group, owner, "classic", [owner, member], title="Friday")
    add_deal(one, by=owner, facts=hand(0, [True, True], [None, 20]))
    add_deal(one, by=owner, facts=hand(None, [False, False], [None, None]))
    add_deal(one, by=owner, facts=hand(1, [True, True], [15, None]))
    make_sheet(group, owner, "hand-and-foot-teams", [owner, member, "Gina", "Hadi"])
    client.force_login(member)
    response = client.get(reverse("scoring:group_export", args=[group.slug, "csv"]))
    text = response.content.decode()
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[0][:3] == ["Sheet", "Friday", "classic"]
    assert rows[1:6] == [
        ["Deal", "Dealer", "Olivia Owner", "Mona Member"],
        ["1", "Olivia Owner", "-30", "20"],
        ["void", "Mona Member", "0", "0"],
        ["2", "Olivia Owner", "15", "-30"],
        ["Total", "", "-15", "-10"],
    ]
    assert rows[6] == []
    assert rows[8] == ["Deal", "Dealer", "Olivia Owner & Gina", "Mona Member & Hadi"]
    assert rows[9] == ["Total", "", "0", "0"]


def test_an_unknown_export_format_is_404(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(owner)
    assert client.get(reverse("scoring:sheet_export", args=[group.slug, sheet.pk, "xml"])).status_code == 404


def test_csv_cells_that_a_spreadsheet_would_run_as_formulas_are_quoted(client, group, owner, member):
    names = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-3", "@SUM(A1)"]
    sheet = make_sheet(group, owner, "classic", names, title="=1+1")
    add_deal(sheet, by=owner, facts=hand(0, [True] * 4, [None, 20, 20, 20]))
    client.force_login(member)
    response = client.get(reverse("scoring:sheet_export", args=[group.slug, sheet.pk, "csv"]))
    rows = list(csv.reader(io.StringIO(response.content.decode().lstrip("\ufeff"))))
    assert rows[0][1] == "'=1+1"
    assert rows[1][2:] == ["'" + name for name in names]
    assert rows[2][1] == "'" + names[0]  # the dealer
    assert rows[2][2] == "-30"  # numbers are not text: they stay numbers


def test_csv_safe_quotes_every_formula_start_and_nothing_else():
    from scoring.exports import csv_safe

    for text in ("=A1", "+A1", "-A1", "@A1", "\tA1", "\rA1"):
        assert csv_safe(text) == "'" + text
    assert csv_safe("Gina") == "Gina"
    assert csv_safe(-30) == -30


def test_the_group_csv_marks_each_sheet_finished_unfinished_or_not_counted_with_its_winner_and_partnerships(
    client, group, owner, member
):
    finished = make_sheet(
        group, owner, "classic", [owner, member], title="Won", played_on=dt.date(2026, 11, 1)
    )
    for _ in range(5):
        add_deal(finished, by=owner, facts=hand(1, [True, True], [10, None]))
    make_sheet(group, owner, "classic", [owner, member], title="Open", played_on=dt.date(2026, 11, 2))
    junk = make_sheet(group, owner, "classic", [owner, member], title="Junk", played_on=dt.date(2026, 11, 3))
    mark_do_not_count(junk, by=owner)
    make_sheet(
        group,
        owner,
        "jordanian",
        [owner, member, "Gina", "Hadi"],
        options={"teams": True},
        title="Teams",
        played_on=dt.date(2026, 11, 4),
    )
    client.force_login(member)
    response = client.get(reverse("scoring:group_export", args=[group.slug, "csv"]))
    rows = list(csv.reader(io.StringIO(response.content.decode().lstrip("\ufeff"))))
    headings = [row for row in rows if row and row[0] == "Sheet"]
    assert headings == [
        ["Sheet", "Won", "classic", "2026-11-01", "finished", "Winner", "Mona Member"],
        ["Sheet", "Open", "classic", "2026-11-02", "unfinished", "Winner", ""],
        ["Sheet", "Junk", "classic", "2026-11-03", "do not count", "Winner", ""],
        ["Sheet", "Teams", "jordanian (partnership)", "2026-11-04", "unfinished", "Winner", ""],
    ]
    data = client.get(reverse("scoring:group_export", args=[group.slug, "json"])).json()["sheets"]
    assert [(sheet["status"], sheet["partnership"], sheet["winners"]) for sheet in data] == [
        ("finished", False, ["Mona Member"]),
        ("unfinished", False, []),
        ("do_not_count", False, []),
        ("unfinished", True, []),
    ]
