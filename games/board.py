"""What the play page shows, built from the engine's per-seat view (never from the raw state, except
for the replay of a finished game, where every hand is public)."""

from __future__ import annotations

import functools
from collections import OrderedDict
from itertools import zip_longest

from django.template.defaultfilters import timeuntil_filter
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from games import engine, moves
from games.engine import actions as engine_actions
from games.engine.deal import deck_for
from games.engine.melds import face_text
from games.engine.meldspec import MeldSpec
from games.kept import keep
from handsite import timefmt
from handsite.i18n import per_language

SUIT_SYMBOLS = moves.SUIT_SYMBOLS
SUIT_ORDER = moves.SUIT_ORDER
RANK_ORDER = moves.RANK_ORDER
split_face = moves.split_face


def card_html(card: dict, *, plays_as: str = "") -> SafeString:
    """One visible card: ``<span class="card" data-card="ID">`` (the only way a card face is shown)."""
    return _card_html(card["id"], card["face"], plays_as)


@functools.lru_cache(maxsize=4096)
def _card_html(card_id: int, face: str, plays_as: str) -> SafeString:
    """A card's markup depends on its id, face and what it plays as only: built once per process (a
    page shows a hundred cards; a deck has at most a few hundred, with their wild meanings)."""
    rank, suit = split_face(face)
    if rank == "JK":
        inner = format_html('<span class="rank">{}</span>', "🃏")
        css = "pcard joker"
    else:
        inner = format_html(
            '<span class="rank">{}</span><span class="suit">{}</span>', rank, SUIT_SYMBOLS[suit]
        )
        css = f"pcard suit-{suit}"
    extra = format_html(' <span class="plays-as">{}</span>', face_words(plays_as)) if plays_as else ""
    return format_html('<span class="{}" data-card="{}">{}{}</span>', css, card_id, inner, extra)


def face_words(face: str) -> str:
    """A face a wild card stands for ("8S" -> "8♠"; a set wild "5" -> "5")."""
    if face and face[-1] in SUIT_SYMBOLS:
        return face[:-1] + SUIT_SYMBOLS[face[-1]]
    return face


def cards_html(cards: list[dict]) -> SafeString:
    return mark_safe(" ".join([_card_html(card["id"], card["face"], "") for card in cards]))  # each escaped


def sorted_cards(cards, *, keep_order: bool = False) -> list[dict]:
    """Engine cards as card dicts (by suit, or in the given order)."""
    shown = [{"id": card.id, "face": card.face} for card in cards]
    return shown if keep_order else sorted(shown, key=lambda c: sort_key(c, "suit"))


sort_key = moves.sort_key


LOG_LINES = 30
"""Lines of the deal's log on the play page (the whole game's log is paged on its own page)."""

BOOKKEEPING_EVENTS = frozenset({"turn_started"})
"""Events the page shows through the seat list rather than as a line of the log."""


DESCRIBED_KEPT = 20_000
"""Log lines kept per process by :func:`describe` (a few MB): a page shows the last lines of a deal,
and each move adds one or two, so most of a page's lines were described for the move before."""

_described: dict[tuple, SafeString] = {}


def describe(event: dict, names: dict[int, str]) -> SafeString | None:
    """One log event in words (translated), or None for bookkeeping events. The sentence is the
    engine's (``engine.describe``); cards are drawn as cards instead of notation. The line depends on
    the event as this viewer sees it, the names and the language only: kept (see DESCRIBED_KEPT)."""
    return _described_line(event, names, (get_language(), tuple(names.items())))


LOG_SLOTS = 256
"""Boards whose described log lines :func:`last_lines` keeps per process and language (an LRU: the least
recently shown board goes first). A board is one viewer's of one game with its players' names; it keeps
the events its last page described (some forty: the page's lines and the turns between them) with their
lines, so at most a few MB per language."""


@per_language
def _log_slots(language: str) -> OrderedDict:
    """The kept boards' lines in ``language`` (the active one: the caller's key), emptied when Django
    reloads its catalogues (a line is in the words of the catalogue it was described with)."""
    return OrderedDict()


def last_lines(events: list[dict], names: dict[int, str], limit: int = 0, *, slot=None) -> list[SafeString]:
    """The newest ``limit`` lines of ``events`` (every line for 0), newest first: the events are
    described from the end back until there are enough (a page costs the same early and late in a deal);
    the language and the names are read once for all of them.

    ``slot``: whose board this is (the game and the viewer): the lines its last page described are kept
    (see LOG_SLOTS), and an event at the same place of the log that is EQUAL to the one described then
    (the event as this viewer sees it: a drawn card's face for the seat that drew it only) gets the same
    line without describing it again (a deal's log only grows, so most of a page's lines were on the
    page before; comparing an event is some twenty times cheaper than describing or repr-ing it). The
    line depends on the event, the names and the language only, each part of the comparison or the key."""
    language = get_language()
    context = (language, tuple(names.items()))
    before: dict = {}
    if slot is not None:
        slots = _log_slots(language)
        key = (slot, context[1])
        before = slots.pop(key, None) or {}
    described = {}
    lines = []
    for index in range(len(events) - 1, -1, -1):
        event = events[index]
        kept = before.get(index)
        line = kept[1] if kept is not None and kept[0] == event else _described_line(event, names, context)
        described[index] = (event, line)
        if line is not None:
            lines.append(line)
            if len(lines) == limit:
                break
    if slot is not None:
        keep(slots, key, described, LOG_SLOTS)
    return lines


def _described_line(event: dict, names: dict[int, str], context: tuple) -> SafeString | None:
    if event.get("type") in BOOKKEEPING_EVENTS:
        return None
    key = (context, repr(event))
    line = _described.get(key)
    if line is None:
        line = _describe(event, names)
        if len(_described) >= DESCRIBED_KEPT:
            _described.clear()
        _described[key] = line
    return line


def _describe(event: dict, names: dict[int, str]) -> SafeString:
    by_seat = [names.get(seat, "") for seat in range(max(names, default=-1) + 1)]
    template, params = engine.describe(event, by_seat)
    shown = {key: _(value) if key in ("hand", "name") else value for key, value in params.items()}
    for key in ("card", "wild"):
        if isinstance(event.get(key), dict):
            shown[key] = card_html(event[key])
    if "cards" in event:
        shown["cards"] = cards_html(event["cards"])
    elif "meld" in event:
        shown["cards"] = cards_html(event["meld"]["cards"])
    if not shown:  # format_html needs something to fill in
        return conditional_escape(_(template))
    return format_html(_(template), **shown)


def meld_cards_html(cards: list[dict], plays_as=()) -> SafeString:
    """A meld's cards side by side (no space between them); ``plays_as``: what each card plays as, in
    words ("8S", "5"; empty where it plays as itself), shown under a wild card."""
    return mark_safe(  # each escaped
        "".join(
            [
                _card_html(card["id"], card["face"], words)
                for card, words in zip_longest(cards, plays_as, fillvalue="")
            ]
        )
    )


def _plays_as(card: dict, face) -> str:
    """What a table meld's card plays as, in notation, or "" when it plays as itself."""
    words = face_text(tuple(face))
    return words if words != card["face"] else ""


def _meld_item(
    meld: dict, layoff_ids: set[int], fresh: set[int], buttons: dict, wild_ids=frozenset(), hints=None
) -> dict:
    """One table meld for the page. ``hints``: the meld ids the engine's suggestions name (``lay_off``,
    ``exchange``, ``take``) so their buttons are marked, never the only ones shown. ``buttons``: which
    of the meld's buttons the moves allowed now offer (decided here once, so the page's loop over the
    melds only prints them)."""
    hints = hints or {}
    can_lay_off = meld["id"] in layoff_ids
    others = buttons["own_only"] and meld["owner"] != buttons["viewer"]  # not a meld they may add to
    has_wild = any(card["id"] in wild_ids for card in meld["cards"])
    return {
        "id": meld["id"],
        "kind": meld["kind"],
        "owner": meld["owner"],
        "cards": meld_cards_html(
            meld["cards"],
            [_plays_as(card, face) for card, face in zip(meld["cards"], meld["plays_as"], strict=True)],
        ),
        "can_lay_off": can_lay_off,
        "has_wild": has_wild,
        "can_exchange": meld["id"] in hints.get("exchange", ()),
        "can_take": meld["id"] in hints.get("take", ()),
        "fresh": any(card["id"] in fresh for card in meld["cards"]),
        "lay_off_button": not others and (can_lay_off or buttons["lay_off_anywhere"]),
        "take_button": not others and buttons["take_onto"],
        "exchange_button": has_wild and buttons["exchange"],
    }


def build(
    state: engine.GameState,
    seats,
    *,
    viewer: int | None,
    sort: str = "suit",
    selected=(),
    set_aside=(),
    fresh=frozenset(),
    own=(),
) -> dict:
    """The template context of the board for ``viewer`` (a seat number, or None for a watcher).
    ``set_aside``: ids of the viewer's cards in staged melds (shown there, not in the hand);
    ``fresh``: ids of cards put on the table since the viewer's last move (highlighted); ``own``: the
    viewer's own order of their hand (``sort`` "own", or no sort asked: see moves.effective_sort). Describes
    only what it shows: the last :data:`LOG_LINES` lines of the deal's log."""
    picture = engine.view(state, viewer)
    if picture.get("family") == "hand-and-foot":
        sort = sort if sort in ("suit", "rank") else "suit"
        return build_foot(state, seats, picture, viewer=viewer, sort=sort, selected=selected, fresh=fresh)
    names = {seat.number: seat.name for seat in seats}
    bots = {seat.number for seat in seats if seat.bot}
    left = {seat.number for seat in seats if getattr(seat, "left_at", None) is not None}
    legal = engine.legal_actions(state, viewer) if viewer is not None else []
    types = {action["type"] for action in legal}
    layoff_ids = {t["meld"] for a in legal if a["type"] == "lay_off" for t in a["targets"]}
    selected = {int(x) for x in selected}
    set_aside = set(set_aside)
    own = list(own)
    sort = moves.effective_sort(sort, own)
    hand = [
        card for card in moves.ordered_hand(picture["hand"] or [], sort, own) if card["id"] not in set_aside
    ]
    seat_rows = []
    for row in picture["seats"]:
        number = row["seat"]
        seat_rows.append(
            {
                **row,
                "number": number,
                "name": names.get(number, ""),
                "bot": number in bots,
                "left": number in left,
                "is_turn": picture["current"] == number,
                "is_you": viewer == number,
            }
        )
    wilds = engine_actions.wilds_of(state)
    wild_ids = {card.id for tm in state.deal.melds for card in tm.meld.cards if wilds.is_wild(card)}
    offered = moves.offers(legal)
    hints = {
        "exchange": {a["meld"] for a in offered if a["type"] == "exchange"},
        "take": {a["lay_off"]["meld"] for a in offered if a["type"] == "take_discard" and a.get("lay_off")},
    }
    your_turn = viewer is not None and picture["your_turn"]
    opened = viewer is not None and state.deal.opened[viewer]
    variant = engine.HAND_VARIANTS[state.variant]
    draw_phase = your_turn and state.deal.phase == engine.DRAW
    play_phase = your_turn and state.deal.phase == engine.PLAY
    has_discard = bool(picture["discard"]["top"])
    # The moves the selection drives (the engine decides when the button is pressed):
    buttons = {
        "lay_off_anywhere": play_phase and opened,
        "own_only": variant.layoff == "own",
        "viewer": viewer,
        "exchange": play_phase and (opened or not variant.exchange_needs_opening),
        "take_onto": draw_phase and has_discard and opened and variant.discard_take != "new_meld",
    }
    groups: dict = {}
    for meld in picture["melds"]:
        key = meld["team"] if picture["teams"] else meld["owner"]
        groups.setdefault(key, []).append(_meld_item(meld, layoff_ids, fresh, buttons, wild_ids, hints))
    meld_groups = []
    for key, melds in sorted(groups.items()):
        if picture["teams"]:
            title = " & ".join(names[n] for n in range(state.players) if n % 2 == key)
        else:
            title = names.get(key, "")
        meld_groups.append({"title": title, "melds": melds})
    takes, exchanges = [], []
    for option, action in enumerate(offered):
        if action["type"] == "take_discard":
            takes.append({"option": option, "label": _take_label(action, state)})
        else:
            label = format_html(
                _("Exchange {cards} for the wild card in meld {meld}"),
                cards=cards_html([_public(state, i) for i in action["cards"]]),
                meld=action["meld"],
            )
            exchanges.append({"option": option, "label": label})
    meld_type = next((a["type"] for a in legal if a["type"] in ("meld", "announce")), None)
    log_lines = last_lines(picture["log"], names, LOG_LINES, slot=(state.variant, state.seed, viewer))
    deals = [
        {"number": i + 1, "points": points, "void": void}
        for i, (points, void) in enumerate(
            zip(picture["scores"]["deals"], picture["scores"]["void"], strict=True)
        )
    ]
    last_deal = None
    if picture["last_deal"]:
        last = picture["last_deal"]
        last_deal = {
            "number": last["deal"] + 1,
            "winner": names.get(last["winner"]) if last.get("winner") is not None else None,
            "void": last.get("void"),
            "hand": last.get("finish") not in (None, "normal", "announcement"),
            "stock_out": False,
            "rows": [
                {
                    "name": names.get(n, ""),
                    "points": last["points"][n],
                    "cards": cards_html(last["hands"][n]),
                    "members": None,
                }
                for n in range(state.players)
            ],
        }
    standings = sorted(
        (
            {
                "name": names.get(n, ""),
                "total": picture["scores"]["totals"][n],
                "winner": n in picture["winners"],
            }
            for n in range(state.players)
        ),
        key=lambda row: (not row["winner"], row["total"]),
    )
    final_hands = None
    if picture.get("hands") is not None:
        final_hands = [
            {"name": names.get(n, ""), "cards": cards_html(hand)} for n, hand in enumerate(picture["hands"])
        ]
    context = {
        "foot": False,
        "standings": standings,
        "final_hands": final_hands,
        "view": picture,
        "names": names,
        "seat_rows": seat_rows,
        "score_columns": [row["name"] for row in seat_rows],
        "hand": hand,  # the viewer's cards as shown (card dicts)
        "hand_html": hand_html(hand, selected),
        "hand_count": len(hand),
        "meld_groups": meld_groups,
        "melds_html": _melds_html(meld_groups),
        "discard_top": card_html(picture["discard"]["top"]) if picture["discard"]["top"] else None,
        "indicator": card_html(picture["indicator"]) if picture["indicator"] else None,
        "offer": {
            "draw": "draw" in types,
            "discard": "discard" in types,
            "meld": meld_type,
            "takes": takes,
            "take_custom": bool(takes),
            "lay_off": bool(layoff_ids),
            "exchanges": exchanges,
            "hints": len(takes) + len(exchanges),
            "declare_hand": "declare_hand" in types,
            "redeal": "redeal" in types,
            "draw_phase": draw_phase,
            "play_phase": play_phase,
            "has_discard": has_discard,
            "announce": your_turn and picture["opening_rule"] == "announcement" and not opened,
            "takes_declare": any(a.get("declare_hand") for a in offered if a["type"] == "take_discard"),
            "take_declare": draw_phase and has_discard and variant.scoring == "kuwaiti" and not opened,
            "declare_any": play_phase and variant.scoring == "kuwaiti" and not opened,
        },
        "log_lines": log_lines,
        "log_html": log_html(log_lines),
        "discard_fresh": bool(picture["discard"]["top"]) and picture["discard"]["top"]["id"] in fresh,
        "deal_fresh": bool(picture["last_deal"]) and sum(state.deal.turns) <= 1,
        "deals": deals,
        "totals": picture["scores"]["totals"],
        "last_deal": last_deal,
        "turn_name": names.get(picture["current"]) if picture["current"] is not None else None,
        "sort": sort,
        "has_own_order": bool(own),
        "viewer": viewer,
    }
    if picture["teams"]:
        read_as_teams(context, names, higher_wins=False)
    return context


def _public(state: engine.GameState, card_id: int) -> dict:
    """A card of the viewer's own hand (or the top discard) by id, for labels."""
    card = deck_for(state.variant, state.players)[card_id]
    return {"id": card.id, "face": card.face}


def _take_label(action: dict, state: engine.GameState) -> SafeString:
    top = state.deal.discard[-1]
    top_html = card_html({"id": top.id, "face": top.face})
    if action.get("declare_hand"):
        return format_html(_("Take {card} and declare a Hand"), card=top_html)
    parts = []
    for spec in action.get("melds") or []:
        parts.append(cards_html([_public(state, i) for i in MeldSpec.from_json(spec).cards]))
    if action.get("lay_off"):
        return format_html(
            _("Take {card} and lay it off onto meld {meld}"), card=top_html, meld=action["lay_off"]["meld"]
        )
    return format_html(
        _("Take {card} and meld {melds}"), card=top_html, melds=mark_safe(" · ".join(str(p) for p in parts))
    )


# --- Hand and Foot ---------------------------------------------------------------------------------


def _missing_sentence(missing: list[str]) -> str:
    """What another side still needs to go out, in words ("Needs a red book to go out."). The viewer's
    own side reads it in the rule state (``engine.rule_state``: "To go out your team needs a red book.")."""
    if not missing:
        return _("Has the books to go out.")
    red, black = "red" in missing, "black" in missing
    if red and black:
        return _("Needs a red book and a black book to go out.")
    return _("Needs a red book to go out.") if red else _("Needs a black book to go out.")


def build_foot(
    state, seats, picture: dict, *, viewer: int | None, sort: str, selected=(), fresh=frozenset()
) -> dict:
    """The board of a Hand and Foot game: each side's melds and books (red/black), book counts, what
    each side still needs to go out, hand and foot sizes, the discard pile's size and top, the deal's
    opening minimum; the buttons of the moves allowed now."""
    names = {seat.number: seat.name for seat in seats}
    bots = {seat.number for seat in seats if seat.bot}
    legal = engine.legal_actions(state, viewer) if viewer is not None else []
    types = {action["type"] for action in legal}
    layoff_ids = {t["meld"] for a in legal if a["type"] == "lay_off" for t in a["targets"]}
    selected = {int(x) for x in selected}
    hand = sorted(picture["hand"] or [], key=lambda c: sort_key(c, sort))
    seat_rows = [
        {
            **row,
            "number": row["seat"],
            "name": names.get(row["seat"], ""),
            "bot": row["seat"] in bots,
            "is_turn": picture["current"] == row["seat"],
            "is_you": viewer == row["seat"],
        }
        for row in picture["seats"]
    ]
    sides = []
    for side in picture["sides"]:
        yours = picture["side"] is not None and side["side"] == picture["side"]
        sides.append(
            {
                **side,
                "title": " & ".join(names.get(n, "") for n in side["seats"]),
                "yours": yours,
                "missing": _missing_sentence(side["books_missing"]),
                "melds": [
                    {
                        **meld,
                        "cards": meld_cards_html(meld["cards"]),
                        "can_lay_off": meld["id"] in layoff_ids,
                        "fresh": any(card["id"] in fresh for card in meld["cards"]),
                    }
                    for meld in side["melds"]
                ],
            }
        )
    takes = []
    for option, action in enumerate(moves.offers(legal)):
        top = state.deal.discard[-1]
        with_top = cards_html([_public(state, i) for i in action["cards"]])
        if action.get("melds"):
            melds = mark_safe(
                " · ".join(str(cards_html([_public(state, i) for i in spec])) for spec in action["melds"])
            )
            label = format_html(
                _("Take the pile: {card} with {cards}, and open with {melds}"),
                card=card_html({"id": top.id, "face": top.face}),
                cards=with_top,
                melds=melds,
            )
        else:
            label = format_html(
                _("Take the pile: {card} with {cards}"),
                card=card_html({"id": top.id, "face": top.face}),
                cards=with_top,
            )
        takes.append({"option": option, "label": label})
    log_lines = last_lines(picture["log"], names, LOG_LINES, slot=(state.variant, state.seed, viewer))
    deals = [
        {"number": i + 1, "points": points, "void": False}
        for i, points in enumerate(picture["scores"]["deals"])
    ]
    last_deal = None
    if picture["last_deal"]:
        last = picture["last_deal"]
        last_deal = {
            "number": last["deal"] + 1,
            "winner": names.get(last["winner"]) if last.get("winner") is not None else None,
            "void": False,
            "hand": False,
            "stock_out": last.get("finish") == "stock",
            "rows": [
                {
                    "name": names.get(n, ""),
                    "points": last["points"][n],
                    "cards": cards_html(last["hands"][n]),
                    "members": None,
                }
                for n in range(state.players)
            ],
        }
    standings = sorted(
        (
            {
                "name": names.get(n, ""),
                "total": picture["scores"]["totals"][n],
                "winner": n in picture["winners"],
            }
            for n in range(state.players)
        ),
        key=lambda row: (not row["winner"], -row["total"]),
    )
    final_hands = None
    if picture.get("hands") is not None:
        final_hands = [
            {"name": names.get(n, ""), "cards": cards_html(hand)} for n, hand in enumerate(picture["hands"])
        ]
    context = {
        "foot": True,
        "standings": standings,
        "final_hands": final_hands,
        "view": picture,
        "names": names,
        "seat_rows": seat_rows,
        "score_columns": [row["name"] for row in seat_rows],
        "hand": hand,  # the viewer's cards as shown (card dicts)
        "hand_html": hand_html(hand, selected),
        "hand_count": len(hand),
        "sides": sides,
        "sides_html": _sides_html(sides, picture["teams"]),
        "meld_groups": [],
        "discard_top": card_html(picture["discard"]["top"]) if picture["discard"]["top"] else None,
        "indicator": None,
        "offer": {
            "draw": "draw" in types,
            "discard": "discard" in types,
            "meld": "meld"
            if "meld" in types or (viewer is not None and picture["your_turn"] and picture["phase"] == "play")
            else None,
            "takes": takes,
            "take_custom": bool(takes),
            "lay_off": bool(layoff_ids),
            "exchanges": [],
            "declare_hand": False,
            "redeal": False,
            "end_turn": "end_turn" in types,
            "hints": len(takes),
            "draw_phase": picture["your_turn"] and picture["phase"] == "draw",
            "play_phase": picture["your_turn"] and picture["phase"] == "play",
            "has_discard": picture["discard"]["takeable"],
            "announce": False,
        },
        "discard_fresh": bool(picture["discard"]["top"]) and picture["discard"]["top"]["id"] in fresh,
        "deal_fresh": bool(picture["last_deal"]) and sum(state.deal.turns) <= 1,
        "log_lines": log_lines,
        "log_html": log_html(log_lines),
        "deals": deals,
        "totals": picture["scores"]["totals"],
        "last_deal": last_deal,
        "turn_name": names.get(picture["current"]) if picture["current"] is not None else None,
        "sort": sort,
        "has_own_order": False,
    }
    picture["deal"].setdefault("in_tie_break", False)  # Hand and Foot has none (the page asks)
    if picture["teams"]:
        read_as_teams(context, names, higher_wins=True)
    return context


# --- Partnerships ----------------------------------------------------------------------------------

TEAMS = ((0, 2), (1, 3))
"""A partnership's two teams: partners sit opposite (seats 1 and 3 against seats 2 and 4)."""


def team_name(names: dict[int, str], team: int) -> str:
    """A team as players name it: its two players ("Hala & Fadi")."""
    return " & ".join(names.get(seat, "") for seat in TEAMS[team])


def read_as_teams(context: dict, names: dict[int, str], *, higher_wins: bool) -> None:
    """Make a partnership's board read team against team: the score sheet has a column per team, the
    last deal's result and the final standings a line per team (each player's cards under it). The
    engine gives both partners their team's points, so each team's figure is its first player's."""
    titles = [team_name(names, team) for team in range(len(TEAMS))]
    context["score_columns"] = titles
    context["deals"] = [
        {**deal, "points": [deal["points"][seats[0]] for seats in TEAMS]} for deal in context["deals"]
    ]
    context["totals"] = [context["totals"][seats[0]] for seats in TEAMS]
    winners = set(context["view"]["winners"])
    standings = [
        {"name": titles[team], "total": context["totals"][team], "winner": seats[0] in winners}
        for team, seats in enumerate(TEAMS)
    ]
    standings.sort(key=lambda row: (not row["winner"], -row["total"] if higher_wins else row["total"]))
    context["standings"] = standings
    last = context["last_deal"]
    if last:
        rows = last["rows"]
        last["rows"] = [
            {
                "name": titles[team],
                "points": rows[seats[0]]["points"],
                "members": [{"name": rows[seat]["name"], "cards": rows[seat]["cards"]} for seat in seats],
            }
            for team, seats in enumerate(TEAMS)
        ]


# --- The page's repeated items, drawn here -------------------------------------------------------------
# The hand, the seat list, the melds and the log are drawn in Python as the template loops that came before
# drew them, byte for byte (tests/games/test_play_drawn_items.py renders both): a move's answer then costs
# a few string joins instead of some hundred template nodes and lookups. Every value is escaped as the
# template's {{ }} escaped it; the words are not, as a {% translate %} of a literal and a blocktranslate's
# own words were not.


@per_language
def _words(language: str) -> dict[str, str]:
    """The fixed words of the drawn items in ``language`` (the active one: the caller's key), translated once
    per process and language. Safe as the template's ``{% translate "literal" %}`` made them (a template's
    literal is safe, and so is its translation: not escaped)."""
    words = {
        "you": _("you"),
        "cards held": _("cards held"),
        "announced": _("announced"),
        "opened": _("opened"),
        "team 1": _("team 1"),
        "team 2": _("team 2"),
        "left: a bot plays": _("left: a bot plays"),
        "bot": _("bot"),
        "dealer": _("dealer"),
        "meld": _("meld"),
        "Lay off here": _("Lay off here"),
        "Put the discard here": _("Put the discard here"),
        "Exchange for the wild card": _("Exchange for the wild card"),
        "red book": _("red book"),
        "black book": _("black book"),
        "not opened": _("not opened"),
        "No melds yet.": _("No melds yet."),
        "Stock": _("Stock"),
        "Discard pile": _("Discard pile"),
        "Indicator": _("Indicator"),
        # the dock's action bar and hand bar (actions_html)
        "Draw from the stock": _("Draw from the stock"),
        "Take the discard with the selected cards": _("Take the discard with the selected cards"),
        "Add as a meld with the discard": _("Add as a meld with the discard"),
        "Announce the selected cards": _("Announce the selected cards"),
        "Meld the selected cards": _("Meld the selected cards"),
        "Add as a meld": _("Add as a meld"),
        "Declare a Hand": _("Declare a Hand"),
        "Discard the selected card": _("Discard the selected card"),
        "Group in my hand": _("Group in my hand"),
        "Show pairs and demand a redeal": _("Show pairs and demand a redeal"),
        "Tap cards": _("Tap cards to meld, lay off, exchange a wild card or discard."),
        "You can put melds aside meanwhile.": _("You can put melds aside meanwhile."),
        "Take the pile with the selected cards": _("Take the pile with the selected cards"),
        "End the turn without a discard": _("End the turn without a discard"),
        "Meld your whole hand": _(
            "Meld your whole hand to pick up your foot now; discard your last hand card to pick it up for "
            "your next turn."
        ),
        "Sort by suit": _("Sort by suit"),
        "Sort by rank": _("Sort by rank"),
        "My order": _("My order"),
        # the game bar (head_html) and the rule-state box (games.rules.rule_state_html)
        "tie-break": _("tie-break"),
        "The game is over.": _("The game is over."),
        "Your turn.": _("Your turn."),
        "Since your last move:": _("Since your last move:"),
        "Rules of this game": _("Rules of this game"),
        # what holds them: the page's #game element (games.page)
        "Partnership": _("Partnership"),
        "Table": _("Table"),
        "No melds on the table yet.": _("No melds on the table yet."),
        "Draw pile": _("Draw pile"),
        "Game panels": _("Game panels"),
        "The whole game's log": _("The whole game's log"),
        "Replay the game": _("Replay the game"),
        "Your hand": _("Your hand"),
        "What does the wild card stand for?": _("What does the wild card stand for?"),
        "checked when laid down": _("checked when laid down"),
        "with the discard": _("with the discard"),
        "Remove": _("Remove"),
        "Lay down these melds": _("Lay down these melds"),
        "This game was ended early; it is not scored.": _("This game was ended early; it is not scored."),
        "A bot plays your seat now; you are watching.": _("A bot plays your seat now; you are watching."),
        "You are watching this game.": _("You are watching this game."),
    }
    return {key: mark_safe(value) for key, value in words.items()}


@functools.lru_cache(maxsize=8192)
def _hand_item(card_id: int, face: str, selected: bool) -> str:
    """One card of the viewer's hand with its tick box (depends on the card and the tick only)."""
    checked = " checked" if selected else ""
    return (
        f'\n      <li><input type="checkbox" name="cards" value="{card_id}" id="pick-{card_id}" class="pick"'
        f'{checked}><label for="pick-{card_id}">{_card_html(card_id, face, "")}</label></li>\n    '
    )


def hand_html(cards: list[dict], selected: set[int]) -> SafeString:
    """The viewer's hand, as the items of ``<ul id="hand">``."""
    return mark_safe("".join([_hand_item(c["id"], c["face"], c["id"] in selected) for c in cards]))  # escaped


def log_html(lines: list[SafeString]) -> SafeString:
    """The log's lines as ``{{ lines|unordered_list }}`` drew them (each line is safe already)."""
    return mark_safe("\n".join([f"\t<li>{line}</li>" for line in lines]))


def piles_html(stock: int, discard_top, fresh: bool, indicator) -> SafeString:
    """The classic table's piles (games.page draws the table around them): the stock's size, the discard
    pile's top card (``fresh``: put there since the viewer's last move), the indicator when the rule set
    turns one."""
    words = _words(get_language())
    top = discard_top if discard_top else '<span class="muted">—</span>'
    shown = (
        f'<div class="pile"><span class="pile-label">{words["Indicator"]}</span>{indicator}</div>'
        if indicator
        else ""
    )
    return mark_safe(  # the cards are drawn (escaped) by card_html
        f'<div class="pile pile-stock"><span class="pile-label">{words["Stock"]}</span>'
        f'<span class="stock-back" aria-hidden="true"></span><span class="count">{stock}</span></div>\n'
        f'    <div class="pile pile-discard{" fresh" if fresh else ""}">'
        f'<span class="pile-label">{words["Discard pile"]}</span>{top}</div>\n    {shown}'
    )


def seat_list_html(board: dict, moved, deadline_at) -> SafeString:
    """The seat list's items (``<ul id="seat-list">``): ``moved``, the seats that moved since the viewer's
    last move; ``deadline_at``, the game's (the time left shows on the seat whose turn it is)."""
    words = _words(get_language())
    view = board["view"]
    foot = board["foot"]
    items = []
    for s in board["seat_rows"]:
        css = "seat"
        if s["is_turn"]:
            css += " seat-turn"
        if s["is_you"]:
            css += " seat-you"
        if s["number"] in moved:
            css += " seat-moved"
        you = f' <span class="muted">({words["you"]})</span>' if s["is_you"] else ""
        if foot:
            if s["in_foot"]:
                cards = (
                    '<span class="seat-cards">'
                    + ngettext(
                        "playing from the foot: %(cards)s card",
                        "playing from the foot: %(cards)s cards",
                        s["cards"],
                    )
                    % {"cards": s["cards"]}
                    + "</span>\n          "
                )
            else:
                cards = (
                    '<span class="seat-cards">'
                    + ngettext("hand %(cards)s card", "hand %(cards)s cards", s["cards"])
                    % {"cards": s["cards"]}
                    + '</span>\n          <span class="seat-cards">'
                    + ngettext("foot %(cards)s card", "foot %(cards)s cards", s["foot"])
                    % {"cards": s["foot"]}
                    + "</span>"
                )
            team = s.get("side")
        else:
            cards = (
                f'<span class="seat-cards" title="{words["cards held"]}">'
                + ngettext("%(cards)s card", "%(cards)s cards", s["cards"]) % {"cards": s["cards"]}
                + "</span>\n          "
            )
            if s["opened"]:
                said = words["announced"] if view["opening_rule"] == "announcement" else words["opened"]
                cards += f'<span class="tag">{said}</span>'
            team = s.get("team")
        tags = ""
        if view["teams"]:
            tags = (
                f'<span class="tag tag-team tag-team-{team + 1}">'
                f"{words['team 1'] if team == 0 else words['team 2']}</span>"
            )
        tags += "\n          "
        if not foot and s["left"]:
            tags += f'<span class="tag">{words["left: a bot plays"]}</span>'
        elif s["bot"]:
            tags += f'<span class="tag">{words["bot"]}</span>'
        tags += "\n          "
        if s["dealer"]:
            tags += f'<span class="tag">{words["dealer"]}</span>'
        tags += "\n          "
        if s["is_turn"] and deadline_at:
            tags += f'<span class="tag tag-time">{conditional_escape(timeuntil_filter(deadline_at))}</span>'
        name = conditional_escape(s["name"])
        items.append(
            f'\n      <li class="{css}">\n        <span class="seat-name">{name}{you}</span>'
            f'\n        <span class="seat-facts small">\n          {cards}\n          {tags}\n        </span>'
            "\n      </li>\n    "
        )
    return mark_safe("".join(items))  # every value escaped


_MELD_BUTTONS = (
    # (shown when, suggested when, the button's name, its attribute before type, its words, what follows)
    ("lay_off_button", "can_lay_off", "lay_off", ' data-needs="cards"', "Lay off here", "\n              "),
    ("take_button", "can_take", "take_lay_off", "", "Put the discard here", "\n              "),
    (
        "exchange_button",
        "can_exchange",
        "exchange",
        ' data-needs="cards"',
        "Exchange for the wild card",
        "\n            </li>\n          ",
    ),
)
"""A classic meld's buttons, in the order the template drew them."""


def _melds_html(groups: list[dict]) -> SafeString:
    """The melds of a (non Hand and Foot) table by player or team, with their buttons."""
    words = _words(get_language())
    out = []
    for group in groups:
        out.append(
            f'\n      <div class="meld-group">\n        <h3 class="meld-owner small">'
            f'{conditional_escape(group["title"])}</h3>\n        <ul class="melds">\n          '
        )
        for meld in group["melds"]:
            number = meld["id"]
            fresh = " fresh" if meld["fresh"] else ""
            out.append(
                f'\n            <li class="meld{fresh}" id="meld-{number}">\n'
                f'              <span class="meld-no" title="{words["meld"]}">{number}</span>\n'
                f'              <span class="meld-cards">{meld["cards"]}</span>\n              '
            )
            for shown, suggests, name, needs, label, after in _MELD_BUTTONS:
                if meld[shown]:
                    suggested = " suggested" if meld[suggests] else ""
                    out.append(
                        f'<button{needs} type="submit" name="{name}" value="{number}" '
                        f'class="button-quiet mini{suggested}">{words[label]}</button>'
                    )
                out.append(after)
        out.append("\n        </ul>\n      </div>\n    ")
    return mark_safe("".join(out))  # every value escaped


def _sides_html(sides: list[dict], teams: bool) -> SafeString:
    """Hand and Foot's sides: each side's books, what it still needs, its melds (red/black books)."""
    words = _words(get_language())
    out = []
    for side in sides:
        number = side["side"]
        yours = " foot-side-yours" if side["yours"] else ""
        tag = ""
        if teams:
            tag = (
                f'<span class="tag tag-team tag-team-{number + 1}">'
                f"{words['team 1'] if number == 0 else words['team 2']}</span> "
            )
        red = ngettext("%(books)s red book", "%(books)s red books", side["red_books"]) % {
            "books": side["red_books"]
        }
        black = ngettext("%(books)s black book", "%(books)s black books", side["black_books"]) % {
            "books": side["black_books"]
        }
        not_opened = "" if side["opened"] else f" · {words['not opened']}"
        missing = (
            ""
            if side["yours"]
            else f'<p class="small foot-missing">{conditional_escape(side["missing"])}</p>'
        )
        out.append(
            f'\n      <div class="meld-group foot-side{yours}" id="side-{number}">\n'
            f'        <h3 class="meld-owner small">{tag}{conditional_escape(side["title"])}\n'
            f'          <span class="muted">· {red} · {black}{not_opened}</span>\n        </h3>\n'
            f'        {missing}\n        <ul class="melds">\n          '
        )
        for meld in side["melds"]:
            meld_id = meld["id"]
            colour = meld["colour"]
            css = f" book book-{conditional_escape(colour)}" if colour else ""
            if meld["fresh"]:
                css += " fresh"
            if colour == "red":
                badge = f'<span class="badge badge-red">{words["red book"]}</span>'
            elif colour == "black":
                badge = f'<span class="badge badge-black">{words["black book"]}</span>'
            else:
                badge = ""
            button = (
                f'<button type="submit" name="lay_off" value="{meld_id}" class="button-quiet mini suggested">'
                f"{words['Lay off here']}</button>"
                if meld["can_lay_off"]
                else ""
            )
            count = ngettext("%(cards)s card", "%(cards)s cards", meld["count"]) % {"cards": meld["count"]}
            out.append(
                f'\n            <li class="meld{css}" id="meld-{meld_id}">\n'
                f'              <span class="meld-no" title="{words["meld"]}">{meld_id}</span>\n'
                f'              <span class="meld-cards">{meld["cards"]}</span>\n'
                f'              <span class="small meld-count">{badge} '
                f"{count}</span>\n"
                f"              {button}\n            </li>\n          "
            )
        if not side["melds"]:
            out.append(f'<li class="muted small">{words["No melds yet."]}</li>\n          ')
        out.append("\n        </ul>\n      </div>\n    ")
    return mark_safe("".join(out))  # every value escaped


def _hints_html(offer: dict, options: list[dict]) -> str:
    """The suggestions' <details> (their count, then a button per suggested move)."""
    count = offer["hints"]
    summary = ngettext("%(n)s suggestion", "%(n)s suggestions", count) % {"n": count}
    buttons = _hint_buttons(options)
    return f'\n      <details class="hints">\n        <summary>{summary}</summary>\n        {buttons}'


def _hint_buttons(options: list[dict]) -> str:
    """A button per suggested move (its option, its label escaped)."""
    return "".join(
        [
            f'<button type="submit" name="offer" value="{option["option"]}" class="button-quiet hint">'
            f"{conditional_escape(option['label'])}</button>"
            for option in options
        ]
    )


def _waiting(board: dict) -> str:
    return _("%(name)s to play.") % {"name": conditional_escape(board["turn_name"])}


def actions_html(board: dict, staged_has_discard: bool) -> SafeString:
    """The dock's action bar (Hand and Foot's or the classic one) and the hand bar under it (the hand's
    size, the sorts), as games/_dock.html's template drew them (tests/games/test_play_drawn_items.py): the
    buttons the moves allowed now offer (``board["offer"]``); ``staged_has_discard``: a staged meld
    already takes the discard (no second "with the discard")."""
    words = _words(get_language())
    offer = board["offer"]
    view = board["view"]
    out = ['\n  <div class="actions action-bar" id="actions">\n    ']
    add = out.append
    if board["foot"]:
        if offer["draw"]:
            count = view["draw_count"]
            drawn = ngettext("Draw %(cards)s card", "Draw %(cards)s cards", count) % {"cards": count}
            add(f'<button type="submit" name="act" value="draw">{drawn}</button>')
        add("\n    ")
        if offer["draw_phase"] and offer["has_discard"]:
            add(
                '<button type="submit" name="act" value="take" class="button-quiet">'
                f"{words['Take the pile with the selected cards']}</button>"
            )
        add("\n    ")
        if offer["play_phase"]:
            add(
                f'<button type="submit" name="act" value="meld">{words["Meld the selected cards"]}</button>'
                '\n      <button type="submit" name="act" value="discard">'
                f"{words['Discard the selected card']}</button>"
            )
        add("\n    ")
        if offer["end_turn"]:
            add(
                '<button type="submit" name="act" value="end_turn" class="button-quiet">'
                f"{words['End the turn without a discard']}</button>"
            )
        add("\n    ")
        if offer["takes"]:
            add(_hints_html(offer, offer["takes"]) + "\n      </details>\n    ")
        add("\n    ")
        if offer["play_phase"] and not view["in_foot"]:
            add(f'<p class="muted small">{words["Meld your whole hand"]}</p>')
        add("\n    ")
        if not view["your_turn"]:
            add(f'<p class="muted small waiting-turn">{_waiting(board)}</p>')
    else:
        if offer["draw"]:
            add(f'<button type="submit" name="act" value="draw">{words["Draw from the stock"]}</button>')
        add("\n    ")
        if offer["take_declare"]:
            suggested = " suggested" if offer["takes_declare"] else ""
            said = _("Take %(card)s and declare a Hand") % {"card": conditional_escape(board["discard_top"])}
            add(
                f'<button type="submit" name="act" value="take_declare" class="button-quiet{suggested}">'
                f"{said}</button>"
            )
        add("\n    ")
        if offer["draw_phase"] and offer["has_discard"]:
            add(
                '<button data-needs="cards" type="submit" name="act" value="take" class="button-quiet">'
                f"{words['Take the discard with the selected cards']}</button>\n      "
            )
            if not staged_has_discard:
                add(
                    '<button data-needs="cards" type="submit" name="act" value="stage_take" '
                    f'class="button-quiet">{words["Add as a meld with the discard"]}</button>'
                )
        add("\n    ")
        if offer["play_phase"]:
            if offer["announce"]:
                add(
                    '\n      <button data-needs="cards" type="submit" name="act" value="meld">'
                    f"{words['Announce the selected cards']}</button>\n      \n    "
                )
            else:
                add(
                    '\n      <button data-needs="cards" type="submit" name="act" value="meld">'
                    f"{words['Meld the selected cards']}</button>\n    "
                )
        add(
            '\n    <button data-needs="cards" type="submit" name="act" value="stage" class="button-quiet">'
            f"{words['Add as a meld']}</button>\n    "
        )
        if offer["declare_hand"] or offer["declare_any"]:
            quiet = "" if offer["declare_hand"] else ' class="button-quiet"'
            add(
                f'<button type="submit"{quiet} name="act" value="declare_hand">'
                f"{words['Declare a Hand']}</button>"
            )
        add("\n    ")
        if offer["play_phase"]:
            add(
                '<button data-needs="one" type="submit" name="act" value="discard">'
                f"{words['Discard the selected card']}</button>"
            )
        add(
            '\n    <button data-needs="cards" type="submit" name="act" value="group" class="button-quiet">'
            f"{words['Group in my hand']}</button>\n    "
        )
        if offer["redeal"]:
            add(
                '<button type="submit" name="act" value="redeal" class="button-quiet">'
                f"{words['Show pairs and demand a redeal']}</button>"
            )
        add("\n    ")
        if offer["play_phase"]:
            add(f'<p class="muted small tap-hint" data-needs="none">{words["Tap cards"]}</p>')
        add("\n    ")
        if offer["takes"] or offer["exchanges"]:
            add(_hints_html(offer, offer["takes"]))
            add(f"\n        {_hint_buttons(offer['exchanges'])}\n      </details>\n    ")
        add("\n    ")
        if not view["your_turn"]:
            add(
                f'<p class="muted small waiting-turn">{_waiting(board)} '
                f"{words['You can put melds aside meanwhile.']}</p>"
            )
    count = board["hand_count"]
    held = ngettext("%(cards)s card", "%(cards)s cards", count) % {"cards": count}
    add(f'\n  </div>\n  \n  <div class="hand-bar">\n    <span class="muted small">{held}</span>\n')
    sort = board["sort"]
    add('    <span class="sort small">\n      ')
    if sort != "suit":
        add(
            '<a href="?sort=suit" hx-get="?sort=suit" hx-target="#game" hx-swap="outerHTML">'
            f"{words['Sort by suit']}</a>"
        )
    add("\n      ")
    if sort != "rank":
        add(
            '<a href="?sort=rank" hx-get="?sort=rank" hx-target="#game" hx-swap="outerHTML">'
            f"{words['Sort by rank']}</a>"
        )
    add("\n      ")
    if board["has_own_order"] and sort != "own":
        add(
            '<a href="?sort=own" hx-get="?sort=own" hx-target="#game" hx-swap="outerHTML">'
            f"{words['My order']}</a>"
        )
    add("\n    </span>\n  </div>")
    return mark_safe("".join(out))  # every value escaped


def head_html(board: dict, game, since_line) -> dict[str, SafeString]:
    """The game bar's lines that follow the play (games/_head.html, as its template drew them: tests/games/
    test_play_drawn_items.py): ``deal``, the deal's number (and the tie-break) after the rule set; ``turn``,
    whose turn it is and the time left (or the game's end), ``since_line`` (what happened since the
    viewer's last move) and a paused deadline. ``game``: the Game row (its status, deadline, pause)."""
    words = _words(get_language())
    view = board["view"]
    deal = view["deal"]
    said = _("Deal %(number)s of %(total)s") % {
        "number": deal["scoring_deal"],
        "total": deal["scoring_deals"],
    }
    tie_break = f" · {words['tie-break']}" if deal.get("in_tie_break") else ""
    out = ["\n    "]
    add = out.append
    if view["finished"]:
        add(f'\n      <p class="turn"><strong>{words["The game is over."]}</strong></p>\n    ')
    elif game.status == "abandoned":
        ender = (game.ended_by.name if game.ended_by is not None else "") or "—"
        ended = _("%(name)s ended the game early.") % {"name": conditional_escape(ender)}
        add(f'\n      <p class="turn" id="turn"><strong>{ended}</strong></p>\n    ')
    else:
        yours = view["your_turn"]
        add(f'\n      <p class="turn{" your-turn" if yours else ""}" id="turn">\n        ')
        if yours:
            add(f"<strong>{words['Your turn.']}</strong>\n        ")
        else:
            add(_waiting(board))
        add("\n        ")
        if game.deadline_at:
            left = _("Time left: %(left)s (until %(when)s)") % {
                "left": conditional_escape(timeuntil_filter(game.deadline_at)),
                "when": conditional_escape(timefmt.when(game.deadline_at)),
            }
            add(f'<span class="muted small">{left}</span>')
        add("\n      </p>\n    ")
    add("\n    ")
    if since_line:
        add(
            f'<p class="since small" id="since"><span class="muted">{words["Since your last move:"]}</span> '
            f"{conditional_escape(since_line)}</p>"
        )
    add("\n    ")
    if game.paused_until:
        paused = _("The player to move is on vacation: the deadline is paused until %(until)s.") % {
            "until": conditional_escape(timefmt.when(game.paused_until))
        }
        add(f'<p class="muted small paused">{paused}</p>')
    add("\n  ")
    return {
        "deal": mark_safe(f'<span class="muted">· {said}{tie_break}</span>'),  # every value escaped
        "turn": mark_safe("".join(out)),
    }
