"""What the play page shows, built from the engine's per-seat view (never from the raw state, except
for the replay of a finished game, where every hand is public)."""

from __future__ import annotations

import functools
from itertools import zip_longest

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from games import engine, moves
from games.engine import actions as engine_actions
from games.engine.deal import deck_for
from games.engine.melds import face_text
from games.engine.meldspec import MeldSpec

SUIT_SYMBOLS = moves.SUIT_SYMBOLS
SUIT_ORDER = moves.SUIT_ORDER
RANK_ORDER = moves.RANK_ORDER
split_face = moves.split_face


def card_html(card: dict, *, plays_as: str = "") -> SafeString:
    """One visible card: ``<span class="pcard" data-card="ID">`` (the only way a card face is shown),
    named in words in the reader's language for screen readers (``role="img"``, ``aria-label``)."""
    return _card_html(card["id"], card["face"], plays_as, get_language())


RANK_WORDS = {
    "A": pgettext_lazy("card", "ace"),
    "K": pgettext_lazy("card", "king"),
    "Q": pgettext_lazy("card", "queen"),
    "J": pgettext_lazy("card", "jack"),
}
SUIT_WORDS = {
    "S": pgettext_lazy("card", "spades"),
    "H": pgettext_lazy("card", "hearts"),
    "D": pgettext_lazy("card", "diamonds"),
    "C": pgettext_lazy("card", "clubs"),
}


def card_words(face: str, plays_as: str = "") -> str:
    """A card named as players say it, in the active language: "QS" -> "queen of spades", "JK" ->
    "joker", a set wild's rank "5" -> "5"; with what a wild card plays as ("joker, standing for 8 of
    spades"). What screen readers read instead of the face's symbols."""
    if face == "JK":
        words = pgettext("card", "joker")
    elif face[-1:] in SUIT_WORDS:
        rank = face[:-1]
        words = pgettext("card", "%(rank)s of %(suit)s") % {
            "rank": RANK_WORDS.get(rank, rank),
            "suit": SUIT_WORDS[face[-1]],
        }
    else:
        words = str(RANK_WORDS.get(face, face))
    if plays_as:
        return pgettext("card", "%(card)s, standing for %(face)s") % {
            "card": words,
            "face": card_words(plays_as),
        }
    return words


def cards_words(cards: list[dict], plays_as=()) -> str:
    """Cards named in words, one after the other ("9 of spades, 10 of spades, jack of spades")."""
    return pgettext("list separator", ", ").join(
        card_words(card["face"], words) for card, words in zip_longest(cards, plays_as, fillvalue="")
    )


@functools.lru_cache(maxsize=8192)
def _card_html(card_id: int, face: str, plays_as: str, language: str) -> SafeString:
    """A card's element, built once per process for each card, meaning and language (it depends on
    nothing else). format_html of one inline element: a card sits inside translated sentences (the log,
    the suggestions, what happened since your last move), where a template tag cannot put it."""
    rank, suit = split_face(face)
    joker = rank == "JK"
    return format_html(
        '<span class="{}" data-card="{}" role="img" aria-label="{}"><span class="rank">{}</span>{}{}</span>',
        "pcard joker" if joker else f"pcard suit-{suit}",
        card_id,
        card_words(face, plays_as),
        "🃏" if joker else rank,
        "" if joker else format_html('<span class="suit">{}</span>', SUIT_SYMBOLS[suit]),
        format_html(' <span class="plays-as">{}</span>', face_words(plays_as)) if plays_as else "",
    )


def face_words(face: str) -> str:
    """A face a wild card stands for ("8S" -> "8♠"; a set wild "5" -> "5")."""
    if face and face[-1] in SUIT_SYMBOLS:
        return face[:-1] + SUIT_SYMBOLS[face[-1]]
    return face


def cards_html(cards: list[dict]) -> SafeString:
    """Cards side by side, a space between them (inside a sentence or a line of cards)."""
    return format_html_join(" ", "{}", ((card_html(card),) for card in cards))


def sorted_cards(cards, *, keep_order: bool = False) -> list[dict]:
    """Engine cards as card dicts (by suit, or in the given order)."""
    shown = [{"id": card.id, "face": card.face} for card in cards]
    return shown if keep_order else sorted(shown, key=lambda c: sort_key(c, "suit"))


sort_key = moves.sort_key


LOG_LINES = 0
"""Lines of the deal's log on the play page: 0, the whole current deal (it scrolls in its panel; the
whole game's log is paged on its own page)."""

BOOKKEEPING_EVENTS = frozenset({"turn_started"})
"""Events the page shows through the seat list rather than as a line of the log."""


def describe(event: dict, names: dict[int, str]) -> SafeString | None:
    """One log event in words (translated), or None for bookkeeping events. The sentence is the
    engine's (``engine.describe``); cards are drawn as cards instead of notation."""
    if event.get("type") in BOOKKEEPING_EVENTS:
        return None
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


def last_lines(events: list[dict], names: dict[int, str], limit: int = 0) -> list[SafeString]:
    """The newest ``limit`` lines of ``events`` (every line for 0), newest first: the events are
    described from the end back until there are enough (a page costs the same early and late in a deal)."""
    lines = []
    for event in reversed(events):
        line = describe(event, names)
        if line is not None:
            lines.append(line)
            if len(lines) == limit:
                break
    return lines


def meld_cards(cards: list[dict], plays_as=()) -> list[SafeString]:
    """A meld's cards, each with what it plays as in notation ("8S", "5"; empty where it plays as
    itself), shown under a wild card."""
    return [card_html(card, plays_as=words) for card, words in zip_longest(cards, plays_as, fillvalue="")]


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
    plays_as = [_plays_as(card, face) for card, face in zip(meld["cards"], meld["plays_as"], strict=True)]
    return {
        "id": meld["id"],
        "kind": meld["kind"],
        "owner": meld["owner"],
        "cards": meld_cards(meld["cards"], plays_as),
        "words": cards_words(meld["cards"], plays_as),  # what its buttons say it is, for screen readers
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
    viewer's own order of their hand (``sort`` "own", or no sort asked: see moves.effective_sort). The
    deal's log: :data:`LOG_LINES`."""
    picture = engine.view(state, viewer)
    build_family = BUILDERS[engine.family_of(state.variant).name]
    return build_family(
        state,
        seats,
        picture,
        viewer=viewer,
        sort=sort,
        selected=selected,
        set_aside=set_aside,
        fresh=fresh,
        own=own,
    )


def build_hand(
    state: engine.GameState,
    seats,
    picture: dict,
    *,
    viewer: int | None,
    sort: str,
    selected=(),
    set_aside=(),
    fresh=frozenset(),
    own=(),
) -> dict:
    """The board of a game of the Hand family: each player's melds, the staged melds set aside, the
    hand in the player's own order or sorted; the buttons of the moves allowed now."""
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
    own_key = None if viewer is None else (viewer % 2 if picture["teams"] else viewer)
    for key, melds in sorted(groups.items(), key=lambda item: (item[0] != own_key, item[0])):
        if picture["teams"]:
            title = " & ".join(names[n] for n in range(state.players) if n % 2 == key)
        else:
            title = names.get(key, "")
        meld_groups.append({"title": title, "melds": melds, "yours": key == own_key})
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
    log_lines = last_lines(picture["log"], names, LOG_LINES)
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
        "hand": hand_items(hand, selected),
        "hand_count": len(hand),
        "meld_groups": meld_groups,
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
        _("Take {card} and meld {melds}"),
        card=top_html,
        melds=format_html_join(" · ", "{}", ((p,) for p in parts)),
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
    state, seats, picture: dict, *, viewer: int | None, sort: str, selected=(), fresh=frozenset(), **_hand
) -> dict:
    """The board of a Hand and Foot game: each side's melds and books (red/black), book counts, what
    each side still needs to go out, hand and foot sizes, the discard pile's size and top, the deal's
    opening minimum; the buttons of the moves allowed now. ``_hand``: what only the Hand family uses
    (cards set aside, the player's own order)."""
    sort = sort if sort in ("suit", "rank") else "suit"
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
            "left": False,  # a bot plays the seat of a player who left: told as a bot
            "team": row.get("side"),
            "is_turn": picture["current"] == row["seat"],
            "is_you": viewer == row["seat"],
        }
        for row in picture["seats"]
    ]
    sides = []
    own_first = sorted(picture["sides"], key=lambda side: side["side"] != picture["side"])
    for side in own_first:
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
                        "cards": meld_cards(meld["cards"]),
                        "words": cards_words(meld["cards"]),  # what its button says it is
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
            melds = format_html_join(
                " · ", "{}", ((cards_html([_public(state, i) for i in spec]),) for spec in action["melds"])
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
    log_lines = last_lines(picture["log"], names, LOG_LINES)
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
        "hand": hand_items(hand, selected),
        "hand_count": len(hand),
        "sides": sides,
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


def hand_items(cards: list[dict], selected: set[int]) -> list[dict]:
    """The viewer's hand as the page shows it: each card's id, its element and whether it is ticked."""
    return [{"id": card["id"], "html": card_html(card), "selected": card["id"] in selected} for card in cards]


BUILDERS = {"hand": build_hand, "hand-and-foot": build_foot}
"""The board of each family of rule sets, by the engine's name of the family."""
