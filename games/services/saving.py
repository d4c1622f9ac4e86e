"""The write every change of play ends with: the bots' moves that follow, the move log, and the state
saved with its new version, in the caller's transaction, then the hooks.

    deal_first(game, seats)                        # every seat is filled: deal, let the bots play
    run_bots(result) / log_action(result, ...)     # the bots' moves, the log rows
    save(result, previous_turn=, batch=None)       # state + log + version, then the hooks:

    _on_turn_change(game, previous_turn, events)   # the turn passed: turn columns, deadline, "your turn"
                                                   # outbox row (none when it came back to the actor)
    _on_deal_end(game, ended_events)               # a deal (or several, with bots) ended: background
                                                   # scoring of the standings, queued on commit
    _on_game_end(game, result)                     # the game is over: the players are told

The scans (games.services.scans) collect many games' rows in a :class:`Batch` and write them at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import timedelta

from celery import current_app
from django.utils import timezone

from games import engine, moves, movesql, notifications
from games.models import Game, GameStatus, Move, MoveKind, Seat
from games.services.core import MoveResult
from handsite.services import task_queue

log = logging.getLogger(__name__)

RECORD_RESULT_TASK = "games.tasks.record_online_result"
"""The task that stores a game's result for the standings (games.tasks), queued by its name."""

MAX_BOT_STEPS = 3000
"""Bots stop after this many actions in one write (a game of bots only would otherwise run to its end)."""


def deal_first(game: Game, seats: list[Seat]) -> MoveResult:
    """Every seat is filled: deal (options and seed are already frozen in the game), let bots play."""
    state = engine.new_game(game.variant, game.players, game.options, game.seed)
    game.status = GameStatus.ACTIVE
    game.started_at = timezone.now()
    result = MoveResult(game=game, seats=seats, state=state, events=list(state.deal.events))
    run_bots(result)
    save(result, previous_turn=None)
    return result


def log_action(
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


def run_bots(result: MoveResult) -> None:
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
                log_action(result, number, action, events, kind=MoveKind.BOT, deal=deal)
                break
        else:
            return
    log.warning("game %s: bots stopped after %s steps", result.game.pk, MAX_BOT_STEPS)


def turn_key(state: engine.GameState | None) -> tuple | None:
    """Identifies the turn in progress; a different key means the turn changed."""
    if state is None or state.finished:
        return None
    deal = state.deal
    return (deal.number, deal.attempt, deal.current, deal.turns[deal.current])


@dataclass
class Batch:
    """Rows collected from many games' writes (the deadline scan), written once for all."""

    moves: list[Move] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    turns_began: list[tuple[Game, list[Seat]]] = field(default_factory=list)
    bot_seats: list[int] = field(default_factory=list)
    paused: list[Game] = field(default_factory=list)
    timed_out: list[tuple[Game, Seat, int | None]] = field(default_factory=list)  # game, mover, turn


# --- Staged melds: the melds a seat has put aside in the current deal (Game.staged) --------------


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


def set_staged(game: Game, number: int, state: engine.GameState, specs: list[dict]) -> None:
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
"""The columns :func:`save` writes (the game's frozen settings are never rewritten)."""


def save(result: MoveResult, *, previous_turn: tuple | None, batch: Batch | None = None) -> None:
    """State, log and version in the transaction the caller holds; then the hooks. With ``batch`` the
    rows are collected and written for the whole batch at once (games.services.scans)."""
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
    if turn_key(state) != previous_turn or previous_turn is None:
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
    batch: Batch | None = None,
) -> None:
    """The turn passed to another seat (or to the same seat in a new deal), the game started or ended.

    ``previous_turn`` is ``(deal, attempt, seat, turn number)`` or None; ``events`` are this write's
    engine events (with secrets: never show them unfiltered); ``state`` is the engine state after it.
    Updates the denormalised turn columns and the deadline from the time per move, and writes the
    "your turn" notification intent (an outbox row) in the same transaction as the move, except when
    ``returned_to_actor``: the turn came back to the person whose own move started this write (only
    bots moved in between), who is on the page; reminders and the deadline still apply.
    """
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
    # The reminder scan (scans.plan_reminders) sets the player's real schedule within a minute.
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
    for event in ended_events:
        log.info("game %s: deal %s ended", game.pk, event.get("deal"))
    task = current_app.tasks[RECORD_RESULT_TASK]  # by name: the tasks import the services
    task_queue.run_after_commit(task, game.pk)


def _on_game_end(game: Game, result: MoveResult) -> None:
    """The game reached its end: the players are told (in-site, and by push to who chose it)."""
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    mover = next((m.seat for m in result.moves if m.kind == MoveKind.PLAYER), None)
    notifications.game_finished(game, result.seats, mover_seat=mover)
