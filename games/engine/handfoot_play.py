"""Hand and Foot online: what a seat may do (:func:`legal_actions`), what it may see (:func:`view`)
and a greedy bot (:func:`bot_action`). The public ``games.engine`` functions of the same names hand a
Hand and Foot game to these.

The bot takes the discard pile when it can, opens as soon as its melds reach the deal's minimum,
lays down every rank it holds three of (or two and a spare wild card), lays off what fits its
side's melds (wild cards only onto melds that are not yet books, keeping red books clean), runs to
the foot when it can, goes out when its side has the books, and discards the card it needs least:
a 3 first, then a single card of low value, never a wild card while it has another choice.
"""

from __future__ import annotations

from typing import Any

from .cards import Card
from .deal import DRAW, PLAY, card_json
from .handfoot import handfoot_card_points
from .handfoot_deal import (
    THREE,
    FootGame,
    _best_extra_melds,
    books_missing,
    can,
    is_wild,
    pile_takes,
    rank_name,
)
from .view import visible_events

VIEW_VERSION = 1


# --- Legal actions -----------------------------------------------------------------------------


def meld_suggestion(game: FootGame, seat: int) -> list[list[Card]]:
    """New melds ``seat`` can lay down now (every rank with 3+ naturals, or 2 and a spare wild card),
    trimmed so that the move is allowed (the opening's minimum, the cards to keep); ``[]`` if none."""
    deal = game.deal
    side = game.side_of(seat)
    taken = {m.rank for m in game.side_melds(side)}
    melds, _count = _best_extra_melds(deal.hands[seat], set(), taken)
    melds.sort(key=lambda m: -handfoot_card_points(m, game.rules))
    while melds:
        if can(game, seat, {"type": "meld", "melds": [[c.id for c in m] for m in melds]}):
            return melds
        melds.pop()
    return []


def lay_off_targets(game: FootGame, seat: int) -> list[dict]:
    """``[{"meld": id, "cards": [ids that fit one by one]}]`` for the side's melds."""
    deal = game.deal
    hand = deal.hands[seat]
    targets = []
    for meld in game.side_melds(game.side_of(seat)):
        fits = [
            card.id
            for card in hand
            if (is_wild(card) or card.rank == meld.rank)
            and can(game, seat, {"type": "lay_off", "meld": meld.id, "cards": [card.id]})
        ]
        if fits:
            targets.append({"meld": meld.id, "cards": fits})
    return targets


def legal_actions(game: FootGame, seat: int | None) -> list[dict]:
    """What ``seat`` may do now: ``draw``, ``take_pile`` (found ways), ``meld`` (a suggested set of
    melds, with ``"minimum"`` before the side has opened), ``lay_off`` (``"targets"``), ``discard``
    (one per card allowed) and ``end_turn``. Empty when it is not ``seat``'s move."""
    if game.finished or seat is None or not (isinstance(seat, int) and 0 <= seat < game.players):
        return []
    deal = game.deal
    if seat != deal.current or deal.phase not in (DRAW, PLAY):
        return []
    if deal.phase == DRAW:
        moves: list[dict] = []
        if len(deal.stock) >= game.rules.draw_count:
            moves.append({"type": "draw"})
        return moves + pile_takes(game, seat)
    moves = []
    side = game.side_of(seat)
    melds = meld_suggestion(game, seat)
    if melds:
        move: dict[str, Any] = {"type": "meld", "melds": [[c.id for c in m] for m in melds]}
        if not deal.opened[side]:
            move["minimum"] = deal.minimum
        moves.append(move)
    targets = lay_off_targets(game, seat)
    if targets:
        moves.append({"type": "lay_off", "targets": targets})
    for card in deal.hands[seat]:
        action = {"type": "discard", "card": card.id}
        if can(game, seat, action):
            moves.append(action)
    if can(game, seat, {"type": "end_turn"}):
        moves.append({"type": "end_turn"})
    return moves


# --- Views -------------------------------------------------------------------------------------


def meld_view(meld) -> dict:
    """A meld as JSON: id, side, rank, cards, natural and wild counts, book and colour."""
    return {
        "id": meld.id,
        "side": meld.side,
        "rank": rank_name(meld.rank),
        "cards": [card_json(card) for card in meld.cards],
        "count": len(meld.cards),
        "naturals": meld.naturals,
        "wilds": meld.wilds,
        "book": meld.is_book,
        "colour": meld.colour,
    }


def view(state: FootGame, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may see (``None``: a spectator). A foot shows only its size, to its owner too,
    until it is picked up; the draw pile only its size; the discard pile its top card and size."""
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < state.players):
        raise ValueError(f"no seat {seat!r} in a game of {state.players}")
    deal = state.deal
    over = state.finished
    status = state.status()
    totals = status.totals_by_seat()
    seats = [
        {
            "seat": number,
            "side": state.side_of(number),
            "team": state.side_of(number) if state.teams else None,
            "cards": len(deal.hands[number]),
            "foot": len(deal.feet[number]),
            "in_foot": deal.picked_up[number],
            "turns": deal.turns[number],
            "dealer": number == deal.dealer,
            "total": totals[number],
        }
        for number in range(state.players)
    ]
    side_views = []
    for side, side_seats in enumerate(status.sides):
        melds = state.side_melds(side)
        side_views.append(
            {
                "side": side,
                "seats": list(side_seats),
                "opened": deal.opened[side],
                "opening_total": deal.opening_totals[side],
                "melds": [meld_view(m) for m in sorted(melds, key=lambda m: (-len(m.cards), m.rank))],
                "red_books": sum(1 for m in melds if m.colour == "red"),
                "black_books": sum(1 for m in melds if m.colour == "black"),
                "books_missing": books_missing(state, side),
                "total": status.totals[side],
            }
        )
    top = deal.discard[-1] if deal.discard else None
    result: dict[str, Any] = {
        "view_version": VIEW_VERSION,
        "family": "hand-and-foot",
        "variant": state.variant,
        "options": dict(state.options),
        "players": state.players,
        "teams": state.teams,
        "seat": seat,
        "side": state.side_of(seat) if seat is not None else None,
        "version": state.version,
        "phase": state.phase,
        "current": state.current,
        "your_turn": seat is not None and not over and seat == deal.current,
        "deal": {
            "number": deal.number,
            "scoring_deal": status.next_deal_number if not over else status.scoring_deals_played,
            "scoring_deals": status.scoring_deals_required,
            "dealer": deal.dealer,
            "first": deal.first,
            "turn": deal.turn.number,
            "drew": deal.turn.drew if not over else None,
            "ran_to_foot": deal.turn.ran_to_foot if not over else False,
        },
        "hand": [card_json(card) for card in deal.hands[seat]] if seat is not None else None,
        "in_foot": deal.picked_up[seat] if seat is not None else None,
        "seats": seats,
        "sides": side_views,
        "melds": [meld_view(m) for m in deal.melds],
        "discard": {
            "top": card_json(top) if top is not None else None,
            "count": len(deal.discard),
            "takeable": top is not None and not is_wild(top) and top.rank != THREE and len(deal.discard) >= 6,
        },
        "stock": {"count": len(deal.stock)},
        "draw_count": state.rules.draw_count,
        "opening_minimum": deal.minimum,
        "scores": {
            "deals": [list(record.score.points_by_seat()) for record in state.records],
            "void": [False for _record in state.records],
            "totals": list(totals),
        },
        "log": visible_events(deal.events, seat, reveal=over),
        "last_deal": state.last_deal,
        "finished": over,
        "winners": list(state.winners),
    }
    if over:
        result["hands"] = [
            [card_json(card) for card in deal.hands[s] + deal.feet[s]] for s in range(state.players)
        ]
    return result


# --- The bot -----------------------------------------------------------------------------------


def bot_action(game: FootGame, seat: int) -> dict | None:
    """The bot's next action for ``seat``, or ``None`` when ``seat`` has nothing to do now."""
    if game.finished:
        return None
    deal = game.deal
    if seat != deal.current or deal.phase not in (DRAW, PLAY):
        return None
    if deal.phase == DRAW:
        takes = pile_takes(game, seat)
        if takes:
            return takes[0]
        return {"type": "draw"}
    melds = meld_suggestion(game, seat)
    if melds:
        return {"type": "meld", "melds": [[c.id for c in m] for m in melds]}
    hand = deal.hands[seat]
    side = game.side_of(seat)
    for meld in sorted(game.side_melds(side), key=lambda m: -len(m.cards)):
        for card in hand:
            natural = card.rank == meld.rank
            # A wild card goes on a meld that is not a book yet; red books stay clean.
            wild = is_wild(card) and not meld.is_book and (len(hand) > 2 or not _has_natural_choice(hand))
            if natural or wild:
                action = {"type": "lay_off", "meld": meld.id, "cards": [card.id]}
                if can(game, seat, action):
                    return action
    for card in discard_order(game, seat):
        action = {"type": "discard", "card": card.id}
        if can(game, seat, action):
            return action
    if can(game, seat, {"type": "end_turn"}):
        return {"type": "end_turn"}
    # Nothing is allowed but laying off a wild card onto a book (a black one): do that.
    for meld in game.side_melds(side):
        for card in hand:
            action = {"type": "lay_off", "meld": meld.id, "cards": [card.id]}
            if can(game, seat, action):
                return action
    return {"type": "discard", "card": discard_order(game, seat)[0].id}  # refused: apply says why


def _has_natural_choice(hand: list[Card]) -> bool:
    return any(not is_wild(card) for card in hand)


def discard_order(game: FootGame, seat: int) -> list[Card]:
    """The hand from the card the bot needs least: 3s, then singles of low value, wild cards last."""
    hand = game.deal.hands[seat]
    counts: dict[int, int] = {}
    for card in hand:
        counts[card.rank] = counts.get(card.rank, 0) + 1
    melded = {m.rank for m in game.side_melds(game.side_of(seat))}

    def need(card: Card) -> tuple:
        if is_wild(card):
            return (3, game.rules.card_value(card.rank), card.id)
        if card.rank == THREE:
            return (0, -(game.rules.red_three_cost if card.colour == "red" else 0), card.id)
        useful = counts[card.rank] + (2 if card.rank in melded else 0)
        return (1 if useful < 3 else 2, useful, game.rules.card_value(card.rank), card.id)

    return sorted(hand, key=need)
