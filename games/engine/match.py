"""The game across deals: totals, the number of deals, tie-breaks, the next dealer and the winner.

Works for both families. Hand family: lowest total wins; Hand and Foot: highest total wins. A void
deal (stock exhausted) scores nothing and does not count towards the number of deals.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .deal import DEAL_OVER
from .errors import InvalidOptions, _
from .scoring import DealScore, InvalidFacts
from .variants import TIE_BREAK_BY_RULE, check_players, resolve_variant, scoring_deals
from .variants import sides as seat_sides


@dataclass(frozen=True)
class DealRecord:
    """One deal of a game: who dealt it and its score."""

    dealer: int
    score: DealScore


@dataclass(frozen=True)
class MatchStatus:
    """Where a game stands after its deals so far.

    ``sides`` and ``totals`` are parallel (a side is a seat, or a team's seats). ``winners`` holds the
    winning sides' seats (more than one only for a shared win). ``next_deal_number`` is 1-based and
    counts scoring deals (a void deal is replayed under the same number). ``next_dealer`` and
    ``next_opening_minimum`` (Hand and Foot) are ``None`` once the game is finished.
    """

    sides: tuple[tuple[int, ...], ...]
    totals: tuple[int, ...]
    scoring_deals_played: int
    scoring_deals_required: int
    finished: bool
    winners: tuple[tuple[int, ...], ...]
    next_dealer: int | None
    next_deal_number: int
    in_tie_break: bool
    lower_is_better: bool
    next_opening_minimum: int | None = None

    def totals_by_seat(self) -> tuple[int, ...]:
        """A side's total on each of its seats."""
        by_seat = [0] * sum(len(seats) for seats in self.sides)
        for seats, total in zip(self.sides, self.totals, strict=True):
            for seat in seats:
                by_seat[seat] = total
        return tuple(by_seat)


def _check_players(variant, players: int) -> None:
    check_players(variant, players, InvalidFacts)


def _check_dealer(dealer: object, players: int) -> int:
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players:
        raise InvalidFacts(
            _("The dealer must be one of the {players} players."),
            players=players,
            dealer=dealer,
        )
    return dealer


def next_dealer(variant, options: dict | None, players: int, previous_dealer: int, score: DealScore) -> int:
    """Who deals the next deal.

    jordanian, egyptian: the player with the highest score in the deal just finished; among tied
    players the previous dealer if tied, else the tied player nearest after the previous dealer in
    playing order. A deal where everybody scored 0 (a void deal too) is all tied, so the previous
    dealer deals again. In teams mode "score" is each seat's own figure
    (:meth:`DealScore.figures_by_seat`: the winner's partner 0). Every other rule set (Hand and
    Foot too): the next seat.
    """
    variant = resolve_variant(variant)
    _check_players(variant, players)
    previous_dealer = _check_dealer(previous_dealer, players)
    if variant.next_dealer != "highest":
        return (previous_dealer + 1) % players
    figures = score.figures_by_seat()
    if len(figures) != players:
        raise InvalidFacts(
            _("The deal has scores for {count} players, not {players}."), count=len(figures), players=players
        )
    highest = max(figures)
    for step in range(players):
        seat = (previous_dealer + step) % players
        if figures[seat] == highest:
            return seat
    raise AssertionError("unreachable: some seat has the highest figure")  # pragma: no cover


def _best(totals: Sequence[int], lower_is_better: bool) -> tuple[int, ...]:
    best = min(totals) if lower_is_better else max(totals)
    return tuple(index for index, total in enumerate(totals) if total == best)


def match_status(
    variant, options: dict | None, players: int, first_dealer: int, deals: Sequence[DealRecord]
) -> MatchStatus:
    """The game after ``deals`` (in order, void deals included).

    The game ends after the rule set's number of scoring deals (void deals do not count). If the
    best total is then tied, tie-break deals are played one at a time until one side is best alone:
    always in jordanian and egyptian, per the ``tie_break`` option (default on) in the other Hand
    rule sets. Hand and Foot has no tie-break deals: a tie for the highest total is a shared win.
    Raises :class:`InvalidFacts` for a deal recorded after the game was over, a dealer out of range
    or a deal whose sides do not match the game.
    """
    variant = resolve_variant(variant)
    options = options or {}
    _check_players(variant, players)
    teams = variant.teams_in(options)
    if teams and players != 4:
        raise InvalidOptions(_("Partnership play needs exactly 4 players."))
    dealer = _check_dealer(first_dealer, players)
    sides = seat_sides(players, teams)
    lower_is_better = variant.lower_is_better
    tie_break = variant.tie_break_in(options)
    required = scoring_deals(variant, options)

    totals = [0] * len(sides)
    played = 0
    finished = False
    for number, record in enumerate(deals, start=1):
        if finished:
            raise InvalidFacts(_("The game was already over before deal {number}."), number=number)
        _check_dealer(record.dealer, players)
        score = record.score
        if tuple(side.seats for side in score.sides) != sides:
            raise InvalidFacts(
                _("Deal {number} is not scored for this game's players or teams."), number=number
            )
        if not score.void:
            played += 1
            for index, side in enumerate(score.sides):
                totals[index] += side.points
            if played >= required:
                finished = len(_best(totals, lower_is_better)) == 1 or not tie_break
        dealer = next_dealer(variant, options, players, record.dealer, score)

    winners = tuple(sides[index] for index in _best(totals, lower_is_better)) if finished else ()
    minimum = None if finished else variant.deal_opening_minimum(played)
    return MatchStatus(
        sides=sides,
        totals=tuple(totals),
        scoring_deals_played=played,
        scoring_deals_required=required,
        finished=finished,
        winners=winners,
        next_dealer=None if finished else dealer,
        next_deal_number=played + 1,
        in_tie_break=not finished and played >= required,
        lower_is_better=lower_is_better,
        next_opening_minimum=minimum,
    )


__all__ = ["TIE_BREAK_BY_RULE", "DealRecord", "MatchStatus", "match_status", "next_dealer"]


def copy_game[G](game: G) -> G:
    """A copy of a whole game (a Hand ``GameState`` or a Hand and Foot ``FootGame``: the same fields) that
    :func:`apply` may change freely: its own options, deal, records and winners."""
    return replace(
        game,
        options=dict(game.options),
        deal=game.deal.copy(),
        records=list(game.records),
        winners=list(game.winners),
    )


def apply_on_copy(
    state: Any,
    seat: int | None,
    action: dict,
    perform: Callable[[Any, object, object], list],
    next_deal: Callable[[Any], list],
) -> list:
    """The frame of ``apply`` for both families: ``perform`` the action on a copy (a refusal raises and
    leaves ``state`` as it was), log its events, score a finished deal and deal the next one
    (``next_deal``), count the action, then make the copy the state."""
    work = copy_game(state)
    events = perform(work, seat, action)
    work.deal.events.extend(events)
    if work.deal.phase == DEAL_OVER:
        events += next_deal(work)
    work.version += 1
    state.__dict__.update(work.__dict__)
    return events
