"""What the table shows when a deal ends and when the game ends (templates/games/_table_end.html): who
went out and how, each side's points for the deal with their parts, the running totals, who deals
next and who starts; at the game's end the winner, the final standings, the result card and the
rematch. Built from the engine's state and per-seat view the play page already has (no query)."""

from __future__ import annotations

from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games import board
from scoring.services.cards import result_card_token


def _part_text(part, hands: list, seats: tuple) -> SafeString:
    """A score part in words ("Cards left: K♠ 7♥ = 17"): a named hand's name translated, the cards held
    drawn as cards (the seat's hand shown at the deal's end, ``hands``)."""
    params = dict(part.params)
    if "hand" in params:
        params["hand"] = _(params["hand"])
    if "cards" in params:
        seat = part.seat if part.seat is not None else seats[0]
        params["cards"] = board.cards_html(hands[seat]) if seat < len(hands) else ""
    if not params:
        return conditional_escape(_(part.label))
    return format_html(_(part.label), **params)


def _how(last: dict, names: dict[int, str], foot: bool) -> str:
    """Who went out and how, as the log says it ("Amira goes out “Hand”!")."""
    if last.get("void"):
        return _("Nobody went out; the deal does not count.")
    if last.get("finish") == "stock" or last.get("winner") is None:
        return _("The draw pile has run out: the deal ends with nobody going out.")
    finish = None if foot else last.get("finish")
    return board.describe({"type": "went_out", "seat": last["winner"], "finish": finish}, names)


NOT_MOVES = frozenset({"deal_started", "turn_started"})
"""Events of a deal that are no player's move."""


def moved_in_deal(events: list[dict], seat: int) -> bool:
    """Whether ``seat`` has made a move in the deal whose events these are (a redeal's demand, carried
    over from the deal before, aside)."""
    return any(
        event.get("seat") == seat and event["type"] not in NOT_MOVES and not event.get("previous_deal")
        for event in events
    )


def deal_end(state, picture: dict, names: dict[int, str], viewer: int | None) -> dict | None:
    """The last deal's result for the table, while it is news to the viewer: from the deal's end until
    the viewer's first move in the next one (a watcher: until the next deal's first turn is over).
    None when there is nothing to show (no deal ended yet, or the viewer moved on)."""
    last = picture.get("last_deal")
    if not last or not state.records:
        return None
    current = picture["current"]
    if not picture["finished"]:
        if viewer is None:
            if sum(row["turns"] for row in picture["seats"]) > 1:
                return None
        elif moved_in_deal(state.deal.events, viewer):
            return None
    score = state.records[-1].score
    totals = picture["scores"]["totals"]
    rows = []
    for side in score.sides:
        seats = tuple(side.seats)
        rows.append(
            {
                "name": " & ".join(names.get(n, "") for n in seats),
                "points": side.points,
                "total": totals[seats[0]],
                "out": last.get("winner") in seats,
                "you": viewer in seats,
                "parts": [
                    {"text": _part_text(part, last.get("hands") or [], seats), "points": part.points}
                    for part in side.parts
                ],
            }
        )
    return {
        "key": f"{state.deal.number}:{last['deal']}",
        "number": last["deal"] + 1,
        "how": _how(last, names, picture.get("family") == "hand-and-foot"),
        "void": bool(last.get("void")),
        "rows": rows,
        "dealer": None if picture["finished"] else names.get(state.deal.dealer, ""),
        "first": None if picture["finished"] or current is None else names.get(current, ""),
        "your_start": not picture["finished"] and viewer is not None and picture["your_turn"],
    }


def game_end(game, board_context: dict, seat) -> dict | None:
    """The finished game's end for the table: the winners, the final standings (a line per side, best
    first), the result card's link and whether this person may ask for a rematch (a person seated in
    it) or go to the one made already."""
    view = board_context["view"]
    if not view["finished"]:
        return None
    standings = board_context["standings"]
    winners = [row["name"] for row in standings if row["winner"]]
    token = result_card_token(game_id=game.pk)
    return {
        "winners": winners,
        "standings": standings,
        "card_url": reverse("scoring:result_card", args=[token]),
        "can_rematch": seat is not None and seat.user_id is not None,
        "rematch_url": reverse("games:rematch", args=[game.group.slug, game.pk]),
        "rematch_game": game.rematch if game.rematch_id else None,
    }


def your_turn_now(game, board_context: dict | None) -> bool:
    """Whether the game waits on the viewer now (the tab's title and icon say so)."""
    view = board_context["view"] if board_context else None
    return bool(view and view["your_turn"] and not view["finished"] and game.status == "active")


def tab_title(game, board_context: dict | None) -> str:
    """The tab's title: "(•) Your turn — Hand #12" while it is the viewer's turn, else the game's name."""
    name = f"{game.get_variant_display()} #{game.pk}"
    if your_turn_now(game, board_context):
        return _("(•) Your turn — {game}").format(game=name)
    return name
