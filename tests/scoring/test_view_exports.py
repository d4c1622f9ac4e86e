"""Exports of a sheet and of the group's sheets: raw facts and derived scores, as CSV and JSON."""

from __future__ import annotations

import csv
import io
import json

from django.urls import reverse

from scoring import services
from tests.scoring.conftest import hand, make_sheet


def test_a_sheet_exports_as_json_with_facts_scores_and_totals(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member, "Gina", "Hadi"])
    services.add_deal(
        sheet, by=owner, facts=hand(0, [True, True, True, False], [None, "KS 7H JK", "AS 2D", None])
    )
    client.force_login(member)
    response = client.get(reverse("scoring:sheet_export", args=[group.slug, sheet.pk, "json"]))
    assert response["Content-Disposition"].endswith('.json"')
    (data,) = response.json()["sheets"]
    assert data["rule_set"] == "classic"
    assert data["deals"][0]["facts"]["held"][1] == "KS 7H JK"
    assert data["deals"][0]["points_by_seat"] == [-30, 32, 13, 100]
    assert data["deals"][0]["score"]["sides"][1]["parts"][0]["label"] == "Cards left: {cards} = {value}"
    assert data["totals"] == [-30, 32, 13, 100]
    assert [p["name"] for p in data["players"]] == ["Olivia Owner", "Mona Member", "Gina", "Hadi"]


def test_the_groups_sheets_export_as_csv_one_row_per_player_and_deal(client, group, owner, member):
    one = make_sheet(group, owner, "classic", [owner, member])
    services.add_deal(one, by=owner, facts=hand(0, [True, True], [None, 20]))
    services.add_deal(one, by=owner, facts=hand(1, [True, True], [15, None]))
    make_sheet(group, owner, "hand-and-foot", [owner, member])
    client.force_login(member)
    response = client.get(reverse("scoring:group_export", args=[group.slug, "csv"]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 4
    assert [(r["player"], r["points"], r["total"]) for r in rows] == [
        ("Olivia Owner", "-30", "-30"),
        ("Mona Member", "20", "20"),
        ("Olivia Owner", "15", "-15"),
        ("Mona Member", "-30", "-10"),
    ]
    assert json.loads(rows[0]["facts"])["winner"] == 0


def test_an_unknown_export_format_is_404(client, group, owner, member):
    sheet = make_sheet(group, owner, "classic", [owner, member])
    client.force_login(owner)
    assert client.get(reverse("scoring:sheet_export", args=[group.slug, sheet.pk, "xml"])).status_code == 404


def test_csv_cells_that_a_spreadsheet_would_run_as_formulas_are_quoted(client, group, owner, member):
    names = ['=HYPERLINK("http://evil.example","x")', "+1+2", "-3", "@SUM(A1)"]
    sheet = make_sheet(group, owner, "classic", names, title="=1+1")
    services.add_deal(sheet, by=owner, facts=hand(0, [True] * 4, [None, 20, 20, 20]))
    client.force_login(member)
    response = client.get(reverse("scoring:sheet_export", args=[group.slug, sheet.pk, "csv"]))
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["player"] for r in rows] == ["'" + name for name in names]
    assert {r["dealer"] for r in rows} == {"'" + names[0]}
    assert {r["title"] for r in rows} == {"'=1+1"}
    assert rows[0]["points"] == "-30"  # numbers are not text: they stay numbers
    assert rows[0]["facts"].startswith("{")


def test_csv_safe_quotes_every_formula_start_and_nothing_else():
    from scoring.exports import csv_safe

    for text in ("=A1", "+A1", "-A1", "@A1", "\tA1", "\rA1"):
        assert csv_safe(text) == "'" + text
    assert csv_safe("Gina") == "Gina"
    assert csv_safe(-30) == -30
