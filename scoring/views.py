"""Thin function views of the score sheets: read input, call scoring.services, render. Every page is
behind handsite.access.group_view (404 for people outside the group). HTMX requests get a partial of
the same template; every action also works as a plain form post."""

from __future__ import annotations

import uuid

import segno
from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse, HttpResponseForbidden
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language_bidi, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.engine.picker import PICKER_RANKS, picker_faces
from games.engine.variants import VARIANTS, HandAndFootVariant, get_variant, players_text, scoring_deals
from handsite.access import group_view
from handsite.inputs import small_int
from scoring import charts, exports, services, stats
from scoring.forms import DealForm, LinkGuestForm, OpeningCheckForm, SheetForm
from scoring.models import Deal, DealChange, Sheet

CARDS_TEXT_BOUND = 1200
"""The longest cards text the picker's count reads (a deal form's longest cards field)."""

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def _sheet(group, sheet_id) -> Sheet:
    return get_object_or_404(Sheet.objects.select_related("group", "created_by"), pk=sheet_id, group=group)


def _members(group):
    return [m.user for m in group.memberships.select_related("user").order_by("user__display_name", "pk")]


# --- The group's sheets, history and standings --------------------------------------------------------


SHEETS_PER_PAGE = 25


@group_view
@require_GET
def sheet_list(request, group, membership):
    """The group's sheets, the latest played first, a page at a time (the same few queries whatever the
    history), and the guests who played."""
    sheets = (
        Sheet.objects.filter(group=group)
        .order_by("-played_on", "-created_at", "-pk")
        .select_related("group")
        .prefetch_related("players__user")
    )
    page = Paginator(sheets, SHEETS_PER_PAGE).get_page(request.GET.get("page"))
    guests = services.guest_names(group)
    context = {
        "group": group,
        "membership": membership,
        "page": page,
        "sheets": page.object_list,
        "guests": guests,
        "link_form": LinkGuestForm(guests=guests, members=_members(group)) if guests else None,
    }
    return render(request, "scoring/sheet_list.html", context)


FAMILIES = {"hand": gettext_lazy("Hand"), "hand-and-foot": gettext_lazy("Hand and Foot")}
PERIODS = {"all": gettext_lazy("All time"), "year": gettext_lazy("This year")}


@group_view
@require_GET
def standings(request, group, membership):
    """The group's leaderboard per rule-set family, sortable, this year or all time."""
    family = request.GET.get("family", "hand")
    family = family if family in FAMILIES else "hand"
    period = request.GET.get("period", "all")
    period = period if period in PERIODS else "all"
    sort = request.GET.get("sort", "rating")
    sort = sort if sort in services.LEADERBOARD_SORTS else "rating"
    since = None
    if period == "year":
        now = timezone.localtime()
        since = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    rows = services.leaderboard(group, family, since=since, sort=sort)
    context = {
        "group": group,
        "membership": membership,
        "rows": rows,
        "wins_chart": charts.wins_bars(rows),
        "family": family,
        "period": period,
        "sort": sort,
        "families": FAMILIES.items(),
        "periods": PERIODS.items(),
        "updating": services.ratings_updating(group),
        "columns": [
            ("name", _("Player")),
            ("rating", _("Rating")),
            ("games", _("Games")),
            ("wins", _("Wins")),
            ("win_rate", _("Win rate")),
            ("average", _("Points per deal")),
        ],
    }
    return render(request, "scoring/standings.html", context)


@group_view
@require_GET
def player(request, group, membership):
    """One player's statistics in the group (``?key=user:3`` or ``guest:<name>``, ``family``): rating
    over time, going out, Hand finishes, penalties, best and worst deal, streaks, head-to-head."""
    key = (request.GET.get("key") or "")[:80]
    family = request.GET.get("family", "hand")
    family = family if family in FAMILIES else "hand"
    name = services.player_name(group, key)
    if name is None:
        raise Http404
    figures = stats.player_stats(group, family, key)
    context = {
        "group": group,
        "membership": membership,
        "key": key,
        "name": name,
        "family": family,
        "families": FAMILIES.items(),
        "stats": figures,
        "rating_chart": charts.rating_over_time(name, figures.rating_history),
        "updating": services.ratings_updating(group),
    }
    return render(request, "scoring/player.html", context)


@group_view
@require_POST
def link_guest(request, group, membership):
    form = LinkGuestForm(request.POST, guests=services.guest_names(group), members=_members(group))
    if not form.is_valid():
        messages.error(request, _("Choose a guest and a member."))
    else:
        try:
            count = services.link_guest(
                group=group,
                by=request.user,
                guest_name=form.cleaned_data["guest_name"],
                user=form.cleaned_data["user"],
            )
        except services.SheetError as error:
            messages.error(request, error.message)
        else:
            messages.success(
                request,
                ngettext(
                    "%(guest)s is now %(name)s on %(count)s seat.",
                    "%(guest)s is now %(name)s on %(count)s seats.",
                    count,
                )
                % {
                    "guest": form.cleaned_data["guest_name"],
                    "name": form.cleaned_data["user"].name,
                    "count": count,
                },
            )
    return redirect("scoring:sheet_list", group.slug)


# --- Starting a sheet ------------------------------------------------------------------------------------


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
    form = SheetForm(request.POST or None, variant=variant, members=_members(group))
    if request.method == "GET":
        form.initial["member_0"] = str(request.user.pk)
        form.initial["played_on"] = timezone.localdate()
    if request.method == "POST" and form.is_valid():
        try:
            sheet = services.create_sheet(
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
        except services.SheetError as error:
            form.add_error(None, error.message)
        else:
            return redirect(sheet)
    return render(request, "scoring/sheet_form.html", {"group": group, "variant": variant, "form": form})


# --- The sheet --------------------------------------------------------------------------------------------


def _qr_svg(url: str) -> str:
    return segno.make(url, error="m").svg_inline(scale=4, dark="#1d1b18", light="#ffffff")


def _sheet_context(request, group, membership, sheet, **extra):
    state = services.sheet_state(sheet)
    changes = sheet.changes.select_related("by", "deal").order_by("-at", "-pk")[:30]
    undoable = services.latest_changes(sheet)
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
        "can_enter": services.can_enter(sheet, request.user, membership),
        "can_delete": services.can_delete_sheet(sheet, request.user, membership),
        "handfoot": isinstance(sheet.variant, HandAndFootVariant),
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
                    "parts": [services.part_text(part) for part in side.parts],
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
        "old": services.deal_points(state, change.old_facts),
        "new": services.deal_points(state, change.new_facts),
        "undoable": undoable,
        "undo_of": change.details.get("undo_of") if isinstance(change.details, dict) else None,
    }


@group_view
@require_GET
def sheet_detail(request, group, membership, sheet_id):
    sheet = _sheet(group, sheet_id)
    url = request.build_absolute_uri(sheet.get_absolute_url())
    card_url = None
    if sheet.finished:
        card_url = request.build_absolute_uri(
            reverse("scoring:result_card", args=[services.result_card_token(sheet=sheet)])
        )
    context = _sheet_context(
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


def _card_words(card) -> tuple[str, str, str]:
    """The card's rule-set name, title and one-line description (translated)."""
    variant = _(VARIANTS[card.rule_set].name)
    if len(card.winners) == 1:
        title = _("%(name)s won a game of %(game)s") % {"name": card.winners[0], "game": variant}
    else:
        title = _("A shared win in %(game)s: %(names)s") % {
            "game": variant,
            "names": " · ".join(card.winners),
        }
    description = " · ".join(f"{name} {total}" for _rank, name, total in card.rows)
    return variant, title, description


@require_GET
def result_card(request, token):
    """A finished game's result card, public to whoever has the signed link (made for the group's chat):
    names, totals, the winner; Open Graph tags (and a picture) for the link preview. 404 for any other
    link."""
    card = services.result_card(token)
    if card is None:
        raise Http404
    # In the card's language (its sheet creator's), not the fetching chat bot's: the group reads it.
    with translation.override(card.language or translation.get_language()):
        variant, title, description = _card_words(card)
        context = {
            "card": card,
            "variant_name": variant,
            "og_title": title,
            "og_description": description,
            "og_image": request.build_absolute_uri(reverse("scoring:result_card_image", args=[token])),
        }
        response = render(request, "scoring/result_card.html", context)
    response["X-Robots-Tag"] = "noindex"
    return response


CARD_IMAGE_ROWS = 6
"""The most rows the card's picture shows (the page shows them all)."""


@require_GET
def result_card_image(request, token):
    """The result card as a 1200×630 PNG for chat previews: an SVG drawn by a template, rendered by
    resvg (cached by its content, so a card is drawn once)."""
    card = services.result_card(token)
    if card is None:
        raise Http404
    with translation.override(card.language or translation.get_language()):
        svg = _card_svg(card)
    response = HttpResponse(charts.svg_to_png(svg), content_type="image/png")
    response["Cache-Control"] = "public, max-age=3600"
    response["X-Robots-Tag"] = "noindex"
    return response


def _card_svg(card) -> str:
    """The card's picture as SVG text, in the active language."""
    variant, title, _description = _card_words(card)
    rows = [
        {
            "rank": rank,
            "name": charts.drawable(name),
            "total": total,
            "y": 175 + index * 70,
            "text_y": 218 + index * 70,
        }
        for index, (rank, name, total) in enumerate(card.rows[:CARD_IMAGE_ROWS])
    ]
    footer = ngettext("%(count)s deal played", "%(count)s deals played", card.deals) % {"count": card.deals}
    if card.finished_at:
        footer += " · " + date_format(timezone.localtime(card.finished_at), "DATE_FORMAT")
    return render_to_string(
        "scoring/result_card.svg",
        {
            "card_title": charts.drawable(card.title or ""),
            "variant_name": variant,
            "title": charts.drawable(title),
            "rows": rows,
            "footer": charts.drawable(footer),
            "rtl": get_language_bidi(),
        },
    )


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
    sheet = _sheet(group, sheet_id)
    return render(request, "scoring/sheet.html#live", _sheet_context(request, group, membership, sheet))


@group_view
@require_POST
def sheet_do_not_count(request, group, membership, sheet_id):
    sheet = _sheet(group, sheet_id)
    try:
        sheet = services.mark_do_not_count(
            sheet, by=request.user, do_not_count=request.POST.get("do_not_count") == "1"
        )
    except services.SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    if request.htmx:
        return render(request, "scoring/sheet.html#live", _sheet_context(request, group, membership, sheet))
    return redirect(sheet)


@group_view
@require_http_methods(["GET", "POST"])
def sheet_delete(request, group, membership, sheet_id):
    """Delete a junk sheet (its creator or an admin), after a confirmation page that needs no script."""
    sheet = _sheet(group, sheet_id)
    if not services.can_delete_sheet(sheet, request.user, membership):
        return HttpResponseForbidden(_("Only the sheet's creator and the group's admins can delete it."))
    if request.method == "POST":
        try:
            services.delete_sheet(sheet, by=request.user)
        except services.SheetPermissionDenied as error:
            return HttpResponseForbidden(error.message)
        messages.success(request, _("Sheet deleted. The group's admins can restore it for 30 days."))
        return redirect("scoring:sheet_list", group.slug)
    return render(request, "scoring/sheet_delete.html", {"group": group, "sheet": sheet})


@group_view
@require_GET
def sheets_deleted(request, group, membership):
    """The group's deleted sheets with their history, for owners and admins, for 30 days."""
    if not membership.can_manage:
        return HttpResponseForbidden(_("Only the group's owners and admins see deleted sheets."))
    sheets = []
    for sheet in services.deleted_sheets(group):  # few: only the last 30 days' deletions
        state = services.sheet_state(sheet)
        changes = [_change_view(state, change, False) for change in sheet.changes.all()]
        sheets.append({"sheet": sheet, "state": state, "changes": changes})
    return render(request, "scoring/sheets_deleted.html", {"group": group, "sheets": sheets})


@group_view
@require_POST
def sheet_restore(request, group, membership, sheet_id):
    """Put a deleted sheet back (owners and admins, within 30 days)."""
    sheet = get_object_or_404(services.deleted_sheets(group), pk=sheet_id)
    try:
        sheet = services.restore_sheet(sheet, by=request.user)
    except services.SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    messages.success(request, _("Sheet restored."))
    return redirect(sheet)


# --- Deals ------------------------------------------------------------------------------------------------


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
        picked = services.count_cards(sheet, text, kind=kind, indicator=indicator, players=players)
    except services.SheetError as error:
        return {"error": error.message}
    return {"value": picked.total, "count": len(picked.cards)}


def _deal_form_page(request, group, membership, sheet, deal=None):
    if not services.can_enter(sheet, request.user, membership):
        return HttpResponseForbidden(_("Only the players of this sheet can enter deals."))
    players, sides = services.sheet_frame(sheet)
    state = None  # the sheet as it stands: derived once, only when the page is drawn
    if request.method == "GET":
        state = services.sheet_state(sheet)
        if deal is None and state.status and state.status.finished:
            messages.info(request, _("This game is over; edit a deal to correct it."))
            return redirect(sheet)
    initial = DealForm.initial_from(sheet, deal.facts, sides) if deal else {}
    if deal is None:
        initial["position"] = services.next_position(sheet)
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
                    raise services.SheetError(_("This form is out of date: open the sheet again."))
                services.add_deal(
                    sheet,
                    by=request.user,
                    facts=data["facts"],
                    position=data.get("position"),
                    client_id=data["deal_key"],
                )
            else:
                before = services.sheet_state(sheet)
                services.edit_deal(deal, by=request.user, facts=data["facts"], version=data.get("version"))
                for sentence in services.consequences(before, services.sheet_state(sheet), done=True):
                    messages.info(request, sentence)
        except services.DealAlreadySaved as error:
            form.add_error(None, error.message)
            if error.deal is not None and error.deal.deleted_at is None:
                saved_first = f"{sheet.get_absolute_url()}#deal-{error.deal.pk}"
            else:
                saved_first = sheet.get_absolute_url()
        except services.DealConflict as error:
            conflict = error
        except services.SheetError as error:
            form.add_error(error.field if error.field in form.fields else None, error.message)
        else:
            messages.success(request, _("Deal saved.") if deal is None else _("Deal corrected."))
            return redirect(sheet)
    if state is None:
        state = services.sheet_state(sheet)
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
        if form.handfoot
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
        "handfoot": isinstance(sheet.variant, HandAndFootVariant),
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
    theirs = None if conflict.deal.deleted_at else services.deal_points(state, conflict.deal.facts)
    return {
        "message": conflict.message,
        "deleted": conflict.deal.deleted_at is not None,
        "theirs": theirs,
        "yours": services.deal_points(state, form.cleaned_data.get("facts")),
        "by": conflict.change.by.name if conflict.change and conflict.change.by else "",
    }


@group_view
@require_http_methods(["GET", "POST"])
def deal_new(request, group, membership, sheet_id):
    return _deal_form_page(request, group, membership, _sheet(group, sheet_id))


@group_view
@require_http_methods(["GET", "POST"])
def deal_edit(request, group, membership, sheet_id, deal_id):
    sheet = _sheet(group, sheet_id)
    deals = Deal.objects.filter(pk=deal_id, sheet=sheet)
    if request.method == "GET":
        deals = deals.filter(deleted_at__isnull=True)  # a correction posted after a deletion is kept
    deal = get_object_or_404(deals)
    return _deal_form_page(request, group, membership, sheet, deal)


def _deleted_deal(request, sheet):
    """The deal just deleted (``?deleted=<id>`` after a delete), for its "Undo" button."""
    deal_id = small_int(request.GET.get("deleted", ""), digits=12)
    if deal_id is None:
        return None
    return Deal.objects.filter(pk=deal_id, sheet=sheet, deleted_at__isnull=False).first()


@group_view
@require_http_methods(["GET", "POST"])
def deal_delete(request, group, membership, sheet_id, deal_id):
    sheet = _sheet(group, sheet_id)
    deal = get_object_or_404(Deal, pk=deal_id, sheet=sheet, deleted_at__isnull=True)
    if not services.can_enter(sheet, request.user, membership):
        return HttpResponseForbidden(_("Only the players of this sheet can delete deals."))
    error = None
    if request.method == "POST":
        try:
            services.delete_deal(deal, by=request.user)
        except services.SheetError as exc:
            error = exc.message
        else:
            if request.htmx:
                sheet.refresh_from_db()
                context = _sheet_context(request, group, membership, sheet, deleted_deal=deal)
                return render(request, "scoring/sheet.html#live", context)
            return redirect(f"{sheet.get_absolute_url()}?deleted={deal.pk}#deal-{deal.pk}")
    context = {
        "group": group,
        "sheet": sheet,
        "deal": deal,
        "error": error,
        "consequences": services.preview_delete(deal),
    }
    return render(request, "scoring/deal_delete.html", context)


@group_view
@require_POST
def deal_restore(request, group, membership, sheet_id, deal_id):
    """Undo a deletion."""
    sheet = _sheet(group, sheet_id)
    deal = get_object_or_404(Deal, pk=deal_id, sheet=sheet, deleted_at__isnull=False)
    try:
        services.restore_deal(deal, by=request.user)
    except services.SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    except services.SheetError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("The deal is back."))
    return redirect(sheet)


@group_view
@require_POST
def change_undo(request, group, membership, sheet_id, change_id):
    """Undo one change of the sheet's history."""
    sheet = _sheet(group, sheet_id)
    change = get_object_or_404(DealChange, pk=change_id, sheet=sheet)
    try:
        services.undo_change(change, by=request.user)
    except services.SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    except services.SheetError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Undone."))
    return redirect(f"{sheet.get_absolute_url()}#history")


@group_view
@require_POST
def sheet_rematch(request, group, membership, sheet_id):
    """A new sheet with the same players; the deal passes on to the next player."""
    sheet = _sheet(group, sheet_id)
    try:
        new = services.rematch(sheet, by=request.user)
    except services.SheetPermissionDenied as error:
        return HttpResponseForbidden(error.message)
    except services.SheetError as error:
        messages.error(request, error.message)
        return redirect(sheet)
    return redirect(new)


# --- Table helpers: the picker's count and the opening check --------------------------------------------


@group_view
@require_POST
def count_cards(request, group, membership, sheet_id):
    """HTMX: what the cards typed or picked in one field are worth (the engine counts)."""
    sheet = _sheet(group, sheet_id)
    field = request.POST.get("field", "")
    if not field.startswith(("held_cards_", "melded_cards_")):
        return HttpResponse(status=400)
    text = request.POST.get(field, "")[:CARDS_TEXT_BOUND]
    context = {"text": text.strip(), "error": None, "value": None}
    if text.strip():
        try:
            picked = services.count_cards(
                sheet,
                text,
                kind="melded" if field.startswith("melded") else "held",
                indicator=request.POST.get("indicator", "")[:4] or None,
            )
        except services.SheetError as error:
            context["error"] = error.message
        else:
            context["value"] = picked.total
            context["count"] = len(picked.cards)
    return render(request, "scoring/deal_form.html#count", context)


@group_view
@require_http_methods(["GET", "POST"])
def opening_check(request, group, membership, sheet_id):
    sheet = _sheet(group, sheet_id)
    form = OpeningCheckForm(request.POST or None)
    result = error = None
    if request.method == "POST" and form.is_valid():
        try:
            result = services.check_opening(
                sheet,
                form.cleaned_data["melds"].splitlines(),
                indicator=form.cleaned_data["indicator"] or None,
                last_opening=form.cleaned_data["last_opening"],
            )
        except services.SheetError as exc:
            error = exc.message
    context = {"group": group, "sheet": sheet, "form": form, "result": result, "error": error}
    if request.htmx:
        return render(request, "scoring/opening_check.html#result", context)
    return render(request, "scoring/opening_check.html", context)


# --- Exports ----------------------------------------------------------------------------------------------


@group_view
@require_GET
def sheet_export(request, group, membership, sheet_id, fmt):
    sheet = _sheet(group, sheet_id)
    return exports.response([sheet], fmt, f"sheet-{sheet.pk}")


@group_view
@require_GET
def group_export(request, group, membership, fmt):
    sheets = Sheet.objects.filter(group=group).order_by("played_on", "created_at", "pk")
    return exports.response(list(sheets), fmt, f"{group.slug}-sheets")
