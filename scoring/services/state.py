"""A score sheet as it stands, derived from its stored deals every time: each deal scored by the
engine in order, the dealer followed, the game's status asked of the engine. Nothing here writes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games.engine.errors import DomainError
from games.engine.match import DealRecord, MatchStatus, match_status, next_dealer
from games.engine.scoring import DealScore
from games.engine.variants import scoring_deals
from games.engine.variants import sides as seat_sides
from scoring import refusals
from scoring.models import Deal, Sheet, SheetPlayer
from scoring.services.deal_facts import check_deal, score_facts
from scoring.services.errors import SheetError, error_sentence


@dataclass
class DealRow:
    """One deal as the sheet shows it."""

    deal: Deal
    dealer: int
    score: DealScore | None
    number: int | None  # scoring deal number; None for a void deal
    tie_break: bool = False
    totals: tuple[int, ...] = ()  # running totals per side after this deal
    error: str = ""  # the stored facts no longer score (a rule changed)
    refusal: DomainError | None = None  # the engine's refusal behind ``error``, to word for a form


@dataclass
class SheetState:
    sheet: Sheet
    players: list[SheetPlayer]
    sides: tuple[tuple[int, ...], ...]
    rows: list[DealRow] = field(default_factory=list)
    status: MatchStatus | None = None
    error: str = ""

    def side_name(self, seats: Sequence[int]) -> str:
        return " & ".join(self.players[seat].display_name for seat in seats)

    @property
    def side_names(self) -> list[str]:
        return [self.side_name(seats) for seats in self.sides]

    @property
    def winner_names(self) -> list[str]:
        if not self.status or not self.status.finished:
            return []
        return [self.side_name(seats) for seats in self.status.winners]

    @property
    def next_dealer_name(self) -> str:
        if not self.status or self.status.next_dealer is None:
            return ""
        return self.players[self.status.next_dealer].display_name


def _sides(sheet: Sheet, players: int) -> tuple[tuple[int, ...], ...]:
    return seat_sides(players, sheet.variant.teams_in(sheet.options))


def compute_state(sheet: Sheet, players: list[SheetPlayer], deals: Sequence[Deal]) -> SheetState:
    """Score every deal in order, follow the dealer, and ask the engine where the game stands."""
    count = len(players)
    variant = sheet.variant
    state = SheetState(sheet, players, _sides(sheet, count))
    records = []
    dealer = sheet.first_dealer
    totals = [0] * len(state.sides)
    played = 0
    required = scoring_deals(variant, sheet.options)
    for deal in deals:
        row = DealRow(deal=deal, dealer=dealer, score=None, number=None)
        try:
            score = score_facts(sheet.rule_set, sheet.options, count, deal.facts)
        except DomainError as error:
            row.error = error_sentence(error)
            row.refusal = error
        except SheetError as error:
            row.error = error.message
        else:
            row.score = score
            if not score.void:
                played += 1
                row.number = played
                row.tie_break = played > required
                for index, side in enumerate(score.sides):
                    totals[index] += side.points
            records.append(DealRecord(dealer, score))
            dealer = next_dealer(variant, sheet.options, count, dealer, score)
        row.totals = tuple(totals)
        state.rows.append(row)
    try:
        state.status = match_status(variant, sheet.options, count, sheet.first_dealer, records)
    except DomainError as error:
        state.error = error_sentence(error)
    return state


def sheet_frame(sheet: Sheet) -> tuple[list[SheetPlayer], tuple[tuple[int, ...], ...]]:
    """The sheet's players in seat order and its sides, without scoring anything (what a deal form
    is built from)."""
    players = list(sheet.players.select_related("user").order_by("seat"))
    return players, _sides(sheet, len(players))


def sheet_state(sheet: Sheet) -> SheetState:
    """The sheet as it stands, every number derived from the stored facts."""
    players = list(sheet.players.select_related("user").order_by("seat"))
    deals = list(
        sheet.deals.filter(deleted_at__isnull=True)
        .select_related("created_by", "updated_by")
        .order_by("position")
    )
    return compute_state(sheet, players, deals)


def check_candidate(sheet: Sheet, deals: list[Deal], changed: Deal | None) -> SheetState:
    """Refuse a change the engine would refuse (for the changed deal, one of ``deals``, or for the game
    as a whole); otherwise the sheet as it stands after the change. Each deal is scored once."""
    players = list(sheet.players.select_related("user").order_by("seat"))
    if changed is not None:
        check_deal(sheet.variant, sheet.options, players, changed.facts)
    state = compute_state(sheet, players, deals)
    refused = next((row for row in state.rows if row.deal is changed and row.error), None)
    if refused and refused.refusal is not None:
        field, sentence = refusals.worded(refused.refusal, sheet.variant, players, changed.facts)
        raise SheetError(sentence, field=field)
    if refused:
        raise SheetError(refused.error)
    if state.error:
        raise SheetError(state.error)
    return state


def number_in_sheet(state: SheetState, deal: Deal) -> int | None:
    return next((row.number for row in state.rows if row.deal.pk == deal.pk), None)


def consequences(before: SheetState, after: SheetState, *, done: bool = False) -> list[str]:
    """What a change does to the game's result, as sentences: before it ("Layla would no longer be the
    winner.") or, ``done``, after it ("Layla is no longer the winner."). Empty when the result stays."""
    sentences = []
    was, now = set(before.winner_names), set(after.winner_names)
    finished_before = bool(before.status and before.status.finished)
    finished_after = bool(after.status and after.status.finished)
    for name in sorted(was - now):
        template = (
            _("%(name)s is no longer the winner.") if done else _("%(name)s would no longer be the winner.")
        )
        sentences.append(template % {"name": name})
    for name in sorted(now - was):
        template = _("%(name)s is now the winner.") if done else _("%(name)s would be the winner.")
        sentences.append(template % {"name": name})
    if finished_before and not finished_after and after.status:
        if done:
            template = _(
                "The game is open again: deal %(number)s is entered next; it leaves the standings until it "
                "finishes."
            )
        else:
            template = _(
                "The game would be open again: deal %(number)s would be entered next, and it would "
                "leave the standings until it finishes."
            )
        sentences.append(template % {"number": after.status.next_deal_number})
    if finished_before and finished_after and was == now and before.status.totals != after.status.totals:
        sentences.append(_("The winner stays; the totals change."))
    return sentences


def deal_points(state: SheetState, facts: dict | None) -> list[tuple[str, int]]:
    """A deal's points per side from its raw facts (the old or new figures of a change), with the
    side's name; empty when they do not score (or there are none)."""
    if not facts:
        return []
    sheet = state.sheet
    try:
        score = score_facts(sheet.rule_set, sheet.options, len(state.players), facts)
    except (DomainError, SheetError):
        return []
    if score.void:
        return []
    return [(state.side_name(side.seats), side.points) for side in score.sides]
