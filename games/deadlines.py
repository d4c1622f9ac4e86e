"""Deadlines, reminders and vacations of online games: the rules, decided without writing.

Nothing here waits in Celery: the game row carries ``deadline_at`` and ``next_reminder_at`` and beat
finds the due ones every minute with an indexed scan (the partial indexes ``game_active_deadline`` and
``game_active_reminder``). games.services.scans does every write in batches of due games, each batch
in one transaction with the same few queries whatever its size:

- a move's turn-change hook writes the "your turn" row (games/notifications.py) and sets
  ``next_reminder_at`` to now, so the next reminder scan plans the turn from the player's settings;
- the reminder scan, ``scans.plan_reminders``, asks :func:`schedule` what each game's turn needs:
  the reminders and the low-time warning due now, the next time to look, quiet hours (wait for their
  end), vacation (:func:`pause_for_vacation`: the deadline pushed back by the vacation, ``paused_until``
  shown on the play page);
- the deadline scan, ``scans.expire_due``, applies each game's timeout rule as a normal logged move
  and tells the player whose time ran out, or pauses the deadline of a player on vacation;
- a vacation booked or ended early plans the person's games again (``scans.vacation_started``,
  ``scans.vacation_ended``, :func:`unpause`).

Notifications are exactly-once by their keys (a repeated scan writes nothing twice); :func:`notify`
writes a batch's rows in one query.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from games import notifications as game_notifications
from games.models import DEADLINE_SCAN, Game, GameStatus
from handsite import notification_prefs
from handsite.services import preferences

LOW_TIME_SHARE = 0.8
"""The low-time warning goes out when this share of the time per move has passed."""
WARN_BEFORE_QUIET = dt.timedelta(minutes=30)
"""A warning that would fall in the player's quiet hours is planned this long before they begin (the
minute's sweep e-mails it well before the night)."""


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


SCHEDULE_FIELDS = ["next_reminder_at", "deadline_at", "paused_until", "revision"]
"""The columns a pause (or the reminder plan) changes."""


def pause_for_vacation(game: Game, pref, now: dt.datetime) -> None:
    """The player to move is on vacation: push the deadline back by the vacation (once) and hold the
    reminders until they return. Changes the game object only (the caller saves SCHEDULE_FIELDS)."""
    before = (game.deadline_at, game.paused_until)
    if game.paused_until != pref.vacation_until:
        if game.deadline_at is not None:
            started = game.turn_started_at or now
            base = game.paused_until or max(started, pref.vacation_started_at or now)
            game.deadline_at += pref.vacation_until - base
        game.paused_until = pref.vacation_until
    game.next_reminder_at = pref.vacation_until
    if (game.deadline_at, game.paused_until) != before:
        game.revision += 1  # the play page's poll shows the new deadline / pause


def notify(reminders: list = (), turns_began: list = (), timed_out: list = (), *, now: dt.datetime) -> None:
    """A scan's notifications for its whole batch, in ONE query (exactly-once by their keys):
    ``reminders`` ``(game, mover_id, kind, number)`` for the turn in progress; "your turn" for each
    ``(game, seats)`` of ``turns_began``; "time ran out" for each ``(game, seat, turn)`` of
    ``timed_out``."""
    items = [
        (game, mover_id, game.turn_seat, game.turn_version, kind, number)
        for game, mover_id, kind, number in reminders
    ]
    items += game_notifications.turns_began(list(turns_began))
    timed_out_kind = game_notifications.TIMED_OUT
    items += [(game, seat.user_id, seat.number, turn, timed_out_kind, 0) for game, seat, turn in timed_out]
    game_notifications.record_many(items, now=now)


def schedule(game: Game, mover_id: int | None, pref, now: dt.datetime) -> list[tuple[str, int]]:
    """The reminder plan of one game's current turn, decided without writing: sets the game's
    ``next_reminder_at`` (and, for a player on vacation, the paused deadline; the revision when the
    players' page must show a change) and returns the notifications due now as ``[(kind, number)]``.
    ``mover_id``: the person to move (None: a bot, an empty seat or no turn); ``pref`` their
    preferences. The caller (scans.plan_reminders) saves SCHEDULE_FIELDS and writes the rows, whose
    unique keys make a repeated plan write nothing twice."""
    before = (game.deadline_at, game.paused_until)
    due: list[tuple[str, int]] = []
    if mover_id is None or game.status != GameStatus.ACTIVE or game.turn_version is None:
        game.next_reminder_at = None
        game.paused_until = None
    elif pref.on_vacation(now):
        pause_for_vacation(game, pref, now)
        return due
    else:
        game.paused_until = None
        out_of_quiet_hours(game, pref)
        game.next_reminder_at = notification_prefs.quiet_until(pref, now)  # what is due waits for its end
        if game.next_reminder_at is None:
            game.next_reminder_at = _reminders(game, pref, now, due)
    if (game.deadline_at, game.paused_until) != before:
        game.revision += 1  # the play page's poll shows the new deadline / pause
    return due


def out_of_quiet_hours(game: Game, pref) -> bool:
    """A deadline never passes in the quiet hours of the player to move: one that falls in them moves
    to their end (the game object only; the caller saves SCHEDULE_FIELDS and the revision shows the
    moved time to everybody at the table). Returns whether it moved."""
    if game.deadline_at is None:
        return False
    end = notification_prefs.quiet_until(pref, game.deadline_at)
    if end is None:
        return False
    game.deadline_at = end
    return True


def warning_time(game: Game, pref) -> dt.datetime:
    """When the low-time warning is due: LOW_TIME_SHARE of the time per move, or, when that falls in
    the player's quiet hours, WARN_BEFORE_QUIET before they begin."""
    low_at = game.deadline_at - dt.timedelta(hours=game.move_hours) * (1 - LOW_TIME_SHARE)
    began = notification_prefs.quiet_began(pref, low_at)
    return began - WARN_BEFORE_QUIET if began is not None else low_at


def _reminders(game: Game, pref, now: dt.datetime, due: list) -> dt.datetime | None:
    """Adds the low-time warning and the reminder due now to ``due``; returns the next time one is."""
    started = game.turn_started_at or now
    upcoming: list[dt.datetime] = []
    if game.deadline_at is not None and game.move_hours:
        low_at = warning_time(game, pref)
        if now < low_at:
            upcoming.append(low_at)
        elif now < game.deadline_at:
            due.append((game_notifications.LOW_TIME, 0))
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
            due.append((game_notifications.REMINDER, number))
            upcoming.append(first + number * every)
    return min(upcoming) if upcoming else None


# --- Vacation (handsite books it and sends vacation_started / vacation_ended; see games/apps.py) ---


def start_vacation(user, days: int, now: dt.datetime | None = None):
    """Book ``days`` days of vacation from now (or extend the current one); the deadlines of the games
    waiting for this person pause at once (games.services.scans.vacation_started). Raises
    PreferenceError."""
    return preferences.book_vacation(user, days, now or timezone.now())


def end_vacation(user, now: dt.datetime | None = None):
    """Back early: the unused whole days return, and paused deadlines come back by the unused time."""
    pref, _old_until = preferences.cancel_vacation(user, now or timezone.now())
    return pref


def unpause(game: Game, now: dt.datetime) -> None:
    """The player came back before the end of their vacation: the deadline comes back by the unused
    time and the turn is planned again (game object only; the caller saves SCHEDULE_FIELDS)."""
    before = (game.deadline_at, game.paused_until)
    if game.paused_until is not None:
        if game.deadline_at is not None and game.paused_until > now:
            game.deadline_at -= game.paused_until - now
        game.paused_until = None
    game.next_reminder_at = now
    if (game.deadline_at, game.paused_until) != before:
        game.revision += 1
