"""Thin function views of online play. Reads go through the engine's per-seat view (games/board.py);
every write goes through games.services. HTMX requests get the ``#game`` partial of games/play.html;
every form also works as a plain post (redirect after success, the page with the message after a refusal).

The poll (``game_poll``) answers 204 with ONE query when nothing changed: it checks a signed token from
the page and compares the game's revision before touching the session or the user.
"""

from __future__ import annotations

import functools
import json

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games import board, engine, services
from games.forms import STAGING_ACTS, GameForm, action_from_post, staged_from_post, wild_from_post
from games.models import Game, GameStatus, Move
from handsite.access import get_group_for, group_view
from handsite.inputs import small_int

POLL_SALT = "games.poll"


def _only(*methods: str):
    """Like ``require_http_methods`` for views that check membership themselves, but a person outside
    the group gets 404 before any 405 (the check costs a query only on the wrong method)."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, group_slug, *args, **kwargs):
            if request.method not in methods:
                get_group_for(request.user, group_slug)
                return HttpResponseNotAllowed(methods)
            return view(request, group_slug, *args, **kwargs)

        return wrapper

    return decorate


def poll_token(game_id: int, user_id: int) -> str:
    """The poll URL's signature of (game, person): it carries no content, and the poll's one query
    joins that person's membership, so a removed member's page stops learning "changed or not"."""
    return signing.Signer(salt=POLL_SALT).sign(f"{game_id}:{user_id}").rsplit(":", 1)[1]


def _sort(request) -> str:
    value = request.POST.get("sort") or request.GET.get("sort")
    return "rank" if value == "rank" else "suit"


def _pending(pending, state, viewer) -> dict:
    """The pending melds (staged before laying down) for the template: hidden fields, cards, values."""
    total = sum(p.value or 0 for p in pending)
    return {
        "pending": [
            {
                "json": json.dumps(p.spec, separators=(",", ":")),
                "cards": [board.card_html(c, plays_as=c["plays_as"]) for c in p.cards],
                "value": p.value,
                "with_discard": p.with_discard,
            }
            for p in pending
        ],
        "pending_total": total,
        "pending_opening": viewer is not None and not state.deal.opened[viewer],
        "pending_has_discard": any(p.with_discard for p in pending),
    }


def _context(
    request, game, seats, *, state=None, selected=(), error=None, wild_choices=(), notice=None, pending=()
):
    seat = services.seat_of(seats, request.user)
    viewer = seat.number if seat is not None and seat.is_filled else None
    context = {
        "group": game.group,
        "game": game,
        "seats": seats,
        "my_seat": seat,
        "error": error,
        "notice": notice,
        "wild_choices": [
            {"value": f"{card_id}:{face}", "face": board.face_words(face)} for card_id, face in wild_choices
        ],
        "selected_ids": list(selected),
        "poll_url": reverse("games:poll", args=[game.group.slug, game.pk])
        + f"?r={game.revision}&u={request.user.pk}&t={poll_token(game.pk, request.user.pk)}"
        + f"&sort={_sort(request)}",
        "move_url": reverse("games:move", args=[game.group.slug, game.pk]),
        "is_creator": game.created_by_id == request.user.pk,
    }
    if game.state is not None:
        state = state or services.load_state(game)
        set_aside = [c["id"] for p in pending for c in p.cards]
        context["board"] = board.build(
            state, seats, viewer=viewer, sort=_sort(request), selected=selected, set_aside=set_aside
        )
        context.update(_pending(pending, state, viewer))
    return context


def _render(request, context, status=200):
    template = "games/play.html#game" if request.htmx else "games/play.html"
    return render(request, template, context, status=status)


@group_view
@require_http_methods(["GET", "POST"])
def game_create(request, group, membership):
    variant = request.POST.get("variant") or request.GET.get("variant")
    form = GameForm(request.POST or None, group=group, user=request.user, variant=variant)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = services.create_game(
                group=group,
                created_by=request.user,
                variant=data["variant"],
                options=data["options"],
                seats=data["seats"],
                random_order=data["random_order"],
                move_hours=data["move_hours"],
                timeout_rule=data["timeout_rule"],
            )
        except services.GameError as error:
            form.add_error(None, error.message)
        else:
            if game.status == GameStatus.WAITING:
                messages.success(request, _("The game is set up. It deals when every player has accepted."))
            return redirect(game)
    template = "games/new.html#form" if request.htmx else "games/new.html"
    return render(request, template, {"group": group, "form": form})


@group_view
@require_GET
def game_play(request, group, membership, game_id):
    game = get_object_or_404(Game.objects.select_related("group"), pk=game_id, group=group)
    return _render(request, _context(request, game, services.seats_of(game)))


@_only("GET")
def game_poll(request, group_slug, game_id):
    """204 (one query) when the game has not changed since the page's revision; else the ``#game``
    partial (after the usual membership check). The one query joins the membership of the person the
    token was signed for; the session (a query of its own) is read only when something changed."""
    token, user_id = request.GET.get("t", ""), small_int(request.GET.get("u", ""))
    if user_id is None or not signing.constant_time_compare(token, poll_token(game_id, user_id)):
        raise Http404
    revision = small_int(request.GET.get("r", ""))
    if revision is None:
        raise Http404
    games = Game.objects.filter(pk=game_id, group__slug=group_slug, group__memberships__user_id=user_id)
    current = next(iter(games.order_by().values_list("revision", flat=True)[:1]), None)
    if current is None:
        raise Http404
    if current == revision:
        return HttpResponse(status=204)
    if not request.user.is_authenticated or request.user.pk != user_id:
        raise Http404
    group, _membership = get_group_for(request.user, group_slug)
    game = get_object_or_404(Game.objects.select_related("group"), pk=game_id, group=group)
    return render(request, "games/play.html#game", _context(request, game, services.seats_of(game)))


@_only("POST")
def game_move(request, group_slug, game_id):
    """A move. The membership check and the row lock are one query inside services.play."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    selected = [value for value in request.POST.getlist("cards") if small_int(value) is not None]
    version = small_int(request.POST.get("version", ""))
    act = request.POST.get("act", "")
    if act in STAGING_ACTS or act.startswith("unstage:"):
        return _stage(request, group_slug, game_id, act, version, selected)
    try:
        action = action_from_post(request.POST)
        result = services.play(
            game_id=game_id, group_slug=group_slug, user=request.user, version=version, action=action
        )
    except services.GameNotFound:
        raise Http404 from None
    except (ValueError, services.GameError) as error:
        message = error.message if isinstance(error, services.GameError) else str(error)
        choices = error.wild_choices if isinstance(error, services.MoveRefused) else ()
        # A malformed form is refused before services.play checks membership: check it here (404).
        group, _membership = get_group_for(request.user, group_slug)
        game = get_object_or_404(Game.objects.select_related("group"), pk=game_id, group=group)
        stale = isinstance(error, services.StaleVersion)
        seats = services.seats_of(game)
        state = services.load_state(game)
        pending = () if stale or act != "lay_down" else _pending_or_none(request, state, seats)
        context = _context(
            request,
            game,
            seats,
            state=state,
            selected=() if stale else selected,
            error=message,
            wild_choices=choices,
            pending=pending,
        )
        return _render(request, context)
    if not request.htmx:
        return redirect(result.game)
    context = _context(request, result.game, result.seats, state=result.state)
    return render(request, "games/play.html#game", context)


def _pending_or_none(request, state, seats) -> list:
    """The page's pending melds read again (after a refused lay-down), or none if they do not hold."""
    seat = services.seat_of(seats, request.user)
    if state is None or seat is None or not seat.is_filled:
        return []
    try:
        specs = staged_from_post(request.POST)
        return services.read_pending(state, seat.number, specs)
    except (ValueError, services.GameError):
        return []


def _stage(request, group_slug, game_id, act, version, selected):
    """Put the selected cards aside as one more meld to lay down (``stage``; ``stage_take`` with the top
    discard), or take a pending meld back (``unstage:<n>``). Nothing is saved: the pending melds travel
    in the form's hidden ``staged`` fields and are checked again by services with every request."""
    group, _membership = get_group_for(request.user, group_slug)
    game = get_object_or_404(Game.objects.select_related("group"), pk=game_id, group=group)
    seats = services.seats_of(game)
    seat = services.seat_of(seats, request.user)
    if game.state is None or game.status != GameStatus.ACTIVE or seat is None or not seat.is_filled:
        error = _("You are watching this game; only its players make moves.")
        return _render(request, _context(request, game, seats, error=error))
    if version != game.version:
        return _render(request, _context(request, game, seats, error=services.StaleVersion().message))
    state = services.load_state(game)
    try:
        specs = staged_from_post(request.POST)
    except ValueError as error:
        return _render(request, _context(request, game, seats, state=state, error=str(error)))
    try:
        if act.startswith("unstage:"):
            number = small_int(act.removeprefix("unstage:"))
            if number is not None and number < len(specs):
                del specs[number]
            pending = services.read_pending(state, seat.number, specs)
            return _render(request, _context(request, game, seats, state=state, pending=pending))
        pending = services.add_pending_meld(
            state,
            seat.number,
            specs,
            [int(x) for x in selected],
            wild_from_post(request.POST),
            with_discard=act == "stage_take",
        )
    except services.GameError as error:
        choices = error.wild_choices if isinstance(error, services.MoveRefused) else ()
        before = _pending_or_none(request, state, seats)
        context = _context(
            request,
            game,
            seats,
            state=state,
            selected=selected,
            error=error.message,
            wild_choices=choices,
            pending=before,
        )
        return _render(request, context)
    return _render(request, _context(request, game, seats, state=state, pending=pending))


@_only("POST")
def game_seat(request, group_slug, game_id):
    """Before the deal: accept, decline, take an open seat, give it to a bot, or cancel the game."""
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    group, _membership = get_group_for(request.user, group_slug)
    what = request.POST.get("do")
    number = small_int(request.POST.get("number", ""))
    number = -1 if number is None else number
    calls = {
        "accept": lambda: services.accept_seat(game_id=game_id, user=request.user, group_slug=group.slug),
        "decline": lambda: services.decline_seat(game_id=game_id, user=request.user, group_slug=group.slug),
        "take": lambda: services.take_seat(
            game_id=game_id, user=request.user, number=number, group_slug=group.slug
        ),
        "bot": lambda: services.fill_seat_with_bot(
            game_id=game_id, actor=request.user, number=number, group_slug=group.slug
        ),
        "cancel": lambda: services.cancel_game(game_id=game_id, actor=request.user, group_slug=group.slug),
    }
    error = None
    try:
        if what not in calls:
            raise services.GameError(_("That is not something you can do here."))
        calls[what]()
    except services.GameNotFound:
        raise Http404 from None
    except services.GameError as exc:
        error = exc.message
    game = get_object_or_404(Game.objects.select_related("group"), pk=game_id, group=group)
    if what == "cancel" and error is None:
        messages.success(request, _("The game was cancelled."))
        return redirect(group)
    if request.htmx:
        return _render(request, _context(request, game, services.seats_of(game), error=error))
    if error:
        messages.error(request, error)
    return redirect(game)


@group_view
@require_GET
def game_replay(request, group, membership, game_id):
    """Step through a finished game's log; every hand is shown (the game is over)."""
    game = get_object_or_404(Game, pk=game_id, group=group)
    if game.status != GameStatus.FINISHED:
        raise Http404
    seats = services.seats_of(game)
    moves = list(Move.objects.filter(game=game).order_by("seq").values_list("seat", "action"))
    step = min(small_int(request.GET.get("step", "0")) or 0, len(moves))
    state = engine.replay(game.variant, game.options, game.players, game.seed, moves[:step])
    names = {seat.number: seat.name for seat in seats}
    hands = [
        {"name": names[n], "cards": board.cards_html(board.sorted_cards(state.deal.hands[n]))}
        for n in range(state.players)
    ]
    events = engine.visible_events(state.deal.events, None, reveal=True)
    lines = [line for line in (board.describe(e, names) for e in events) if line is not None]
    melds = [
        {
            "owner": names[tm.owner],
            "cards": board.cards_html(board.sorted_cards(tm.meld.cards, keep_order=True)),
        }
        for tm in state.deal.melds
    ]
    context = {
        "group": group,
        "game": game,
        "step": step,
        "steps": len(moves),
        "hands": hands,
        "melds": melds,
        "lines": list(reversed(lines))[:12],
        "discard_top": board.card_html({"id": state.deal.discard[-1].id, "face": state.deal.discard[-1].face})
        if state.deal.discard
        else None,
        "deal_number": state.deal.number + 1,
    }
    template = "games/replay.html#replay" if request.htmx else "games/replay.html"
    return render(request, template, context)
