"""The two statements of a move written by hand, each beside the ORM code it stands for; every other
query of the site is the ORM's.

- :func:`locked_seats`: the game row locked with its seats, their players and its group, in ONE query
  (the membership check and the group's slug as joins). The ORM equivalent is
  :func:`locked_seats_orm`; tests/games/test_services.py compares the instances field by field.
- :func:`write_moves_and_game`: a move's log rows INSERTed and the game UPDATEd in ONE statement on
  PostgreSQL. The ORM equivalent is :func:`write_moves_and_game_orm` (``bulk_create`` then
  ``save(update_fields=...)``), which every other database, long runs of bot moves and a listener of
  the game's save signals go through; tests/games/test_move_writes.py compares the stored bytes.

Each statement's text is built once per process and shape. Rows become instances through the ORM's
own ``Model.from_db`` and the fields' own converters; parameters come from each field's ``pre_save``
and ``get_db_prep_save``, as the ORM writes them.
"""

from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.models import JSONField, signals
from django.db.transaction import TransactionManagementError

from games.models import Game, Move, Seat
from handsite.models import Membership, PlayerGroup, User

FIRST_SEAT = 0
"""The number of a game's first seat (create_game numbers them from 0, and none is ever removed)."""

MOVE_ROWS_BUILT = 16
"""Up to this many log rows in one write (a player's move and the bots' that followed) go in the one
statement; longer runs of bots go through the ORM."""


def _db():
    return connections[DEFAULT_DB_ALIAS]


# --- The lock query ----------------------------------------------------------------------------


def locked_seats_orm(game_id: int, *, user_id: int | None, group_slug: str | None) -> list[Seat]:
    """What :func:`locked_seats` gives, through the ORM: the seats in order, each with its game (the
    game row locked), the game's group and the seat's player."""
    seats = (
        Seat.objects.filter(game_id=game_id)
        .select_related("game__group", "user")
        .order_by("number")
        .select_for_update(of=("game",))
    )
    if user_id is not None:
        seats = seats.filter(game__group__memberships__user_id=user_id)
    if group_slug is not None:
        seats = seats.filter(game__group__slug=group_slug)
    return list(seats)


class LockQuery:
    """:func:`locked_seats_orm` for one shape (membership check or not, group slug or not) as SQL built
    once per process: ``SELECT`` seat, game, group and player columns ``... ORDER BY number FOR UPDATE
    OF`` the game. The game's JSON columns (the state: several KB) come on the first seat's row alone,
    NULL on the others; should a game's rows not start with seat :data:`FIRST_SEAT`, the query runs
    again with every column on every row."""

    _built: dict[tuple, LockQuery] = {}

    @classmethod
    def of(cls, db, *, with_user: bool, with_slug: bool) -> LockQuery:
        key = (db.alias, db.vendor, with_user, with_slug)
        if key not in cls._built:
            cls._built[key] = cls(db, with_user=with_user, with_slug=with_slug)
        return cls._built[key]

    def __init__(self, db, *, with_user: bool, with_slug: bool) -> None:
        qn = db.ops.quote_name
        self.parts = []  # (model, attribute names by column, [(column index, converter, expression)])
        columns, once = [], []  # once: the same columns, the game's JSON ones on the first seat's row only
        for alias, model in (("s", Seat), ("g", Game), ("p", PlayerGroup), ("u", User)):
            fields = model._meta.concrete_fields
            columns += [f"{alias}.{qn(f.column)}" for f in fields]
            once += [
                f"CASE WHEN s.{qn('number')} = {FIRST_SEAT} THEN {alias}.{qn(f.column)} END"
                if model is Game and isinstance(f, JSONField)
                else f"{alias}.{qn(f.column)}"
                for f in fields
            ]
            converters = []
            for i, f in enumerate(fields):
                col = f.get_col(alias)
                found = db.ops.get_db_converters(col) + col.get_db_converters(db)
                converters += [(i, converter, col) for converter in found]
            self.parts.append((model, [f.attname for f in fields], converters))
        table = {model: qn(model._meta.db_table) for model in (Seat, Game, PlayerGroup, Membership, User)}
        sql = [
            f" FROM {table[Seat]} s",
            f"INNER JOIN {table[Game]} g ON s.{qn('game_id')} = g.{qn('id')}",
            f"INNER JOIN {table[PlayerGroup]} p ON g.{qn('group_id')} = p.{qn('id')}",
        ]
        if with_user:
            sql.append(
                f"INNER JOIN {table[Membership]} m ON m.{qn('group_id')} = p.{qn('id')}"
                f" AND m.{qn('user_id')} = %(user)s"
            )
        sql.append(f"LEFT OUTER JOIN {table[User]} u ON s.{qn('user_id')} = u.{qn('id')}")
        sql.append(f"WHERE s.{qn('game_id')} = %(game)s")
        if with_slug:
            sql.append(f"AND p.{qn('slug')} = %(slug)s")
        sql.append(f"ORDER BY s.{qn('number')}")
        if db.features.has_select_for_update_of:
            sql.append(db.ops.for_update_sql(of=("g",)))
        rest = " ".join(sql)
        self.sql = f"SELECT {', '.join(once)}{rest}"
        self.full_sql = f"SELECT {', '.join(columns)}{rest}"  # every row with all of the game's columns
        self.number = Seat._meta.concrete_fields.index(Seat._meta.get_field("number"))

    def _instance(self, db, part: int, values: list):
        model, names, converters = self.parts[part]
        for i, converter, expression in converters:
            values[i] = converter(values[i], expression, db)
        return model.from_db(db.alias, names, values)

    def fetch(self, db, game_id: int, *, user_id: int | None, group_slug: str | None) -> list[Seat]:
        if not db.in_atomic_block:  # as the ORM's select_for_update: a lock needs a transaction
            raise TransactionManagementError("The game is locked only inside a transaction.")
        params = {"game": game_id, "user": user_id, "slug": group_slug}
        with db.cursor() as cursor:
            cursor.execute(self.sql, params)
            rows = cursor.fetchall()
            if rows and rows[0][self.number] != FIRST_SEAT:  # never expected (create_game numbers from 0)
                cursor.execute(self.full_sql, params)
                rows = cursor.fetchall()
        if not rows:
            return []
        widths = [len(names) for _model, names, _converters in self.parts]
        bounds = [sum(widths[:i]) for i in range(len(widths) + 1)]
        first = list(rows[0])
        game = self._instance(db, 1, first[bounds[1] : bounds[2]])
        # The related objects are cached as the ORM's select_related caches them.
        game._state.fields_cache["group"] = self._instance(db, 2, first[bounds[2] : bounds[3]])
        seats = []
        for row in rows:
            seat = self._instance(db, 0, list(row[: bounds[1]]))
            cache = seat._state.fields_cache
            cache["game"] = game  # one Game object shared by every seat
            player = list(row[bounds[3] :])
            cache["user"] = self._instance(db, 3, player) if player[0] is not None else None
            seats.append(seat)
        return seats


def locked_seats(game_id: int, *, user_id: int | None, group_slug: str | None) -> list[Seat]:
    """The seats of game ``game_id`` in order, each with the game (its row locked until the transaction
    ends; one Game shared by the seats), the game's group and the seat's player; only if ``user_id``
    (when given) is a member of the group and the group's slug is ``group_slug`` (when given). An empty
    list otherwise. Must run inside a transaction."""
    db = _db()
    query = LockQuery.of(db, with_user=user_id is not None, with_slug=group_slug is not None)
    return query.fetch(db, game_id, user_id=user_id, group_slug=group_slug)


# --- The move's writes -------------------------------------------------------------------------


def write_moves_and_game_orm(rows: list[Move], game: Game, fields) -> None:
    """What :func:`write_moves_and_game` does, through the ORM."""
    if rows:
        Move.objects.bulk_create(rows)
    game.save(update_fields=fields)


def written_together(rows: list[Move]) -> bool:
    """Whether :func:`write_moves_and_game` writes these rows and the game in ONE statement: on
    PostgreSQL, up to :data:`MOVE_ROWS_BUILT` rows, while nothing listens to a game's save signals
    (which Model.save sends)."""
    return (
        0 < len(rows) <= MOVE_ROWS_BUILT
        and _db().vendor == "postgresql"
        and not signals.pre_save.has_listeners(Game)
        and not signals.post_save.has_listeners(Game)
    )


_WRITES: dict[tuple, tuple[str, list, list]] = {}
"""The SQL of :func:`write_moves_and_game` by (database, number of rows, columns), with the fields that
give its parameters in order: one log row's, then the game's (its id last)."""


def _write_sql(db, count: int, fields: tuple[str, ...]) -> tuple[str, list, list]:
    qn = db.ops.quote_name
    inserted = [f for f in Move._meta.concrete_fields if not f.primary_key]
    values = ", ".join(["(" + ", ".join(["%s"] * len(inserted)) + ")"] * count)
    names = ", ".join(qn(f.column) for f in inserted)
    updated = [Game._meta.get_field(name) for name in fields]
    sets = ", ".join(f"{qn(f.column)} = %s" for f in updated)
    pk, seq = qn(Move._meta.pk.column), qn(Move._meta.get_field("seq").column)
    sql = (
        f"WITH m AS (INSERT INTO {qn(Move._meta.db_table)} ({names}) VALUES {values} RETURNING {pk}, {seq})"
        f" UPDATE {qn(Game._meta.db_table)} SET {sets} WHERE {qn(Game._meta.pk.column)} = %s"
        f" RETURNING (SELECT array_agg(m.{pk} ORDER BY m.{seq}) FROM m)"
    )
    return sql, inserted, [*updated, Game._meta.pk]


def _values(instances: list, fields: list, db, *, adding: bool) -> list:
    """The parameters of ``fields`` for each instance in turn, as the ORM writes them: each field's
    ``pre_save`` (``adding``: an INSERT's), then its ``get_db_prep_save``."""
    return [f.get_db_prep_save(f.pre_save(instance, adding), db) for instance in instances for f in fields]


def write_moves_and_game(rows: list[Move], game: Game, fields) -> None:
    """``Move.objects.bulk_create(rows)`` and ``game.save(update_fields=fields)`` in ONE statement (only
    where :func:`written_together`): the INSERT as a data-modifying ``WITH`` of the UPDATE, whose one
    row returns the new ids ``ORDER BY seq`` (unique in a game: each row gets the id of its own
    ``seq``). The rows are left as bulk_create leaves them; an UPDATE of no row raises as
    ``save(update_fields=...)`` does (the INSERT then rolls back with the move)."""
    db = _db()
    fields = tuple(fields)
    key = (db.alias, db.vendor, len(rows), fields)
    if key not in _WRITES:
        _WRITES[key] = _write_sql(db, len(rows), fields)
    sql, inserted, updated = _WRITES[key]
    params = _values(rows, inserted, db, adding=True) + _values([game], updated, db, adding=False)
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:  # as Model.save(update_fields=...) (the row is locked: never expected)
            raise DatabaseError("Save with update_fields did not affect any rows.")
        (ids,) = cursor.fetchone()
    for row, row_id in zip(sorted(rows, key=lambda row: row.seq), ids, strict=True):
        row.pk = row_id
        row._state.adding = False
        row._state.db = db.alias
