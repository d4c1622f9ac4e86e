"""The scans beat runs every minute (games.tasks), each in batches of the same few queries whatever
their size: the invitations whose reply time ran out, the deadlines that passed (the game's timeout
rule, as a logged move), and the reminders due (planned by games.deadlines). A vacation booked or
ended plans the person's games again.

    expire_invitations(now=None) -> {seat id: game id}       # seats whose invitation ran out, freed
    expire_due(now=None) -> {game id: "timed_out" | ...}     # deadlines passed
    plan_reminders(now=None) -> {game id: next reminder}     # reminders and warnings due
    timeout_move(game_id=, now=None)                         # one game's timeout, outside a batch
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from games import deadlines, engine, notifications
from games.models import DEADLINE_SCAN, INVITATION_SCAN, Game, GameStatus, Move, MoveKind, Seat, TimeoutRule
from games.services import core, saving
from handsite import bulk
from handsite.models import NotificationPreference

# --- The invitation scan, in batches ---------------------------------------------------------------

INVITATION_BATCH = 500
"""Seats one transaction of the invitation scan frees (its queries do not grow with it)."""


def expire_invitations(*, now=None, limit: int = INVITATION_BATCH) -> dict[int, int]:
    """One batch of the invitation scan: the invited seats whose reply deadline has passed (the soonest
    ``limit``; games an answer or a move holds are skipped, the next scan takes them) are freed, in ONE
    transaction with the same four queries whatever the batch's size: lock the seats and their games,
    free the seats, bump the games' revisions (their pages show the free seat), tell the creators.
    Returns {seat id: game id} of the seats freed."""
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


# --- The deadline scan, one game at a time --------------------------------------------------------


@transaction.atomic
def timeout_move(*, game_id: int, now=None) -> core.MoveResult | None:
    """Apply the game's timeout rule if the current turn's deadline has passed; None if there is nothing
    to do (no deadline, not due yet, rule "nothing", game not active). Safe to call twice: the second
    call finds the new turn's deadline in the future."""
    now = now or timezone.now()
    game, seats = core.locked(game_id)
    if game.status != GameStatus.ACTIVE or game.deadline_at is None or game.deadline_at > now:
        return None
    if game.timeout_rule == TimeoutRule.NOTHING:
        return None
    return _timeout(game, seats)


# --- The deadline scan, in batches -------------------------------------------------------------

DEADLINE_BATCH = 500
"""Games one transaction of the deadline scan handles (its queries do not grow with it)."""


def _write(batch: saving.Batch, now) -> None:
    """The rows a batch of the deadline scan collected, written once for all its games."""
    if batch.moves:
        Move.objects.bulk_create(batch.moves)
    if batch.bot_seats:
        Seat.objects.filter(pk__in=batch.bot_seats).update(bot=True)
    if batch.games:
        update_games(batch.games, saving.SAVED_FIELDS)
    if batch.paused:
        update_games(batch.paused, deadlines.SCHEDULE_FIELDS)
    deadlines.notify(turns_began=batch.turns_began, timed_out=batch.timed_out, now=now)


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
        batch, outcome = saving.Batch(), {}
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
        _write(batch, now)
    return outcome


DEADLINE_SCAN_OF_SEAT = Q(game__status=GameStatus.ACTIVE, game__deadline_at__isnull=False) & ~Q(
    game__timeout_rule=TimeoutRule.NOTHING
)
"""games.models.DEADLINE_SCAN seen from a seat: re-checked on the locked rows."""


def _timeout(game: Game, seats: list[Seat], batch: saving.Batch | None = None) -> core.MoveResult:
    """The game's timeout rule for the seat to move, then the bots that follow (``game.state`` loaded)."""
    state = core.load_state(game)
    previous_turn = saving.turn_key(state)
    number = state.current
    result = core.MoveResult(game=game, seats=seats, state=state)
    if game.timeout_rule == TimeoutRule.BOT:
        seat = next(s for s in seats if s.number == number)
        seat.bot = True
        if batch is not None:
            batch.bot_seats.append(seat.pk)
        else:
            seat.save(update_fields=["bot"])
    else:
        for action in engine.timeout_actions(state, number):
            deal = state.deal.number
            events = engine.apply(state, number, action)
            saving.log_action(result, number, action, events, kind=MoveKind.TIMEOUT, deal=deal)
    saving.run_bots(result)
    saving.save(result, previous_turn=previous_turn, batch=batch)
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
    games = list(
        Game.objects.select_for_update(of=("self",)).filter(pk__in=game_ids).defer("state").order_by()
    )
    for game in games:
        deadlines.unpause(game, now)
    update_games(games, deadlines.SCHEDULE_FIELDS)
    plan_reminders(now=now, game_ids=game_ids)


def plan(game_id: int, now=None):
    """Plan one game now (:func:`plan_reminders` with this game alone); returns its new
    ``next_reminder_at``."""
    return plan_reminders(now=now, game_ids=[game_id]).get(game_id)


def expire(game_id: int, now=None) -> str | None:
    """The deadline scan's step for one game (:func:`expire_due` with this game alone): "timed_out",
    "paused" (the player to move is on vacation) or None (nothing due)."""
    return expire_due(now=now, game_ids=[game_id]).get(game_id)


# --- Vacation (handsite books it and sends vacation_started / vacation_ended; see games/apps.py) ---


def _my_turn_games(user) -> list[int]:
    return list(notifications.turn_games(user.pk).values_list("pk", flat=True))


def vacation_started(sender, *, user, now, **kwargs) -> None:
    """handsite's signal, inside the booking's transaction: pause the deadlines of this person's turns
    (one batch of :func:`plan_reminders`)."""
    plan_reminders(now=now, game_ids=_my_turn_games(user))


def vacation_ended(sender, *, user, now, **kwargs) -> None:
    """handsite's signal, inside the transaction: paused deadlines come back by the unused time."""
    end_pauses(now=now, game_ids=_my_turn_games(user))
