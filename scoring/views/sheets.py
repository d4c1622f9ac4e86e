"""A score sheet's pages: starting one, the sheet itself (and its live part), "do not count", deleting
and restoring it, a rematch, its export."""

from __future__ import annotations

import segno
from django.contrib import messages
from django.http import Http404, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.engine.variants import VARIANTS, get_variant, players_text, scoring_deals
from handsite.access import group_view
from handsite.inputs import small_int
from scoring import charts, exports
from scoring.forms import SheetForm
from scoring.models import Deal, Sheet
from scoring.services.access import can_delete_sheet, can_enter
from scoring.services.cards import result_card_token
from scoring.services.deals import latest_changes
from scoring.services.errors import SheetError, SheetPermissionDenied, part_text
from scoring.services.sheets import (
    create_sheet,
    delete_sheet,
    deleted_sheets,
    mark_do_not_count,
    rematch,
    restore_sheet,
)
from scoring.services.state import deal_points, sheet_state
from scoring.views.common import members_of, sheet_in


@group_view
@require_GET
def sheet_new(request, group, membership):
    return render(request, "scoring/sheet_new.html", {"group": group, "rule_sets": _rule_set_choices()})


def _rule_set_choices() -> list[dict]:
    """The rule-set picker: each rule set with what its one line on /rules/ needs."""
    return [
        {
            "slug": variant.slug,
            "name": variant.name,
            "family": variant.family,
            "teams": getattr(variant, "teams", False),
            # One inline element: the count sits inside a translated sentence and stays left-to-right.
            "players": format_html(
                '<bdi dir="ltr">{}</bdi>', players_text(variant.min_players, variant.max_players)
            ),
            "deals": scoring_deals(variant, {o.name: o.default for o in variant.options}),
        }
        for variant in VARIANTS.values()
    ]


@group_view
@require_http_methods(["GET", "POST"])
def sheet_create(request, group, membership, rule_set):
    if rule_set not in VARIANTS:
        raise Http404
    variant = get_variant(rule_set)
    form = SheetForm(request.POST or None, variant=variant, members=members_of(group))
    if request.method == "GET":
        form.initial["member_0"] = str(request.user.pk)
        form.initial["played_on"] = timezone.localdate()
    if request.method == "POST" and form.is_valid():
        try:
            sheet = create_sheet(
                group=group,
                by=request.user,
                rule_set=rule_set,
                players=form.cleaned_data["players"],
                options=form.cleaned_data["options"],
                first_dealer=form.cleaned_data.get("first_dealer_seat"),
                title=form.cleaned_data["title"],
                played_on=form.cleaned_data.get("played_on"),
                place=form.cleaned_data.get("place") or "",
            )
        except SheetError as error:
            form.add_error(None, error.message)
        else:
            return redirect(sheet)
    return render(request, "scoring/sheet_form.html", {"group": group, "variant": variant, "form": form})


def _qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=4, dark="#1d1b18", light="#ffffff")


def sheet_context(request, group, membership, sheet, **extra):
    state = sheet_state(sheet)
    changes = sheet.changes.select_related("by", "deal").order_by("-at", "-pk")[:30]
    undoable = latest_changes(sheet)
    rows = [_row_view(state, row) for row in state.rows]
    deleted = extra.get("deleted_deal")
    if deleted is not None:
        # The Undo notice takes the deleted deal's place in the table, where the user is.
        at = next(
            (i for i, item in enumerate(rows) if item["row"].deal.position > deleted.position), len(rows)
        )
        rows.insert(at, {"undo": deleted})
    context = {
        "group": group,
        "membership": membership,
        "sheet": sheet,
        "state": state,
        "rows": rows,
        "changes": [_change_view(state, change, change.pk in undoable) for change in changes],
        "can_enter": can_enter(sheet, request.user, membership),
        "can_delete": can_delete_sheet(sheet, request.user, membership),
        "totals": list(zip(state.side_names, state.status.totals if state.status else (), strict=False)),
        "chart": charts.score_progression(state),
    }
    context |= extra
    return context


def _row_view(state, row):
    sides = []
    if row.score is not None:
        for index, side in enumerate(row.score.sides):
            sides.append(
                {
                    "name": state.side_name(side.seats),
                    "points": side.points,
                    "total": row.totals[index] if index < len(row.totals) else None,
                    "parts": [part_text(part) for part in side.parts],
                }
            )
    return {"row": row, "dealer": state.players[row.dealer].display_name, "sides": sides}


def _change_view(state, change, undoable: bool):
    """One line of the visible history, as a sentence, with the deal's points before and after."""
    who = change.by.name if change.by else _("someone")
    Action = change.Action
    if change.action == Action.EXCLUDED:
        text = _("%(who)s marked this sheet “do not count”") % {"who": who}
    elif change.action == Action.INCLUDED:
        text = _("%(who)s counted this sheet in the group's history again") % {"who": who}
    elif change.action == Action.SHEET_DELETED:
        text = _("%(who)s deleted this sheet") % {"who": who}
    elif change.action == Action.SHEET_RESTORED:
        text = _("%(who)s restored this sheet") % {"who": who}
    elif change.action == Action.LINKED:
        text = _("%(who)s linked the guest %(guest)s to the member %(member)s") % {
            "who": who,
            "guest": change.details.get("guest", ""),
            "member": change.details.get("member", ""),
        }
    else:
        if change.deal_number is None:
            deal = _("a void deal")
        else:
            deal = _("deal %(number)s") % {"number": change.deal_number}
        text = _("%(who)s %(action)s %(deal)s") % {
            "who": who,
            "action": change.get_action_display(),
            "deal": deal,
        }
    return {
        "change": change,
        "text": text,
        "old": deal_points(state, change.old_facts),
        "new": deal_points(state, change.new_facts),
        "undoable": undoable,
        "undo_of": change.details.get("undo_of") if isinstance(change.details, dict) else None,
    }


@group_view
@require_GET
def sheet_detail(request, group, membership, sheet_id):
    sheet = sheet_in(group, sheet_id)
    url = request.build_absolute_uri(sheet.get_absolute_url())
    card_url = None
    if sheet.finished:
        card_url = request.build_absolute_uri(
            reverse("scoring:result_card", args=[result_card_token(sheet=sheet)])
        )
    context = sheet_context(
        request,
        group,
        membership,
        sheet,
        share_url=url,
        qr=mark_safe(_qr_svg(url)),
        deleted_deal=_deleted_deal(request, sheet),
        card_url=card_url,
    )
    return render(request, "scoring/sheet.html", context)


def _deleted_deal(request, sheet):
    """The deal just deleted (``?deleted=<id>`` after a delete), for its "Undo" button."""
    deal_id = small_int(request.GET.get("deleted", ""), digits=12)
    if deal_id is None:
        return None
    return Deal.objects.filter(pk=deal_id, sheet=sheet, deleted_at__isnull=False).first()


@group_view
@require_GET
def sheet_live(request, group, membership, sheet_id):
    """The live part of the sheet, polled every few seconds: 204 (nothing to swap) when the version the
    page shows is still the current one."""
    version = Sheet.objects.filter(pk=sheet_id, group=group).values_list("version", flat=True).first()
    if version is None:
        raise Http404
    if request.GET.get("version") == str(version):
        return HttpResponse(status=204)
    sheet = sheet_in(group, sheet_id)
    return render(request, "scoring/sheet.html#live", sheet_context(request, group, membership, sheet))


@group_view
@require_POST
def sheet_do_not_count(request, group, membership, sheet_id):
    sheet = sheet_in(group, sheet_id)
    try:
        sheet = mark_do_not_count(
            sheet, by=request.user, do_not_count=request.POST.get("do_not_count") == "1"
        )
    except SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    if request.htmx:
        return render(request, "scoring/sheet.html#live", sheet_context(request, group, membership, sheet))
    return redirect(sheet)


@group_view
@require_http_methods(["GET", "POST"])
def sheet_delete(request, group, membership, sheet_id):
    """Delete a junk sheet (its creator or an admin), after a confirmation page that needs no script."""
    sheet = sheet_in(group, sheet_id)
    if not can_delete_sheet(sheet, request.user, membership):
        return HttpResponseForbidden(_("Only the sheet's creator and the group's admins can delete it."))
    if request.method == "POST":
        try:
            delete_sheet(sheet, by=request.user)
        except SheetPermissionDenied as error:
            return HttpResponseForbidden(error.message)
        messages.success(request, _("Sheet deleted. The group's admins can restore it for 30 days."))
        return redirect("scoring:sheet_list", group.slug)
    return render(request, "scoring/sheet_delete.html", {"group": group, "sheet": sheet})


@group_view
@require_GET
def sheets_deleted(request, group, membership):
    """The group's deleted sheets with their history, for owners and admins, for the days they are kept."""
    if not membership.can_manage:
        return HttpResponseForbidden(_("Only the group's owners and admins see deleted sheets."))
    sheets = []
    for sheet in deleted_sheets(group):  # few: only the deletions of the kept days
        state = sheet_state(sheet)
        changes = [_change_view(state, change, False) for change in sheet.changes.all()]
        sheets.append({"sheet": sheet, "state": state, "changes": changes})
    return render(request, "scoring/sheets_deleted.html", {"group": group, "sheets": sheets})


@group_view
@require_POST
def sheet_restore(request, group, membership, sheet_id):
    """Put a deleted sheet back (owners and admins, within the kept days)."""
    sheet = get_object_or_404(deleted_sheets(group), pk=sheet_id)
    try:
        sheet = restore_sheet(sheet, by=request.user)
    except SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    messages.success(request, _("Sheet restored."))
    return redirect(sheet)


@group_view
@require_POST
def sheet_rematch(request, group, membership, sheet_id):
    """A new sheet with the same players; the deal passes on to the next player."""
    sheet = sheet_in(group, sheet_id)
    try:
        new = rematch(sheet, by=request.user)
    except SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    except SheetError as error:
        messages.error(request, error.message)
        return redirect(sheet)
    return redirect(new)


@group_view
@require_GET
def sheet_export(request, group, membership, sheet_id, fmt):
    sheet = sheet_in(group, sheet_id)
    return exports.response([sheet], fmt, f"sheet-{sheet.pk}")
