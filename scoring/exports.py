"""Exports of score sheets: a wide CSV (one row per deal, one column per player or team, a totals row;
formula injection escaped) and the full record as JSON (raw facts and derived scores, no internal ids)."""

from __future__ import annotations

import csv
import json

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _

from scoring import services


def sheet_data(sheet) -> dict:
    """One sheet as plain data, without internal ids: players (seats numbered from 1), options, every
    deal's raw facts (whose seat numbers count from 0, as stored) and derived score, totals."""
    state = services.sheet_state(sheet)
    status = state.status
    names = [p.display_name for p in state.players]
    return {
        "title": str(sheet),
        "rule_set": sheet.rule_set,
        "options": sheet.options,
        "first_dealer": names[sheet.first_dealer] if sheet.first_dealer < len(names) else None,
        "do_not_count": sheet.do_not_count,
        "created_at": sheet.created_at.isoformat(),
        "finished_at": sheet.finished_at.isoformat() if sheet.finished_at else None,
        "players": [{"seat": p.seat + 1, "name": p.display_name, "guest": p.is_guest} for p in state.players],
        "sides": state.side_names,
        "deals": [
            {
                "deal": row.number,
                "tie_break": row.tie_break,
                "dealer": names[row.dealer],
                "facts": row.deal.facts,
                "score": row.score.to_json() if row.score else None,
                "points": [side.points for side in row.score.sides] if row.score else None,
                "points_by_seat": list(row.score.points_by_seat()) if row.score else None,
                "error": row.error or None,
                "entered_by": row.deal.created_by.name if row.deal.created_by else None,
                "entered_at": row.deal.created_at.isoformat(),
            }
            for row in state.rows
        ],
        "totals": list(status.totals) if status else [],
        "finished": bool(status and status.finished),
        "winners": state.winner_names,
        "next_dealer": state.next_dealer_name or None,
        "error": state.error or None,
    }


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(value):
    """A cell that a spreadsheet will not run as a formula (OWASP "CSV injection"): text starting with
    = + - @, a tab or a carriage return gets a leading single quote. Numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def _csv_rows(data: dict):
    """A sheet as a spreadsheet user expects it: a heading row, a row of names, one row per deal (its
    number, the dealer, then each player's or team's points) and a totals row; then an empty row."""
    yield [_("Sheet"), data["title"], data["rule_set"], data["created_at"][:10]]
    yield [_("Deal"), _("Dealer"), *data["sides"]]
    for deal in data["deals"]:
        number = deal["deal"] if deal["deal"] is not None else _("void")
        if deal["tie_break"]:
            number = f"{_('TB')} {number}"
        points = deal["points"] if deal["points"] is not None else [""] * len(data["sides"])
        yield [number, deal["dealer"], *points]
    yield [_("Total"), "", *data["totals"]]
    yield []


def response(sheets, fmt: str, filename: str) -> HttpResponse:
    data = [sheet_data(sheet) for sheet in sheets]
    if fmt == "json":
        body = json.dumps({"sheets": data}, ensure_ascii=False, indent=2)
        resp = HttpResponse(body, content_type="application/json; charset=utf-8")
    elif fmt == "csv":
        resp = HttpResponse(content_type="text/csv; charset=utf-8")
        resp.write("\ufeff")  # a byte-order mark, so spreadsheets read the names as UTF-8
        writer = csv.writer(resp)
        for sheet in data:
            writer.writerows([csv_safe(cell) for cell in row] for row in _csv_rows(sheet))
    else:
        raise Http404
    resp["Content-Disposition"] = f'attachment; filename="{filename}.{fmt}"'
    return resp
