"""The only code that writes games: it locks the game row, checks the version the player acted on, calls
the engine, runs the bot seats that follow, and saves state + move log + version in ONE transaction.

Public API (every function takes ids / users and returns model objects; refusals raise GameError):

    create_game(group=, created_by=, variant=, options=, seats=[user | BOT, ...], ...) -> Game
    accept_seat(game_id=, user=) / decline_seat(game_id=, user=) / take_seat(game_id=, user=, number=)
    answer_invitation(token=, user=, answer="accept" | "decline") -> InvitationAnswer  # e-mail links
    invite_to_seat(game_id=, actor=, number=, invitee_id=)   # the creator invites another member
    fill_seat_with_bot(game_id=, actor=, number=) / cancel_game(game_id=, actor=)
    expire_invitations(now=None) -> {seat id: game id}     # the invitation scan: seats freed
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
from django.core import signing
from django.core.exceptions import ObjectDoesNotExist
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import get_language_bidi
from django.utils.translation import gettext as _

from games import engine, moves, movesql
from games.chat import ChatRequest
from games.engine.bot import worst_card
from games.models import (
    DEADLINE_SCAN,
    INVITATION_SCAN,
    ChatMessage,
    Game,
    GameStatus,
    Move,
    MoveKind,
    Seat,
    TimeoutRule,
)
from games.moves import is_foot
from handsite import bulk
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


def poll_revision(game_id: int, group_slug: str, user_id: int) -> int | None:
    """The game's revision if ``user_id`` is a member of its group ``group_slug``, else None: the play
    page's poll, ONE query."""
    if game_id > GAME_ID_MAX:  # from a URL: SQLite cannot even bind it
        return None
    found = Game.objects.filter(
        pk=game_id, group__slug=group_slug, group__memberships__user_id=user_id
    ).values_list("revision", flat=True)
    return next(iter(found), None)


def seat_of(seats: list[Seat], user) -> Seat | None:
    user_id = getattr(user, "pk", None)
    return next((seat for seat in seats if seat.user_id is not None and seat.user_id == user_id), None)


def _locked(game_id: int, *, user=None, group_slug: str | None = None) -> tuple[Game, list[Seat]]:
    """The game row, locked until the transaction ends, and its seats with their players. With ``user``:
    only if they are in its group. ONE query (games/movesql.py). Every game has its seats from creation
    on."""
    if user is not None and not getattr(user, "is_authenticated", False):
        raise GameNotFound
    if game_id > GAME_ID_MAX:  # from a URL: SQLite cannot even bind it (the ORM's lookups skip it too)
        raise GameNotFound
    seats = movesql.locked_seats(game_id, user_id=getattr(user, "pk", None), group_slug=group_slug)
    if not seats:
        raise GameNotFound
    return seats[0].game, seats


GAME_ID_MAX = 2**63 - 1
"""The largest id a game can have (a BigAutoField): no larger number from a URL reaches the database."""


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
    if variant not in engine.VARIANTS:
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
        rules_version=engine.RULES_VERSION,
        created_by=created_by,
    )
    now = timezone.now()
    reply_by = now + reply_time()
    rows = []
    for number, entry in enumerate(order):
        if entry == BOT:
            rows.append(Seat(game=game, number=number, bot=True, accepted_at=now))
        elif entry.pk == created_by.pk:
            rows.append(Seat(game=game, number=number, user=entry, accepted_at=now))
        else:
            rows.append(Seat(game=game, number=number, user=entry, invited_at=now, reply_by=reply_by))
    Seat.objects.bulk_create(rows)
    seats_now = seats_of(game)
    if all(seat.is_filled for seat in seats_now):
        _deal(game, seats_now)
    else:
        from games import notifications

        notifications.invite(game, [seat for seat in seats_now if seat.is_invited], now=now)
    return game


def _locked_seats(game_id: int, *, user=None, group_slug: str | None = None) -> tuple[Game, list[Seat]]:
    """:func:`_locked`, then the seats read again under the lock, for changes of seats. On PostgreSQL a
    lock query that waited for another transaction gets the game row as that one left it, but the
    seats joined to it as they were before (only locked rows are read again): two people taking the
    same free seat would each find it free. Read after the lock, the seats are as the last change
    left them."""
    game, _stale = _locked(game_id, user=user, group_slug=group_slug)
    seats = seats_of(game)
    for seat in seats:
        seat._state.fields_cache["game"] = game
    return game, seats


def _waiting_game(game_id: int, user, group_slug=None) -> tuple[Game, list[Seat]]:
    game, seats = _locked_seats(game_id, user=user, group_slug=group_slug)
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
    """Take the seat one was invited to. A second tap (the first one dealt the game) is a success too."""
    game, seats = _locked_seats(game_id, user=user, group_slug=group_slug)
    seat = seat_of(seats, user)
    if game.status == GameStatus.ACTIVE and seat is not None and seat.accepted_at is not None:
        return game
    if game.status != GameStatus.WAITING:
        raise GameError(_("This game has already started."))
    if seat is None:
        raise GameError(_("You have no seat in this game."))
    if seat.accepted_at is None:
        _accept(game, seats, seat, timezone.now())
    else:
        _deal_or_bump(game, seats)
    return game


@transaction.atomic
def decline_seat(*, game_id: int, user, group_slug: str | None = None) -> Game:
    """Leave the seat open: another member may take it, or the creator may give it to a bot."""
    game, seats = _waiting_game(game_id, user, group_slug)
    seat = seat_of(seats, user)
    if seat is None:
        raise GameError(_("You have no seat in this game."))
    _decline(game, seats, seat, timezone.now())
    return game


def _accept(game: Game, seats: list[Seat], seat: Seat, now) -> None:
    """The invited player takes their seat; the game deals when every seat is filled. The creator is
    told when the last invitation is answered (the game started, or seats are still free)."""
    seat.accepted_at = now
    seat.reply_by = None
    seat.save(update_fields=["accepted_at", "reply_by"])
    _deal_or_bump(game, seats)
    if not any(other.is_invited for other in seats):
        from games import notifications

        event = notifications.STARTED if game.status == GameStatus.ACTIVE else notifications.ANSWERED
        free = sum(not other.is_filled for other in seats)
        notifications.tell_creator(game, event, seat=seat, by_id=seat.user_id, free=free, now=now)


def _decline(game: Game, seats: list[Seat], seat: Seat, now) -> None:
    """The player gives their seat back: it is free for another member, or the creator gives it to a
    bot or invites someone else. The creator is told."""
    from games import notifications

    name, invited_at, by_id = seat.name, seat.invited_at, seat.user_id
    seat.user = None
    seat.accepted_at = seat.invited_at = seat.reply_by = None
    seat.save(update_fields=["user", "accepted_at", "invited_at", "reply_by"])
    _bump(game)
    notifications.tell_creator(
        game, notifications.DECLINED, seat=seat, by_id=by_id, name=name, invited_at=invited_at, now=now
    )


# --- Invitations: the signed links of the e-mail, the creator's re-invitation, the reply deadline ---

INVITATION_SALT = "games.invitation"
ANSWERS = ("accept", "decline")


def reply_time() -> timedelta:
    """How long an invited player has to answer (setting GAMES_INVITATION_REPLY_HOURS)."""
    return timedelta(hours=settings.GAMES_INVITATION_REPLY_HOURS)


def _stamp(moment) -> int:
    return int(moment.timestamp())


def invitation_token(seat: Seat) -> str:
    """The signed, timestamped token of the accept and decline links sent to the seat's invited player:
    it names the game, the seat, the person and the invitation (its time), nothing secret."""
    return sign_invitation(seat.game_id, seat.number, seat.user_id, _stamp(seat.invited_at))


def sign_invitation(game_id: int, number: int, user_id: int, invited: int) -> str:
    """:func:`invitation_token` from the ids (an e-mail renders it from its notification's data)."""
    payload = {"g": game_id, "s": number, "u": user_id, "i": invited}
    return signing.dumps(payload, salt=INVITATION_SALT)


@dataclass
class InvitationAnswer:
    """What following an accept or decline link did. ``outcome``: "accepted", "declined",
    "already_accepted", "already_answered" (declined before, or its time ran out), or "refused" with
    ``message`` and the HTTP ``status`` of the page that says why."""

    outcome: str
    message: str
    game: Game | None = None
    status: int = 200

    @property
    def refused(self) -> bool:
        return self.outcome == "refused"


def _read_token(token: str) -> dict | str | None:
    """The token's payload; "expired" when its signature is good but older than the links live."""
    max_age = reply_time() + timedelta(days=1)  # the reply deadline itself is checked on the seat
    try:
        data = signing.loads(token[:400], salt=INVITATION_SALT, max_age=max_age)
    except signing.SignatureExpired:
        return "expired"
    except (signing.BadSignature, ValueError, UnicodeError):
        return None
    keys = ("g", "s", "u", "i")
    if not isinstance(data, dict) or not all(type(data.get(key)) is int for key in keys):
        return None
    return data


def answer_invitation(*, token: str, user, answer: str, now=None) -> InvitationAnswer:
    """Follow an invitation e-mail's accept or decline link. Safe to follow twice: a second accept
    finds the seat taken and says so (one seat, one acceptance); a second decline says the invitation
    is no longer open. A tampered, expired or someone else's link changes nothing and says why."""
    now = now or timezone.now()
    if answer not in ANSWERS:
        return InvitationAnswer(
            "refused", _("This invitation link is broken. Open the game on the site instead."), status=404
        )
    data = _read_token(token)
    if data == "expired":
        return InvitationAnswer(
            "refused",
            _("This invitation link has expired. Open the game on the site instead."),
            status=410,
        )
    if data is None:
        return InvitationAnswer(
            "refused",
            _("This invitation link is broken. Open the game on the site instead."),
            status=400,
        )
    if data["u"] != user.pk:
        return InvitationAnswer(
            "refused",
            _("This invitation was sent to someone else. Log in as that person."),
            status=403,
        )
    with transaction.atomic():
        try:
            game, seats = _locked_seats(data["g"], user=user)
        except GameNotFound:
            return InvitationAnswer("refused", _("This game is not open to you any more."), status=404)
        seat = next((s for s in seats if s.number == data["s"]), None)
        mine = seat_of(seats, user)
        this_invitation = (
            seat is not None
            and seat.user_id == user.pk
            and seat.invited_at is not None
            and _stamp(seat.invited_at) == data["i"]
        )
        if mine is not None and mine.is_filled:
            return InvitationAnswer("already_accepted", _("You already have your seat in this game."), game)
        if not this_invitation:
            return InvitationAnswer(
                "already_answered",
                _("This invitation is closed: it was declined or its time ran out."),
                game,
                status=410,
            )
        if game.status == GameStatus.CANCELLED:
            return InvitationAnswer("refused", _("This game was cancelled."), game, status=410)
        if game.status != GameStatus.WAITING:
            return InvitationAnswer("refused", _("This game has already started."), game, status=410)
        if seat.reply_by is not None and seat.reply_by <= now:
            return InvitationAnswer(
                "already_answered",
                _("The time to answer this invitation ran out; the seat is free again."),
                game,
                status=410,
            )
        if answer == "accept":
            _accept(game, seats, seat, now)
            if game.status == GameStatus.ACTIVE:
                return InvitationAnswer(
                    "accepted", _("You are in. Everybody has accepted: the game has started."), game
                )
            return InvitationAnswer(
                "accepted", _("You are in. The game deals when every player has accepted."), game
            )
        _decline(game, seats, seat, now)
        return InvitationAnswer(
            "declined", _("You declined. The seat is free again; the creator has been told."), game
        )


@transaction.atomic
def invite_to_seat(
    *, game_id: int, actor, number: int, invitee_id: int, group_slug: str | None = None
) -> Game:
    """The game's creator (or a group admin) invites another member to a free seat; they are told in-site
    and by e-mail, with the reply deadline."""
    from games import notifications

    game, seats = _waiting_game(game_id, actor, group_slug)
    _check_creator(game, actor)
    seat = _open_seat(seats, number)
    if seat.user_id is not None:
        raise GameError(_("That seat is not free."))
    if any(other.user_id == invitee_id for other in seats):
        raise GameError(_("That person already has a seat in this game."))
    membership = Membership.objects.select_related("user").filter(group_id=game.group_id, user_id=invitee_id)
    invitee = next((m.user for m in membership[:1]), None)
    if invitee is None:
        raise GameError(_("Every player must be a member of the group."))
    now = timezone.now()
    seat.user, seat.accepted_at, seat.invited_at, seat.reply_by = invitee, None, now, now + reply_time()
    seat.save(update_fields=["user", "accepted_at", "invited_at", "reply_by"])
    _bump(game)
    notifications.invite(game, [seat], now=now)
    return game


INVITATION_BATCH = 500
"""Seats one transaction of the invitation scan frees (its queries do not grow with it)."""


def expire_invitations(*, now=None, limit: int = INVITATION_BATCH) -> dict[int, int]:
    """One batch of the invitation scan: the invited seats whose reply deadline has passed (the soonest
    ``limit``; games an answer or a move holds are skipped, the next scan takes them) are freed, in ONE
    transaction with the same four queries whatever the batch's size: lock the seats and their games,
    free the seats, bump the games' revisions (their pages show the free seat), tell the creators.
    Returns {seat id: game id} of the seats freed."""
    from games import notifications

    now = now or timezone.now()
    with transaction.atomic():
        seats = list(
            Seat.objects.select_for_update(of=("self", "game"), skip_locked=True)
            .select_related("game__group", "user")
            .defer("game__state", "game__staged")
            .filter(
                INVITATION_SCAN,
                reply_by__lte=now,
                accepted_at__isnull=True,
                user__isnull=False,
                game__status=GameStatus.WAITING,
            )
            .order_by("reply_by", "pk")[:limit]
        )
        if not seats:
            return {}
        news = [(seat.game, seat.number, seat.name, seat.invited_at) for seat in seats]
        Seat.objects.filter(pk__in=[seat.pk for seat in seats]).update(
            user=None, invited_at=None, reply_by=None
        )
        Game.objects.filter(pk__in={seat.game_id for seat in seats}).update(revision=F("revision") + 1)
        notifications.tell_creators_expired(news, now=now)
    return {seat.pk: seat.game_id for seat in seats}


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
    Seat.objects.filter(INVITATION_SCAN, game=game).update(reply_by=None)  # nothing left to answer
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
    """Apply ``user``'s engine ``action`` (see games/engine/actions.py), made on ``version`` of the
    game, then the bot seats' moves that follow. Raises GameNotFound, StaleVersion, GameError,
    MoveRefused. (The play page goes through :func:`move`.)"""
    game, seats = _locked(game_id, user=user, group_slug=group_slug)
    seat = _player_seat(game, seats, user)
    if version is None or version != game.version:
        raise StaleVersion
    state = load_state(game)
    try:
        return _apply(game, seats, seat, state, action, user)
    except engine.AmbiguousWild as error:
        raise MoveRefused(error, moves.wild_choices(state, error)) from None
    except engine.DomainError as error:
        raise MoveRefused(error) from None


def _player_seat(game: Game, seats: list[Seat], user) -> Seat:
    """The seat ``user`` plays in this active game, or a GameError saying why they cannot move."""
    seat = seat_of(seats, user)
    if game.status != GameStatus.ACTIVE:
        if game.status == GameStatus.WAITING:
            raise GameError(_("The game has not started yet."))
        raise GameError(_("The game is over."))
    if seat is None or not seat.is_filled:
        raise GameError(_("You are watching this game; only its players make moves."))
    if seat.bot:
        raise GameError(_("A bot plays your seat now."))
    return seat


def _apply(game: Game, seats: list[Seat], seat: Seat, state, action: dict, user) -> MoveResult:
    """Apply the action (raises engine.DomainError, changing nothing), the bots' moves, and save."""
    previous_turn = _turn_key(state)
    deal = state.deal.number
    events = engine.apply(state, seat.number, action)
    result = MoveResult(game=game, seats=seats, state=state)
    _log(result, seat.number, action, events, actor=user, kind=MoveKind.PLAYER, deal=deal)
    _run_bots(result)
    _save(result, previous_turn=previous_turn)
    return result


# --- The play page's moves and staged melds -------------------------------------------------------


@dataclass
class MoveOutcome:
    """What :func:`move` did: the game as it is now (applied or not) and, for a refusal, the sentence."""

    game: Game
    seats: list[Seat]
    state: engine.GameState | None
    staged: list[moves.StagedMeld] = field(default_factory=list)
    applied: bool = False
    error: str | None = None
    wild_choices: list[tuple[int, str]] = field(default_factory=list)
    selected: tuple[int, ...] = ()
    moves: list[Move] | None = None  # the rows written (the player's move and the bots' that followed)
    arranged: bool = False  # the player's own order of their hand was saved (show it)


def _deal_key(state: engine.GameState) -> list[int]:
    return [state.deal.number, state.deal.attempt]


def staged_specs(game: Game, number: int, state: engine.GameState | None) -> list[dict]:
    """The melds seat ``number`` has put aside in the current deal (as stored; not checked)."""
    entry = (game.staged or {}).get(str(number))
    if state is None or not isinstance(entry, dict) or entry.get("deal") != _deal_key(state):
        return []
    return list(entry.get("melds") or [])


def staged_melds(game: Game, number: int | None, state: engine.GameState | None) -> list[moves.StagedMeld]:
    """The staged melds of seat ``number`` that still hold now, for the page."""
    if number is None or state is None or state.finished:
        return []
    return moves.read_staged(state, number, staged_specs(game, number, state))


def _set_staged(game: Game, number: int, state: engine.GameState, specs: list[dict]) -> None:
    staged = {key: entry for key, entry in (game.staged or {}).items() if key != str(number)}
    if specs:
        staged[str(number)] = {"deal": _deal_key(state), "melds": specs}
    game.staged = staged


def _prune_staged(game: Game, state: engine.GameState) -> None:
    """After a write: keep only the staged melds that still hold (none from an earlier deal)."""
    kept = {}
    for key in game.staged or {}:
        if state.finished or not key.isdigit() or int(key) >= state.players:
            continue
        melds = [meld.spec for meld in staged_melds(game, int(key), state)]
        if melds:
            kept[key] = {"deal": _deal_key(state), "melds": melds}
    game.staged = kept


@transaction.atomic
def move(*, game_id: int, group_slug: str, user, request: moves.MoveRequest) -> MoveOutcome:
    """One press of a button on the play page (games.forms.MoveForm's typed request): a move, or
    putting a meld aside / taking it back (kept per seat in ``Game.staged``). One result for success
    and refusal alike. Only GameNotFound (not in the group: the view answers 404) is raised; nothing
    of the request is looked at before that check (the lock query joins the membership)."""
    game, seats = _locked(game_id, user=user, group_slug=group_slug)
    state = load_state(game)
    seat = seat_of(seats, user)
    number = seat.number if seat is not None and seat.is_filled else None
    outcome = MoveOutcome(game=game, seats=seats, state=state, staged=staged_melds(game, number, state))

    def refuse(message: str, *, keep_selection: bool = True, choices=()) -> MoveOutcome:
        outcome.error = message
        outcome.wild_choices = list(choices)
        outcome.selected = request.cards if keep_selection else ()
        return outcome

    if request.problem:
        return refuse(request.problem, keep_selection=False)
    try:
        seat = _player_seat(game, seats, user)
    except GameError as error:
        return refuse(error.message, keep_selection=False)
    if request.is_arranging:
        return _arrange(outcome, seat, state, request, refuse)
    if not request.is_staging and request.version != game.version:
        return refuse(StaleVersion().message, keep_selection=False)
    current = [meld.spec for meld in outcome.staged]
    try:
        if request.is_staging:
            specs = moves.stage(state, seat.number, current, request)
            _set_staged(game, seat.number, state, specs)
            game.save(update_fields=["staged"])  # nobody else sees it: no new revision
            outcome.staged = moves.read_staged(state, seat.number, specs)
            return outcome
        action = moves.to_action(state, seat.number, request, current)
        if action["type"] in ("meld", "announce", "take_discard") and request.act == "lay_down":
            _set_staged(game, seat.number, state, [])  # saved with the move
        result = _apply(game, seats, seat, state, action, user)
    except engine.AmbiguousWild as error:
        return refuse(_sentence(error), choices=moves.wild_choices(state, error))
    except engine.DomainError as error:
        return refuse(_refusal(state, seat.number, request, error))
    outcome.seats, outcome.state, outcome.applied = result.seats, result.state, True
    outcome.moves = result.moves
    outcome.staged = staged_melds(game, seat.number, result.state)
    return outcome


CARD_PARAMS = frozenset({"card", "cards", "wild", "face", "choices"})
"""Parameters of a sentence that are cards in notation ("8♦", "5♠ 6♠"): left to right in any language."""


def _cards_ltr(params: dict) -> dict:
    """In a right-to-left language each run of cards in a sentence is a left-to-right isolate (LRI ...
    PDI), so "8♦" never reads "♦8" (a first-strong isolate has no strong letter to go by)."""
    if not get_language_bidi():
        return params
    return {key: f"\u2066{value}\u2069" if key in CARD_PARAMS else value for key, value in params.items()}


def _sentence(error: engine.DomainError) -> str:
    """The engine's sentence in the reader's language."""
    template = _(error.template)
    return template.format(**_cards_ltr(error.params)) if error.params else template


def _refusal(state: engine.GameState, number: int, request: moves.MoveRequest, error) -> str:
    """The engine's sentence, after what the player tried when it names cards ("7♣ 8♣ onto meld 3:
    These cards do not fit on that meld.")."""
    reason = _sentence(error)
    what = moves.tried(state, number, request)
    if what is None:
        return reason
    template, params = what
    return _("{what}: {reason}").format(what=_(template).format(**_cards_ltr(params)), reason=reason)


def _arrange(outcome: MoveOutcome, seat: Seat, state, request: moves.MoveRequest, refuse) -> MoveOutcome:
    """``group`` / ``arrange``: the seat's own order of its hand, kept on the seat for this deal (nobody
    else sees it: no new revision). The cards put aside in staged melds are not in the shown hand."""
    if state is None or moves.is_foot(state):
        return refuse(_("That is not a move."), keep_selection=False)
    own = moves.own_order(seat.hand_order, state)
    aside = {card["id"] for meld in outcome.staged for card in meld.cards}
    hand = [{"id": c.id, "face": c.face} for c in state.deal.hands[seat.number] if c.id not in aside]
    shown = [c["id"] for c in moves.ordered_hand(hand, moves.effective_sort(request.sort, own), own)]
    try:
        order = moves.arranged(shown, request)
    except engine.DomainError as error:
        return refuse(error.sentence(_))
    seat.hand_order = {"deal": [state.deal.number, state.deal.attempt], "cards": order}
    seat.save(update_fields=["hand_order"])
    outcome.arranged = True
    return outcome


def _log(
    result: MoveResult,
    seat: int | None,
    action: dict,
    events: list,
    *,
    actor=None,
    kind=MoveKind.PLAYER,
    deal: int | None = None,
):
    result.moves.append(
        Move(
            game=result.game,
            seq=result.state.version,
            seat=seat,
            actor=actor,
            kind=kind,
            action=action,
            deal=deal,
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
                deal = state.deal.number
                events = engine.apply(state, number, action)
                _log(result, number, action, events, kind=MoveKind.BOT, deal=deal)
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
    "staged",
]
"""The columns :func:`_save` writes (the game's frozen settings are never rewritten)."""


def _save(result: MoveResult, *, previous_turn: tuple | None, batch: _Batch | None = None) -> None:
    """State, log and version in the transaction the caller holds; then the hooks. With ``batch`` the
    rows are collected and written for the whole batch at once (:meth:`_Batch.write`)."""
    game, state = result.game, result.state
    together = batch is None and movesql.written_together(result.moves)
    if result.moves and batch is not None:
        batch.moves.extend(result.moves)
    elif result.moves and not together:
        Move.objects.bulk_create(result.moves)
    game.state = engine.to_json(state)
    game.version = state.version
    _prune_staged(game, state)
    game.revision += 1
    ended = [event for event in result.events if event.get("type") == "deal_ended"]
    if ended:
        _on_deal_end(game, ended)
    if state.finished and game.status != GameStatus.FINISHED:
        _on_game_end(game, result)
    if _turn_key(state) != previous_turn or previous_turn is None:
        actor = next((m.seat for m in result.moves if m.kind == MoveKind.PLAYER), None)
        returned = actor is not None and previous_turn is not None and state.current == actor
        _on_turn_change(
            game,
            previous_turn,
            result.events,
            state=state,
            returned_to_actor=returned,
            seats=result.seats,
            batch=batch,
        )
    if batch is not None:
        batch.games.append(game)
    elif together:
        movesql.write_moves_and_game(result.moves, game, SAVED_FIELDS)  # the log INSERT with the UPDATE
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
    seats: list[Seat] = (),
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
    from games import notifications  # imported here: it imports handsite.services

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
        batch.turns_began.append((game, seats))  # written with the batch's other rows
        return
    notifications.turn_began(game, seats, now=now)  # the "your turn" outbox row, in this transaction


def _on_deal_end(game: Game, ended_events: list[dict]) -> None:
    """One or more deals ended in this write (``deal_ended`` events: points, totals, hands).

    Logs each ended deal and queues, for after the commit, the background task that applies the
    game's results to the group's standings (recomputed from the raw facts, so idempotent). The task is
    recorded in this transaction: if the broker is down at the commit, the beat scan queues it later.
    """
    from games import tasks as games_tasks
    from handsite.services import task_queue

    for event in ended_events:
        log.info("game %s: deal %s ended", game.pk, event.get("deal"))
    task_queue.run_after_commit(games_tasks.record_online_result, game.pk)  # the standings, soon


def _on_game_end(game: Game, result: MoveResult) -> None:
    """The game reached its end: the players are told (in-site, and by push to who chose it)."""
    from games import notifications

    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    mover = next((m.seat for m in result.moves if m.kind == MoveKind.PLAYER), None)
    notifications.game_finished(game, result.seats, mover_seat=mover)


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


@transaction.atomic
def leave_game(*, game_id: int, user, group_slug: str | None = None) -> MoveResult:
    """``user`` hands their seat to a bot for the rest of the game (they stay recorded on the seat and
    may watch). The other players are told; the log shows it."""
    from games import notifications

    game, seats = _locked(game_id, user=user, group_slug=group_slug)
    seat = _player_seat(game, seats, user)
    now = timezone.now()
    seat.bot, seat.left_at, seat.left_version = True, now, game.version
    seat.save(update_fields=["bot", "left_at", "left_version"])
    state = load_state(game)
    result = MoveResult(game=game, seats=seats, state=state)
    previous_turn = _turn_key(state)
    subject = _("{name} left {game}; a bot plays their seat.").format(name=seat.name, game=game)
    notifications.tell_players(
        game, seats, kind=notifications.SEAT_LEFT, subject=subject, body=subject, skip_user_id=user.pk
    )
    _run_bots(result)
    _save(result, previous_turn=previous_turn)
    return result


@transaction.atomic
def end_game(*, game_id: int, actor, group_slug: str | None = None) -> Game:
    """The group's owner or an admin ends a game in play: it is kept (status "abandoned", shown with
    its log) and never scored or rated. The players are told."""
    from games import notifications

    game, seats = _locked(game_id, user=actor, group_slug=group_slug)
    if not Membership.objects.filter(
        group_id=game.group_id, user=actor, role__in=("owner", "admin")
    ).exists():
        raise GameError(_("Only the group's owner or an admin can end a game."))
    if game.status != GameStatus.ACTIVE:
        raise GameError(_("The game is not in play."))
    game.status = GameStatus.ABANDONED
    game.finished_at = timezone.now()
    game.ended_by = actor
    game.turn_seat = game.turn_started_at = game.deadline_at = game.next_reminder_at = None
    game.paused_until = None
    game.staged = {}
    subject = _("{name} ended {game} early; it will not be scored.").format(name=actor.name, game=game)
    notifications.tell_players(
        game, seats, kind=notifications.GAME_ENDED, subject=subject, body=subject, skip_user_id=actor.pk
    )
    _bump(
        game,
        "status",
        "finished_at",
        "ended_by",
        "turn_seat",
        "turn_started_at",
        "deadline_at",
        "next_reminder_at",
        "paused_until",
        "staged",
    )
    return game


def _auto_moves(state: engine.GameState, seat: int) -> list[dict]:
    """The timeout move: draw (if not drawn yet) and discard the drawn card; never melds. If the drawn
    card cannot be discarded (or nothing was drawn: a first turn of 15 cards), the bot's worst card.
    Hand and Foot: draw (or take the pile when the draw pile is too small), then the bot's discard."""
    if is_foot(state):
        return _foot_auto_moves(state, seat)
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


def _foot_auto_moves(state, seat: int) -> list[dict]:
    """Hand and Foot timeout: draw (or take the pile when the draw pile is too small), then discard the
    card the bot needs least; if no discard is allowed (004, only wild cards that can be laid off), the
    bot finishes the turn."""
    from games.engine.handfoot_play import _discard_order
    from games.engine.handfoot_play import bot_action as foot_bot

    work = state.copy()
    done = []
    if work.deal.phase == engine.DRAW:
        first = engine.legal_actions(work, seat)[0]  # "draw" when the draw pile allows it, else the pile
        engine.apply(work, seat, first)
        done.append(first)
    for card in _discard_order(work, seat):
        action = {"type": "discard", "card": card.id}
        if engine.can(work, seat, action):
            return [*done, action]
    for _step in range(60):
        if work.finished or work.deal.current != seat:
            break
        action = foot_bot(work, seat)
        engine.apply(work, seat, action)
        done.append(action)
    return done


# --- The deadline scan, in batches -------------------------------------------------------------

DEADLINE_BATCH = 500
"""Games one transaction of the deadline scan handles (its queries do not grow with it)."""


@dataclass
class _Batch:
    """Rows collected from many games' writes, written once for all (:meth:`write`)."""

    moves: list[Move] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    turns_began: list[tuple[Game, list[Seat]]] = field(default_factory=list)
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
        deadlines.notify(turns_began=self.turns_began, timed_out=self.timed_out, now=now)


def update_games(games: list[Game], fields: list[str]) -> None:
    """Write ``fields`` of many games in ONE UPDATE joined on a row source (handsite.bulk): what
    ``bulk_update`` does without a CASE expression per game and column."""
    if not games:
        return
    columns = [Game._meta.pk, *(Game._meta.get_field(name) for name in fields)]
    source, params = bulk.rows(
        columns,
        [[c.get_db_prep_save(getattr(game, c.attname), connection) for c in columns] for game in games],
    )
    quote = connection.ops.quote_name
    names = ", ".join(quote(c.column) for c in columns)
    sets = ", ".join(f"{quote(c.column)} = v.{quote(c.column)}" for c in columns[1:])
    table, pk = quote(Game._meta.db_table), quote(Game._meta.pk.column)
    sql = f"WITH v ({names}) AS ({source}) UPDATE {table} SET {sets} FROM v WHERE {table}.{pk} = v.{pk}"
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
    is never read. A deadline that fell in the quiet hours of the player to move (their settings changed
    since it was planned) moves to their end instead (deadlines.out_of_quiet_hours). Returns
    {game id: "timed_out" | "paused" | "moved"} for the games it changed.
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
            .select_related("game__group")  # the group: the notifications' links
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
            elif pref is not None and deadlines.out_of_quiet_hours(game, pref):
                game.next_reminder_at = now  # planned again with the moved deadline
                game.revision += 1  # the play page's poll shows the moved deadline
                batch.paused.append(game)
                outcome[game_id] = "moved"
            else:
                to_move.append(game_id)
        states = (
            dict(Game.objects.filter(pk__in=to_move).order_by().values_list("pk", "state")) if to_move else {}
        )
        for game_id in to_move:
            game, seats = games[game_id]
            game.state = states.pop(game_id)  # the raw state goes with the game (not held twice)
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
            deal = state.deal.number
            events = engine.apply(state, number, action)
            _log(result, number, action, events, kind=MoveKind.TIMEOUT, deal=deal)
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
            locked = Game.objects.select_for_update(skip_locked=True, of=("self",)).filter(
                pk__in=due.values("pk")[:limit]
            )
        else:
            locked = Game.objects.select_for_update(of=("self",)).filter(pk__in=game_ids)
        games = list(locked.select_related("group").defer("state").order_by())  # group: the links
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
        deadlines.notify(reminders=due, now=now)
    return {game.pk: game.next_reminder_at for game in games}


@transaction.atomic
def end_pauses(*, now, game_ids: list[int]) -> None:
    """A player back early from vacation: their games' paused deadlines come back by the unused time
    (deadlines.unpause) and are planned again, in a constant number of queries."""
    from games import deadlines

    games = list(
        Game.objects.select_for_update(of=("self",)).filter(pk__in=game_ids).defer("state").order_by()
    )
    for game in games:
        deadlines.unpause(game, now)
    update_games(games, deadlines.SCHEDULE_FIELDS)
    plan_reminders(now=now, game_ids=game_ids)


# --- Table talk ----------------------------------------------------------------------------------


@dataclass
class ChatOutcome:
    """What a chat request came to: ``error`` is the refusal's sentence (nothing was changed)."""

    game: Game
    seats: list[Seat]
    error: str | None = None
    message: ChatMessage | None = None


@transaction.atomic
def chat(*, game_id: int, group_slug: str, user, request: ChatRequest) -> ChatOutcome:
    """Write a table-talk message, delete one, or mark the game's chat read, for ``user``. ONE result
    for success and refusal alike; GameNotFound (404) when the person is not in the game's group.

    Writing: only a person seated at the table (bots never write), at most ``chat.per_minute()``
    messages a minute; each other person seated gets an in-site notification (never an e-mail of its
    own: the digest counts them), and the game's revision moves so every open page's poll brings it.
    Deleting: the writer, or the group's owner or an admin; the text is wiped, the row stays."""
    from games import chat as chat_module
    from games import notifications

    game, seats = _locked(game_id, user=user, group_slug=group_slug)  # the membership check comes first
    if request.problem:
        return ChatOutcome(game, seats, error=request.problem)
    if request.action == "read":
        notifications.chat_read(user, game)
        return ChatOutcome(game, seats)
    if request.action == "delete":
        return _delete_chat(game, seats, user, request.message)
    seat = seat_of(seats, user)
    if seat is None or seat.accepted_at is None:
        return ChatOutcome(game, seats, error=_("Only the players at this table can write here."))
    if not chat_module.allowed_now(user.pk):
        return ChatOutcome(game, seats, error=chat_module.too_fast_sentence())
    message = ChatMessage.objects.create(game=game, author=user, text=request.text, version=game.version)
    notifications.chat_written(game, seats, message)
    notifications.chat_read(user, game)  # writing here, they have read what came before
    _bump(game)
    return ChatOutcome(game, seats, message=message)


def _delete_chat(game: Game, seats: list[Seat], user, message_id: int | None) -> ChatOutcome:
    from games import notifications

    message = ChatMessage.objects.filter(pk=message_id, game=game, deleted_at__isnull=True).first()
    if message is None:
        return ChatOutcome(game, seats, error=_("That message is not there any more."))
    if (
        message.author_id != user.pk
        and not Membership.objects.filter(
            group_id=game.group_id, user=user, role__in=("owner", "admin")
        ).exists()
    ):
        return ChatOutcome(
            game, seats, error=_("Only the person who wrote a message, or a group admin, can delete it.")
        )
    message.text, message.deleted_at, message.deleted_by = "", timezone.now(), user
    message.save(update_fields=["text", "deleted_at", "deleted_by"])
    notifications.chat_deleted(game, seats, message)
    _bump(game)
    return ChatOutcome(game, seats, message=message)
