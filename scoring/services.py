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

import functools
import secrets
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import timedelta

from django.db import IntegrityError, transaction
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
from scoring import refusals, stats
from scoring.models import (
    DELETED_SHEETS_KEPT_DAYS,
    Deal,
    DealChange,
    DealFact,
    OnlineResult,
    PlayerGame,
    RatedGame,
    Rating,
    RatingsQueue,
    Sheet,
    SheetPlayer,
    rating_number,
)


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
    # One player's figure no cards make (negative, not in fives) is the engine's to refuse on its own:
    # in a sum with the partner's it could pass.
    for value in values:
        if isinstance(value, int) and (value < 0 or value % 5):
            return value
    if all(isinstance(value, int) for value in values):
        return sum(values)
    # Cards for one player and a typed number for the other: the side's cost in points.
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


def _tally(counts: Counter, limits: dict, text, variant, players: int, field: str, who: str) -> None:
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
                _(
                    "With %(name)s's cards this deal lists %(count)s × %(face)s, "
                    "but the cards of this game hold only %(most)s."
                )
                % {"name": who, "count": counts[face], "face": face, "most": limits[face]},
                field=field,
            )


@dataclass(frozen=True)
class FigureLimits:
    """The most a deal's figures can be with the cards of a game (its decks for its player count)."""

    held: int  # points one player can still hold
    melded: int  # Hand and Foot: melded card points of one side
    books: int  # Hand and Foot: books of one side


@functools.cache
def figure_limits(rule_set: str, players: int) -> FigureLimits:
    variant = get_variant(rule_set)
    faces = face_limits(variant, players)
    everything = " ".join(face for face, most in faces.items() for _copy in range(most))
    cards = read_cards(everything, variant, players)
    if isinstance(variant, HandAndFootVariant):
        meldable = [card for card in cards if card.rank != 3]
        return FigureLimits(
            held=handfoot_held_cost(cards, variant),
            melded=sum(variant.card_value(card.rank) for card in meldable),
            books=len(meldable) // variant.book_size,
        )
    indicators = ("2S", "AS") if variant.indicator else (None,)
    held = max(held_value(variant, players, everything, indicator).total for indicator in indicators)
    return FigureLimits(held=held, melded=0, books=0)


def _typed(value) -> bool:
    return value is not None and value != ""


def _check_points(value, most: int, name: str, field: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value > most:
        raise SheetError(
            _("%(name)s cannot hold %(value)s points: all the cards of this game are worth %(most)s.")
            % {"name": name, "value": value, "most": most},
            field=field,
        )


def _check_handfoot(variant, options: dict, players: Sequence[SheetPlayer], raw: dict) -> None:
    count = len(players)
    counts: Counter = Counter()
    faces = face_limits(variant, count)
    most = figure_limits(variant.slug, count)
    sides = seat_sides(count, variant.teams)
    raw_sides = list(raw.get("sides") or ())
    nobody_out = not any(side.get("went_out") for side in raw_sides)
    for index, seats in enumerate(sides):
        side = raw_sides[index] if index < len(raw_sides) else {}
        name = " & ".join(players[seat].display_name for seat in seats)
        melded_points = side.get("melded_points")
        if isinstance(melded_points, int) and melded_points > most.melded:
            raise SheetError(
                _(
                    "%(name)s cannot have melded %(value)s points: "
                    "all the cards of this game are worth %(most)s."
                )
                % {"name": name, "value": melded_points, "most": most.melded},
                field=f"melded_points_{index}",
            )
        books = (side.get("red_books") or 0) + (side.get("black_books") or 0)
        if isinstance(books, int) and books > most.books:
            raise SheetError(
                _("%(name)s cannot have %(count)s books: the cards of this game make at most %(most)s.")
                % {"name": name, "count": books, "most": most.books},
                field=f"red_books_{index}",
            )
        picked = side.get("picked_22") or 0
        if isinstance(picked, int) and picked > len(seats):
            raise SheetError(
                _("%(name)s: at most %(most)s players of this side can pick up exactly 22 cards.")
                % {"name": name, "most": len(seats)},
                field=f"picked_22_{index}",
            )
        _tally(counts, faces, side.get("melded"), variant, count, f"melded_cards_{index}", name)
        held = list(side.get("held") or ())
        for position, seat in enumerate(seats):
            value = held[position] if position < len(held) else None
            player = players[seat].display_name
            _tally(counts, faces, value, variant, count, f"held_cards_{seat}", player)
            _check_points(value, most.held, player, f"held_points_{seat}")
            if side.get("went_out") and not variant.teams and _typed(value) and value != 0:
                raise SheetError(
                    _("%(name)s's side went out, so nothing left in their hand and foot counts: clear it.")
                    % {"name": player},
                    field=f"held_points_{seat}",
                )
            if (nobody_out or not side.get("went_out")) and not _typed(value):
                raise SheetError(
                    _("Say what %(name)s still holds in hand and foot (type 0 if nothing).")
                    % {"name": player},
                    field=f"held_points_{seat}",
                )


def check_deal(variant, options: dict, players: Sequence[SheetPlayer], raw: dict) -> None:
    """The rules of a deal as a whole, for every path that saves one (the form, the API, a test):
    a deal holds no more cards than were dealt (every field together) and no figure more than the
    cards of the game are worth; every player who did not go out and whose cards count says what they
    still hold. Refusals name the
    player and the field."""
    if isinstance(variant, HandAndFootVariant):
        _check_handfoot(variant, options, players, raw)
        return
    count = len(players)
    counts: Counter = Counter()
    faces = face_limits(variant, count)
    most = figure_limits(variant.slug, count)
    held = list(raw.get("held") or ())
    opened = list(raw.get("opened") or ())
    irregular = list(raw.get("irregular") or ())
    winner = raw.get("winner")
    kuwaiti = variant.scoring == "kuwaiti"
    # The engine leaves out the cards of the winner's partner (teams): the form does not send them.
    partners: tuple[int, ...] = ()
    if isinstance(winner, int) and options.get("teams"):
        partners = next((seats for seats in seat_sides(count, True) if winner in seats), ())
    for seat in range(count):
        value = held[seat] if seat < len(held) else None
        name = players[seat].display_name
        field = f"held_points_{seat}"
        _tally(counts, faces, value, variant, count, f"held_cards_{seat}", name)
        _check_points(value, most.held, name, field)
        if winner is None or seat == winner:
            continue
        is_irregular = seat < len(irregular) and bool(irregular[seat])
        is_open = seat < len(opened) and bool(opened[seat])
        if not _typed(value) and is_open and not is_irregular and seat not in partners:
            raise SheetError(
                (
                    _("Say what %(name)s still holds: they had announced, so their cards count.")
                    if kuwaiti
                    else _("Say what %(name)s still holds: they had opened, so their cards count.")
                )
                % {"name": name},
                field=field,
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
            field, sentence = refusals.worded(error, sheet.variant, players, changed.facts)
            raise SheetError(sentence, field=field) from None
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
    again when not given) and bring the group's ratings up to date (at once for a game that just
    finished, by a replay queued on commit for a change to an older one)."""
    Sheet.all_objects.filter(pk=sheet.pk).update(version=F("version") + 1, updated_at=timezone.now())
    sheet.refresh_from_db()
    state = recompute_sheet(sheet, state)
    _sync_rated_game(sheet.group_id, RatedGame.Source.SHEET.value, sheet.pk, _sheet_outcome(sheet, state))
    _write_sheet_facts(sheet, state)
    return state


def _write_sheet_facts(sheet: Sheet, state: SheetState) -> None:
    """Rewrite the sheet's per-deal statistics rows: only for a sheet that counts in the history (finished
    and not marked "do not count": the rule :func:`_sheet_outcome` applies to games, wins and ratings),
    so the deal figures and the game figures count the same sheets."""
    DealFact.objects.filter(source=RatedGame.Source.SHEET.value, source_id=sheet.pk).delete()
    if _sheet_outcome(sheet, state) is None:
        return
    played = _played_at(sheet)
    family = sheet.family
    rows = []
    for row in state.rows:
        if row.score is None or row.number is None:
            continue
        for fact in stats.seat_facts(sheet.rule_set, row.score):
            rows.append(
                DealFact(
                    group_id=sheet.group_id,
                    source=RatedGame.Source.SHEET.value,
                    source_id=sheet.pk,
                    family=family,
                    rule_set=sheet.rule_set,
                    number=row.number,
                    seat=fact.seat,
                    player_key=state.players[fact.seat].player_key,
                    went_out=fact.went_out,
                    won=fact.won,
                    finish=fact.finish,
                    opened=fact.opened,
                    points=fact.points,
                    played_at=played(row.deal.created_at),
                )
            )
    DealFact.objects.bulk_create(rows)


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
    played_on=None,
    place: str = "",
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
        played_on=played_on or timezone.localdate(),
        place=place.strip(),
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
    return Sheet.all_objects.select_for_update().get(pk=sheet.pk)


def _live_deals(sheet: Sheet) -> list[Deal]:
    return list(sheet.deals.filter(deleted_at__isnull=True).order_by("position"))


def next_position(sheet: Sheet) -> int:
    """The place the next deal takes (deleted deals keep theirs)."""
    return (sheet.deals.aggregate(top=Max("position"))["top"] or 0) + 1


def _saved_first(sheet: Sheet, deal: Deal | None) -> DealAlreadySaved:
    """The refusal of a second save of ``deal`` (the same form, or a form made before it was saved):
    who saved which deal, with the deal for a link."""
    number = _number_of(sheet_state(sheet), deal) if deal is not None else None
    who = deal.created_by.name if deal is not None and deal.created_by else _("Someone")
    if number is None:
        message = _("%(name)s already saved this deal (a void deal).") % {"name": who}
    else:
        message = _("%(name)s already saved deal %(number)s.") % {"name": who, "number": number}
    return DealAlreadySaved(message, deal=deal)


def _already_saved(sheet: Sheet, position: int) -> DealAlreadySaved:
    deal = (
        sheet.deals.filter(position__gte=position).select_related("created_by").order_by("position").first()
    )
    return _saved_first(sheet, deal)


def _same_form(sheet: Sheet, client_id) -> Deal | None:
    if client_id is None:
        return None
    return sheet.deals.filter(client_id=client_id).select_related("created_by").first()


@transaction.atomic
def add_deal(
    sheet: Sheet,
    *,
    by,
    facts: dict,
    position: int | None = None,
    client_id=None,
    state: SheetState | None = None,
) -> Deal:
    """Enter the next deal. The engine checks the facts and the game (not over yet); nothing is saved
    when it refuses (:class:`SheetError` with its sentence). ``client_id``: the id of the form the
    deal comes from; a second save of that form adds nothing (:class:`DealAlreadySaved`, with the deal
    saved first). ``position``: the place of the deal the form was made for; when another deal took
    it meanwhile (two phones at the table) the deal is refused the same way."""
    sheet = _locked(sheet)
    _require_enter(sheet, by)
    first = _same_form(sheet, client_id)
    if first is not None:
        raise _saved_first(sheet, first)
    top = sheet.deals.aggregate(top=Max("position"))["top"] or 0
    if position is not None and position != top + 1:
        if position <= top:
            raise _already_saved(sheet, position)
        raise SheetError(_("This form is out of date: open the sheet again."))
    position = top + 1
    deal = Deal(
        sheet=sheet, position=position, facts=facts, created_by=by, updated_by=by, client_id=client_id
    )
    state = _check_candidate(sheet, [*_live_deals(sheet), deal], deal)
    try:
        with transaction.atomic():
            deal.save()
    except IntegrityError:
        raise _saved_first(sheet, _same_form(sheet, client_id)) from None
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


class DealConflict(SheetError):
    """An edit made from an older version of the deal (someone changed or deleted it meanwhile):
    ``deal`` as it stands now and ``change``, the latest change of it (who, when)."""

    def __init__(self, message: str, *, deal: Deal, change: DealChange | None):
        super().__init__(message)
        self.deal = deal
        self.change = change


def _conflict(deal: Deal) -> DealConflict:
    change = deal.changes.select_related("by").order_by("-at", "-pk").first()
    who = change.by.name if change and change.by else _("Someone")
    at = timezone.localtime(change.at if change else deal.updated_at).strftime("%H:%M")
    if deal.deleted_at is not None:
        message = _("%(name)s deleted this deal at %(time)s.") % {"name": who, "time": at}
    else:
        message = _("%(name)s changed this deal at %(time)s.") % {"name": who, "time": at}
    return DealConflict(message, deal=deal, change=change)


@transaction.atomic
def edit_deal(deal: Deal, *, by, facts: dict, version: int | None = None) -> Deal:
    """Correct a past deal; everything after it is derived again (totals, dealers, the end).
    ``version``: the deal's version the correction was made from; when the deal has changed (or been
    deleted) since, the correction is refused with :class:`DealConflict`. Made from the version after
    a deletion, the correction brings the deal back with the figures typed."""
    sheet = _locked(deal.sheet)
    _require_enter(sheet, by)
    deal = Deal.objects.get(pk=deal.pk, sheet=sheet)
    if version is not None and version != deal.version:
        raise _conflict(deal)
    if deal.deleted_at is not None:
        if version is None:
            raise _conflict(deal)
        deal = restore_deal(deal, by=by)
    old = deal.facts
    deal.facts = facts
    deals = [deal if d.pk == deal.pk else d for d in _live_deals(sheet)]
    state = _check_candidate(sheet, deals, deal)
    deal.updated_by = by
    deal.updated_at = timezone.now()
    deal.version += 1
    deal.save(update_fields=["facts", "updated_by", "updated_at", "version"])
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
    deal.version += 1
    deal.save(update_fields=["deleted_at", "updated_by", "version"])
    DealChange.objects.create(
        sheet=sheet,
        deal=deal,
        action=DealChange.Action.DELETED,
        by=by,
        old_facts=deal.facts,
        deal_number=number,
    )
    _on_change(sheet, state)


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


def preview_delete(deal: Deal) -> list[str]:
    """What deleting ``deal`` would change in its game's result (for the confirmation)."""
    sheet = deal.sheet
    players = list(sheet.players.select_related("user").order_by("seat"))
    deals = _live_deals(sheet)
    before = _compute(sheet, players, deals)
    after = _compute(sheet, players, [d for d in deals if d.pk != deal.pk])
    return consequences(before, after)


@transaction.atomic
def restore_deal(deal: Deal, *, by) -> Deal:
    """Undo a deletion: the deal takes its place again (refused when the game no longer allows it,
    e.g. it has been finished by later deals)."""
    sheet = _locked(deal.sheet)
    _require_enter(sheet, by)
    deal = Deal.objects.get(pk=deal.pk, sheet=sheet, deleted_at__isnull=False)
    deals = sorted([*_live_deals(sheet), deal], key=lambda d: d.position)
    deal.deleted_at = None
    state = _check_candidate(sheet, deals, None)
    deal.updated_by = by
    deal.updated_at = timezone.now()
    deal.version += 1
    deal.save(update_fields=["deleted_at", "updated_by", "updated_at", "version"])
    state = _on_change(sheet, state)
    DealChange.objects.create(
        sheet=sheet,
        deal=deal,
        action=DealChange.Action.RESTORED,
        by=by,
        new_facts=deal.facts,
        deal_number=_number_of(state, deal),
    )
    return deal


UNDOABLE = (
    DealChange.Action.CREATED,
    DealChange.Action.EDITED,
    DealChange.Action.DELETED,
    DealChange.Action.RESTORED,
    DealChange.Action.EXCLUDED,
    DealChange.Action.INCLUDED,
)


_COUNTING = (DealChange.Action.EXCLUDED, DealChange.Action.INCLUDED)


def latest_changes(sheet: Sheet) -> set[int]:
    """The changes that can be undone now: the latest of each deal, and the latest "do not count"."""
    latest: dict = {}
    for pk, deal_id, action in sheet.changes.order_by("-at", "-pk").values_list("pk", "deal_id", "action"):
        key = deal_id if deal_id is not None else ("sheet" if action in _COUNTING else None)
        if key is not None and key not in latest:
            latest[key] = pk if action in UNDOABLE else None
    return {pk for pk in latest.values() if pk is not None}


@transaction.atomic
def undo_change(change: DealChange, *, by) -> None:
    """Undo one change of the sheet's history (an entry deletes the deal, an edit puts the figures
    back, a deletion restores the deal, a restore deletes it again, "do not count" counts the sheet
    again); the undo is itself a change in the history. Only the latest change of a deal (or of the
    sheet's counting) can be undone: a later one would be lost without a word."""
    sheet = _locked(change.sheet)
    _require_enter(sheet, by)
    if change.pk not in latest_changes(sheet):
        raise SheetError(_("This deal has changed since: undo the later change first."))
    Action = DealChange.Action
    deal = Deal.objects.get(pk=change.deal_id) if change.deal_id else None
    if change.action in (Action.CREATED, Action.RESTORED):
        delete_deal(deal, by=by)
    elif change.action == Action.EDITED:
        edit_deal(deal, by=by, facts=change.old_facts, version=deal.version)
    elif change.action == Action.DELETED:
        restore_deal(deal, by=by)
    elif change.action in (Action.EXCLUDED, Action.INCLUDED):
        mark_do_not_count(sheet, by=by, do_not_count=change.action == Action.INCLUDED)
    else:
        raise SheetError(_("This change cannot be undone."))
    undo = sheet.changes.order_by("-pk").first()
    if undo is not None and undo.pk != change.pk:
        undo.details = {**undo.details, "undo_of": change.pk}
        undo.save(update_fields=["details"])


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


@transaction.atomic
def rematch(sheet: Sheet, *, by) -> Sheet:
    """A new sheet with the same players in the same seats, rule set and options; the deal passes on
    to the next player (the one after the last game's first dealer)."""
    players = list(sheet.players.select_related("user").order_by("seat"))
    entries = [PlayerEntry(user=p.user) if p.user_id else PlayerEntry(name=p.name) for p in players]
    return create_sheet(
        group=sheet.group,
        by=by,
        rule_set=sheet.rule_set,
        players=entries,
        options=sheet.options,
        first_dealer=(sheet.first_dealer + 1) % len(players),
        title=sheet.title,
        place=sheet.place,
    )


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


def can_delete_sheet(sheet: Sheet, user, member: Membership | None = None) -> bool:
    """The sheet's creator and the group's owners and admins delete a sheet."""
    if member is None:
        member = membership(sheet, user)
    return member is not None and (member.can_manage or sheet.created_by_id == user.pk)


@transaction.atomic
def delete_sheet(sheet: Sheet, *, by) -> Sheet:
    """Take a junk sheet out of every list, standing, statistic and rating at once; admins still see it
    (and can restore it) for DELETED_SHEETS_KEPT_DAYS days, then purge_deleted_sheets removes it."""
    sheet = _locked(sheet)
    if not can_delete_sheet(sheet, by):
        raise SheetPermissionDenied(_("Only the sheet's creator and the group's admins can delete it."))
    if sheet.deleted_at is not None:
        return sheet
    sheet.deleted_at, sheet.deleted_by = timezone.now(), by
    sheet.save(update_fields=["deleted_at", "deleted_by"])
    DealChange.objects.create(sheet=sheet, action=DealChange.Action.SHEET_DELETED, by=by)
    _on_change(sheet)
    return sheet


def deleted_sheets(group):
    """The group's deleted sheets still restorable, latest deletion first."""
    since = timezone.now() - timedelta(days=DELETED_SHEETS_KEPT_DAYS)
    return (
        Sheet.all_objects.filter(group=group, deleted_at__gte=since)
        .select_related("deleted_by", "created_by")
        .prefetch_related("players__user", Prefetch("changes", DealChange.objects.select_related("by")))
        .order_by("-deleted_at", "-pk")
    )


@transaction.atomic
def restore_sheet(sheet: Sheet, *, by) -> Sheet:
    """Put a deleted sheet back, as it was (group owners and admins, within the kept days)."""
    sheet = _locked(sheet)
    member = membership(sheet, by)
    if member is None or not member.can_manage:
        raise SheetPermissionDenied(_("Only the group's owners and admins can restore a deleted sheet."))
    if sheet.deleted_at is None:
        return sheet
    sheet.deleted_at, sheet.deleted_by = None, None
    sheet.save(update_fields=["deleted_at", "deleted_by"])
    DealChange.objects.create(sheet=sheet, action=DealChange.Action.SHEET_RESTORED, by=by)
    _on_change(sheet)
    return sheet


@transaction.atomic
def purge_deleted_sheets(now=None) -> int:
    """Remove for good the sheets deleted more than DELETED_SHEETS_KEPT_DAYS days ago (their deals and
    history go with them). Returns the number of sheets removed."""
    before = (now or timezone.now()) - timedelta(days=DELETED_SHEETS_KEPT_DAYS)
    # Rows claimed under lock, so a restore at the same moment wins or waits (never half-purged).
    ids = list(
        Sheet.all_objects.select_for_update(skip_locked=True)
        .filter(deleted_at__lt=before)
        .values_list("pk", flat=True)
    )
    Sheet.all_objects.filter(pk__in=ids, deleted_at__lt=before).delete()
    return len(ids)


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
    Sheet.all_objects.filter(pk=sheet.pk).update(
        finished=finished, winner_seats=winners, finished_at=finished_at
    )
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
        .order_by("-played_on", "-finished_at", "-pk")
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


@dataclass
class LeaderRow:
    """One player on a group's leaderboard of a rule-set family (rated games only: no practice)."""

    key: str
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    deals: int = 0
    rating: int | None = None
    provisional: bool = True
    last_change: int = 0

    @property
    def guest(self) -> bool:
        return self.key.startswith("guest:")

    @property
    def win_rate(self) -> int:
        """Percent of games won, whole."""
        return round(100 * self.wins / self.games) if self.games else 0

    @property
    def average(self) -> float:
        """Points per scoring deal (one decimal)."""
        return round(self.points / self.deals, 1) if self.deals else 0.0


LEADERBOARD_SORTS = ("rating", "games", "wins", "win_rate", "average", "name")


def leaderboard(group, family: str, *, since=None, sort: str = "rating") -> list[LeaderRow]:
    """Per player of ``group`` in ``family`` ("hand" or "hand-and-foot"): games, wins, win rate, points
    per deal over the rated games finished from ``since`` (None: all time), and the current rating.
    Two queries whatever the history. ``sort``: one of LEADERBOARD_SORTS, best first (points per deal:
    lower is better in Hand, higher in Hand and Foot)."""
    games = RatedGame.objects.filter(group=group, family=family, practice=False)
    if since is not None:
        games = games.filter(finished_at__gte=since)
    table: dict[str, LeaderRow] = {}
    for sides, names, winners, totals, deals in games.values_list(
        "sides", "names", "winners", "totals", "deals"
    ):
        for key in (key for side in sides for key in side):
            row = table.get(key)
            if row is None:
                row = table[key] = LeaderRow(key, names.get(key) or key)
            row.name = names.get(key) or row.name
            row.games += 1
            row.wins += key in winners
            row.points += totals.get(key, 0)
            row.deals += deals
    for rating in Rating.objects.filter(group=group, family=family, player_key__in=list(table)):
        row = table[rating.player_key]
        row.rating, row.provisional, row.last_change = rating.rating, rating.provisional, rating.last_change
        row.name = rating.name
    lower_better = family == "hand"
    keys = {
        "rating": lambda r: (-(r.rating or 0), r.name.casefold()),
        "games": lambda r: (-r.games, r.name.casefold()),
        "wins": lambda r: (-r.wins, -r.win_rate, r.name.casefold()),
        "win_rate": lambda r: (-r.win_rate, -r.games, r.name.casefold()),
        "average": lambda r: ((r.average if lower_better else -r.average), r.name.casefold()),
        "name": lambda r: (r.name.casefold(),),
    }
    return sorted(table.values(), key=keys.get(sort, keys["rating"]))


def player_name(group, key: str) -> str | None:
    """The name of a player of the group's history (``user:<id>``: a member; ``guest:<name>``: a guest
    who played on its sheets); None when the group has no such player."""
    kind, _sep, rest = key.partition(":")
    if kind == "user" and rest.isdigit() and len(rest) < 19:
        member = Membership.objects.filter(group=group, user_id=int(rest)).select_related("user").first()
        if member is not None:
            return member.user.name
        rating = Rating.objects.filter(group=group, player_key=key).only("name").first()
        return rating.name if rating else None
    if kind == "guest" and rest:
        seat = SheetPlayer.objects.filter(sheet__group=group, user__isnull=True, name__iexact=rest).first()
        return seat.name if seat else None
    return None


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


# --- Online games and ratings ----------------------------------------------------------------------
#
# Every finished game that counts (a sheet not marked "do not count", an online game) has one RatedGame
# row: its sides, ranks and each player's skill before and after it. A game that finishes after every
# other of its group is rated at once from the players' current ratings (incremental, in the same
# transaction); anything else (an edit or deletion of a finished game, a sheet counted again, a guest
# linked) marks the group's ratings stale from that game's finish and queues the replay from there
# (scoring.tasks.refresh_group_ratings, on commit, idempotent). Games with a bot seat are practice.


@dataclass(frozen=True)
class Outcome:
    """A finished game as the ratings see it."""

    family: str
    rule_set: str
    finished_at: object
    sides: list
    names: dict
    ranks: list
    winners: list
    totals: dict
    deals: int
    practice: bool = False


def _ranks(totals: Sequence[int], lower_is_better: bool) -> list[int]:
    """1 for the best side; equal totals share a rank."""
    ordered = sorted(set(totals), reverse=not lower_is_better)
    return [ordered.index(total) + 1 for total in totals]


def _played_at(sheet: Sheet):
    """A moment of the sheet (its finish, a deal's entry) moved to the day the sheet was played, keeping
    the time of day: histories, streaks and the ratings' order follow the date played, and sheets of one
    day keep the order they were played in. Unchanged when the sheet was entered on the day it was played."""

    def on_played_day(moment):
        if moment is None or sheet.played_on is None:
            return moment
        local = timezone.localtime(moment)
        return local.replace(year=sheet.played_on.year, month=sheet.played_on.month, day=sheet.played_on.day)

    return on_played_day


def _sheet_outcome(sheet: Sheet, state: SheetState) -> Outcome | None:
    """The sheet as the history counts it: None unless it is finished and not marked "do not count" (one
    rule for games, wins, ratings and the per-deal statistics)."""
    status = state.status
    if sheet.do_not_count or sheet.deleted_at is not None:
        return None
    if not status or not status.finished or sheet.finished_at is None:
        return None
    return Outcome(
        family=sheet.family,
        rule_set=sheet.rule_set,
        finished_at=_played_at(sheet)(sheet.finished_at),
        sides=[[state.players[seat].player_key for seat in side] for side in state.sides],
        names={player.player_key: player.display_name for player in state.players},
        ranks=_ranks(status.totals, status.lower_is_better),
        winners=sorted({state.players[seat].player_key for side in status.winners for seat in side}),
        totals={
            state.players[seat].player_key: total
            for side, total in zip(state.sides, status.totals, strict=True)
            for seat in side
        },
        deals=status.scoring_deals_played,
    )


def _online_outcome(result: OnlineResult) -> Outcome | None:
    if not result.finished:
        return None
    people = {person.get("seat"): person for person in result.players}

    def key(seat):
        return _online_key(people.get(seat, {}), seat)

    sides = [[key(seat) for seat in side] for side in result.sides]
    return Outcome(
        family=get_variant(result.rule_set).family,
        rule_set=result.rule_set,
        finished_at=result.finished_at or result.updated_at,
        sides=sides,
        names={key(seat): (people.get(seat, {}).get("name") or "") for side in result.sides for seat in side},
        ranks=_ranks(result.totals, result.lower_is_better),
        winners=sorted({key(seat) for seat in result.winner_seats}),
        totals={
            key(seat): total
            for side, total in zip(result.sides, result.totals, strict=False)
            for seat in side
        },
        deals=result.deals,
        # Online seats are members or bots: a seat without a member is a bot, so the game is practice.
        practice=any(k.startswith("bot:") for side in sides for k in side),
    )


def _ratings_queue(group_id: int) -> RatingsQueue:
    """The group's ratings queue row, locked (created on first use)."""
    queue = RatingsQueue.objects.select_for_update().filter(group_id=group_id).first()
    if queue is None:
        try:
            with transaction.atomic():
                RatingsQueue.objects.create(group_id=group_id)
        except IntegrityError:
            pass  # created meanwhile by another request
        queue = RatingsQueue.objects.select_for_update().get(group_id=group_id)
    return queue


def _mark_stale(queue: RatingsQueue, since) -> None:
    from scoring.tasks import refresh_group_ratings

    if queue.stale_from is None or since < queue.stale_from:
        queue.stale_from = since
        queue.save(update_fields=["stale_from"])
    refresh_group_ratings.delay_on_commit(queue.group_id)


def _model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def _rate(model, sides, ranks, current: dict) -> dict:
    """{key: [mu_before, sigma_before, mu_after, sigma_after]} for one game; ``current``: key ->
    (mu, sigma) of the players rated before (new players start at openskill's defaults)."""
    teams = [
        [model.rating(*current[key]) if key in current else model.rating() for key in side] for side in sides
    ]
    rated = model.rate(teams, ranks=list(ranks))
    return {
        key: [before.mu, before.sigma, after.mu, after.sigma]
        for side, old, new in zip(sides, teams, rated, strict=True)
        for key, before, after in zip(side, old, new, strict=True)
    }


def _rating_row(group_id, family, key, name, mu, sigma, games, wins, last_change, now) -> Rating:
    from openskill.models import PlackettLuceRating

    return Rating(
        group_id=group_id,
        family=family,
        player_key=key,
        name=(name or key)[:80],
        games=games,
        wins=wins,
        mu=mu,
        sigma=sigma,
        ordinal=PlackettLuceRating(mu, sigma).ordinal(),
        rating=rating_number(mu),
        last_change=last_change,
        updated_at=now,
    )


def _append(group_id: int, row: RatedGame) -> None:
    """Rate a game that finished after every other of its group from the current ratings."""
    keys = [key for side in row.sides for key in side]
    existing = {
        rating.player_key: rating
        for rating in Rating.objects.filter(group_id=group_id, family=row.family, player_key__in=keys)
    }
    current = {key: (rating.mu, rating.sigma) for key, rating in existing.items()}
    row.ratings = _rate(_model(), row.sides, row.ranks, current) if len(row.sides) >= 2 else {}
    row.save()
    now = timezone.now()
    changed = []
    for key, (mu_before, _sigma_before, mu, sigma) in row.ratings.items():
        old = existing.get(key)
        changed.append(
            _rating_row(
                group_id,
                row.family,
                key,
                row.names.get(key) or (old.name if old else key),
                mu,
                sigma,
                (old.games if old else 0) + 1,
                (old.wins if old else 0) + (key in row.winners),
                rating_number(mu) - rating_number(mu_before),
                now,
            )
        )
        if old is not None:
            changed[-1].pk = old.pk
    Rating.objects.bulk_create(
        changed,
        update_conflicts=True,
        unique_fields=["group", "family", "player_key"],
        update_fields=[
            "name",
            "games",
            "wins",
            "mu",
            "sigma",
            "ordinal",
            "rating",
            "last_change",
            "updated_at",
        ],
    )


_OUTCOME_FIELDS = (
    "family",
    "rule_set",
    "finished_at",
    "sides",
    "names",
    "ranks",
    "winners",
    "totals",
    "deals",
    "practice",
)


_RATED_FIELDS = ("family", "rule_set", "finished_at", "sides", "ranks", "winners", "practice")
"""What the ratings depend on (the rest of a RatedGame row is for the leaderboard)."""


def _player_rows(game: RatedGame) -> list[PlayerGame]:
    """The statistics rows of a saved RatedGame: one per player."""
    return [
        PlayerGame(
            game_id=game.pk,
            group_id=game.group_id,
            family=game.family,
            player_key=key,
            finished_at=game.finished_at,
            side=index,
            rank=game.ranks[index] if index < len(game.ranks) else 0,
            won=key in game.winners,
            total=game.totals.get(key, 0),
            practice=game.practice,
        )
        for index, side in enumerate(game.sides)
        for key in side
    ]


def _write_player_rows(game: RatedGame) -> None:
    PlayerGame.objects.filter(game_id=game.pk).delete()
    PlayerGame.objects.bulk_create(_player_rows(game))


def _sync_rated_game(group_id: int, source: str, source_id: int, outcome: Outcome | None) -> None:
    """Bring the game's RatedGame row in line with its outcome and update the ratings: at once when the
    game is the group's latest and nothing is pending, else by a replay queued on commit."""
    queue = _ratings_queue(group_id)
    row = RatedGame.objects.filter(source=source, source_id=source_id).first()
    if outcome is None:
        if row is not None:
            row.delete()
            if not row.practice:
                _mark_stale(queue, row.finished_at)
        return
    values = {name: getattr(outcome, name) for name in _OUTCOME_FIELDS}
    if row is not None and all(getattr(row, name) == values[name] for name in _RATED_FIELDS):
        # The ratings see nothing new (the totals or names may have changed: kept for the leaderboard).
        changed = [name for name in ("totals", "deals", "names") if getattr(row, name) != values[name]]
        for name in changed:
            setattr(row, name, values[name])
        if changed:
            row.save(update_fields=changed)
            _write_player_rows(row)
        return
    old_finish = row.finished_at if row is not None and not row.practice else None
    if row is None:
        row = RatedGame(group_id=group_id, source=source, source_id=source_id)
    for name, value in values.items():
        setattr(row, name, value)
    row.ratings = {}
    if outcome.practice:
        row.save()
        _write_player_rows(row)
        if old_finish is not None:
            _mark_stale(queue, old_finish)
        return
    latest = (
        RatedGame.objects.filter(group_id=group_id, family=outcome.family, practice=False)
        .exclude(source=source, source_id=source_id)
        .order_by("-finished_at", "-source", "-source_id")
        .first()
    )
    if (
        queue.stale_from is None
        and old_finish is None
        and (latest is None or latest.order_key < row.order_key)
    ):
        _append(group_id, row)
        _write_player_rows(row)
        return
    row.save()
    _write_player_rows(row)
    _mark_stale(queue, min(old_finish, row.finished_at) if old_finish is not None else row.finished_at)


def _replay(group_id: int, since=None) -> list[Rating]:
    """Rate the group's games again from ``since`` (None: from the first), in the order they finished,
    starting from the stored ratings before that point; rewrite the Rating rows."""
    model = _model()
    families: dict[str, dict] = {}
    changed = []
    rows = RatedGame.objects.filter(group_id=group_id, practice=False).order_by(
        "finished_at", "source", "source_id"
    )
    for row in rows:
        family = families.setdefault(
            row.family,
            {
                "current": {},
                "games": Counter(),
                "wins": Counter(),
                "names": {},
                "last": {},
                "replaying": False,
            },
        )
        if since is None or row.finished_at >= since or (not row.ratings and len(row.sides) >= 2):
            family["replaying"] = True
        if family["replaying"]:
            ratings = _rate(model, row.sides, row.ranks, family["current"]) if len(row.sides) >= 2 else {}
            if ratings != row.ratings:
                row.ratings = ratings
                changed.append(row)
        for key, (mu_before, _sigma_before, mu, sigma) in row.ratings.items():
            family["current"][key] = (mu, sigma)
            family["last"][key] = rating_number(mu) - rating_number(mu_before)
        for key in (key for side in row.sides for key in side):
            family["games"][key] += 1
            family["wins"][key] += key in row.winners
            family["names"][key] = row.names.get(key) or family["names"].get(key, key)
    RatedGame.objects.bulk_update(changed, ["ratings"], batch_size=500)
    now = timezone.now()
    fresh = [
        _rating_row(
            group_id,
            name,
            key,
            family["names"][key],
            mu,
            sigma,
            family["games"][key],
            family["wins"][key],
            family["last"].get(key, 0),
            now,
        )
        for name, family in families.items()
        for key, (mu, sigma) in family["current"].items()
    ]
    Rating.objects.filter(group_id=group_id).delete()
    return Rating.objects.bulk_create(fresh)


@transaction.atomic
def refresh_ratings(group_id: int) -> int:
    """The queued work: replay the group's ratings from the oldest changed game. Idempotent: with
    nothing pending it does nothing. Returns the number of games replayed from (0: nothing to do)."""
    queue = _ratings_queue(group_id)
    if queue.stale_from is None:
        return 0
    replayed = RatedGame.objects.filter(group_id=group_id, finished_at__gte=queue.stale_from).count()
    _replay(group_id, queue.stale_from)
    queue.stale_from = None
    queue.save(update_fields=["stale_from"])
    return replayed


def ratings_updating(group) -> bool:
    """True while a queued replay of the group's ratings has not run yet (pages say "updating")."""
    return RatingsQueue.objects.filter(group=group, stale_from__isnull=False).exists()


def _outcomes(group_id: int) -> dict[tuple[str, int], Outcome]:
    """Every finished game of the group derived again from the stored facts (counted sheets in three
    queries, online results in one)."""
    outcomes = {}
    sheets = Sheet.objects.filter(group_id=group_id, finished=True, do_not_count=False).prefetch_related(
        Prefetch("players", SheetPlayer.objects.select_related("user").order_by("seat"), to_attr="seated"),
        Prefetch("deals", Deal.objects.filter(deleted_at__isnull=True).order_by("position"), to_attr="live"),
    )
    for sheet in sheets:
        outcome = _sheet_outcome(sheet, _compute(sheet, sheet.seated, sheet.live))
        if outcome is not None:
            outcomes[(RatedGame.Source.SHEET.value, sheet.pk)] = outcome
    for result in OnlineResult.objects.filter(group_id=group_id, finished=True):
        outcome = _online_outcome(result)
        if outcome is not None:
            outcomes[(RatedGame.Source.ONLINE.value, result.game_id)] = outcome
    return outcomes


@transaction.atomic
def recompute_ratings(group_id: int, *, rederive: bool = True) -> list[Rating]:
    """The group's ratings from scratch, every game rated again in the order they finished.
    ``rederive`` (the default) first derives every finished game's outcome again from its stored
    facts (after a corrected rule re-scores history); without it the stored outcomes are replayed.
    Idempotent."""
    queue = _ratings_queue(group_id)
    if rederive:
        RatedGame.objects.filter(group_id=group_id).delete()
        games = RatedGame.objects.bulk_create(
            (
                RatedGame(
                    group_id=group_id,
                    source=source,
                    source_id=source_id,
                    **{name: getattr(outcome, name) for name in _OUTCOME_FIELDS},
                )
                for (source, source_id), outcome in _outcomes(group_id).items()
            ),
            batch_size=500,
        )
        PlayerGame.objects.bulk_create((row for game in games for row in _player_rows(game)), batch_size=1000)
    ratings = _replay(group_id)
    queue.stale_from = None
    queue.save(update_fields=["stale_from"])
    return ratings


@transaction.atomic
def record_online_game(
    *,
    group_id: int,
    game_id: int,
    rule_set: str,
    players: list[dict],
    status: MatchStatus,
    finished_at=None,
    deals: Sequence[DealScore] = (),
) -> OnlineResult:
    """Store (or rewrite) an online game's standing as games/ reports it: ``players`` in seat order
    ({"seat", "user_id", "name"}; no user_id: a bot), ``status`` the engine's match status; a finished
    game is rated (practice when a bot played). ``deals``: the scores of the deals played so far, in
    order (the engine's records); each deal not recorded yet adds the same per-deal facts a sheet's deal
    does, for the statistics. Idempotent."""
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
    _sync_rated_game(group_id, RatedGame.Source.ONLINE.value, game_id, _online_outcome(result))
    if deals:
        _write_online_facts(result, deals)
    return result


def _online_key(person: dict, seat: int) -> str:
    if person.get("user_id"):
        return f"user:{person['user_id']}"
    return f"bot:{(person.get('name') or str(seat)).strip().casefold()}"


def _write_online_facts(result: OnlineResult, deals: Sequence[DealScore]) -> None:
    """Add the statistics rows of the online game's deals not recorded yet (one query when none is new)."""
    source = RatedGame.Source.ONLINE.value
    known = set(
        DealFact.objects.filter(source=source, source_id=result.game_id).values_list("number", flat=True)
    )
    people = {person.get("seat"): person for person in result.players}
    keys = {seat: _online_key(people.get(seat, {}), seat) for seat in people}
    practice = any(key.startswith("bot:") for key in keys.values())
    family = get_variant(result.rule_set).family
    now = timezone.now()
    rows, number = [], 0
    for score in deals:
        if score.void:
            continue
        number += 1
        if number in known:
            continue
        for fact in stats.seat_facts(result.rule_set, score):
            rows.append(
                DealFact(
                    group_id=result.group_id,
                    source=source,
                    source_id=result.game_id,
                    family=family,
                    rule_set=result.rule_set,
                    number=number,
                    seat=fact.seat,
                    player_key=keys.get(fact.seat, f"bot:{fact.seat}"),
                    went_out=fact.went_out,
                    won=fact.won,
                    finish=fact.finish,
                    opened=fact.opened,
                    points=fact.points,
                    practice=practice,
                    played_at=now,
                )
            )
    DealFact.objects.bulk_create(rows, ignore_conflicts=True)


# --- The shareable result card -------------------------------------------------------------------------
#
# A finished game's result as a public page, reached only by a signed link (the link names the game and
# carries a signature no one can make without the site's secret key): the players' names, the totals,
# the winner, the rule set and the date. Nothing else: no group, no cards, no ids of people.

RESULT_CARD_SALT = "scoring.result-card"


@dataclass
class ResultCard:
    rule_set: str
    finished_at: object
    deals: int
    lower_is_better: bool
    rows: list[tuple[int, str, int]]  # (rank, the side's names, total), best first
    winners: list[str]
    title: str = ""
    language: str = ""  # the card's words and picture: its sheet creator's language ("": the reader's)


def result_card_token(*, sheet: Sheet | None = None, game_id: int | None = None) -> str:
    """The signed part of a result card's link: for a sheet, or for an online game (by its id)."""
    from django.core import signing

    value = {"s": sheet.pk} if sheet is not None else {"o": int(game_id)}
    return signing.Signer(salt=RESULT_CARD_SALT).sign_object(value, compress=False)


def result_card(token: str) -> ResultCard | None:
    """The result card a signed link stands for; None for a link not signed by the site, or a game that
    is not finished (or no longer exists)."""
    from django.core import signing

    try:
        value = signing.Signer(salt=RESULT_CARD_SALT).unsign_object(token[:200])
    except (signing.BadSignature, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("s"), int):
        sheet = Sheet.objects.select_related("created_by").filter(pk=value["s"], finished=True).first()
        if sheet is None:
            return None
        state = sheet_state(sheet)
        if not state.status or not state.status.finished:
            return None
        names, totals = state.side_names, list(state.status.totals)
        winners = state.winner_names
        card = ResultCard(
            sheet.rule_set,
            sheet.finished_at,
            state.status.scoring_deals_played,
            state.status.lower_is_better,
            [],
            winners,
            sheet.title,
            sheet.created_by.language if sheet.created_by else "",
        )
    elif isinstance(value.get("o"), int):
        result = OnlineResult.objects.filter(game_id=value["o"], finished=True).first()
        if result is None:
            return None
        people = {person.get("seat"): person.get("name") or "" for person in result.players}
        names = [" & ".join(people.get(seat, "") for seat in side) for side in result.sides]
        totals = list(result.totals)
        winners = [
            name
            for name, side in zip(names, result.sides, strict=False)
            if set(side) & set(result.winner_seats)
        ]
        card = ResultCard(
            result.rule_set, result.finished_at, result.deals, result.lower_is_better, [], winners
        )
    else:
        return None
    ranks = _ranks(totals, card.lower_is_better)
    card.rows = sorted(zip(ranks, names, totals, strict=False), key=lambda row: (row[0], row[1].casefold()))
    return card


@transaction.atomic
def rebuild_statistics(group_id: int) -> int:
    """Write the statistics rows of a group's history again: every counted sheet's per-deal rows and
    (through the full recompute) every finished game's per-player rows. For a history from before the
    statistics existed; idempotent. Online games' per-deal rows come from games (each game reports
    again: ``manage.py rebuild_statistics``). Returns the number of sheets rewritten."""
    sheets = Sheet.objects.filter(group_id=group_id).prefetch_related(
        Prefetch("players", SheetPlayer.objects.select_related("user").order_by("seat"), to_attr="seated"),
        Prefetch("deals", Deal.objects.filter(deleted_at__isnull=True).order_by("position"), to_attr="live"),
    )
    count = 0
    for sheet in sheets:
        _write_sheet_facts(sheet, _compute(sheet, sheet.seated, sheet.live))
        count += 1
    recompute_ratings(group_id)
    return count
