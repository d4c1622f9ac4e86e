"""The only code that writes score sheets. It turns a deal's raw facts into the engine's facts,
lets the engine score them, and saves only what the engine accepts.

Raw facts (stored in ``Deal.facts``, JSON):

Hand family (classic, jordanian, saudi, kuwaiti, egyptian)::

    {"winner": 0 | null,              # null: a void deal (stock ran out), scores nothing
     "finish": "normal",              # "normal", "hand", kuwaiti/egyptian hand names
     "opened": [true, ...],           # per seat (kuwaiti: announced)
     "held": [null, 32, "KS 7H JK"],  # per seat: nothing, typed points, or cards
     "irregular": [false, ...],       # kuwaiti only
     "indicator": "7H" | null}        # jordanian/egyptian wild-card indicator

Hand and Foot (one entry per side: a player, or a team 0+2 / 1+3)::

    {"sides": [{"red_books": 1, "black_books": 1,
                "melded_points": 1030 | null, "melded": "KS KH ...",
                "held": [null | 85 | "3H 7C", ...],   # one entry per seat of the side
                "went_out": true, "picked_22": 0}],
     "pile_ran_out": true}                   # only when no side went out (the draw pile ran out)

Scores, totals, dealers and the winner are derived (:func:`sheet_state`) each time; the sheet's
cached columns are rewritten by :func:`recompute_sheet` after every change, and
the group's ratings are recomputed by a Celery task queued on commit (scoring/tasks.py).
"""

from __future__ import annotations

import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import F, Max, Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from games.engine.errors import DomainError
from games.engine.handfoot import HandFootSideFacts, handfoot_held_cost, score_handfoot_deal
from games.engine.match import DealRecord, MatchStatus, match_status, next_dealer
from games.engine.picker import (
    OpeningCheck,
    held_value,
    melded_value,
    opening_check,
    read_cards,
    read_indicator,
)
from games.engine.scoring import DealScore, HandDealFacts, ScorePart, score_hand_deal
from games.engine.variants import (
    HandAndFootVariant,
    face_limits,
    get_variant,
    scoring_deals,
    validate_options,
)
from games.engine.variants import sides as seat_sides
from handsite.models import Membership
from scoring.models import Deal, DealChange, OnlineResult, Rating, Sheet, SheetPlayer


class SheetError(Exception):
    """Input the rules or the sheet refuse; ``message`` is a translated sentence for the player.
    ``field``: the deal form's field the sentence is about (``held_points_2``), when there is one."""

    def __init__(self, message: str, *, field: str | None = None):
        self.message = message
        self.field = field
        super().__init__(message)


class SheetPermissionDenied(SheetError):
    pass


class DealAlreadySaved(SheetError):
    """A second submit of the same deal (two phones at the table, a double tap): ``deal`` is the one
    saved first, for a link to it."""

    def __init__(self, message: str, *, deal: Deal):
        super().__init__(message)
        self.deal = deal


# --- Translation of engine sentences -------------------------------------------------------------


def _translate_params(params: dict) -> dict:
    # Parameters that are labels (a hand's name, a rule set's name) are translated too; card notation
    # and numbers pass through unchanged.
    return {key: _(value) if isinstance(value, str) and value else value for key, value in params.items()}


def error_sentence(error: DomainError) -> str:
    """An engine error as a translated sentence."""
    template = _(error.template)
    return template.format(**_translate_params(error.params)) if error.params else template


def part_text(part: ScorePart) -> str:
    """One breakdown line, translated: ``"Cards left: KS 7H JK = 32"``."""
    template = _(part.label)
    return template.format(**_translate_params(part.params)) if part.params else template


# --- From raw facts to the engine's facts ----------------------------------------------------------


def _cards_or_points(value, variant, players: int):
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise SheetError(_("What a player holds must be cards or points."))
    if isinstance(value, int):
        return value
    return read_cards(str(value), variant, players)


def hand_facts(variant, options: dict, players: int, raw: dict) -> HandDealFacts:
    """The engine's facts of a Hand-family deal from the raw JSON."""
    held = tuple(_cards_or_points(value, variant, players) for value in raw.get("held") or ())
    return HandDealFacts(
        players=players,
        winner=raw.get("winner"),
        finish=raw.get("finish") or "normal",
        opened=tuple(bool(flag) for flag in raw.get("opened") or ()),
        held=held,
        irregular=tuple(bool(flag) for flag in raw.get("irregular") or ()),
        teams=bool(options.get("teams")),
        indicator=read_indicator(variant, raw.get("indicator")),
    )


def _side_held(variant, players: int, entries: Sequence):
    values = [_cards_or_points(entry, variant, players) for entry in entries or ()]
    values = [value for value in values if value is not None]
    if not values:
        return ()
    if all(isinstance(value, tuple) for value in values):
        return tuple(card for value in values for card in value)
    if all(isinstance(value, int) for value in values):
        return sum(values)
    # Cards for one player and a typed number for the other: the side's cost in points.
    for value in values:
        if isinstance(value, int) and value < 0:
            return value  # the engine refuses it with its sentence
    return sum(value if isinstance(value, int) else handfoot_held_cost(value, variant) for value in values)


def handfoot_sides(variant, players: int, raw: dict) -> list[HandFootSideFacts]:
    sides = []
    for side in raw.get("sides") or ():
        melded = side.get("melded") or ""
        sides.append(
            HandFootSideFacts(
                red_books=side.get("red_books", 0),
                black_books=side.get("black_books", 0),
                melded_points=side.get("melded_points"),
                melded=read_cards(melded, variant, players) if melded else (),
                held=_side_held(variant, players, side.get("held")),
                went_out=bool(side.get("went_out")),
                picked_22=side.get("picked_22", 0) or 0,
            )
        )
    return sides


def _tally(counts: Counter, limits: dict, text, variant, players: int, field: str) -> None:
    """Add the cards of one field to the deal's count; refuse the field that goes past the decks."""
    if not isinstance(text, str) or not text.strip():
        return
    try:
        cards = read_cards(text, variant, players)
    except DomainError:
        return  # the engine refuses the field with its own sentence
    counts.update(card.face for card in cards)
    for face in sorted({card.face for card in cards}):
        if counts[face] > limits[face]:
            raise SheetError(
                _("This deal lists %(count)s × %(face)s, but the cards of this game hold only %(most)s.")
                % {"count": counts[face], "face": face, "most": limits[face]},
                field=field,
            )


def check_deal(variant, options: dict, players: Sequence[SheetPlayer], raw: dict) -> None:
    """The rules of a deal as a whole, for every path that saves one (the form, the API, a test):
    a deal holds no more cards than were dealt (every field together), and every player who did not
    go out and whose cards count says what they still hold. Refusals name the player and the field."""
    count = len(players)
    counts: Counter = Counter()
    limits = face_limits(variant, count)
    if isinstance(variant, HandAndFootVariant):
        sides = seat_sides(count, variant.teams)
        raw_sides = list(raw.get("sides") or ())
        nobody_out = not any(side.get("went_out") for side in raw_sides)
        for index, seats in enumerate(sides):
            side = raw_sides[index] if index < len(raw_sides) else {}
            _tally(counts, limits, side.get("melded"), variant, count, f"melded_cards_{index}")
            held = list(side.get("held") or ())
            for position, seat in enumerate(seats):
                value = held[position] if position < len(held) else None
                _tally(counts, limits, value, variant, count, f"held_cards_{seat}")
                if (nobody_out or not side.get("went_out")) and (value is None or value == ""):
                    raise SheetError(
                        _("Say what %(name)s still holds in hand and foot (type 0 if nothing).")
                        % {"name": players[seat].display_name},
                        field=f"held_points_{seat}",
                    )
        return
    held = list(raw.get("held") or ())
    opened = list(raw.get("opened") or ())
    irregular = list(raw.get("irregular") or ())
    winner = raw.get("winner")
    for seat in range(count):
        value = held[seat] if seat < len(held) else None
        _tally(counts, limits, value, variant, count, f"held_cards_{seat}")
        counts_against = (
            winner is not None
            and seat != winner
            and seat < len(opened)
            and opened[seat]
            and not (seat < len(irregular) and irregular[seat])
        )
        if counts_against and (value is None or value == ""):
            raise SheetError(
                (
                    _("Say what %(name)s still holds: they had announced, so their cards count.")
                    if variant.scoring == "kuwaiti"
                    else _("Say what %(name)s still holds: they had opened, so their cards count.")
                )
                % {"name": players[seat].display_name},
                field=f"held_points_{seat}",
            )


def score_facts(rule_set: str, options: dict, players: int, raw: dict) -> DealScore:
    """Score one deal's raw facts with the engine. Raises DomainError / SheetError."""
    variant = get_variant(rule_set)
    if isinstance(variant, HandAndFootVariant):
        return score_handfoot_deal(variant, options, handfoot_sides(variant, players, raw))
    return score_hand_deal(variant, options, hand_facts(variant, options, players, raw))


# --- The derived sheet ------------------------------------------------------------------------------


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
    variant = sheet.variant
    teams = variant.teams if isinstance(variant, HandAndFootVariant) else bool(sheet.options.get("teams"))
    return seat_sides(players, teams)


def _compute(sheet: Sheet, players: list[SheetPlayer], deals: Sequence[Deal]) -> SheetState:
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


def sheet_state(sheet: Sheet) -> SheetState:
    """The sheet as it stands, every number derived from the stored facts."""
    players = list(sheet.players.select_related("user").order_by("seat"))
    deals = list(
        sheet.deals.filter(deleted_at__isnull=True)
        .select_related("created_by", "updated_by")
        .order_by("position")
    )
    return _compute(sheet, players, deals)


def _check_candidate(sheet: Sheet, deals: list[Deal], changed: Deal | None) -> SheetState:
    """Refuse a change the engine would refuse (for the changed deal, or for the game as a whole);
    otherwise the sheet as it stands after the change."""
    players = list(sheet.players.select_related("user").order_by("seat"))
    if changed is not None:
        check_deal(sheet.variant, sheet.options, players, changed.facts)
        try:
            score_facts(sheet.rule_set, sheet.options, len(players), changed.facts)
        except DomainError as error:
            raise SheetError(error_sentence(error)) from None
    state = _compute(sheet, players, deals)
    if state.error:
        raise SheetError(state.error)
    return state


# --- Permissions ------------------------------------------------------------------------------------


def membership(sheet: Sheet, user) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return Membership.objects.filter(group_id=sheet.group_id, user=user).first()


def can_enter(sheet: Sheet, user, member: Membership | None = None) -> bool:
    """Players of the sheet who are group members enter deals; so do the sheet's creator and the group's
    owners and admins (someone has to keep score for a table of guests). ``member``: the user's
    membership of the sheet's group when the caller already has it (saves the query)."""
    if member is None:
        member = membership(sheet, user)
    if member is None:
        return False
    if member.can_manage or sheet.created_by_id == user.pk:
        return True
    return sheet.players.filter(user=user).exists()


def _require_enter(sheet: Sheet, user) -> None:
    if not can_enter(sheet, user):
        raise SheetPermissionDenied(_("Only the players of this sheet can change it."))


# --- Writes ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerEntry:
    """A seat for a new sheet: a member (``user``) or a guest by ``name``."""

    name: str = ""
    user: object | None = None


def _on_change(sheet: Sheet, state: SheetState | None = None) -> SheetState:
    """Bump the version, rewrite the cached columns from ``state`` (the sheet as it now stands, derived
    again when not given) and queue the group's ratings after the commit."""
    Sheet.objects.filter(pk=sheet.pk).update(version=F("version") + 1, updated_at=timezone.now())
    sheet.refresh_from_db()
    state = recompute_sheet(sheet, state)
    from scoring.tasks import recompute_group_ratings

    recompute_group_ratings.delay_on_commit(sheet.group_id)
    return state


def _number_of(state: SheetState, deal: Deal) -> int | None:
    return next((row.number for row in state.rows if row.deal.pk == deal.pk), None)


@transaction.atomic
def create_sheet(
    *,
    group,
    by,
    rule_set: str,
    players: Sequence[PlayerEntry],
    options: dict | None = None,
    first_dealer: int | None = None,
    title: str = "",
) -> Sheet:
    """A new sheet in ``group`` with ``players`` in seat order. Options are checked and frozen by the
    engine; ``first_dealer`` None draws one at random (as the rules say)."""
    if not Membership.objects.filter(group=group, user=by).exists():
        raise SheetPermissionDenied(_("Only members of the group can start a sheet."))
    entries = [entry for entry in players if (entry.name or "").strip() or entry.user is not None]
    try:
        frozen = validate_options(rule_set, len(entries), options or {})
    except DomainError as error:
        raise SheetError(error_sentence(error)) from None
    member_ids = set(Membership.objects.filter(group=group).values_list("user_id", flat=True))
    seen_users, seen_names = set(), set()
    for entry in entries:
        if entry.user is not None:
            if entry.user.pk not in member_ids:
                raise SheetError(_("%(name)s is not a member of this group.") % {"name": entry.user.name})
            if entry.user.pk in seen_users:
                raise SheetError(_("%(name)s is on the sheet twice.") % {"name": entry.user.name})
            seen_users.add(entry.user.pk)
        name = (entry.user.name if entry.user is not None else entry.name).strip()
        if name.casefold() in seen_names:
            raise SheetError(
                _("Two players are called %(name)s; give them different names.") % {"name": name}
            )
        seen_names.add(name.casefold())
    if first_dealer is None:
        first_dealer = secrets.randbelow(len(entries))
    if not 0 <= first_dealer < len(entries):
        raise SheetError(_("The first dealer must be one of the players."))
    sheet = Sheet.objects.create(
        group=group,
        rule_set=rule_set,
        options=frozen,
        first_dealer=first_dealer,
        title=title.strip(),
        created_by=by,
    )
    SheetPlayer.objects.bulk_create(
        SheetPlayer(
            sheet=sheet,
            seat=seat,
            name=(entry.user.name if entry.user is not None else entry.name).strip(),
            user=entry.user,
        )
        for seat, entry in enumerate(entries)
    )
    recompute_sheet(sheet)
    return sheet


def _locked(sheet: Sheet) -> Sheet:
    return Sheet.objects.select_for_update().get(pk=sheet.pk)


def _live_deals(sheet: Sheet) -> list[Deal]:
    return list(sheet.deals.filter(deleted_at__isnull=True).order_by("position"))


def next_position(sheet: Sheet) -> int:
    """The place the next deal takes (deleted deals keep theirs)."""
    return (sheet.deals.aggregate(top=Max("position"))["top"] or 0) + 1


def _already_saved(sheet: Sheet, position: int) -> DealAlreadySaved:
    """The refusal of a second submit of the deal at ``position`` (or of a form made before another
    deal was saved): who saved which deal, with the deal for a link."""
    deal = (
        sheet.deals.filter(position__gte=position).select_related("created_by").order_by("position").first()
    )
    state = sheet_state(sheet)
    number = _number_of(state, deal) if deal is not None else None
    who = deal.created_by.name if deal is not None and deal.created_by else _("Someone")
    if number is None:
        message = _("%(name)s already saved this deal (a void deal).") % {"name": who}
    else:
        message = _("%(name)s already saved deal %(number)s.") % {"name": who, "number": number}
    return DealAlreadySaved(message, deal=deal)


@transaction.atomic
def add_deal(sheet: Sheet, *, by, facts: dict, position: int | None = None) -> Deal:
    """Enter the next deal. The engine checks the facts and the game (not over yet); nothing is saved
    when it refuses (:class:`SheetError` with its sentence). ``position``: the place of the deal the
    form was made for; when another deal took it meanwhile (a double submit, two phones at the table)
    the deal is refused with :class:`DealAlreadySaved`."""
    sheet = _locked(sheet)
    _require_enter(sheet, by)
    top = sheet.deals.aggregate(top=Max("position"))["top"] or 0
    if position is not None and position != top + 1:
        if position <= top:
            raise _already_saved(sheet, position)
        raise SheetError(_("This form is out of date: open the sheet again."))
    position = top + 1
    deal = Deal(sheet=sheet, position=position, facts=facts, created_by=by, updated_by=by)
    state = _check_candidate(sheet, [*_live_deals(sheet), deal], deal)
    deal.save()
    state = _on_change(sheet, state)
    DealChange.objects.create(
        sheet=sheet,
        deal=deal,
        action=DealChange.Action.CREATED,
        by=by,
        new_facts=facts,
        deal_number=_number_of(state, deal),
    )
    return deal


@transaction.atomic
def edit_deal(deal: Deal, *, by, facts: dict) -> Deal:
    """Correct a past deal; everything after it is derived again (totals, dealers, the end)."""
    sheet = _locked(deal.sheet)
    _require_enter(sheet, by)
    deal = Deal.objects.get(pk=deal.pk, sheet=sheet, deleted_at__isnull=True)
    old = deal.facts
    deal.facts = facts
    deals = [deal if d.pk == deal.pk else d for d in _live_deals(sheet)]
    state = _check_candidate(sheet, deals, deal)
    deal.updated_by = by
    deal.updated_at = timezone.now()
    deal.save(update_fields=["facts", "updated_by", "updated_at"])
    state = _on_change(sheet, state)
    DealChange.objects.create(
        sheet=sheet,
        deal=deal,
        action=DealChange.Action.EDITED,
        by=by,
        old_facts=old,
        new_facts=facts,
        deal_number=_number_of(state, deal),
    )
    return deal


@transaction.atomic
def delete_deal(deal: Deal, *, by) -> None:
    """Delete a deal (kept for the history); the deals after it move up and are derived again."""
    sheet = _locked(deal.sheet)
    _require_enter(sheet, by)
    deal = Deal.objects.get(pk=deal.pk, sheet=sheet, deleted_at__isnull=True)
    number = _number_of(sheet_state(sheet), deal)
    deals = [d for d in _live_deals(sheet) if d.pk != deal.pk]
    state = _check_candidate(sheet, deals, None)
    deal.deleted_at = timezone.now()
    deal.updated_by = by
    deal.save(update_fields=["deleted_at", "updated_by"])
    DealChange.objects.create(
        sheet=sheet,
        deal=deal,
        action=DealChange.Action.DELETED,
        by=by,
        old_facts=deal.facts,
        deal_number=number,
    )
    _on_change(sheet, state)


@transaction.atomic
def mark_do_not_count(sheet: Sheet, *, by, do_not_count: bool = True) -> Sheet:
    """Leave a sheet out of (or put it back into) the group's history and standings."""
    sheet = _locked(sheet)
    _require_enter(sheet, by)
    if sheet.do_not_count == do_not_count:
        return sheet  # nothing changes, nothing to record
    sheet.do_not_count = do_not_count
    sheet.save(update_fields=["do_not_count"])
    DealChange.objects.create(
        sheet=sheet,
        action=DealChange.Action.EXCLUDED if do_not_count else DealChange.Action.INCLUDED,
        by=by,
    )
    _on_change(sheet)
    return sheet


@transaction.atomic
def link_guest(*, group, by, guest_name: str, user) -> int:
    """Link every seat of ``group``'s sheets played by the guest ``guest_name`` to the member ``user``:
    from then on those seats count as that member everywhere. Owners and admins link anyone; a member
    may link a guest to themselves. Returns the number of seats linked."""
    actor = Membership.objects.filter(group=group, user=by).first()
    if actor is None or not (actor.can_manage or user.pk == by.pk):
        raise SheetPermissionDenied(_("Only the group's owners and admins can link a guest to someone else."))
    if not Membership.objects.filter(group=group, user=user).exists():
        raise SheetError(_("%(name)s is not a member of this group.") % {"name": user.name})
    seats = list(
        SheetPlayer.objects.select_for_update()
        .filter(sheet__group=group, user__isnull=True, name__iexact=guest_name.strip())
        .select_related("sheet")
    )
    if not seats:
        raise SheetError(_("No guest called %(name)s has played in this group.") % {"name": guest_name})
    for seat in seats:
        if seat.sheet.players.filter(user=user).exists():
            raise SheetError(
                _("%(name)s already has a seat on “%(sheet)s”, where the guest also played.")
                % {"name": user.name, "sheet": seat.sheet}
            )
    for seat in seats:
        seat.user = user
        seat.save(update_fields=["user"])
        DealChange.objects.create(
            sheet=seat.sheet,
            action=DealChange.Action.LINKED,
            by=by,
            details={"guest": seat.name, "user_id": user.pk, "member": user.name},
        )
    for sheet in {seat.sheet for seat in seats}:
        _on_change(sheet)
    return len(seats)


def recompute_sheet(sheet: Sheet, state: SheetState | None = None) -> SheetState:
    """Derive the sheet from its facts again (unless ``state``, just derived, is given) and rewrite the
    cached columns (also the way to re-score history after a rule is corrected)."""
    if state is None:
        state = sheet_state(sheet)
    status = state.status
    finished = bool(status and status.finished)
    winners = sorted(seat for seats in status.winners for seat in seats) if finished else []
    finished_at = sheet.finished_at if finished else None
    if finished and finished_at is None:
        finished_at = timezone.now()
    Sheet.objects.filter(pk=sheet.pk).update(finished=finished, winner_seats=winners, finished_at=finished_at)
    sheet.finished, sheet.winner_seats, sheet.finished_at = finished, winners, finished_at
    return state


# --- Group history and standings ------------------------------------------------------------------


@dataclass
class Standing:
    key: str
    name: str
    sheets: int = 0
    wins: int = 0
    guest: bool = False


def counted_sheets(group):
    """Finished sheets that count in the group's history."""
    return (
        Sheet.objects.filter(group=group, finished=True, do_not_count=False)
        .prefetch_related("players__user")
        .order_by("-finished_at", "-pk")
    )


def group_standings(group) -> list[Standing]:
    """Per player (a member, or a guest by name; a linked guest counts as the member): finished sheets
    played and won (a shared win counts as a win), most wins first."""
    table: dict[str, Standing] = {}
    for sheet in counted_sheets(group):
        for player in sheet.players.all():
            entry = table.setdefault(
                player.player_key, Standing(player.player_key, player.display_name, guest=player.is_guest)
            )
            entry.sheets += 1
            if player.seat in sheet.winner_seats:
                entry.wins += 1
    return sorted(table.values(), key=lambda s: (-s.wins, s.sheets, s.name.casefold()))


def guest_names(group) -> list[str]:
    """Names of guests (not linked to a member) who have played in the group's sheets."""
    names = SheetPlayer.objects.filter(sheet__group=group, user__isnull=True).values_list("name", flat=True)
    by_key = {}
    for name in names:
        by_key.setdefault(name.strip().casefold(), name.strip())
    return sorted(by_key.values(), key=str.casefold)


# --- Table helpers: the card picker and the opening check ------------------------------------------


def count_cards(
    sheet: Sheet, text: str, *, kind: str = "held", indicator: str | None = None, players: int | None = None
):
    """What picked cards are worth on this sheet (``kind`` "held" or, Hand and Foot, "melded"), with
    the rule set's values. Raises SheetError with the engine's sentence. ``players``: the sheet's player
    count when the caller knows it (saves a query per call)."""
    if players is None:
        players = sheet.players.count()
    try:
        if kind == "melded":
            return melded_value(sheet.rule_set, players, text)
        return held_value(sheet.rule_set, players, text, indicator)
    except DomainError as error:
        raise SheetError(error_sentence(error)) from None


def check_opening(
    sheet: Sheet,
    melds: Sequence[str],
    *,
    indicator: str | None = None,
    wild_as: Sequence[str | None] = (),
    last_opening: int | None = None,
) -> OpeningCheck:
    """Count an opening laid down at the table and compare it with the minimum now: 51 (saudi: the last
    opening of the deal + 1), Hand and Foot the minimum of the sheet's next deal."""
    status = sheet_state(sheet).status
    deal_index = status.scoring_deals_played if status else 0
    try:
        return opening_check(
            sheet.rule_set,
            sheet.options,
            melds,
            indicator=indicator,
            wild_as=wild_as,
            last_opening=last_opening,
            deal_index=deal_index,
        )
    except DomainError as error:
        raise SheetError(error_sentence(error)) from None


# --- Online games and ratings (issue 6; called from background tasks) ------------------------------


@transaction.atomic
def record_online_game(
    *,
    group_id: int,
    game_id: int,
    rule_set: str,
    players: list[dict],
    status: MatchStatus,
    finished_at=None,
) -> OnlineResult:
    """Store (or rewrite) an online game's standing as games/ reports it: ``players`` in seat order
    ({"seat", "user_id", "name"}), ``status`` the engine's match status. Idempotent."""
    winners = sorted(seat for seats in status.winners for seat in seats) if status.finished else []
    result, _created = OnlineResult.objects.update_or_create(
        game_id=game_id,
        defaults={
            "group_id": group_id,
            "rule_set": rule_set,
            "players": players,
            "sides": [list(side) for side in status.sides],
            "totals": list(status.totals),
            "lower_is_better": status.lower_is_better,
            "deals": status.scoring_deals_played,
            "finished": status.finished,
            "finished_at": finished_at if status.finished else None,
            "winner_seats": winners,
            "updated_at": timezone.now(),
        },
    )
    return result


def _ranks(totals: Sequence[int], lower_is_better: bool) -> list[int]:
    """1 for the best side; equal totals share a rank."""
    ordered = sorted(set(totals), reverse=not lower_is_better)
    return [ordered.index(total) + 1 for total in totals]


def _rated_games(group_id: int) -> list[tuple]:
    """(when, [[(key, name), ...] per side], ranks, winner keys) for every counted sheet and finished
    online game of the group, oldest first, each derived again from its stored facts."""
    games = []
    sheets = Sheet.objects.filter(group_id=group_id, finished=True, do_not_count=False).prefetch_related(
        Prefetch("players", SheetPlayer.objects.select_related("user").order_by("seat"), to_attr="seated"),
        Prefetch("deals", Deal.objects.filter(deleted_at__isnull=True).order_by("position"), to_attr="live"),
    )
    for sheet in sheets:  # three queries in all, however many sheets
        state = _compute(sheet, sheet.seated, sheet.live)
        if not state.status or not state.status.finished:
            continue
        sides = [
            [(state.players[s].player_key, state.players[s].display_name) for s in side]
            for side in state.sides
        ]
        winners = {state.players[s].player_key for side in state.status.winners for s in side}
        ranks = _ranks(state.status.totals, state.status.lower_is_better)
        games.append((sheet.finished_at or sheet.created_at, sheet.pk, sides, ranks, winners))
    for result in OnlineResult.objects.filter(group_id=group_id, finished=True):
        people = {p["seat"]: p for p in result.players}

        def key(seat, people=people):
            person = people.get(seat, {})
            who = (
                f"user:{person['user_id']}" if person.get("user_id") else f"guest:{person.get('name', seat)}"
            )
            return who, person.get("name", "")

        sides = [[key(s) for s in side] for side in result.sides]
        winners = {key(s)[0] for s in result.winner_seats}
        games.append(
            (
                result.finished_at or result.updated_at,
                -result.pk,
                sides,
                _ranks(result.totals, result.lower_is_better),
                winners,
            )
        )
    games.sort(key=lambda g: (g[0], g[1]))
    return games


@transaction.atomic
def recompute_ratings(group_id: int) -> list[Rating]:
    """The group's ratings from scratch (openskill Plackett-Luce, games in the order they finished).
    Idempotent: the same facts always give the same rows."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings: dict = {}
    names: dict[str, str] = {}
    played: dict[str, int] = {}
    wins: dict[str, int] = {}
    for _when, _pk, sides, ranks, winners in _rated_games(group_id):
        teams = []
        for side in sides:
            team = []
            for key, name in side:
                names[key] = name or names.get(key, key)
                played[key] = played.get(key, 0) + 1
                wins[key] = wins.get(key, 0) + (key in winners)
                team.append(ratings.setdefault(key, model.rating(name=key)))
            teams.append(team)
        if len(teams) < 2:
            continue
        for side, team in zip(sides, model.rate(teams, ranks=ranks), strict=True):
            for (key, _name), rating in zip(side, team, strict=True):
                ratings[key] = rating
    Rating.objects.filter(group_id=group_id).delete()
    now = timezone.now()
    rows = [
        Rating(
            group_id=group_id,
            player_key=key,
            name=names[key][:80],
            games=played[key],
            wins=wins[key],
            mu=rating.mu,
            sigma=rating.sigma,
            ordinal=rating.ordinal(),
            updated_at=now,
        )
        for key, rating in ratings.items()
    ]
    return Rating.objects.bulk_create(rows)
