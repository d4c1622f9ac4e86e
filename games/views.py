"""Thin function views of online play. Reads go through the engine's per-seat view (games/board.py);
every write goes through games.services. HTMX requests get the ``#game`` partial of games/play.html;
every form also works as a plain post (redirect after success, the page with the message after a refusal).

The poll (``game_poll``) answers 204 with ONE query when nothing changed: it checks a signed token from
the page and compares the game's revision before touching the session or the user.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core import signing
from django.http import Http404, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from games import board, engine, movelog, rules, table_end
from games import chat as chat_module
from games import moves as moves_module
from games import notifications as game_notifications
from games.engine.meldspec import choice_text
from games.forms import ChatForm, GameForm, MoveForm, read_sort
from games.models import Game, GameStatus, Move
from games.services import core as game_core
from games.services import leaving, playing, saving, seating, talk
from handsite.access import get_group_for, get_membership_for, group_view
from handsite.i18n import language_from_cookie
from handsite.inputs import small_int
from handsite.models import Membership

POLL_SALT = "games.poll"


def _only(*methods: str):
    """Like ``require_http_methods`` for views that check membership themselves: logged out, the log-in
    page (HX-Redirect for htmx, by the middleware); a person outside the group gets 404 before any 405
    (the check costs a query only on the wrong method)."""

    def decorate(view):
        @functools.wraps(view)
        def wrapper(request, group_slug, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
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
    return read_sort(request.POST if request.method == "POST" else request.GET)


def _staged(staged, state, viewer) -> dict:
    """The melds the viewer has put aside (kept on the server) for the template."""
    return {
        "staged": [
            {
                "cards": board.meld_cards(meld.cards, [c["plays_as"] for c in meld.cards]),
                "value": meld.value,
                "with_discard": meld.with_discard,
            }
            for meld in staged
        ],
        "staged_total": sum(meld.value or 0 for meld in staged),
        "staged_opening": viewer is not None
        and moves_module.moves_of(state).stages
        and not state.deal.opened[viewer],
        "staged_has_discard": any(meld.with_discard for meld in staged),
    }


PANELS = [
    {"id": "log", "title": gettext_lazy("What happened"), "template": "games/_panel_log.html"},
    {"id": "chat", "title": gettext_lazy("Table talk"), "template": "games/_chat.html"},
    {"id": "scores", "title": gettext_lazy("Scores"), "template": "games/_panel_scores.html"},
]
"""The play page's panels (opened on demand; beside the table on a wide screen), in order: each panel's
template is included with the page's context (``b``: the board, ``v``: the engine's view). A move's
answer keeps the chat panel (``move_answer``) and, when no deal ended, the score sheet (``scores_keep``)
as the page has them: their templates then give an empty element the page preserves (hx-preserve)."""


def _panels(board_context) -> list[dict]:
    view = board_context["view"]
    scores_open = view["finished"] or board_context["deal_fresh"]
    return [{**panel, "open": panel["id"] == "scores" and scores_open} for panel in PANELS]


def _context(
    request,
    game,
    seats,
    *,
    state=None,
    staged=None,
    selected=(),
    error=None,
    wild_choices=(),
    moves=None,
    sort=None,
):
    """The play page's context. ``staged``: the viewer's staged melds when the caller has them;
    ``moves``: the Move rows a move just wrote (for "since your last move" without a query); ``sort``:
    how to show the hand when not the page's (after the player arranged it: their own order)."""
    seat = game_core.seat_of(seats, request.user)
    viewer = seat.number if seat is not None and seat.is_filled else None
    sort = sort or _sort(request)
    urls = game_urls(game.group.slug, game.pk, game.variant)
    context = {
        "group": game.group,
        "game": game,
        "seats": seats,
        "my_seat": seat,
        "error": error,
        "wild_choices": [
            {
                "value": choice_text(card_id, face),
                "words": board.face_words(face),
                "name": board.card_words(face),
            }
            for card_id, face in wild_choices
        ],
        "selected_ids": list(selected),
        "urls": urls,
        "poll_url": urls["poll"]
        + f"?r={game.revision}&u={request.user.pk}&t={poll_token(game.pk, request.user.pk)}",
        "move_url": urls["move"],
        "is_creator": game.created_by_id == request.user.pk,
        "chat": ChatPanel(game, request.user, seat),
        "chat_url": urls["chat"],
        "chat_error": None,
        "chat_text": "",
    }
    if game.status == GameStatus.WAITING:
        context["whatsapp_url"] = game_notifications.whatsapp_invite_url(game)
        if context["is_creator"]:
            context["invitable"] = _invitable(game, seats)
    if game.state is not None:
        state = state or game_core.load_state(game)
        if staged is None:
            staged = saving.staged_melds(game, viewer, state)
        set_aside = [c["id"] for meld in staged for c in meld.cards]
        names = {s.number: s.name for s in seats}
        since = movelog.since(game, names, viewer, state.deal.number, moves=moves)
        context["since"] = since
        context["board"] = board.build(
            state,
            seats,
            viewer=viewer,
            sort=sort,
            selected=selected,
            set_aside=set_aside,
            fresh=since.card_ids,
            own=moves_module.own_order(seat.hand_order, state) if viewer is not None else (),
        )
        sort = context["board"]["sort"]
        context["panels"] = _panels(context["board"])
        context["rule_state"] = rules.rule_state_lines(context["board"]["view"], names)
        context["deal_end"] = table_end.deal_end(state, context["board"]["view"], names, viewer)
        context["game_end"] = table_end.game_end(game, context["board"], seat)
        context |= _staged(staged, state, viewer)
    context["tab_title"] = table_end.tab_title(game, context.get("board"))
    context["your_turn_now"] = table_end.your_turn_now(game, context.get("board"))
    if sort:
        context["poll_url"] += f"&sort={sort}"
    return context


def game_urls(group_slug: str, game_id: int, variant: str) -> dict[str, str]:
    """The links of a game's play page (``urls.log`` ...)."""
    args = [group_slug, game_id]
    urls = {name: reverse(f"games:{name}", args=args) for name in ("move", "poll", "chat", "log", "replay")}
    urls["rules"] = reverse("games:rules", args=[variant])
    urls["group"] = reverse("group_detail", args=[group_slug])
    return urls


def _invitable(game, seats) -> list:
    """The members the creator may invite to a free seat: those without a seat (ONE query)."""
    seated = {seat.user_id for seat in seats if seat.user_id is not None}
    members = (
        Membership.objects.filter(group_id=game.group_id).select_related("user").order_by("joined_at", "pk")
    )
    return [m.user for m in members if m.user_id not in seated]


class ChatPanel:
    """The chat panel's facts for the template, each read only when the template asks (a move's htmx
    answer keeps the page's chat panel, ``move_answer``, and reads nothing)."""

    def __init__(self, game, user, seat, membership=None):
        self.game, self.user, self.seat, self._membership = game, user, seat, membership

    @functools.cached_property
    def messages(self):
        return chat_module.recent(self.game.pk)

    @property
    def newest_from_others(self) -> int:
        return max((m.pk for m in self.messages if m.author_id != self.user.pk), default=0)

    @property
    def can_write(self) -> bool:
        return self.seat is not None and self.seat.accepted_at is not None

    @functools.cached_property
    def can_moderate(self) -> bool:
        if self._membership is None:
            self._membership = get_membership_for(self.user, self.game.group.slug)
        return self._membership.can_manage


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
            game = seating.create_game(
                group=group,
                created_by=request.user,
                variant=data["variant"],
                options=data["options"],
                seats=data["seats"],
                random_order=data["random_order"],
                move_hours=data["move_hours"],
                timeout_rule=data["timeout_rule"],
            )
        except game_core.GameError as error:
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
    game_notifications.opened(request.user, game)  # its notifications read; the player is present
    context = _context(request, game, game_core.seats_of(game))
    context["chat"]._membership = membership
    context["can_end"] = membership.can_manage  # shown while #game says the game is active (play.css)
    return _render(request, context)


def _unread_badge(user_id: int, unread: int) -> str:
    """The header's unread count, swapped out of band by the poll (it follows the poll)."""
    return render_to_string("handsite/_unread_badge.html", {"unread": unread, "oob": True})


@language_from_cookie  # answers before reading the session: the language cookie is the person's
def game_poll(request, group_slug, game_id):
    """204 (one query) when the game has not changed since the page's revision; else the ``#game``
    partial (after the usual membership check). The one query joins the membership of the person the
    token was signed for; the session (a query of its own) is read only when something changed, or
    not at all without a session cookie (logged out: the log-in page, HX-Redirect for htmx)."""
    if request.method != "GET" or settings.SESSION_COOKIE_NAME not in request.COOKIES:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if request.method != "GET":
            get_group_for(request.user, group_slug)
            return HttpResponseNotAllowed(["GET"])
    user_id = small_int(request.GET.get("u", ""), digits=12)
    revision = small_int(request.GET.get("r", ""), digits=10)
    token = request.GET.get("t", "")
    if (
        user_id is None
        or revision is None
        or not signing.constant_time_compare(token, poll_token(game_id, user_id))
    ):
        raise Http404
    current = game_core.poll_revision(game_id, group_slug, user_id)
    if current is None:
        raise Http404
    seen = request.GET.get("seen") == "1"  # the page is in view (table_end.js): what it shows is read
    if current == revision:
        unread = game_notifications.polled(user_id)  # presence, every 30 s: then the header count
        if unread is None:
            return HttpResponse(status=204)
        if seen:
            unread = game_notifications.seen(user_id, game_id)
        return HttpResponse(_unread_badge(user_id, unread), headers={"HX-Reswap": "none"})
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if request.user.pk != user_id:
        raise Http404
    group, membership = get_group_for(request.user, group_slug)
    game = get_object_or_404(Game.objects.select_related("group"), pk=game_id, group=group)
    context = _context(request, game, game_core.seats_of(game))
    context["chat"]._membership = membership
    response = render(request, "games/play.html#game", context)
    if seen:
        game_notifications.seen(request.user.pk, game.pk)
    unread = game_notifications.polled(request.user.pk, always=True)
    response.content += _unread_badge(request.user.pk, unread).encode()
    return response


def _scores_unchanged(outcome: playing.MoveOutcome) -> bool:
    """Whether the score sheet the page shows is still right after this move: the move was applied on the
    version the page showed, and no deal ended in it or in the bots' moves after it (a deal's end is
    the only thing that changes the sheet)."""
    state = outcome.state
    return (
        outcome.applied
        and bool(outcome.moves)
        and not state.finished
        and all(move.deal == state.deal.number for move in outcome.moves)
    )


@_only("POST")
def game_move(request, group_slug, game_id):
    """A press of a button on the play page: the form reads it once into a typed request, ONE service
    call (which checks membership first, in its locking query) answers for success and refusal alike,
    and the page is rendered once."""
    move = MoveForm(request.POST).move_request()
    try:
        outcome = playing.move(game_id=game_id, group_slug=group_slug, user=request.user, request=move)
    except game_core.GameNotFound:
        raise Http404 from None
    if (outcome.applied or outcome.arranged) and not request.htmx:
        return redirect(outcome.game)
    context = _context(
        request,
        outcome.game,
        outcome.seats,
        state=outcome.state,
        staged=outcome.staged,
        selected=outcome.selected,
        error=outcome.error,
        wild_choices=outcome.wild_choices,
        moves=outcome.moves,
        sort="own" if outcome.arranged else None,
    )
    # An htmx answer: the page keeps its chat panel and form (no query for the messages) and its token field.
    context["move_answer"] = bool(request.htmx)
    context["scores_keep"] = bool(request.htmx) and _scores_unchanged(outcome)
    if outcome.wild_choices:  # the same press again, with the wild card named
        context["repeat"] = [("act", move.act)] + [
            (name, value)
            for name, value in (("meld", move.meld), ("option", move.option))
            if value is not None
        ]
    return _render(request, context)


@_only("POST")
def game_seat(request, group_slug, game_id):
    """Before the deal: accept, decline, take an open seat, give it to a bot or invite another member
    to it, or cancel the game. In
    play: leave (a bot takes the seat) or, for the group's owner or an admin, end the game."""
    group, _membership = get_group_for(request.user, group_slug)
    what = request.POST.get("do")
    number = small_int(request.POST.get("number", ""), digits=2)
    number = -1 if number is None else number
    calls = {
        "accept": lambda: seating.accept_seat(game_id=game_id, user=request.user, group_slug=group.slug),
        "decline": lambda: seating.decline_seat(game_id=game_id, user=request.user, group_slug=group.slug),
        "invite": lambda: seating.invite_to_seat(
            game_id=game_id,
            actor=request.user,
            number=number,
            invitee_id=small_int(request.POST.get("member", ""), digits=12) or -1,
            group_slug=group.slug,
        ),
        "take": lambda: seating.take_seat(
            game_id=game_id, user=request.user, number=number, group_slug=group.slug
        ),
        "bot": lambda: seating.fill_seat_with_bot(
            game_id=game_id, actor=request.user, number=number, group_slug=group.slug
        ),
        "cancel": lambda: seating.cancel_game(game_id=game_id, actor=request.user, group_slug=group.slug),
        "leave": lambda: leaving.leave_game(game_id=game_id, user=request.user, group_slug=group.slug),
        "end": lambda: leaving.end_game(game_id=game_id, actor=request.user, group_slug=group.slug),
    }
    error = None
    try:
        if what not in calls:
            raise game_core.GameError(_("That is not something you can do here."))
        calls[what]()
    except game_core.GameNotFound:
        raise Http404 from None
    except game_core.GameError as exc:
        error = exc.message
    game = get_object_or_404(Game.objects.select_related("group"), pk=game_id, group=group)
    if what == "cancel" and error is None:
        messages.success(request, _("The game was cancelled."))
        return redirect(group)
    if request.htmx:
        return _render(request, _context(request, game, game_core.seats_of(game), error=error))
    if error:
        messages.error(request, error)
    return redirect(game)


REPLAY_SPEEDS = ("0.5", "1", "2")
"""Seconds between moves when the replay plays on by itself (``?play=1``)."""


@group_view
@require_GET
def game_replay(request, group, membership, game_id):
    """Step through a finished game's log; every hand is shown (the game is over)."""
    game = get_object_or_404(Game, pk=game_id, group=group)
    if game.status != GameStatus.FINISHED:
        raise Http404
    seats = game_core.seats_of(game)
    rows = list(Move.objects.filter(game=game).order_by("seq").values_list("seat", "action", "deal"))
    moves = [(seat, action) for seat, action, _deal in rows]
    step = min(small_int(request.GET.get("step", ""), digits=7) or 0, len(moves))
    speed = request.GET.get("play", "")
    speed = speed if speed in REPLAY_SPEEDS else None
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
            "owner": " & ".join(names[n] for n in owners),  # a side's meld: its players
            "cards": board.cards_html(board.sorted_cards(cards, keep_order=True)),
        }
        for owners, cards in engine.table_melds(state)
    ]
    starts: dict[int, int] = {}  # deal (0-based) -> the step at which it starts
    for index, (_seat, _action, deal) in enumerate(rows):
        if deal is not None and deal not in starts:
            starts[deal] = index
    deals = [{"number": deal + 1, "step": start} for deal, start in sorted(starts.items())]
    results = [
        {"number": n + 1, "points": list(record.score.points_by_seat()), "void": record.score.void}
        for n, record in enumerate(state.records)
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
        "deals": deals,
        "results": results,
        "names": [names[n] for n in range(state.players)],
        "speed": speed,
        "speeds": REPLAY_SPEEDS,
        "chat_messages": chat_module.up_to(game.pk, step),  # table talk as it stood at this move
    }
    template = "games/replay.html#replay" if request.htmx else "games/replay.html"
    return render(request, template, context)


@require_GET
@require_GET
def rules_index(request):
    """Every rule set, each with what it is in one line and a link to its rules page; public."""
    return render(
        request, "games/rules_index.html", {"books": [rules.rulebook(slug) for slug in rules.RULE_SET_ORDER]}
    )


def rules_page(request, slug):
    """The rules of one rule set in players' words; public. ``?game=<id>`` adds that game's option
    values, for a member of the game's group only: for anybody else the page is the plain rules page,
    so it tells nothing about a game they are not in (not even that it exists)."""
    if slug not in engine.VARIANTS:
        raise Http404
    context = {"book": rules.rulebook(slug), "game": None, "game_options": None}
    game_id = small_int(request.GET.get("game", ""), digits=12)
    if request.user.is_authenticated and game_id is not None:
        game = (
            Game.objects.select_related("group")
            .filter(pk=game_id, variant=slug, group__memberships__user=request.user)
            .first()
        )
        if game is not None:
            context["game"] = game
            context["game_options"] = rules.option_rows(engine.VARIANTS[slug], game.options)
    return render(request, "games/rules.html", context)


@group_view
@require_GET
def game_log(request, group, membership, game_id):
    """Every move of the game, newest first, a page at a time (only that page's rows are read)."""
    game = get_object_or_404(Game.objects.select_related("group"), pk=game_id, group=group)
    seats = game_core.seats_of(game)
    names = {seat.number: seat.name for seat in seats}
    number = small_int(request.GET.get("page", ""), digits=6) or 1
    log = movelog.page(game, names, number, seats)
    context = {"group": group, "game": game, "log": log, "deal_links": movelog.deal_links(game)}
    return render(request, "games/log.html", context)


@_only("POST")
def game_chat(request, group_slug, game_id):
    """Table talk: write a message, delete one, or tell that the chat panel was seen. Membership is
    checked before anything of the POST is read (outsiders: 404); the form reads it once into a typed
    request; ONE service call answers for success and refusal alike; the chat is rendered once (the
    ``#chat`` partial for htmx, else the page)."""
    group, membership = get_group_for(request.user, group_slug)
    chat_request = ChatForm(request.POST).chat_request()
    try:
        outcome = talk.chat(game_id=game_id, group_slug=group.slug, user=request.user, request=chat_request)
    except game_core.GameNotFound:
        raise Http404 from None
    game = outcome.game
    if chat_request.action == "read" and outcome.error is None:
        unread = game_notifications.unread_of(request.user.pk)
        return render(request, "handsite/_unread_badge.html", {"unread": unread, "oob": False})
    if not request.htmx:
        if outcome.error is None:
            return redirect(game.get_absolute_url() + "#chat")
        context = _context(request, game, outcome.seats)
        context["chat"]._membership = membership
        context |= {"chat_error": outcome.error, "chat_text": chat_request.text}
        return _render(request, context)
    seat = game_core.seat_of(outcome.seats, request.user)
    context = {
        "group": group,
        "game": game,
        "chat": ChatPanel(game, request.user, seat, membership),
        "chat_url": reverse("games:chat", args=[group.slug, game.pk]),
        "chat_error": outcome.error,
        "chat_text": chat_request.text if outcome.error else "",
    }
    response = render(request, "games/play.html#chat", context)
    response.content += _unread_badge(request.user.pk, game_notifications.unread_of(request.user.pk)).encode()
    return response
