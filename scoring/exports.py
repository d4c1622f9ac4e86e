"""Exports of score sheets: a wide CSV (one row per deal, one column per player or team, a totals row;
formula injection escaped) and the full record as JSON (raw facts and derived scores, no internal ids)."""

from __future__ import annotations

import csv
import json

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _

from games.engine.variants import get_variant
from scoring.services.state import sheet_state


def _status_label(status: str) -> str:
    return {"finished": _("finished"), "unfinished": _("unfinished"), "do_not_count": _("do not count")}[
        status
    ]


def _one_based_facts(facts: dict) -> dict:
    """A deal's raw facts with the seat that went out numbered from 1, like the players (stored from 0);
    figures listed per seat stay lists in seat order."""
    facts = dict(facts)
    if isinstance(facts.get("winner"), int) and not isinstance(facts["winner"], bool):
        facts["winner"] += 1
    return facts


def _one_based_score(score: dict) -> dict:
    """A deal's derived score with its seats numbered from 1, like the players."""
    return {
        **score,
        "sides": [
            {
                **side,
                "seats": [seat + 1 for seat in side["seats"]],
                "parts": [
                    {
                        **part,
                        "seat": part["seat"] + 1 if isinstance(part.get("seat"), int) else part.get("seat"),
                    }
                    for part in side["parts"]
                ],
            }
            for side in score["sides"]
        ],
    }


def _partnership(sheet) -> bool:
    """A game played in partnerships by its rule set's ``teams`` option (Hand and Foot's team rule sets
    are their own slugs, not partnerships chosen at the table)."""
    variant = get_variant(sheet.rule_set)
    return any(option.name == "teams" for option in variant.options) and bool(sheet.options.get("teams"))


def sheet_data(sheet) -> dict:
    """One sheet as plain data, without internal ids: players, every deal's raw facts and derived score
    (every seat numbered from 1), totals; whether it is finished, counts, and who won."""
    state = sheet_state(sheet)
    status = state.status
    names = [p.display_name for p in state.players]
    finished = bool(status and status.finished)
    return {
        "title": str(sheet),
        "rule_set": sheet.rule_set,
        "partnership": _partnership(sheet),
        "options": sheet.options,
        "first_dealer": names[sheet.first_dealer] if sheet.first_dealer < len(names) else None,
        "status": "do_not_count" if sheet.do_not_count else "finished" if finished else "unfinished",
        "do_not_count": sheet.do_not_count,
        "played_on": sheet.played_on.isoformat(),
        "place": sheet.place,
        "created_at": sheet.created_at.isoformat(),
        "finished_at": sheet.finished_at.isoformat() if sheet.finished_at else None,
        "players": [{"seat": p.seat + 1, "name": p.display_name, "guest": p.is_guest} for p in state.players],
        "sides": state.side_names,
        "deals": [
            {
                "deal": row.number,
                "tie_break": row.tie_break,
                "dealer": names[row.dealer],
                "facts": _one_based_facts(row.deal.facts),
                "score": _one_based_score(row.score.to_json()) if row.score else None,
                "points": [side.points for side in row.score.sides] if row.score else None,
                "points_by_seat": list(row.score.points_by_seat()) if row.score else None,
                "error": row.error or None,
                "entered_by": row.deal.created_by.name if row.deal.created_by else None,
                "entered_at": row.deal.created_at.isoformat(),
            }
            for row in state.rows
        ],
        "totals": list(status.totals) if status else [],
        "finished": finished,
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
    """A sheet as a spreadsheet user expects it: a heading row (title, rule set, a partnership game as
    its own, date played, finished / unfinished / do not count, the winner), a row of names, one row per
    deal (its number, the dealer, then each player's or team's points) and a totals row; then an empty
    row."""
    rule_set = data["rule_set"]
    if data["partnership"]:
        rule_set = _("%(rule_set)s (partnership)") % {"rule_set": rule_set}
    yield [
        _("Sheet"),
        data["title"],
        rule_set,
        data["played_on"],
        _status_label(data["status"]),
        _("Winner"),
        ", ".join(data["winners"]),
    ]
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
