"""A Hand-family game across deals.

A :class:`GameState` holds the rule set, the options (validated), the number of players, the
game's seed, the finished deals' scores and the current deal. ``family.apply(state, seat, action)``
runs one action (:func:`.actions.perform`); when it ends the deal, :func:`next_deal` scores it
(``scoring.score_hand_deal``), works out the game's standing (``match.match_status``) and deals the
next deal at once, by the dealer the rules name, or ends the game. A refused action raises a
:class:`DomainError` and leaves the state exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .actions import variant_of
from .cards import new_seed
from .deal import GAME_OVER, DealState, Event, card_json, derive_seed, start_deal
from .errors import InvalidOptions, _
from .match import DealRecord, MatchStatus, copy_game, match_status
from .scoring import HandDealFacts, score_hand_deal
from .variants import HAND_VARIANTS, validate_options


@dataclass
class GameState:
    """A whole game of a Hand-family rule set. Change it only through :func:`.family.apply`."""

    variant: str
    options: dict
    players: int
    seed: int
    first_dealer: int
    deal: DealState
    records: list[DealRecord] = field(default_factory=list)
    version: int = 0  # number of actions applied; the web layer checks it against double submits
    finished: bool = False
    winners: list[int] = field(default_factory=list)  # seats (both partners of a winning team)
    last_deal: dict | None = None  # the previous deal's result, hands shown (as at a real table)

    @property
    def phase(self) -> str:
        """``"draw"``, ``"play"`` or ``"game_over"``."""
        return GAME_OVER if self.finished else self.deal.phase

    @property
    def teams(self) -> bool:
        return bool(self.options.get("teams"))

    @property
    def current(self) -> int | None:
        """The seat to move, ``None`` when the game is over."""
        return None if self.finished else self.deal.current

    def copy(self) -> GameState:
        return copy_game(self)

    def status(self) -> MatchStatus:
        """The game's standing (totals, deals played, tie-break, winners) from ``match.match_status``."""
        return match_status(variant_of(self), self.options, self.players, self.first_dealer, self.records)


def new_game(variant: str, players: int, options: dict | None = None, seed: int | None = None) -> GameState:
    """Start a game: validate the options, draw the first dealer from the seed and deal the first deal."""
    if variant not in HAND_VARIANTS:
        raise InvalidOptions(_("There is no Hand rule set called “{slug}”."), slug=variant)
    options = validate_options(variant, players, options)
    if seed is None:
        seed = new_seed()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidOptions(_("A game's seed is a whole number of 0 or more."))
    first_dealer = derive_seed(seed, "first-dealer") % players
    deal = start_deal(HAND_VARIANTS[variant], players, seed, 0, first_dealer)
    return GameState(variant, options, players, seed, first_dealer, deal)


def deal_facts(state: GameState) -> HandDealFacts:
    """The facts of the finished current deal, for ``scoring.score_hand_deal``."""
    deal = state.deal
    result = deal.result or {}
    winner = result.get("winner")
    opened = list(deal.opened)
    if winner is not None and not result.get("void"):
        # For the winner, "opened" means before the turn in which they went out.
        opened[winner] = deal.turn.opened_before or (
            variant_of(state).scoring == "kuwaiti" and deal.opened[winner]
        )
    return HandDealFacts(
        players=state.players,
        winner=None if result.get("void") else winner,
        finish=result.get("finish") or "normal",
        opened=tuple(opened),
        held=tuple(tuple(hand) for hand in deal.hands),
        teams=state.teams,
        indicator=deal.indicator,
    )


def next_deal(work: GameState) -> list[Event]:
    """Score the finished deal and deal the next one (or end the game)."""
    variant = variant_of(work)
    deal = work.deal
    result = deal.result or {}
    if result.get("redeal"):
        work.deal = start_deal(variant, work.players, work.seed, deal.number, deal.dealer, deal.attempt + 1)
        dealt = list(work.deal.events)
        # The new deal's log starts with the demand, so everybody sees who demanded it and what they showed
        # (card ids of the previous deal: they say nothing about where those cards are now).
        demands = [event for event in deal.events if event["type"] == "redeal_demanded"][-1:]
        work.deal.events[:0] = [{**event, "previous_deal": True} for event in demands]
        return dealt
    score = score_hand_deal(variant, work.options, deal_facts(work))
    work.records.append(DealRecord(deal.dealer, score))
    status = work.status()
    ended: Event = {
        "type": "deal_ended",
        "deal": deal.number,
        "winner": result.get("winner"),
        "finish": result.get("finish"),
        "void": score.void,
        "points": list(score.points_by_seat()),
        "totals": list(status.totals_by_seat()),
        "hands": [[card_json(card) for card in hand] for hand in deal.hands],
    }
    deal.events.append(ended)
    work.last_deal = {k: v for k, v in ended.items() if k != "type"}
    events = [ended]
    if status.finished:
        work.finished = True
        work.winners = sorted(seat for side in status.winners for seat in _side_seats(side))
        over: Event = {"type": "game_over", "winners": list(work.winners), "totals": ended["totals"]}
        deal.events.append(over)
        events.append(over)
        return events
    work.deal = start_deal(variant, work.players, work.seed, len(work.records), status.next_dealer)
    return events + list(work.deal.events)


def _side_seats(side) -> tuple[int, ...]:
    return tuple(side) if isinstance(side, tuple | list) else (side,)
