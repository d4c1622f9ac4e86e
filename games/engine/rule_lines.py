"""Each family's live state of the rules in a deal, as sentences (:func:`.family.rule_state` picks the
family's; :mod:`.rule_state` is its public home): what is wild this deal, what an opening needs
now, who has opened, and (kuwaiti) when each player may announce. For Hand and Foot: this deal's opening
minimum and whether the player (or team) has opened, what going out needs and what the player's side
still misses, and when the discard pile may be taken.

Each reads a per-seat view (:func:`games.engine.view.view`), so it can only say what that
seat may see. It returns ``(template, params)`` pairs like :func:`games.engine.view.describe`: the web
layer translates the ``_``-marked template and fills it in. Parameters:

- ``seat`` (one seat number) and ``seats`` (a list of seat numbers): the web layer shows the names;
- ``card``, ``indicator``: faces in notation (``"AH"``, ``"7H"``);
- every other parameter is a number.
"""

from __future__ import annotations

from typing import Any

from .errors import _
from .handfoot_deal import PILE_MINIMUM
from .variants import HAND_AND_FOOT_VARIANTS, HAND_VARIANTS

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
    # Hand and Foot
    "foot_opening": _("Deal {number} of {deals}: an opening needs {minimum} in card points."),
    "foot_opening_you": _("Deal {number} of {deals}: an opening needs {minimum}. You have not opened yet."),
    "foot_opened_you": _("Deal {number} of {deals}: an opening needs {minimum}. You have opened."),
    "foot_opening_team": _(
        "Deal {number} of {deals}: an opening needs {minimum}. Your team has not opened yet."
    ),
    "foot_opened_team": _("Deal {number} of {deals}: an opening needs {minimum}. Your team has opened."),
    "foot_out_solo": _("Going out: your hand and then your whole foot played, a red book and a black book."),
    "foot_out_team": _(
        "Going out: your hand and foot played, a last card to discard, a red book and a black book in "
        "your team."
    ),
    "foot_need_red_you": _("To go out you need a red book."),
    "foot_need_black_you": _("To go out you need a black book."),
    "foot_need_both_you": _("To go out you need a red book and a black book."),
    "foot_need_none_you": _("You have the books to go out."),
    "foot_need_red_team": _("To go out your team needs a red book."),
    "foot_need_black_team": _("To go out your team needs a black book."),
    "foot_need_both_team": _("To go out your team needs a red book and a black book."),
    "foot_need_none_team": _("Your team has the books to go out."),
    "foot_pile_solo": _(
        "Taking the pile: {size} cards or more, its top card melded at once with two naturals from your "
        "hand (one, onto your own meld of its rank)."
    ),
    "foot_pile_team": _(
        "Taking the pile: your team has opened, {size} cards or more, two naturals of its top card's rank "
        "in your hand."
    ),
    "foot_pile_short": _("The discard pile holds {count} now: it cannot be taken until it holds {size}."),
    "foot_pile_blocked": _("Its top card is a wild card or a 3: the pile cannot be taken now."),
    "foot_pile_closed": _("Your team has not opened: you cannot take the pile yet."),
    "foot_pile_opening": _(
        "Before you open, taking the pile must reach {minimum} with your melds (its top card counts, the "
        "rest of the pile does not)."
    ),
}
"""Every sentence the rule state can hold, ``_``-marked for translation. A parameter ``items`` is a
list of ``(template, params)`` pairs (templates of this table too), to be shown one after the other."""


def announce_from_turn(view: dict[str, Any], seat: int) -> int:
    """kuwaiti: the turn of ``seat`` (counted as the engine counts: the turn in progress included) from
    which it may announce. Announcing needs every player to have started ``announcement_min_turns``
    turns; the dealer plays last in a round, so it may announce in its own 8th turn, everybody else
    from their 9th (by then every player after them has started their 8th)."""
    minimum = HAND_VARIANTS[view["variant"]].announcement_min_turns
    return minimum if seat == view["deal"]["dealer"] else minimum + 1


def hand_rule_state(view: dict[str, Any]) -> list[RuleLine]:
    """The live rule-state sentences of a Hand-family deal in progress for the seat whose view this is
    (a spectator gets the lines about everybody)."""
    variant = HAND_VARIANTS[view["variant"]]
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


def foot_rule_state(view: dict[str, Any]) -> list[RuleLine]:
    """A Hand and Foot deal's rule state (a deal in progress) for the seat whose view this is: this
    deal's opening minimum and whether its side has opened, what going out needs, what its side still
    misses, and when the discard pile may be taken (and why not now). A spectator gets the minimum and
    who has opened."""
    variant = HAND_AND_FOOT_VARIANTS[view["variant"]]
    team = "team" if variant.teams else "you"
    deal = view["deal"]
    numbers = {
        "number": deal["scoring_deal"],
        "deals": deal["scoring_deals"],
        "minimum": view["opening_minimum"],
    }
    side = view["side"]
    lines: list[RuleLine] = []
    if side is None:
        lines.append((TEMPLATES["foot_opening"], numbers))
        opened = [seat for row in view["sides"] if row["opened"] for seat in row["seats"]]
        lines.append((TEMPLATES["opened"], {"seats": opened}) if opened else (TEMPLATES["nobody_opened"], {}))
        return lines
    mine = view["sides"][side]
    opened = mine["opened"]
    lines.append((TEMPLATES[f"foot_{'opened' if opened else 'opening'}_{team}"], numbers))
    lines.append((TEMPLATES["foot_out_team" if variant.teams else "foot_out_solo"], {}))
    missing = mine["books_missing"]
    need = "both" if len(missing) == 2 else missing[0] if missing else "none"
    lines.append((TEMPLATES[f"foot_need_{need}_{team}"], {}))
    lines.append((TEMPLATES["foot_pile_team" if variant.teams else "foot_pile_solo"], {"size": PILE_MINIMUM}))
    pile = view["discard"]
    if variant.teams and not opened:
        lines.append((TEMPLATES["foot_pile_closed"], {}))
    elif pile["count"] < PILE_MINIMUM:
        lines.append((TEMPLATES["foot_pile_short"], {"count": pile["count"], "size": PILE_MINIMUM}))
    elif not pile["takeable"]:
        lines.append((TEMPLATES["foot_pile_blocked"], {}))
    elif not variant.teams and not opened:  # the pile could be taken: the take must reach the minimum
        lines.append((TEMPLATES["foot_pile_opening"], {"minimum": view["opening_minimum"]}))
    return lines
