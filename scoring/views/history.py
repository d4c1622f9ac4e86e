"""The group's pages of its history: the sheet list, the standings, a player's statistics, linking a
guest to a member, the export of every sheet."""

from __future__ import annotations

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_GET, require_POST

from handsite.access import group_view
from scoring import charts, exports, stats
from scoring.forms import LinkGuestForm
from scoring.models import Sheet
from scoring.services.errors import SheetError
from scoring.services.ratings import ratings_updating
from scoring.services.sheets import link_guest as link_guest_to_member
from scoring.services.standings import LEADERBOARD_SORTS, guest_names, leaderboard, player_name
from scoring.views.common import members_of

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
    guests = guest_names(group)
    context = {
        "group": group,
        "membership": membership,
        "page": page,
        "sheets": page.object_list,
        "guests": guests,
        "link_form": LinkGuestForm(guests=guests, members=members_of(group)) if guests else None,
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
    sort = sort if sort in LEADERBOARD_SORTS else "rating"
    since = None
    if period == "year":
        now = timezone.localtime()
        since = now.replace(month=1, day=1, hour=0, minute=0, second=0, microsecond=0)
    rows = leaderboard(group, family, since=since, sort=sort)
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
        "updating": ratings_updating(group),
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
    name = player_name(group, key)
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
        "updating": ratings_updating(group),
    }
    return render(request, "scoring/player.html", context)


@group_view
@require_POST
def link_guest(request, group, membership):
    form = LinkGuestForm(request.POST, guests=guest_names(group), members=members_of(group))
    if not form.is_valid():
        messages.error(request, _("Choose a guest and a member."))
    else:
        try:
            count = link_guest_to_member(
                group=group,
                by=request.user,
                guest_name=form.cleaned_data["guest_name"],
                user=form.cleaned_data["user"],
            )
        except SheetError as error:
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


@group_view
@require_GET
def group_export(request, group, membership, fmt):
    sheets = Sheet.objects.filter(group=group).order_by("played_on", "created_at", "pk")
    return exports.response(list(sheets), fmt, f"{group.slug}-sheets")
