"""Exports of score sheets as CSV and JSON: the raw facts of every deal and the derived scores."""

from __future__ import annotations

import csv
import json

from django.http import Http404, HttpResponse

from scoring import services


def sheet_data(sheet) -> dict:
    """One sheet as plain data: players, options, every deal's raw facts and derived score, totals."""
    state = services.sheet_state(sheet)
    status = state.status
    return {
        "id": sheet.pk,
        "title": sheet.title,
        "rule_set": sheet.rule_set,
        "options": sheet.options,
        "first_dealer": sheet.first_dealer,
        "do_not_count": sheet.do_not_count,
        "created_at": sheet.created_at.isoformat(),
        "players": [
            {"seat": p.seat, "name": p.display_name, "guest": p.is_guest, "user_id": p.user_id}
            for p in state.players
        ],
        "sides": [list(seats) for seats in state.sides],
        "deals": [
            {
                "position": row.deal.position,
                "number": row.number,
                "tie_break": row.tie_break,
                "dealer": row.dealer,
                "facts": row.deal.facts,
                "score": row.score.to_json() if row.score else None,
                "points_by_seat": list(row.score.points_by_seat()) if row.score else None,
                "error": row.error or None,
                "entered_by": row.deal.created_by.name if row.deal.created_by else None,
                "entered_at": row.deal.created_at.isoformat(),
            }
            for row in state.rows
        ],
        "totals": list(status.totals) if status else [],
        "finished": bool(status and status.finished),
        "winners": [list(seats) for seats in status.winners] if status else [],
        "next_dealer": status.next_dealer if status else None,
        "error": state.error or None,
    }


CSV_HEADER = [
    "sheet",
    "title",
    "rule_set",
    "position",
    "deal",
    "tie_break",
    "dealer",
    "seat",
    "player",
    "points",
    "total",
    "facts",
]


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value):
    """A cell that a spreadsheet will not run as a formula (OWASP "CSV injection"): text starting with
    = + - @, a tab or a carriage return gets a leading single quote. Numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv_rows(data: dict):
    names = {p["seat"]: p["name"] for p in data["players"]}
    running = {p["seat"]: 0 for p in data["players"]}
    for deal in data["deals"]:
        points = deal["points_by_seat"] or [None] * len(names)
        void = deal["score"] is not None and deal["score"]["void"]
        for seat, name in names.items():
            if points[seat] is not None and not void:
                running[seat] += points[seat]
            yield [
                data["id"],
                data["title"],
                data["rule_set"],
                deal["position"],
                deal["number"] if deal["number"] is not None else "void",
                deal["tie_break"],
                names.get(deal["dealer"], ""),
                seat,
                name,
                "" if points[seat] is None else points[seat],
                running[seat],
                json.dumps(deal["facts"], ensure_ascii=False, sort_keys=True),
            ]


def response(sheets, fmt: str, filename: str) -> HttpResponse:
    data = [sheet_data(sheet) for sheet in sheets]
    if fmt == "json":
        body = json.dumps({"sheets": data}, ensure_ascii=False, indent=2)
        resp = HttpResponse(body, content_type="application/json; charset=utf-8")
    elif fmt == "csv":
        resp = HttpResponse(content_type="text/csv; charset=utf-8")
        writer = csv.writer(resp)
        writer.writerow(CSV_HEADER)
        for sheet in data:
            writer.writerows([csv_safe(cell) for cell in row] for row in _csv_rows(sheet))
    else:
        raise Http404
    resp["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return resp
