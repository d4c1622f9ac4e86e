"""Helpers for the table while a deal is played: the card picker's count and the opening check."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods, require_POST

from handsite.access import group_view
from scoring.forms import OpeningCheckForm
from scoring.services import table
from scoring.services.errors import SheetError
from scoring.views.common import sheet_in

CARDS_TEXT_BOUND = 1200
"""The longest cards text the picker's count reads (a deal form's longest cards field)."""


@group_view
@require_POST
def count_cards(request, group, membership, sheet_id):
    """HTMX: what the cards typed or picked in one field are worth (the engine counts)."""
    sheet = sheet_in(group, sheet_id)
    field = request.POST.get("field", "")
    if not field.startswith(("held_cards_", "melded_cards_")):
        return HttpResponse(status=400)
    text = request.POST.get(field, "")[:CARDS_TEXT_BOUND]
    context = {"text": text.strip(), "error": None, "value": None}
    if text.strip():
        try:
            picked = table.count_cards(
                sheet,
                text,
                kind="melded" if field.startswith("melded") else "held",
                indicator=request.POST.get("indicator", "")[:4] or None,
            )
        except SheetError as error:
            context["error"] = error.message
        else:
            context["value"] = picked.total
            context["count"] = len(picked.cards)
    return render(request, "scoring/deal_form.html#count", context)


@group_view
@require_http_methods(["GET", "POST"])
def opening_check(request, group, membership, sheet_id):
    sheet = sheet_in(group, sheet_id)
    form = OpeningCheckForm(request.POST or None)
    result = error = None
    if request.method == "POST" and form.is_valid():
        try:
            result = table.check_opening(
                sheet,
                form.cleaned_data["melds"].splitlines(),
                indicator=form.cleaned_data["indicator"] or None,
                last_opening=form.cleaned_data["last_opening"],
            )
        except SheetError as exc:
            error = exc.message
    context = {"group": group, "sheet": sheet, "form": form, "result": result, "error": error}
    if request.htmx:
        return render(request, "scoring/opening_check.html#result", context)
    return render(request, "scoring/opening_check.html", context)
