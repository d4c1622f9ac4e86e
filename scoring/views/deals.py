"""A sheet's deals: the deal form (a new deal or a correction), deleting and restoring a deal, undoing
a change of the history."""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.http import HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from games.engine.picker import PICKER_RANKS, picker_faces
from handsite.access import group_view
from scoring.forms import DealForm
from scoring.models import Deal, DealChange
from scoring.services.access import can_enter
from scoring.services.deals import (
    add_deal,
    correct_deal,
    delete_deal,
    next_position,
    preview_delete,
    restore_deal,
    undo_change,
)
from scoring.services.errors import DealAlreadySaved, DealConflict, SheetError, SheetPermissionDenied
from scoring.services.state import deal_points, sheet_frame, sheet_state
from scoring.services.table import count_cards
from scoring.views.common import sheet_in
from scoring.views.sheets import sheet_context

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _picker_context(sheet, players: int):
    faces = picker_faces(sheet.rule_set, players)
    by_suit = {suit: [f for f in faces if f.suit == suit] for suit in SUIT_SYMBOLS}
    return {
        "picker_suits": [(suit, SUIT_SYMBOLS[suit], by_suit[suit]) for suit in SUIT_SYMBOLS],
        "picker_ranks": PICKER_RANKS,
        "joker_most": next(f.most for f in faces if f.face == "JK"),
    }


def _first_count(
    sheet, field, players: int, *, kind: str = "held", indicator: str | None = None
) -> dict | None:
    """What the cards already in a field are worth, rendered with the page (the picker's count is only
    asked of the server again when the field changes): None for an empty field."""
    text = (field.value() or "").strip()
    if not text:
        return None
    try:
        picked = count_cards(sheet, text, kind=kind, indicator=indicator, players=players)
    except SheetError as error:
        return {"error": error.message}
    return {"value": picked.total, "count": len(picked.cards)}


def _deal_form_page(request, group, membership, sheet, deal=None):
    if not can_enter(sheet, request.user, membership):
        return HttpResponseForbidden(_("Only the players of this sheet can enter deals."))
    players, sides = sheet_frame(sheet)
    state = None  # the sheet as it stands: derived once, only when the page is drawn
    if request.method == "GET":
        state = sheet_state(sheet)
        if deal is None and state.status and state.status.finished:
            messages.info(request, _("This game is over; edit a deal to correct it."))
            return redirect(sheet)
    initial = DealForm.initial_from(sheet, deal.facts, sides) if deal else {}
    if deal is None:
        initial["position"] = next_position(sheet)
        initial["deal_key_page"] = uuid.uuid4()
    else:
        initial["version"] = deal.version
    form = DealForm(
        request.POST if request.method == "POST" else None,
        initial=initial,
        sheet=sheet,
        players=players,
        sides=sides,
    )
    saved_first = conflict = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            if deal is None:
                if data.get("deal_key") is None:
                    raise SheetError(_("This form is out of date: open the sheet again."))
                add_deal(
                    sheet,
                    by=request.user,
                    facts=data["facts"],
                    position=data.get("position"),
                    client_id=data["deal_key"],
                )
            else:
                corrected = correct_deal(
                    deal, by=request.user, facts=data["facts"], version=data.get("version")
                )
                for sentence in corrected:
                    messages.info(request, sentence)
        except DealAlreadySaved as error:
            form.add_error(None, error.message)
            if error.deal is not None and error.deal.deleted_at is None:
                saved_first = f"{sheet.get_absolute_url()}#deal-{error.deal.pk}"
            else:
                saved_first = sheet.get_absolute_url()
        except DealConflict as error:
            conflict = error
        except SheetError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Deal saved.") if deal is None else _("Deal corrected."))
            return redirect(sheet)
    if state is None:
        state = sheet_state(sheet)
    indicator = None
    if "indicator" in form.fields:
        indicator = (form["indicator"].value() or "").strip().upper() or None
    seats = [
        {
            "seat": p.seat,
            "name": p.display_name,
            "is_dealer": False,
            "opened": form[f"opened_{p.seat}"] if f"opened_{p.seat}" in form.fields else None,
            "irregular": form[f"irregular_{p.seat}"] if f"irregular_{p.seat}" in form.fields else None,
            "partners": [seat for seat in _partners(state.sides, p.seat) if seat != p.seat]
            if sheet.options.get("teams")
            else [],
            "held_points": form[f"held_points_{p.seat}"],
            "held_cards": form[f"held_cards_{p.seat}"],
            "held_count": _first_count(
                sheet, form[f"held_cards_{p.seat}"], len(state.players), indicator=indicator
            ),
        }
        for p in state.players
    ]
    sides = (
        [
            {
                "index": index,
                "name": state.side_name(seats_of_side),
                "fields": [form[f"{name}_{index}"] for name in ("red_books", "black_books", "melded_points")],
                "melded_cards": form[f"melded_cards_{index}"],
                "melded_count": _first_count(
                    sheet, form[f"melded_cards_{index}"], len(state.players), kind="melded"
                ),
                "picked_22": form[f"picked_22_{index}"] if f"picked_22_{index}" in form.fields else None,
                "seats": [seats[seat] for seat in seats_of_side],
            }
            for index, seats_of_side in enumerate(state.sides)
        ]
        if form.by_sides
        else []
    )
    status = state.status
    row = next((r for r in state.rows if deal is not None and r.deal.pk == deal.pk), None)
    context = {
        "group": group,
        "sheet": sheet,
        "deal": deal,
        "deal_row": {"number": row.number, "dealer": state.players[row.dealer].display_name} if row else None,
        "form": form,
        "saved_first": saved_first,
        "conflict": _conflict_view(state, conflict, form) if conflict else None,
        "version": conflict.deal.version
        if conflict
        else form["version"].value() or form["version_page"].value(),
        "seats": seats,
        "sides": sides,
        "handfoot": form.by_sides,
        "winner_chosen": form.chosen("winner") if "finish" in form.fields else [],
        "went_out_chosen": form.chosen("went_out"),
        "finish_chosen": _finish_chosen(form),
        "next_number": status.next_deal_number if status else 1,
        "next_dealer": state.next_dealer_name,
        "opening_minimum": status.next_opening_minimum if status else None,
        **_picker_context(sheet, len(state.players)),
    }
    return render(request, "scoring/deal_form.html", context)


def _partners(sides, seat: int) -> tuple[int, ...]:
    return next((seats for seats in sides if seat in seats), ())


def _finish_chosen(form) -> str:
    """The "How?" choice to show checked; a kuwaiti win is an announcement unless said otherwise
    (its "How?" has no "Normal")."""
    chosen = (form.data.get("finish") if form.is_bound else form.initial.get("finish")) or "normal"
    if getattr(form.variant, "scoring", "") == "kuwaiti" and chosen == "normal":
        return "announcement"
    return chosen


def _conflict_view(state, conflict, form) -> dict:
    """Both versions of a deal two people corrected at once, as points per side."""
    theirs = None if conflict.deal.deleted_at else deal_points(state, conflict.deal.facts)
    return {
        "message": conflict.message,
        "deleted": conflict.deal.deleted_at is not None,
        "theirs": theirs,
        "yours": deal_points(state, form.cleaned_data.get("facts")),
        "by": conflict.change.by.name if conflict.change and conflict.change.by else "",
    }


@group_view
@require_http_methods(["GET", "POST"])
def deal_new(request, group, membership, sheet_id):
    return _deal_form_page(request, group, membership, sheet_in(group, sheet_id))


@group_view
@require_http_methods(["GET", "POST"])
def deal_edit(request, group, membership, sheet_id, deal_id):
    sheet = sheet_in(group, sheet_id)
    deals = Deal.objects.filter(pk=deal_id, sheet=sheet)
    if request.method == "GET":
        deals = deals.filter(deleted_at__isnull=True)  # a correction posted after a deletion is kept
    deal = get_object_or_404(deals)
    return _deal_form_page(request, group, membership, sheet, deal)


@group_view
@require_http_methods(["GET", "POST"])
def deal_delete(request, group, membership, sheet_id, deal_id):
    sheet = sheet_in(group, sheet_id)
    deal = get_object_or_404(Deal, pk=deal_id, sheet=sheet, deleted_at__isnull=True)
    if not can_enter(sheet, request.user, membership):
        return HttpResponseForbidden(_("Only the players of this sheet can delete deals."))
    error = None
    if request.method == "POST":
        try:
            delete_deal(deal, by=request.user)
        except SheetError as exc:
            error = exc.message
        else:
            if request.htmx:
                sheet.refresh_from_db()
                context = sheet_context(request, group, membership, sheet, deleted_deal=deal)
                return render(request, "scoring/sheet.html#live", context)
            return redirect(f"{sheet.get_absolute_url()}?deleted={deal.pk}#deal-{deal.pk}")
    context = {
        "group": group,
        "sheet": sheet,
        "deal": deal,
        "error": error,
        "consequences": preview_delete(deal),
    }
    return render(request, "scoring/deal_delete.html", context)


@group_view
@require_POST
def deal_restore(request, group, membership, sheet_id, deal_id):
    """Undo a deletion."""
    sheet = sheet_in(group, sheet_id)
    deal = get_object_or_404(Deal, pk=deal_id, sheet=sheet, deleted_at__isnull=False)
    try:
        restore_deal(deal, by=request.user)
    except SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    except SheetError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The deal is back."))
    return redirect(sheet)


@group_view
@require_POST
def change_undo(request, group, membership, sheet_id, change_id):
    """Undo one change of the sheet's history."""
    sheet = sheet_in(group, sheet_id)
    change = get_object_or_404(DealChange, pk=change_id, sheet=sheet)
    try:
        undo_change(change, by=request.user)
    except SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    except SheetError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Undone."))
    return redirect(f"{sheet.get_absolute_url()}#history")
