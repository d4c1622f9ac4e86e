"""What one seat may see: :func:`view` (``seat=None`` for a spectator) and :func:`visible_events`.

A view holds the seat's own hand, every seat's card count, the melds on the table by owner (and
team), the top of the discard pile and its size, the stock's size, the indicator, who has opened,
whose turn it is and the phase, the deal and game scores and the deal's move log as events. Other
seats' cards, the stock's order and the seed never appear. Once the game is over, every hand of
the final deal is shown and the log is shown in full (for the replay).

At the end of each deal the hands left are shown to everybody, as at a real table where they are
counted (``last_deal``).
"""

from __future__ import annotations

from typing import Any

from .actions import meld_json, opening_minimum_now, variant_of, wilds_of
from .deal import Event, card_json, team_of
from .errors import _
from .game import GameState
from .scoring import KUWAITI_TABLE

VIEW_VERSION = 1


def visible_events(events: list[Event], seat: int | None, *, reveal: bool = False) -> list[Event]:
    """``events`` as ``seat`` may see them: an event's ``"secret"`` part (a card drawn from the stock)
    is merged in for the seat it concerns and dropped for everybody else (``reveal``: for all)."""
    shown = []
    for event in events:
        if "secret" not in event:  # most events: a plain copy
            shown.append(dict(event))
            continue
        secret = event["secret"]
        public = {key: value for key, value in event.items() if key != "secret"}
        if secret is not None and (reveal or event.get("seat") == seat):
            public.update(secret)
        shown.append(public)
    return shown


def view(state: GameState, seat: int | None) -> dict[str, Any]:
    """The JSON-able picture of a Hand-family game for ``seat`` (``None``: a spectator)."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
        raise ValueError(f"no seat {seat!r} in a game of {state.players}")
    deal = state.deal
    variant = variant_of(state)
    wilds = wilds_of(state)
    over = state.finished
    status = state.status()
    teams = state.teams
    seats = []
    totals = status.totals_by_seat()
    for number in range(state.players):
        seats.append(
            {
                "seat": number,
                "team": team_of(number, state.players, teams),
                "cards": len(deal.hands[number]),
                "opened": deal.opened[number],
                "opening_total": deal.opening_totals[number],
                "turns": deal.turns[number],
                "dealer": number == deal.dealer,
                "total": totals[number],
            }
        )
    melds = []
    for table_meld in deal.melds:
        item = meld_json(table_meld)
        item["team"] = team_of(table_meld.owner, state.players, teams)
        melds.append(item)
    result: dict[str, Any] = {
        "view_version": VIEW_VERSION,
        "variant": state.variant,
        "options": dict(state.options),
        "players": state.players,
        "teams": teams,
        "seat": seat,
        "version": state.version,
        "phase": state.phase,
        "current": state.current,
        "your_turn": seat is not None and not over and seat == deal.current,
        "deal": {
            "number": deal.number,
            "attempt": deal.attempt,
            "scoring_deal": status.next_deal_number if not over else status.scoring_deals_played,
            "scoring_deals": status.scoring_deals_required,
            "in_tie_break": status.in_tie_break,
            "dealer": deal.dealer,
            "first": deal.first,
            "turn": deal.turn.number,
            "drew": deal.turn.drew if not over else None,
        },
        "hand": [card_json(card) for card in deal.hands[seat]] if seat is not None else None,
        "seats": seats,
        "melds": melds,
        "discard": {
            "top": card_json(deal.discard[-1]) if deal.discard else None,
            "count": len(deal.discard),
        },
        "stock": {"count": len(deal.stock)},
        "indicator": card_json(deal.indicator) if deal.indicator is not None else None,
        "wilds": {
            "jokers": wilds.jokers_wild,
            "aces_of": None if wilds.jokers_wild or deal.indicator is None else deal.indicator.suit,
        },
        "opening_minimum": opening_minimum_now(state),
        "opening_rule": variant.opening,
        "scores": {
            "deals": [list(record.score.points_by_seat()) for record in state.records],
            "void": [record.score.void for record in state.records],
            "totals": list(totals),
        },
        "log": visible_events(deal.events, seat, reveal=over),
        "last_deal": state.last_deal,
        "finished": over,
        "winners": list(state.winners),
    }
    if over:
        result["hands"] = [[card_json(card) for card in hand] for hand in deal.hands]
    return result


EVENT_TEMPLATES: dict[str, str] = {
    "deal_started": _("Deal {deal} begins: {dealer} deals and {first} plays first."),
    "indicator_joker_returned": _("A joker was turned and goes back into the middle of the stock."),
    "indicator_turned": _("The wild-card indicator is {card}."),
    "drew": _("{player} draws from the stock."),
    "drew_card": _("{player} draws {card} from the stock."),
    "took_discard": _("{player} takes {card} from the discard pile."),
    "melded": _("{player} lays down {cards}."),
    "opened": _("{player} opens with {total} (needed {minimum})."),
    "announced": _("{player} announces with {total} (needed {minimum})."),
    "laid_off": _("{player} lays off {cards}."),
    "exchanged": _("{player} puts {cards} in place of the {wild} and takes the {wild}."),
    "discarded": _("{player} discards {card}."),
    "turn_started": _("{player}'s turn."),
    "went_out": _("{player} goes out."),
    "went_out_hand": _("{player} goes out “Hand”!"),
    "went_out_named": _("{player} goes out: {hand}!"),
    "hand_declared": _("{player} declares a Hand: {name}."),
    "redeal_demanded": _("{player} shows {cards} and demands a redeal."),
    "stock_exhausted": _("The stock has run out: the deal is void."),
    "stock_reshuffled": _(
        "The stock has run out: the discard pile but its top card is shuffled into a new stock."
    ),
    "deal_ended": _("The deal is over."),
    # Hand and Foot
    "drew_cards": _("{player} draws {count} cards from the draw pile."),
    "drew_one": _("{player} draws a card from the draw pile."),
    "drew_cards_shown": _("{player} draws {cards} from the draw pile."),
    "took_pile": _("{player} takes the discard pile: {card} and {count} more cards."),
    "picked_up_foot": _("{player} picks up their foot ({count} cards)."),
    "turn_ended": _("{player} ends the turn without a discard."),
    "draw_pile_empty": _("The draw pile has run out: the deal ends with nobody going out."),
    "game_over": _("The game is over."),
}
"""Sentence templates (``_``-marked) for the move log; fill them with :func:`describe`."""


def describe(event: Event, names: list[str]) -> tuple[str, dict[str, Any]]:
    """``(template, params)`` for one *visible* event (see :func:`visible_events`); ``names`` are the
    players' names by seat. Translate the template, then ``template.format(**params)``; the ``hand``
    and ``name`` params are ``_``-marked labels of named hands, to be translated as well. ``card``,
    ``wild`` and ``cards`` are faces in notation."""
    kind = event["type"]
    params: dict[str, Any] = {}
    if "seat" in event and event["seat"] is not None:
        params["player"] = names[event["seat"]]
    if kind == "drew" and "card" in event:
        kind = "drew_card"
    if kind == "drew_cards" and "cards" in event:
        kind = "drew_cards_shown"
    elif kind == "drew_cards" and event.get("count") == 1:
        kind = "drew_one"
    finish = event.get("finish")
    if kind == "went_out" and finish in KUWAITI_TABLE and finish not in ("announcement", "regular"):
        kind = "went_out_named"
        params["hand"] = KUWAITI_TABLE[finish].label
    elif kind == "went_out" and finish not in (None, "normal", "announcement"):
        kind = "went_out_hand"
    for key in ("card", "wild"):
        if isinstance(event.get(key), dict):
            params[key] = event[key]["face"]
    if "cards" in event:
        params["cards"] = " ".join(card["face"] for card in event["cards"])
    if "meld" in event and "cards" not in params:
        params["cards"] = " ".join(card["face"] for card in event["meld"]["cards"])
    if kind == "deal_started":
        params.update(deal=event["deal"] + 1, dealer=names[event["dealer"]], first=names[event["first"]])
    for key in ("total", "minimum", "count"):
        if key in event:
            params[key] = event[key]
    if "name" in event:  # a kuwaiti named hand: its (untranslated) label
        params["name"] = (
            KUWAITI_TABLE[event["name"]].label if event["name"] in KUWAITI_TABLE else event["name"]
        )
    return EVENT_TEMPLATES[kind], params
