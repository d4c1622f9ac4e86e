"""Deadlines, reminders and vacations of online games (issue 6).

Nothing here waits in Celery: the game row carries ``deadline_at`` and ``next_reminder_at`` and beat
finds the due ones every minute with an indexed scan (the partial indexes ``game_active_deadline`` and
``game_active_reminder``: WHERE status = 'active' AND column IS NOT NULL).

- games.services' turn-change hook writes the "your turn" outbox row (games/notifications.py, one
  query) inside the move's transaction and sets ``next_reminder_at`` to now, so the next reminder scan
  plans the turn from the player's settings.
- :func:`plan` (reminder scan) writes reminder and low-time notifications when due and sets the next
  ``next_reminder_at``; quiet hours push it to their end; a player on vacation has the deadline paused
  (pushed back by the vacation) and ``paused_until`` set, which the play page shows.
- :func:`expire` (deadline scan) applies the game's timeout rule through ``services.timeout_move`` — a
  normal logged move — and tells the player.

These functions write only the scheduling columns (``deadline_at``, ``next_reminder_at``,
``paused_until``, ``revision``), under the same row lock games.services takes; moves stay in services.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone

from games import notifications as game_notifications
from games import services
from games.models import DEADLINE_SCAN, Game, GameStatus, Seat, TimeoutRule
from handsite import notifications
from handsite import services as site_services

LOW_TIME_SHARE = 0.8
"""The low-time warning goes out when this share of the time per move has passed."""


# --- The scans -----------------------------------------------------------------------------------


def due_reminders(now: dt.datetime | None = None, limit: int = 1000) -> list[int]:
    now = now or timezone.now()
    return list(
        Game.objects.filter(
            status=GameStatus.ACTIVE, next_reminder_at__isnull=False, next_reminder_at__lte=now
        )
        .order_by("next_reminder_at")
        .values_list("pk", flat=True)[:limit]
    )


def due_deadlines(now: dt.datetime | None = None, limit: int = 1000) -> list[int]:
    now = now or timezone.now()
    return list(
        Game.objects.filter(DEADLINE_SCAN, deadline_at__lte=now)  # the index's own condition
        .order_by("deadline_at")
        .values_list("pk", flat=True)[:limit]
    )


def _locked(game_id: int) -> Game | None:
    return Game.objects.select_for_update(of=("self",)).filter(pk=game_id).first()


def _save(game: Game, before: tuple) -> None:
    fields = ["next_reminder_at", "deadline_at", "paused_until"]
    if (game.deadline_at, game.paused_until) != before:
        game.revision += 1  # the play page's poll shows the new deadline / pause
        fields.append("revision")
    game.save(update_fields=fields)


def _turn_player(game: Game) -> Seat | None:
    seat = Seat.objects.filter(game=game, number=game.turn_seat).first()
    if seat is None or seat.bot or seat.user_id is None:
        return None
    return seat


@transaction.atomic
def plan(game_id: int, now: dt.datetime | None = None) -> dt.datetime | None:
    """Write what is due for the current turn and set the game's next reminder time. Idempotent (the
    notifications' unique key); returns the new ``next_reminder_at``."""
    now = now or timezone.now()
    game = _locked(game_id)
    if game is None:
        return None
    before = (game.deadline_at, game.paused_until)
    seat = _turn_player(game) if game.status == GameStatus.ACTIVE and game.turn_seat is not None else None
    if seat is None or game.turn_version is None:
        game.next_reminder_at = None
        game.paused_until = None
        _save(game, before)
        return None
    pref = notifications.preference_of(seat.user_id)
    started = game.turn_started_at or now

    if pref.on_vacation(now):
        if game.paused_until != pref.vacation_until:
            if game.deadline_at is not None:
                base = game.paused_until or max(started, pref.vacation_started_at or now)
                game.deadline_at += pref.vacation_until - base
            game.paused_until = pref.vacation_until
        game.next_reminder_at = pref.vacation_until
        _save(game, before)
        return game.next_reminder_at
    game.paused_until = None

    quiet_end = notifications.quiet_until(pref, now)
    if quiet_end is not None:
        game.next_reminder_at = quiet_end  # whatever is due waits for the end of the quiet hours
        _save(game, before)
        return quiet_end

    key = {"user_id": seat.user_id, "seat": seat.number, "turn": game.turn_version}
    upcoming: list[dt.datetime] = []
    if game.deadline_at is not None and game.move_hours:
        low_at = game.deadline_at - dt.timedelta(hours=game.move_hours) * (1 - LOW_TIME_SHARE)
        if now < low_at:
            upcoming.append(low_at)
        elif now < game.deadline_at:
            game_notifications.record(game, kind=game_notifications.LOW_TIME, **key)
    if pref.reminders and not pref.daily_digest:
        anchor = started
        if pref.vacation_until is not None and started < pref.vacation_until <= now:
            anchor = pref.vacation_until  # back from vacation: reminders count from the return
        first = anchor + dt.timedelta(hours=pref.first_reminder_hours)
        every = dt.timedelta(hours=pref.reminder_every_hours)
        if now < first:
            upcoming.append(first)
        else:
            number = 1 + int((now - first) / every)
            game_notifications.record(game, kind=game_notifications.REMINDER, number=number, **key)
            upcoming.append(first + number * every)
    game.next_reminder_at = min(upcoming) if upcoming else None
    _save(game, before)
    return game.next_reminder_at


def expire(game_id: int, now: dt.datetime | None = None) -> str | None:
    """The deadline scan's step for one game: the timeout rule as a logged move (and a notification
    for the player whose time ran out), or the deadline paused if that player is on vacation.
    Returns "timed_out", "paused" or None (nothing due)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = _locked(game_id)
        if (
            game is None
            or game.status != GameStatus.ACTIVE
            or game.deadline_at is None
            or game.deadline_at > now
            or game.timeout_rule == TimeoutRule.NOTHING
        ):
            return None
        seat = _turn_player(game)
        if seat is not None and notifications.preference_of(seat.user_id).on_vacation(now):
            plan(game_id, now)
            return "paused"
        turn = game.turn_version
        result = services.timeout_move(game_id=game_id, now=now)
        if result is None:
            return None
        if seat is not None:
            game_notifications.record(
                game, user_id=seat.user_id, kind=game_notifications.TIMED_OUT, seat=seat.number, turn=turn
            )
    return "timed_out"


# --- Vacation (handsite books it and sends vacation_started / vacation_ended; see games/apps.py) ---


def _my_turn_games(user):
    return game_notifications.turn_games(user.pk).values_list("pk", flat=True)


def start_vacation(user, days: int, now: dt.datetime | None = None):
    """Book ``days`` days of vacation from now (or extend the current one); the deadlines of the games
    waiting for this person pause at once (:func:`vacation_started`). Raises PreferenceError."""
    return site_services.book_vacation(user, days, now or timezone.now())


def end_vacation(user, now: dt.datetime | None = None):
    """Back early: the unused whole days return, and paused deadlines come back by the unused time."""
    pref, _old_until = site_services.cancel_vacation(user, now or timezone.now())
    return pref


def vacation_started(sender, *, user, now: dt.datetime, **kwargs) -> None:
    """handsite's signal, inside the booking's transaction: pause the deadlines of this person's turns."""
    for game_id in _my_turn_games(user):
        plan(game_id, now)


def vacation_ended(sender, *, user, now: dt.datetime, **kwargs) -> None:
    """handsite's signal, inside the transaction: paused deadlines come back by the unused time."""
    for game_id in _my_turn_games(user):
        game = _locked(game_id)
        before = (game.deadline_at, game.paused_until)
        if game.paused_until is not None:
            if game.deadline_at is not None and game.paused_until > now:
                game.deadline_at -= game.paused_until - now
            game.paused_until = None
        game.next_reminder_at = now
        _save(game, before)
        plan(game_id, now)
