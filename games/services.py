"""The only code that writes games: it locks the game row, checks the version the player acted on, calls
the engine, runs the bot seats that follow, and saves state + move log + version in ONE transaction.

Public API (every function takes ids / users and returns model objects; refusals raise GameError):

    create_game(group=, created_by=, variant=, options=, seats=[user | BOT, ...], ...) -> Game
    accept_seat(game_id=, user=) / decline_seat(game_id=, user=) / take_seat(game_id=, user=, number=)
    fill_seat_with_bot(game_id=, actor=, number=) / cancel_game(game_id=, actor=)
    play(game_id=, user=, version=, action=, group_slug=None) -> MoveResult
    timeout_move(game_id=, now=None) -> MoveResult | None      # for the deadline scan
    hand_seat_to_bot(game_id=, number=) -> MoveResult           # the "bot" timeout rule

Hooks, called inside the transaction:

    _on_turn_change(game, previous_turn, events)   # the turn passed: turn columns, deadline, "your turn"
                                                   # outbox row (none when it came back to the actor)
    _on_deal_end(game, ended_events)               # a deal (or several, with bots) ended: background
                                                   # scoring of the standings, queued on commit
    _on_game_end(game)                             # the game is over

Hidden cards never leave this module in a message: refusals carry the engine's sentence (which never
names a card the player may not see) or our own sentences (which name none).
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass, field
from datetime import timedelta

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop  # MoveRefused translates these (engine errors)

from games import engine
from games.engine import actions as engine_actions
from games.engine.bot import worst_card
from games.engine.melds import face_text
from games.models import DEADLINE_SCAN, Game, GameStatus, Move, MoveKind, Seat, TimeoutRule
from handsite.models import Membership

log = logging.getLogger(__name__)

BOT = "bot"
"""Put this in ``create_game(seats=[...])`` for a practice bot's seat."""

MAX_BOT_STEPS = 3000
"""Bots stop after this many actions in one write (a game of bots only would otherwise run to its end)."""


class GameError(Exception):
    """A refusal with a sentence for the player (already translated)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class GameNotFound(GameError):
    """No such game, or the person is not in its group (views answer 404)."""

    def __init__(self) -> None:
        super().__init__(_("There is no such game."))


class StaleVersion(GameError):
    """The move was made on a picture of the game that is no longer current (double submit, two tabs)."""

    def __init__(self) -> None:
        super().__init__(_("The game has moved on. Here is where it stands now."))


class MoveRefused(GameError):
    """The engine refused the move. ``wild_choices``: [(wild id, face)] when a wild card must be named."""

    def __init__(self, error: engine.DomainError, wild_choices: list[tuple[int, str]] | None = None) -> None:
        super().__init__(error.sentence(_))
        self.error = error
        self.wild_choices = wild_choices or []


@dataclass
class MoveResult:
    game: Game
    seats: list[Seat]
    state: engine.GameState
    moves: list[Move] = field(default_factory=list)
    events: list[dict] = field(default_factory=list)


# --- Reading -----------------------------------------------------------------------------------


def load_state(game: Game) -> engine.GameState | None:
    return engine.from_json(game.state) if game.state is not None else None


def seats_of(game: Game) -> list[Seat]:
    return list(Seat.objects.filter(game=game).select_related("user").order_by("number"))


def seat_of(seats: list[Seat], user) -> Seat | None:
    user_id = getattr(user, "pk", None)
    return next((seat for seat in seats if seat.user_id is not None and seat.user_id == user_id), None)


def _locked(game_id: int, *, user=None, group_slug: str | None = None) -> tuple[Game, list[Seat]]:
    """The game row, locked until the transaction ends, and its seats with their players. With ``user``:
    only if they are in its group. ONE query: the seats with their game (locked: ``FOR UPDATE OF`` the
    game's table alone, so the LEFT JOIN to a bot seat's missing user is never locked), the game's group
    and the membership check as joins. Every game has its seats from creation on."""
    filters: dict = {"game_id": game_id}
    if group_slug is not None:
        filters["game__group__slug"] = group_slug
    if user is not None:
        if not getattr(user, "is_authenticated", False):
            raise GameNotFound
        filters["game__group__memberships__user"] = user
    seats = list(
        Seat.objects.select_for_update(of=("game",))
        .select_related("game__group", "user")
        .filter(**filters)
        .order_by("number")
    )
    if not seats:
        raise GameNotFound
    game = seats[0].game
    for seat in seats:
        seat.game = game  # one Game object shared by every seat (select_related made one per row)
    return game, seats


# --- Starting a game ---------------------------------------------------------------------------


@transaction.atomic
def create_game(
    *,
    group,
    created_by,
    variant: str,
    options: dict | None,
    seats: list,
    random_order: bool = False,
    move_hours: int = 0,
    timeout_rule: str = TimeoutRule.NOTHING,
    seed: int | None = None,
) -> Game:
    """Create a game in ``group``. ``seats`` lists, in seat order, users (group members) or :data:`BOT`.
    The creator's seat (if seated) and bots are filled at once; other members are invited and must
    accept. The options are validated and frozen now; the game deals when every seat is filled."""
    if variant not in engine.HAND_VARIANTS:
        raise GameError(_("Choose a rule set from the list."))
    players = len(seats)
    try:
        frozen = engine.validate_options(variant, players, options or {})
    except engine.DomainError as error:
        raise GameError(error.sentence(_)) from None
    humans = [entry for entry in seats if entry != BOT]
    if not humans:
        raise GameError(_("At least one seat must be a person."))
    if len({user.pk for user in humans}) != len(humans):
        raise GameError(_("A person can have only one seat."))
    member_ids = set(
        Membership.objects.filter(group=group, user__in=[*humans, created_by]).values_list(
            "user_id", flat=True
        )
    )
    if created_by.pk not in member_ids:
        raise GameError(_("Only members of the group can start a game."))
    if any(user.pk not in member_ids for user in humans):
        raise GameError(_("Every player must be a member of the group."))
    if move_hours < 0:
        raise GameError(_("Choose a time per move from the list."))
    if timeout_rule not in TimeoutRule.values:
        raise GameError(_("Choose what happens when the time runs out."))
    order = list(seats)
    if random_order:
        random.SystemRandom().shuffle(order)
    game = Game.objects.create(
        group=group,
        variant=variant,
        options=frozen,
        players=players,
        random_order=random_order,
        move_hours=move_hours,
        timeout_rule=timeout_rule,
        seed=engine.new_seed() if seed is None else seed,
        created_by=created_by,
    )
    now = timezone.now()
    rows = []
    for number, entry in enumerate(order):
        if entry == BOT:
            rows.append(Seat(game=game, number=number, bot=True, accepted_at=now))
        else:
            accepted = now if entry.pk == created_by.pk else None
            rows.append(Seat(game=game, number=number, user=entry, accepted_at=accepted))
    Seat.objects.bulk_create(rows)
    seats_now = seats_of(game)
    if all(seat.is_filled for seat in seats_now):
        _deal(game, seats_now)
    return game


def _waiting_game(game_id: int, user, group_slug=None) -> tuple[Game, list[Seat]]:
    game, seats = _locked(game_id, user=user, group_slug=group_slug)
    if game.status != GameStatus.WAITING:
        raise GameError(_("This game has already started."))
    return game, seats


def _bump(game: Game, *fields: str) -> None:
    game.revision += 1
    game.save(update_fields=["revision", *fields])


def _deal_or_bump(game: Game, seats: list[Seat]) -> None:
    """After a seat change: deal when every seat is filled, otherwise only tell the pollers."""
    if all(seat.is_filled for seat in seats):
        _deal(game, seats)
    else:
        _bump(game)


@transaction.atomic
def accept_seat(*, game_id: int, user, group_slug: str | None = None) -> Game:
    game, seats = _waiting_game(game_id, user, group_slug)
    seat = seat_of(seats, user)
    if seat is None:
        raise GameError(_("You have no seat in this game."))
    if seat.accepted_at is None:
        seat.accepted_at = timezone.now()
        seat.save(update_fields=["accepted_at"])
    _deal_or_bump(game, seats)
    return game


@transaction.atomic
def decline_seat(*, game_id: int, user, group_slug: str | None = None) -> Game:
    """Leave the seat open: another member may take it, or the creator may give it to a bot."""
    game, seats = _waiting_game(game_id, user, group_slug)
    seat = seat_of(seats, user)
    if seat is None:
        raise GameError(_("You have no seat in this game."))
    seat.user = None
    seat.accepted_at = None
    seat.save(update_fields=["user", "accepted_at"])
    _bump(game)
    return game


def _open_seat(seats: list[Seat], number: int) -> Seat:
    seat = next((s for s in seats if s.number == number), None)
    if seat is None or seat.is_filled:
        raise GameError(_("That seat is not free."))
    return seat


@transaction.atomic
def take_seat(*, game_id: int, user, number: int, group_slug: str | None = None) -> Game:
    game, seats = _waiting_game(game_id, user, group_slug)
    if seat_of(seats, user) is not None:
        raise GameError(_("You already have a seat in this game."))
    seat = _open_seat(seats, number)
    if seat.user_id is not None:
        raise GameError(_("That seat is not free."))
    seat.user = user
    seat.accepted_at = timezone.now()
    seat.save(update_fields=["user", "accepted_at"])
    _deal_or_bump(game, seats)
    return game


def _check_creator(game: Game, actor) -> None:
    if game.created_by_id == actor.pk:
        return
    if Membership.objects.filter(group_id=game.group_id, user=actor, role__in=("owner", "admin")).exists():
        return
    raise GameError(_("Only the person who started the game (or a group admin) can do that."))


@transaction.atomic
def fill_seat_with_bot(*, game_id: int, actor, number: int, group_slug: str | None = None) -> Game:
    game, seats = _waiting_game(game_id, actor, group_slug)
    _check_creator(game, actor)
    seat = _open_seat(seats, number)
    seat.user = None
    seat.bot = True
    seat.accepted_at = timezone.now()
    seat.save(update_fields=["user", "bot", "accepted_at"])
    _deal_or_bump(game, seats)
    return game


@transaction.atomic
def cancel_game(*, game_id: int, actor, group_slug: str | None = None) -> Game:
    game, _seats = _waiting_game(game_id, actor, group_slug)
    _check_creator(game, actor)
    game.status = GameStatus.CANCELLED
    game.finished_at = timezone.now()
    _bump(game, "status", "finished_at")
    return game


def _deal(game: Game, seats: list[Seat]) -> MoveResult:
    """Every seat is filled: deal (options and seed are already frozen in the game), let bots play."""
    state = engine.new_game(game.variant, game.players, game.options, game.seed)
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    result = MoveResult(game=game, seats=seats, state=state, events=list(state.deal.events))
    _run_bots(result)
    _save(result, previous_turn=None)
    return result


# --- Playing -----------------------------------------------------------------------------------


@transaction.atomic
def play(
    *, game_id: int, user, version: int | None, action: dict, group_slug: str | None = None
) -> MoveResult:
    """Apply ``user``'s action, made on ``version`` of the game, then the bot seats' moves that follow.

    ``action`` is an engine action (see games/engine/actions.py), or one of the page's forms of it:
    ``{"type": "meld", "cards": [ids]}`` (the selected cards, read as one meld or split into several),
    ``{"type": "take_discard", "cards": [ids]}`` (the top discard with the selected cards), each with an
    optional ``"wild_as": {"<id>": "JS"}``. Raises GameNotFound, StaleVersion, GameError, MoveRefused.
    """
    game, seats = _locked(game_id, user=user, group_slug=group_slug)
    seat = seat_of(seats, user)
    if game.status != GameStatus.ACTIVE:
        if game.status == GameStatus.WAITING:
            raise GameError(_("The game has not started yet."))
        raise GameError(_("The game is over."))
    if seat is None or not seat.is_filled:
        raise GameError(_("You are watching this game; only its players make moves."))
    if version is None or version != game.version:
        raise StaleVersion
    if seat.bot:
        raise GameError(_("A bot plays your seat now."))
    state = load_state(game)
    previous_turn = _turn_key(state)
    try:
        concrete = prepare_action(state, seat.number, action)
        events = engine.apply(state, seat.number, concrete)
    except engine.AmbiguousWild as error:
        raise MoveRefused(error, wild_choices(state, error)) from None
    except engine.DomainError as error:
        raise MoveRefused(error) from None
    result = MoveResult(game=game, seats=seats, state=state)
    _log(result, seat.number, concrete, events, actor=user, kind=MoveKind.PLAYER)
    _run_bots(result)
    _save(result, previous_turn=previous_turn)
    return result


def prepare_action(state: engine.GameState, seat: int, action: object) -> dict:
    """Turn the page's forms of a move into an engine action (the engine then checks everything)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise engine.IllegalAction(gettext_noop("That is not a move."))
    kind = action["type"]
    if kind == "lay_down":
        return _lay_down_action(state, seat, action.get("melds"))
    if kind in ("meld", "announce") and "cards" in action and "melds" not in action:
        melds = _melds_from_selection(state, seat, action.get("cards"), action.get("wild_as"))
        return {"type": _meld_kind(state, seat, kind), "melds": melds}
    if (
        kind == "take_discard"
        and "cards" in action
        and not {"melds", "lay_off", "declare_hand"} & set(action)
    ):
        if not state.deal.discard:
            raise engine.IllegalAction(gettext_noop("The discard pile is empty."))
        selected = _ids(action.get("cards"))
        if not selected:
            raise engine.IllegalAction(
                gettext_noop("Select the cards from your hand that go with the discard.")
            )
        top = state.deal.discard[-1]
        melds = _melds_from_selection(state, seat, selected, action.get("wild_as"), extra=top)
        return {"type": "take_discard", "melds": melds}
    return action


def _ids(value: object) -> list[int]:
    if not isinstance(value, list | tuple) or not all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    ):
        raise engine.IllegalAction(gettext_noop("Choose the cards by tapping them."))
    return list(value)


def _melds_from_selection(
    state: engine.GameState, seat: int, card_ids: object, wild_as: object, extra=None
) -> list[dict]:
    """The selected cards as one meld, or else split into several melds (the solver's way)."""
    ids = _ids(card_ids)
    if not ids:
        raise engine.IllegalAction(gettext_noop("Select the cards to meld first."))
    hand = {card.id: card for card in state.deal.hands[seat]}
    if len(set(ids)) != len(ids) or any(card_id not in hand for card_id in ids):
        raise engine.InvalidCards(gettext_noop("You do not hold one of those cards."))
    cards = [hand[card_id] for card_id in ids] + ([extra] if extra is not None else [])
    pins = wild_as if isinstance(wild_as, dict) else {}
    pins = {int(k): v for k, v in pins.items() if str(k).isdigit() and isinstance(v, str)}
    wilds, rules = engine_actions.wilds_of(state), engine_actions.rules_of(state)
    if extra is not None and wilds.is_wild(extra):
        # A wild card taken from the discard pile plays as a natural ace: the engine reads it itself.
        spec: dict = {"cards": [card.id for card in cards]}
        if pins:
            spec["wild_as"] = {str(k): v for k, v in pins.items()}
        return [spec]
    try:
        meld = engine.make_meld(cards, wilds, rules, pins or None)
    except engine.AmbiguousWild:
        raise
    except engine.MeldError:
        split = engine.meld_partition(cards, wilds, rules) if len(cards) >= 6 else None
        if split:
            return [engine_actions.meld_spec(m, wilds) for m in split]
        raise
    return [engine_actions.meld_spec(meld, wilds)]


def _lay_down_action(state: engine.GameState, seat: int, specs: object) -> dict:
    """The page's "lay down" (every pending meld at once) as ONE engine action: ``take_discard`` when a
    meld holds the top discard, else ``announce`` (an announcement rule set, not announced yet) or
    ``meld``. The engine checks everything (turn, phase, opening minimum, cards held)."""
    if not isinstance(specs, list) or not specs:
        raise engine.IllegalAction(gettext_noop("Add at least one meld before laying down."))
    top = state.deal.discard[-1].id if state.deal.discard else None
    ids = [card_id for spec in specs if isinstance(spec, dict) for card_id in _ids(spec.get("cards"))]
    if top is not None and top in ids:
        return {"type": "take_discard", "melds": specs}
    return {"type": _meld_kind(state, seat), "melds": specs}


def _meld_kind(state: engine.GameState, seat: int, kind: str = "meld") -> str:
    """Laying down melds is an announcement for a kuwaiti player who has not announced yet."""
    variant = engine.HAND_VARIANTS[state.variant]
    if variant.opening == "announcement" and not state.deal.opened[seat]:
        return "announce"
    return kind


@dataclass
class PendingMeld:
    """One meld the player has put aside before laying down (nothing is saved until then)."""

    spec: dict  # {"cards": [ids], "wild_as": {"<id>": face}} as the engine reads it
    cards: list[dict]  # [{"id", "face", "plays_as"}] in the meld's order (the player's own cards only)
    value: int | None  # its value for the opening (None: the engine decides when it is laid down)
    with_discard: bool


def pending_melds(state: engine.GameState, seat: int, specs: list[dict]) -> list[PendingMeld]:
    """Read the pending melds again (they come back from the page with every request): only this
    seat's cards and, in one meld at most and only before drawing, the top discard. Raises
    engine.DomainError (never naming a card the player may not see)."""
    hand = {card.id: card for card in state.deal.hands[seat]}
    top = state.deal.discard[-1] if state.deal.discard else None
    wilds, rules = engine_actions.wilds_of(state), engine_actions.rules_of(state)
    seen: set[int] = set()
    result = []
    for spec in specs:
        ids = _ids(spec.get("cards") if isinstance(spec, dict) else None)
        pins = spec.get("wild_as") or {}
        if not ids or not isinstance(pins, dict):
            raise engine.IllegalAction(gettext_noop("Choose the cards by tapping them."))
        with_discard = top is not None and top.id in ids
        if with_discard and state.deal.phase != engine.DRAW:
            raise engine.IllegalAction(gettext_noop("You can take the discard only instead of drawing."))
        if with_discard and any(p.with_discard for p in result):
            raise engine.IllegalAction(gettext_noop("The discard goes into one meld only."))
        if seen & set(ids) or len(set(ids)) != len(ids):
            raise engine.InvalidCards(gettext_noop("A card can be in one meld only."))
        seen |= set(ids)
        if any(card_id not in hand and not (with_discard and card_id == top.id) for card_id in ids):
            raise engine.InvalidCards(gettext_noop("You do not hold one of those cards."))
        cards = [hand.get(card_id) or top for card_id in ids]
        int_pins = {int(k): v for k, v in pins.items() if str(k).isdigit() and isinstance(v, str)}
        try:
            meld = engine.make_meld(cards, wilds, rules, int_pins or None)
        except engine.AmbiguousWild:
            raise
        except engine.MeldError:
            if not (with_discard and wilds.is_wild(top)):
                raise
            # A wild card from the discard pile plays only as a natural ace: the engine reads it.
            spec = {"cards": ids, **({"wild_as": pins} if pins else {})}
            shown = [{"id": c.id, "face": c.face, "plays_as": ""} for c in cards]
            result.append(PendingMeld(spec=spec, cards=shown, value=None, with_discard=True))
            continue
        shown = [
            {"id": card.id, "face": card.face, "plays_as": face_text(face) if wilds.is_wild(card) else ""}
            for card, face in zip(meld.cards, meld.plays_as, strict=True)
        ]
        result.append(
            PendingMeld(
                spec=engine_actions.meld_spec(meld, wilds),
                cards=shown,
                value=engine.meld_value(meld, rules),
                with_discard=with_discard,
            )
        )
    return result


def read_pending(state: engine.GameState, seat: int, specs: list[dict]) -> list[PendingMeld]:
    """:func:`pending_melds` with refusals as MoveRefused."""
    try:
        return pending_melds(state, seat, specs)
    except engine.DomainError as error:
        raise MoveRefused(error) from None


def add_pending_meld(
    state: engine.GameState,
    seat: int,
    specs: list[dict],
    cards: list[int],
    wild_as: dict | None,
    *,
    with_discard: bool = False,
) -> list[PendingMeld]:
    """The pending melds with the selected cards (plus the top discard) added as one more meld.
    Raises MoveRefused (with the wild card choices when one must be named); saves nothing."""
    try:
        if not cards:
            raise engine.IllegalAction(gettext_noop("Select the cards to meld first."))
        if with_discard:
            if not state.deal.discard:
                raise engine.IllegalAction(gettext_noop("The discard pile is empty."))
            cards = [*cards, state.deal.discard[-1].id]
        spec: dict = {"cards": list(cards)}
        if wild_as:
            spec["wild_as"] = {str(k): v for k, v in wild_as.items() if int(k) in cards}
        return pending_melds(state, seat, [*specs, spec])
    except engine.AmbiguousWild as error:
        raise MoveRefused(error, wild_choices(state, error)) from None
    except engine.DomainError as error:
        raise MoveRefused(error) from None


def wild_choices(state: engine.GameState, error: engine.AmbiguousWild) -> list[tuple[int, str]]:
    """[(wild card id, face)] the player may name, from the engine's readings."""
    wilds = engine_actions.wilds_of(state)
    choices: list[tuple[int, str]] = []
    for meld in error.choices:
        for card, face in zip(meld.cards, meld.plays_as, strict=True):
            if wilds.is_wild(card) and face[1]:
                choice = (card.id, face_text(face))
                if choice not in choices:
                    choices.append(choice)
    return choices


def _log(
    result: MoveResult, seat: int | None, action: dict, events: list, *, actor=None, kind=MoveKind.PLAYER
):
    result.moves.append(
        Move(
            game=result.game,
            seq=result.state.version,
            seat=seat,
            actor=actor,
            kind=kind,
            action=action,
            created_at=timezone.now(),
        )
    )
    result.events.extend(events)


def _run_bots(result: MoveResult) -> None:
    """Let bot seats move while one has something to do (a redeal demand, or its turn)."""
    state = result.state
    bots = sorted(seat.number for seat in result.seats if seat.bot)
    if not bots:
        return
    for _step in range(MAX_BOT_STEPS):
        if state.finished:
            return
        for number in bots:
            action = engine.bot_action(state, number)
            if action is not None:
                events = engine.apply(state, number, action)
                _log(result, number, action, events, kind=MoveKind.BOT)
                break
        else:
            return
    log.warning("game %s: bots stopped after %s steps", result.game.pk, MAX_BOT_STEPS)


def _turn_key(state: engine.GameState | None) -> tuple | None:
    """Identifies the turn in progress; a different key means the turn changed."""
    if state is None or state.finished:
        return None
    deal = state.deal
    return (deal.number, deal.attempt, deal.current, deal.turns[deal.current])


SAVED_FIELDS = [
    "state",
    "version",
    "revision",
    "status",
    "started_at",
    "finished_at",
    "turn_seat",
    "turn_started_at",
    "turn_version",
    "deadline_at",
    "next_reminder_at",
    "paused_until",
]
"""The columns :func:`_save` writes (the game's frozen settings are never rewritten)."""


def _save(result: MoveResult, *, previous_turn: tuple | None, batch: _Batch | None = None) -> None:
    """State, log and version in the transaction the caller holds; then the hooks. With ``batch`` the
    rows are collected and written for the whole batch at once (:meth:`_Batch.write`)."""
    game, state = result.game, result.state
    if result.moves and batch is not None:
        batch.moves.extend(result.moves)
    elif result.moves:
        Move.objects.bulk_create(result.moves)
    game.state = engine.to_json(state)
    game.version = state.version
    game.revision += 1
    ended = [event for event in result.events if event.get("type") == "deal_ended"]
    if ended:
        _on_deal_end(game, ended)
    if state.finished and game.status != GameStatus.FINISHED:
        _on_game_end(game)
    if _turn_key(state) != previous_turn or previous_turn is None:
        actor = next((m.seat for m in result.moves if m.kind == MoveKind.PLAYER), None)
        returned = actor is not None and previous_turn is not None and state.current == actor
        _on_turn_change(
            game, previous_turn, result.events, state=state, returned_to_actor=returned, batch=batch
        )
    if batch is not None:
        batch.games.append(game)
    else:
        game.save(update_fields=SAVED_FIELDS)  # one UPDATE of the columns a write can change


# --- Hooks (inside the transaction) ------------------------------------------------------------


def _on_turn_change(
    game: Game,
    previous_turn: tuple | None,
    events: list[dict],
    *,
    state,
    returned_to_actor: bool = False,
    batch: _Batch | None = None,
) -> None:
    """The turn passed to another seat (or to the same seat in a new deal), the game started or ended.

    ``previous_turn`` is ``(deal, attempt, seat, turn number)`` or None; ``events`` are this write's
    engine events (with secrets: never show them unfiltered); ``state`` is the engine state after it.
    Updates the denormalised turn columns and the deadline from the time per move, and writes the
    "your turn" notification intent (an outbox row) in the same transaction as the move, except when
    ``returned_to_actor``: the turn came back to the person whose own move started this write (only
    bots moved in between), who is on the page; reminders and the deadline still apply.
    """
    from games import deadlines  # imported here: deadlines uses this module

    now = timezone.now()
    game.paused_until = None
    if game.status != GameStatus.ACTIVE or state.finished:
        game.turn_seat = None
        game.turn_started_at = None
        game.deadline_at = None
        game.next_reminder_at = None
        return
    game.turn_seat = state.current
    game.turn_started_at = now
    game.turn_version = game.version
    game.deadline_at = now + timedelta(hours=game.move_hours) if game.move_hours else None
    # The reminder scan (games/deadlines.plan) sets the player's real schedule within a minute.
    game.next_reminder_at = now
    if returned_to_actor:
        return  # only bots moved since this player's own move: they are on the page, no "your turn"
    if batch is not None:
        batch.turns_began.append(game)  # written with the batch's other rows
        return
    deadlines.turn_began(game, now=now)  # the "your turn" outbox row, in this transaction


def _on_deal_end(game: Game, ended_events: list[dict]) -> None:
    """One or more deals ended in this write (``deal_ended`` events: points, totals, hands).

    Logs each ended deal and queues, for after the commit, the background task that applies the
    game's results to the group's standings (recomputed from the raw facts, so idempotent).
    """
    from games import tasks as games_tasks

    for event in ended_events:
        log.info("game %s: deal %s ended", game.pk, event.get("deal"))
    games_tasks.record_online_result.delay_on_commit(game.pk)  # the group's standings, in the background


def _on_game_end(game: Game) -> None:
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()


# --- Timeouts (called by the deadline scan of issue 6) -----------------------------------------


@transaction.atomic
def timeout_move(*, game_id: int, now=None) -> MoveResult | None:
    """Apply the game's timeout rule if the current turn's deadline has passed; None if there is nothing
    to do (no deadline, not due yet, rule "nothing", game not active). Safe to call twice: the second
    call finds the new turn's deadline in the future."""
    now = now or timezone.now()
    game, seats = _locked(game_id)
    if game.status != GameStatus.ACTIVE or game.deadline_at is None or game.deadline_at > now:
        return None
    if game.timeout_rule == TimeoutRule.NOTHING:
        return None
    return _timeout(game, seats)


@transaction.atomic
def hand_seat_to_bot(*, game_id: int, number: int) -> MoveResult:
    """A bot plays ``number``'s seat from now on (the player stays recorded on the seat)."""
    game, seats = _locked(game_id)
    if game.status != GameStatus.ACTIVE:
        raise GameError(_("The game is not in play."))
    seat = next((s for s in seats if s.number == number), None)
    if seat is None:
        raise GameError(_("There is no such seat at this table."))
    seat.bot = True
    seat.save(update_fields=["bot"])
    state = load_state(game)
    result = MoveResult(game=game, seats=seats, state=state)
    previous_turn = _turn_key(state)
    _run_bots(result)
    _save(result, previous_turn=previous_turn)
    return result


def _auto_moves(state: engine.GameState, seat: int) -> list[dict]:
    """The timeout move: draw (if not drawn yet) and discard the drawn card; never melds. If the drawn
    card cannot be discarded (or nothing was drawn: a first turn of 15 cards), the bot's worst card."""
    moves = []
    work = state.copy()
    drawn = None
    if work.deal.phase == engine.DRAW:
        events = engine.apply(work, seat, {"type": "draw"})
        drawn = events[0]["secret"]["card"]["id"]
        moves.append({"type": "draw"})
    elif work.deal.turn.drew == "stock":
        for event in reversed(work.deal.events):
            if event.get("type") == "drew" and event.get("seat") == seat:
                drawn = event["secret"]["card"]["id"]
                break
    hand = work.deal.hands[seat]
    candidates = [card.id for card in hand if card.id == drawn] + [worst_card(work, seat).id]
    candidates += [card.id for card in hand]
    for card_id in candidates:
        action = {"type": "discard", "card": card_id}
        if engine.can(work, seat, action):
            return [*moves, action]
    raise ObjectDoesNotExist("no card can be discarded")  # pragma: no cover - the engine always allows one


# --- The deadline scan, in batches -------------------------------------------------------------

DEADLINE_BATCH = 500
"""Games one transaction of the deadline scan handles (its queries do not grow with it)."""


@dataclass
class _Batch:
    """Rows collected from many games' writes, written once for all (:meth:`write`)."""

    moves: list[Move] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    turns_began: list[Game] = field(default_factory=list)
    bot_seats: list[int] = field(default_factory=list)
    paused: list[Game] = field(default_factory=list)
    timed_out: list[tuple[Game, Seat, int | None]] = field(default_factory=list)  # game, mover, turn

    def write(self, now) -> None:
        from games import deadlines

        if self.moves:
            Move.objects.bulk_create(self.moves)
        if self.bot_seats:
            Seat.objects.filter(pk__in=self.bot_seats).update(bot=True)
        if self.games:
            update_games(self.games, SAVED_FIELDS)
        if self.paused:
            update_games(self.paused, deadlines.SCHEDULE_FIELDS)
        deadlines.notify_turns(self.turns_began, self.timed_out, now=now)


def update_games(games: list[Game], fields: list[str]) -> None:
    """Write ``fields`` of many games in ONE UPDATE (a VALUES list joined on the id): what
    ``bulk_update`` does, without building a CASE expression per game and column (which cost more
    than the whole scan's other work)."""
    if not games:
        return
    columns = [Game._meta.get_field(name) for name in fields]
    quote = connection.ops.quote_name
    typed = connection.vendor == "postgresql"  # VALUES columns are untyped: say the column's type
    names = ", ".join(quote(column.column) for column in columns)
    sets = ", ".join(
        f"{quote(c.column)} = v.{quote(c.column)}" + (f"::{c.db_type(connection)}" if typed else "")
        for c in columns
    )
    row = "(" + ", ".join(["%s"] * (len(columns) + 1)) + ")"
    params = []
    for game in games:
        params.append(game.pk)
        params.extend(c.get_db_prep_save(getattr(game, c.attname), connection) for c in columns)
    table = quote(Game._meta.db_table)
    sql = (
        f"WITH v (id, {names}) AS (VALUES {', '.join([row] * len(games))}) "
        f"UPDATE {table} SET {sets} FROM v WHERE {table}.id = v.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def expire_due(*, now=None, game_ids: list[int] | None = None, limit: int = DEADLINE_BATCH) -> dict[int, str]:
    """One batch of the deadline scan: the games whose deadline has passed (the soonest ``limit``, or
    those of ``game_ids`` that are due), in ONE transaction with the same few queries whatever the
    batch's size: lock the due games with their seats (skipping any a move holds: the next scan takes
    them), read the preferences of the players to move, then the states of the games that need a move,
    and write moves, games and notifications for the whole batch at once.

    Per game, as a move would: the timeout rule (an automatic move, or a bot takes the seat), logged
    as a TIMEOUT move, then the bots that follow, and "time ran out" for the player; a player on
    vacation instead has the deadline paused (deadlines.pause_for_vacation). A game of rule "nothing"
    is never read. Returns {game id: "timed_out" | "paused"} for the games it changed.
    """
    from games import deadlines
    from handsite.models import NotificationPreference

    now = now or timezone.now()
    with transaction.atomic():
        due = Game.objects.filter(DEADLINE_SCAN, deadline_at__lte=now)
        if game_ids is not None:
            due = due.filter(pk__in=game_ids)
        due = due.order_by("deadline_at").values("pk")[:limit]
        rows = list(
            Seat.objects.select_for_update(of=("game",), skip_locked=True)
            .select_related("game__group", "user")
            .defer("game__state")
            .filter(DEADLINE_SCAN_OF_SEAT, game_id__in=due, game__deadline_at__lte=now)
            .order_by("game_id", "number")
        )
        games: dict[int, tuple[Game, list[Seat]]] = {}
        for seat in rows:
            game, seats = games.setdefault(seat.game_id, (seat.game, []))
            seat.game = game  # one Game object per game (select_related made one per row)
            seats.append(seat)
        movers = {
            game_id: next((s for s in seats if s.number == game.turn_seat and s.user_id and not s.bot), None)
            for game_id, (game, seats) in games.items()
        }
        prefs = {
            pref.user_id: pref
            for pref in NotificationPreference.objects.filter(
                user_id__in={seat.user_id for seat in movers.values() if seat is not None}
            )
        }
        batch, outcome = _Batch(), {}
        to_move = []
        for game_id, (game, _seats) in games.items():
            mover = movers[game_id]
            pref = prefs.get(mover.user_id) if mover is not None else None
            if pref is not None and pref.on_vacation(now):
                deadlines.pause_for_vacation(game, pref, now)
                batch.paused.append(game)
                outcome[game_id] = "paused"
            else:
                to_move.append(game_id)
        states = (
            dict(Game.objects.filter(pk__in=to_move).order_by().values_list("pk", "state")) if to_move else {}
        )
        for game_id in to_move:
            game, seats = games[game_id]
            game.state = states[game_id]
            if movers[game_id] is not None:
                batch.timed_out.append((game, movers[game_id], game.turn_version))
            _timeout(game, seats, batch)
            outcome[game_id] = "timed_out"
        batch.write(now)
    return outcome


DEADLINE_SCAN_OF_SEAT = Q(game__status=GameStatus.ACTIVE, game__deadline_at__isnull=False) & ~Q(
    game__timeout_rule=TimeoutRule.NOTHING
)
"""games.models.DEADLINE_SCAN seen from a seat: re-checked on the locked rows."""


def _timeout(game: Game, seats: list[Seat], batch: _Batch | None = None) -> MoveResult:
    """The game's timeout rule for the seat to move, then the bots that follow (``game.state`` loaded)."""
    state = load_state(game)
    previous_turn = _turn_key(state)
    number = state.current
    result = MoveResult(game=game, seats=seats, state=state)
    if game.timeout_rule == TimeoutRule.BOT:
        seat = next(s for s in seats if s.number == number)
        seat.bot = True
        if batch is not None:
            batch.bot_seats.append(seat.pk)
        else:
            seat.save(update_fields=["bot"])
    else:
        for action in _auto_moves(state, number):
            events = engine.apply(state, number, action)
            _log(result, number, action, events, kind=MoveKind.TIMEOUT)
    _run_bots(result)
    _save(result, previous_turn=previous_turn, batch=batch)
    return result


# --- The reminder scan, in batches -------------------------------------------------------------

REMINDER_BATCH = 1000
"""Games one transaction of the reminder scan plans (its queries do not grow with it)."""


def plan_reminders(*, now=None, game_ids: list[int] | None = None, limit: int = REMINDER_BATCH) -> dict:
    """One batch of the reminder scan: the games whose ``next_reminder_at`` has come (the soonest
    ``limit``; games a move holds are skipped, the next scan takes them), or the games ``game_ids``
    whatever their time (a vacation booked or ended). ONE transaction with the same few queries
    whatever the batch's size, and no game's state: lock the games, read the people to move and their
    preferences, decide each game's plan (deadlines.schedule: reminders, the low-time warning, quiet
    hours, vacation) and write the games and the notifications for the whole batch at once.
    Returns {game id: the new ``next_reminder_at``}."""
    from games import deadlines
    from handsite.models import NotificationPreference

    now = now or timezone.now()
    with transaction.atomic():
        if game_ids is None:
            due = Game.objects.filter(
                status=GameStatus.ACTIVE, next_reminder_at__isnull=False, next_reminder_at__lte=now
            ).order_by("next_reminder_at")
            locked = Game.objects.select_for_update(skip_locked=True).filter(pk__in=due.values("pk")[:limit])
        else:
            locked = Game.objects.select_for_update().filter(pk__in=game_ids)
        games = list(locked.defer("state").order_by())
        movers = {
            row["game_id"]: row["user_id"]
            for row in Seat.objects.filter(
                game_id__in=[game.pk for game in games if game.turn_seat is not None],
                game__turn_seat=F("number"),
                bot=False,
                user__isnull=False,
            ).values("game_id", "user_id")
        }
        prefs = {
            p.user_id: p for p in NotificationPreference.objects.filter(user_id__in=set(movers.values()))
        }
        due = []
        for game in games:
            mover_id = movers.get(game.pk)
            pref = prefs.get(mover_id) or NotificationPreference(
                user_id=mover_id, time_zone=settings.TIME_ZONE
            )
            for kind, number in deadlines.schedule(game, mover_id, pref, now):
                due.append((game, mover_id, kind, number))
        update_games(games, deadlines.SCHEDULE_FIELDS)
        deadlines.notify_reminders(due, now=now)
    return {game.pk: game.next_reminder_at for game in games}


@transaction.atomic
def end_pauses(*, now, game_ids: list[int]) -> None:
    """A player back early from vacation: their games' paused deadlines come back by the unused time
    (deadlines.unpause) and are planned again, in a constant number of queries."""
    from games import deadlines

    games = list(Game.objects.select_for_update().filter(pk__in=game_ids).defer("state").order_by())
    for game in games:
        deadlines.unpause(game, now)
    update_games(games, deadlines.SCHEDULE_FIELDS)
    plan_reminders(now=now, game_ids=game_ids)
