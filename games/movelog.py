"""The game's move log in words, from the Move rows (every stored action is public once made: a draw
names no card, a discard or a meld names cards that went face up), so any page of it is built from
that page's rows alone: the cost of a page is flat in the length of the game.

Also "since your last visit": the moves made after the viewer's last own move in the current deal,
as one line and as the card ids to highlight on the table.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field

from django.db.models import Count, IntegerField, Max, Subquery, Value
from django.db.models.functions import Coalesce
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games import board
from games.engine.deal import deck_for
from games.kept import keep
from games.models import Game, Move, MoveKind

PAGE_SIZE = 50
SINCE_LIMIT = 40  # moves looked at for the "since your last visit" line (the newest ones)


def _cards(game: Game, ids) -> SafeString:
    deck = deck_for(game.variant, game.players)
    shown = []
    for card_id in ids:
        if isinstance(card_id, int) and 0 <= card_id < len(deck):
            shown.append({"id": card_id, "face": deck[card_id].face})
    return board.cards_html(shown)


def _meld_ids(spec) -> list[int]:
    return list(spec.get("cards") or []) if isinstance(spec, dict) else list(spec or [])


def action_ids(action: dict) -> list[int]:
    """Ids of the cards an action put face up (on the table or the discard pile)."""
    ids: list[int] = []
    for spec in action.get("melds") or []:
        ids += _meld_ids(spec)
    layoff = action.get("lay_off")
    if isinstance(layoff, dict):
        ids += _meld_ids(layoff)
    if action.get("type") in ("lay_off", "exchange"):
        ids += list(action.get("cards") or [])
    if action.get("type") == "discard" and isinstance(action.get("card"), int):
        ids.append(action["card"])
    return ids


def describe(game: Game, action: dict, name: str) -> SafeString:
    """One stored action as a line of the log."""
    kind = action.get("type")
    if kind == "draw":
        return format_html(_("{name} drew from the stock."), name=name)
    if kind == "discard":
        return format_html(_("{name} discarded {card}."), name=name, card=_cards(game, [action.get("card")]))
    if kind == "take_discard":
        if action.get("declare_hand"):
            return format_html(_("{name} took the discard and declared a Hand."), name=name)
        return format_html(
            _("{name} took the discard and put {cards} on the table."),
            name=name,
            cards=_cards(game, action_ids(action)),
        )
    if kind in ("meld", "announce"):
        melds = [_cards(game, _meld_ids(spec)) for spec in action.get("melds") or []]
        joined = format_html_join(" · ", "{}", ((meld,) for meld in melds))
        if kind == "announce":
            return format_html(_("{name} announced {melds}."), name=name, melds=joined)
        return format_html(_("{name} laid down {melds}."), name=name, melds=joined)
    if kind == "lay_off":
        return format_html(
            _("{name} laid off {cards}."), name=name, cards=_cards(game, action.get("cards") or [])
        )
    if kind == "exchange":
        return format_html(
            _("{name} exchanged {cards} for a wild card."),
            name=name,
            cards=_cards(game, action.get("cards") or []),
        )
    if kind == "declare_hand":
        return format_html(_("{name} declared a Hand."), name=name)
    if kind == "redeal":
        return format_html(_("{name} showed pairs and demanded a redeal."), name=name)
    return format_html(_("{name} moved."), name=name)


def _phrase(game: Game, action: dict, name: str) -> SafeString:
    """A move as a short part of the "since your last visit" line."""
    kind = action.get("type")
    if kind == "draw":
        return format_html(_("{name} drew"), name=name)
    if kind == "discard":
        return format_html(_("{name} discarded {card}"), name=name, card=_cards(game, [action.get("card")]))
    if kind == "take_discard":
        return format_html(_("{name} took the discard"), name=name)
    if kind in ("meld", "announce"):
        count = len(action.get("melds") or [])
        template = ngettext("{name} laid down {count} meld", "{name} laid down {count} melds", count)
        return format_html(template, name=name, count=count)
    if kind == "lay_off":
        return format_html(_("{name} laid off"), name=name)
    if kind == "exchange":
        return format_html(_("{name} exchanged a wild card"), name=name)
    if kind == "declare_hand":
        return format_html(_("{name} declared a Hand"), name=name)
    if kind == "redeal":
        return format_html(_("{name} demanded a redeal"), name=name)
    return format_html(_("{name} moved"), name=name)


@dataclass
class Since:
    """What happened since the viewer's last own move in this deal."""

    line: SafeString | None = None
    card_ids: set[int] = field(default_factory=set)
    seats: set[int] = field(default_factory=set)


def since(game: Game, names: dict[int, str], viewer: int | None, deal: int, moves=None) -> Since:
    """The moves after ``viewer``'s last move of deal ``deal`` (``moves``: the rows the caller has,
    e.g. a move's own write; otherwise ONE query for the newest ``SINCE_LIMIT`` of them)."""
    if viewer is None:
        return Since()
    key = (game.pk, game.created_at, game.version, viewer, deal)
    if moves is None:
        moves = _kept_rows.get(key)
        if moves is None:
            moves = _keep_rows(key, _rows_since(game.pk, game.version, viewer, deal))
    else:
        last = max((m.seq for m in moves if m.seat == viewer and m.kind == MoveKind.PLAYER), default=None)
        moves = [
            {"seq": m.seq, "seat": m.seat, "action": m.action, "deal": m.deal}
            for m in moves
            if m.deal == deal and not (m.seat == viewer and m.kind == MoveKind.PLAYER)
        ]
        if last is not None:  # the viewer's move and every row after it (in this deal) are here
            _keep_rows(key, tuple(m for m in moves if m["seq"] > last)[-SINCE_LIMIT:])
    others = [m for m in moves if m["seat"] != viewer]
    if not others:
        return Since()
    phrases = [_phrase(game, m["action"], names.get(m["seat"], "")) for m in others[-8:]]
    line = format_html_join(pgettext("list separator", ", "), "{}", ((p,) for p in phrases))
    if len(others) > 8:
        line = format_html("… {}", line)
    ids = {i for m in others for i in action_ids(m["action"])}
    return Since(line=line, card_ids=ids, seats={m["seat"] for m in others})


KEPT_ROWS = 1024
"""(game, version, viewer, deal)s whose rows after the viewer's last own move are kept per process (an LRU;
a few dozen small dicts each): the log is append-only (a row's ``seq`` is the game's version after it), so
they are the same for every page of that version. A move's answer keeps the rows it wrote after the
viewer's move, which are those rows; a meld put aside, a refused press or the page again then answer
without the query. ``created_at`` in the key tells a game from an earlier one with the same id (a test
database made again)."""

_kept_rows: OrderedDict[tuple, tuple[dict, ...]] = OrderedDict()


def _keep_rows(key: tuple, rows: tuple[dict, ...]) -> tuple[dict, ...]:
    return keep(_kept_rows, key, rows, KEPT_ROWS)


def _rows_since(game_id: int, version: int, viewer: int, deal: int) -> tuple[dict, ...]:
    """The rows of deal ``deal`` after ``viewer``'s last own move, up to the game's ``version`` (ONE query;
    read-only: kept and shared, see KEPT_ROWS)."""
    rows = Move.objects.filter(game_id=game_id, deal=deal, seq__lte=version)
    last = rows.filter(seat=viewer, kind=MoveKind.PLAYER).order_by("-seq").values("seq")[:1]
    after = Coalesce(Subquery(last, output_field=IntegerField()), Value(-1))
    newest = rows.filter(seq__gt=after).order_by("-seq").values("seq", "seat", "action", "deal")
    return tuple(list(newest[:SINCE_LIMIT])[::-1])


@dataclass
class LogPage:
    deals: list[dict]  # [{"number": deal + 1 or None, "lines": [{"seq", "line", "when", ...}]}] newest first
    # a line's "note": a player left or the game was ended (not a move); "timeout": the move the server made
    # when the player's time ran out
    page: int
    pages: int


def _leave_line(seat) -> str:
    return _("{name} left the game; a bot plays their seat from here on.").format(name=seat.name)


def page(game: Game, names: dict[int, str], number: int, seats=()) -> LogPage:
    """Page ``number`` (1 = the newest moves) of the whole game's log: two queries (count, slice).
    ``seats``: the game's seats (a player leaving shows after the move it followed); an ended game
    says so at the top of the first page."""
    rows = Move.objects.filter(game=game)
    total = rows.count()
    pages = max(1, -(-total // PAGE_SIZE))
    number = min(max(number, 1), pages)
    start = (number - 1) * PAGE_SIZE
    chunk = rows.order_by("-seq").values("seq", "seat", "kind", "action", "deal", "created_at")[
        start : start + PAGE_SIZE
    ]
    deals: list[dict] = []
    chunk = list(chunk)
    leaves = {}
    for seat in seats:
        if seat.left_version is not None:
            leaves.setdefault(seat.left_version, []).append(seat)
    if number == 1 and game.status == "abandoned":
        ender = game.ended_by.name if game.ended_by_id else "—"
        line = _("{name} ended the game early; it is not scored.").format(name=ender)
        deals.append(
            {"number": None, "lines": [{"seq": "", "line": line, "note": True, "when": game.finished_at}]}
        )

    def note(seat):
        if not deals:
            deals.append({"number": None, "lines": []})
        deals[-1]["lines"].append({"seq": "", "line": _leave_line(seat), "note": True, "when": seat.left_at})

    if number == 1:  # left after the newest move
        for version, left in leaves.items():
            if version >= total:
                for seat in left:
                    note(seat)
    for row in chunk:
        name = names.get(row["seat"], "")
        line = describe(game, row["action"], name)
        deal = row["deal"] + 1 if row["deal"] is not None else None
        if not deals or deals[-1]["number"] != deal:
            deals.append({"number": deal, "lines": []})
        deals[-1]["lines"].append(
            {
                "seq": row["seq"],
                "line": line,
                "timeout": row["kind"] == MoveKind.TIMEOUT,
                "when": row["created_at"],
            }
        )
        for seat in leaves.get(row["seq"] - 1, ()):  # left just before this move
            note(seat)
    return LogPage(deals=deals, page=number, pages=pages)


def deal_links(game: Game) -> list[dict]:
    """Each deal of the game's log with the page that shows its newest moves under its heading
    (``{"number": 1, "page": 3}``), oldest deal first: ONE query (the moves counted per deal)."""
    rows = list(
        Move.objects.filter(game=game)
        .values("deal")
        .annotate(moves=Count("pk"), newest=Max("seq"))
        .order_by("-newest")
    )
    links, newer = [], 0
    for row in rows:
        if row["deal"] is not None:
            links.append({"number": row["deal"] + 1, "page": newer // PAGE_SIZE + 1})
        newer += row["moves"]
    return links[::-1]
