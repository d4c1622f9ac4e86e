"""What every writer of games shares: the refusals, reading a game, and locking it for a write.

Hidden cards never leave the services in a message: refusals carry the engine's sentence (which never
names a card the player may not see) or our own sentences (which name none).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from games import engine, movesql
from games.models import Game, Move, Seat


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


def locked(game_id: int, *, user=None, group_slug: str | None = None) -> tuple[Game, list[Seat]]:
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


def locked_seats(game_id: int, *, user=None, group_slug: str | None = None) -> tuple[Game, list[Seat]]:
    """:func:`locked`, then the seats read again under the lock, for changes of seats. On PostgreSQL a
    lock query that waited for another transaction gets the game row as that one left it, but the
    seats joined to it as they were before (only locked rows are read again): two people taking the
    same free seat would each find it free. Read after the lock, the seats are as the last change
    left them."""
    game, _stale = locked(game_id, user=user, group_slug=group_slug)
    seats = seats_of(game)
    for seat in seats:
        seat._state.fields_cache["game"] = game
    return game, seats


def bump(game: Game, *fields: str) -> None:
    """Save ``fields`` with a new revision: every open page's poll brings the change."""
    game.revision += 1
    game.save(update_fields=["revision", *fields])
