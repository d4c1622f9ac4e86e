"""Seats and the start of a game: create a game, take, accept, decline or give up a seat, fill one
with a bot, invite another member, cancel a game that has not started. The game deals (through
games.services.saving) when its last seat is filled.

Every function takes ids / users and returns the game; refusals raise games.services.core.GameError.
"""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine, notifications
from games.models import INVITATION_SCAN, Game, GameStatus, Seat, TimeoutRule
from games.services import core, invitation_links, saving
from handsite.models import Membership

BOT = "bot"
"""Put this in ``create_game(seats=[...])`` for a practice bot's seat."""


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
        raise core.GameError(_("Choose a rule set from the list."))
    players = len(seats)
    try:
        frozen = engine.validate_options(variant, players, options or {})
    except engine.DomainError as error:
        raise core.GameError(error.sentence(_)) from None
    humans = [entry for entry in seats if entry != BOT]
    if not humans:
        raise core.GameError(_("At least one seat must be a person."))
    if len({user.pk for user in humans}) != len(humans):
        raise core.GameError(_("A person can have only one seat."))
    member_ids = set(
        Membership.objects.filter(group=group, user__in=[*humans, created_by]).values_list(
            "user_id", flat=True
        )
    )
    if created_by.pk not in member_ids:
        raise core.GameError(_("Only members of the group can start a game."))
    if any(user.pk not in member_ids for user in humans):
        raise core.GameError(_("Every player must be a member of the group."))
    if move_hours < 0:
        raise core.GameError(_("Choose a time per move from the list."))
    if timeout_rule not in TimeoutRule.values:
        raise core.GameError(_("Choose what happens when the time runs out."))
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
    reply_by = now + invitation_links.reply_time()
    rows = []
    for number, entry in enumerate(order):
        if entry == BOT:
            rows.append(Seat(game=game, number=number, bot=True, accepted_at=now))
        elif entry.pk == created_by.pk:
            rows.append(Seat(game=game, number=number, user=entry, accepted_at=now))
        else:
            rows.append(Seat(game=game, number=number, user=entry, invited_at=now, reply_by=reply_by))
    Seat.objects.bulk_create(rows)
    seats_now = core.seats_of(game)
    if all(seat.is_filled for seat in seats_now):
        saving.deal_first(game, seats_now)
    else:
        notifications.invite(game, [seat for seat in seats_now if seat.is_invited], now=now)
    return game


def _waiting_game(game_id: int, user, group_slug=None) -> tuple[Game, list[Seat]]:
    game, seats = core.locked_seats(game_id, user=user, group_slug=group_slug)
    if game.status != GameStatus.WAITING:
        raise core.GameError(_("This game has already started."))
    return game, seats


def _deal_or_bump(game: Game, seats: list[Seat]) -> None:
    """After a seat change: deal when every seat is filled, otherwise only tell the pollers."""
    if all(seat.is_filled for seat in seats):
        saving.deal_first(game, seats)
    else:
        core.bump(game)


@transaction.atomic
def accept_seat(*, game_id: int, user, group_slug: str | None = None) -> Game:
    """Take the seat one was invited to. A second tap (the first one dealt the game) is a success too."""
    game, seats = core.locked_seats(game_id, user=user, group_slug=group_slug)
    seat = core.seat_of(seats, user)
    if game.status == GameStatus.ACTIVE and seat is not None and seat.accepted_at is not None:
        return game
    if game.status != GameStatus.WAITING:
        raise core.GameError(_("This game has already started."))
    if seat is None:
        raise core.GameError(_("You have no seat in this game."))
    if seat.accepted_at is None:
        accept(game, seats, seat, timezone.now())
    else:
        _deal_or_bump(game, seats)
    return game


@transaction.atomic
def decline_seat(*, game_id: int, user, group_slug: str | None = None) -> Game:
    """Leave the seat open: another member may take it, or the creator may give it to a bot."""
    game, seats = _waiting_game(game_id, user, group_slug)
    seat = core.seat_of(seats, user)
    if seat is None:
        raise core.GameError(_("You have no seat in this game."))
    decline(game, seats, seat, timezone.now())
    return game


def accept(game: Game, seats: list[Seat], seat: Seat, now) -> None:
    """The invited player takes their seat; the game deals when every seat is filled. The creator is
    told when the last invitation is answered (the game started, or seats are still free)."""
    seat.accepted_at = now
    seat.reply_by = None
    seat.save(update_fields=["accepted_at", "reply_by"])
    _deal_or_bump(game, seats)
    if not any(other.is_invited for other in seats):
        event = notifications.STARTED if game.status == GameStatus.ACTIVE else notifications.ANSWERED
        free = sum(not other.is_filled for other in seats)
        notifications.tell_creator(game, event, seat=seat, by_id=seat.user_id, free=free, now=now)


def decline(game: Game, seats: list[Seat], seat: Seat, now) -> None:
    """The player gives their seat back: it is free for another member, or the creator gives it to a
    bot or invites someone else. The creator is told."""
    name, invited_at, by_id = seat.name, seat.invited_at, seat.user_id
    seat.user = None
    seat.accepted_at = seat.invited_at = seat.reply_by = None
    seat.save(update_fields=["user", "accepted_at", "invited_at", "reply_by"])
    core.bump(game)
    notifications.tell_creator(
        game, notifications.DECLINED, seat=seat, by_id=by_id, name=name, invited_at=invited_at, now=now
    )


@transaction.atomic
def invite_to_seat(
    *, game_id: int, actor, number: int, invitee_id: int, group_slug: str | None = None
) -> Game:
    """The game's creator (or a group admin) invites another member to a free seat; they are told in-site
    and by e-mail, with the reply deadline."""
    game, seats = _waiting_game(game_id, actor, group_slug)
    _check_creator(game, actor)
    seat = _open_seat(seats, number)
    if seat.user_id is not None:
        raise core.GameError(_("That seat is not free."))
    if any(other.user_id == invitee_id for other in seats):
        raise core.GameError(_("That person already has a seat in this game."))
    membership = Membership.objects.select_related("user").filter(group_id=game.group_id, user_id=invitee_id)
    invitee = next((m.user for m in membership[:1]), None)
    if invitee is None:
        raise core.GameError(_("Every player must be a member of the group."))
    now = timezone.now()
    seat.user, seat.accepted_at, seat.invited_at, seat.reply_by = (
        invitee,
        None,
        now,
        now + invitation_links.reply_time(),
    )
    seat.save(update_fields=["user", "accepted_at", "invited_at", "reply_by"])
    core.bump(game)
    notifications.invite(game, [seat], now=now)
    return game


def _open_seat(seats: list[Seat], number: int) -> Seat:
    seat = next((s for s in seats if s.number == number), None)
    if seat is None or seat.is_filled:
        raise core.GameError(_("That seat is not free."))
    return seat


@transaction.atomic
def take_seat(*, game_id: int, user, number: int, group_slug: str | None = None) -> Game:
    game, seats = _waiting_game(game_id, user, group_slug)
    if core.seat_of(seats, user) is not None:
        raise core.GameError(_("You already have a seat in this game."))
    seat = _open_seat(seats, number)
    if seat.user_id is not None:
        raise core.GameError(_("That seat is not free."))
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
    raise core.GameError(_("Only the person who started the game (or a group admin) can do that."))


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
    core.bump(game, "status", "finished_at")
    return game
