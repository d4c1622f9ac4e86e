"""The live state of the rules in a deal, as sentences: what is wild this deal, what an opening needs
now, who has opened, and (kuwaiti) when each player may announce.

:func:`rule_state` reads a per-seat view (:func:`games.engine.view.view`), so it can only say what that
seat may see. It returns ``(template, params)`` pairs like :func:`games.engine.view.describe`: the web
layer translates the ``_``-marked template and fills it in. Parameters:

- ``seat`` (one seat number) and ``seats`` (a list of seat numbers): the web layer shows the names;
- ``card``, ``indicator``: faces in notation (``"AH"``, ``"7H"``);
- every other parameter is a number.
"""

from __future__ import annotations

from typing import Any

from .errors import _
from .variants import HAND_VARIANTS

RuleLine = tuple[str, dict[str, Any]]

TEMPLATES: dict[str, str] = {
    "wild_jokers_indicator": _("Wild this deal: the two jokers (the indicator {indicator} is an ace)."),
    "wild_aces": _("Wild this deal: the two {card}. The jokers play as natural {card}."),
    "opening_fixed": _("An opening needs {minimum}."),
    "opening_first": _("An opening needs {minimum} this deal (nobody has opened yet)."),
    "opening_raised": _("An opening needs {minimum} this deal: the last one was {total}, by {seat}."),
    "opened": _("Opened: {seats}."),
    "nobody_opened": _("Nobody has opened yet."),
    "announce_all": _("Announcing needs {minimum}, once every player has had {turns} turns: {items}."),
    "announce_item_wait": _("{seat} on turn {turn}, may announce from turn {from_turn}"),
    "announce_item_done": _("{seat} has announced"),
    "announce_you_wait": _(
        "You may announce from your turn {from_turn} (this is your turn {turn}): {left} to go."
    ),
    "announce_you_next": _(
        "You may announce from your turn {from_turn} (your next is turn {turn}): {left} to go."
    ),
    "announce_you_soon": _("You may announce in your next turn."),
    "announce_you_now": _("You may announce now."),
    "announce_you_done": _("You have announced."),
}
"""Every sentence :func:`rule_state` can return, ``_``-marked for translation. A parameter ``items`` is a
list of ``(template, params)`` pairs (templates of this table too), to be shown one after the other."""


def announce_from_turn(view: dict[str, Any], seat: int) -> int:
    """kuwaiti: the turn of ``seat`` (counted as the engine counts: the turn in progress included) from
    which it may announce. Announcing needs every player to have started ``announcement_min_turns``
    turns; the dealer plays last in a round, so it may announce in its own 8th turn, everybody else
    from their 9th (by then every player after them has started their 8th)."""
    minimum = HAND_VARIANTS[view["variant"]].announcement_min_turns
    return minimum if seat == view["deal"]["dealer"] else minimum + 1


def rule_state(view: dict[str, Any]) -> list[RuleLine]:
    """The live rule-state sentences of a Hand-family deal for the seat whose view this is (a spectator
    gets the lines about everybody). Hand and Foot and a finished game: no lines (their tables show
    the deal's opening minimum themselves)."""
    variant = HAND_VARIANTS.get(view["variant"])
    if variant is None or view["finished"]:
        return []
    lines: list[RuleLine] = []
    seats = view["seats"]
    viewer = view["seat"]
    if variant.indicator and view["indicator"] is not None:
        indicator = view["indicator"]["face"]
        if view["wilds"]["jokers"]:
            lines.append((TEMPLATES["wild_jokers_indicator"], {"indicator": indicator}))
        else:
            lines.append((TEMPLATES["wild_aces"], {"card": "A" + view["wilds"]["aces_of"]}))
    opened = [row["seat"] for row in seats if row["opened"]]
    minimum = view["opening_minimum"]
    if variant.opening == "announcement":
        if viewer is not None:
            lines.append(_your_announcement(view, viewer, variant.announcement_min_turns))
        items = []
        for row in seats:
            if row["opened"]:
                items.append((TEMPLATES["announce_item_done"], {"seat": row["seat"]}))
            else:
                params = {
                    "seat": row["seat"],
                    "turn": row["turns"],
                    "from_turn": announce_from_turn(view, row["seat"]),
                }
                items.append((TEMPLATES["announce_item_wait"], params))
        params = {"minimum": minimum, "turns": variant.announcement_min_turns, "items": items}
        lines.append((TEMPLATES["announce_all"], params))
        return lines
    if variant.opening == "escalating":
        if opened:  # every opening tops the one before, so the most recent is the highest
            last = max(opened, key=lambda seat: seats[seat]["opening_total"] or 0)
            total = seats[last]["opening_total"]
            lines.append((TEMPLATES["opening_raised"], {"minimum": minimum, "total": total, "seat": last}))
        else:
            lines.append((TEMPLATES["opening_first"], {"minimum": minimum}))
    else:
        lines.append((TEMPLATES["opening_fixed"], {"minimum": minimum}))
    lines.append((TEMPLATES["opened"], {"seats": opened}) if opened else (TEMPLATES["nobody_opened"], {}))
    return lines


def _your_announcement(view: dict[str, Any], seat: int, minimum_turns: int) -> RuleLine:
    row = view["seats"][seat]
    if row["opened"]:
        return TEMPLATES["announce_you_done"], {}
    from_turn = announce_from_turn(view, seat)
    if view["current"] == seat:
        turn = row["turns"]
        if min(r["turns"] for r in view["seats"]) >= minimum_turns:
            return TEMPLATES["announce_you_now"], {}
        return TEMPLATES["announce_you_wait"], {
            "from_turn": from_turn,
            "turn": turn,
            "left": from_turn - turn,
        }
    turn = row["turns"] + 1  # between turns: the count includes the turn in progress, so the next is +1
    if turn >= from_turn:
        return TEMPLATES["announce_you_soon"], {}
    return TEMPLATES["announce_you_next"], {"from_turn": from_turn, "turn": turn, "left": from_turn - turn}
