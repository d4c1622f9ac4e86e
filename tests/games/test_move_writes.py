"""A move's writes (games/movesql.py): on PostgreSQL the move log INSERT and the game UPDATE are one
statement, which writes what ``bulk_create`` and ``Model.save`` would; elsewhere they are the ORM's. On
PostgreSQL a kept connection prepares the move's statements, and moves go on after a rollback or a new
connection."""

import importlib

import pytest
from django.apps import apps
from django.db import DatabaseError, connection, connections, transaction
from django.db.models import signals
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine, movesql
from games.models import Game, Move
from games.services import core as game_core
from games.services import playing, saving, seating
from tests.support import require_service


def _people(game) -> dict:
    return {seat.number: seat.user for seat in game.seats.select_related("user")}


def _play(game, count: int) -> list[game_core.MoveResult]:
    """``count`` moves of the bots' choice for the people whose turn it is."""
    people, results = _people(game), []
    for _ in range(count):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        seat = state.current
        action = engine.bot_action(state, seat)
        results.append(playing.play(game_id=game.pk, user=people[seat], version=game.version, action=action))
    return results


def _stored(game_id: int) -> list:
    """The columns a move writes, as the database holds them (JSON as text: its exact bytes)."""
    qn = connection.ops.quote_name
    columns = [Game._meta.get_field(name).column for name in saving.SAVED_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {', '.join(qn(c) for c in columns)} FROM {qn(Game._meta.db_table)} WHERE id = %s",
            [game_id],
        )
        return list(cursor.fetchone())


def test_a_move_writes_the_game_row_as_model_save_would(duel):
    for _ in range(7):
        (result,) = _play(duel, 1)
        game = result.game
        written = _stored(game.pk)
        game.save(update_fields=saving.SAVED_FIELDS)  # the ORM writes the same object again
        assert _stored(game.pk) == written
        again = Game.objects.get(pk=game.pk)
        for name in saving.SAVED_FIELDS:
            assert getattr(again, name) == getattr(game, name), name
    assert again.turn_seat is not None
    assert again.turn_started_at is not None
    assert engine.dumps(engine.from_json(again.state)) == engine.dumps(result.state)


def test_the_move_log_rows_get_their_ids_as_bulk_create_gives_them(owner, start_game):
    game = start_game([owner, seating.BOT, seating.BOT], seed=99)
    written = []
    for result in _play(game, 4):
        written += result.moves
    assert len(written) > 4  # the player's moves and the bots' that followed
    stored = list(Move.objects.filter(game=game, seq__gt=written[0].seq - 1).order_by("seq"))
    assert [(m.pk, m.seq, m.seat, m.kind, m.action, m.deal) for m in written] == [
        (m.pk, m.seq, m.seat, m.kind, m.action, m.deal) for m in stored
    ]
    assert all(m.pk is not None and not m._state.adding and m._state.db == "default" for m in written)


def test_a_run_of_bot_moves_longer_than_the_built_inserts_is_logged_whole(owner, start_game, monkeypatch):
    monkeypatch.setattr(movesql, "MOVE_ROWS_BUILT", 1)  # every write with bots goes through bulk_create
    game = start_game([owner, seating.BOT, seating.BOT, seating.BOT], seed=5)
    results = _play(game, 6)
    assert max(len(result.moves) for result in results) > 1
    game.refresh_from_db()
    moves = list(game.moves.order_by("seq").values_list("seat", "action"))
    assert len(moves) == game.version
    replayed = engine.replay(game.variant, game.options, game.players, game.seed, moves)
    assert engine.dumps(replayed) == engine.dumps(engine.from_json(game.state))


def test_a_listener_of_a_games_post_save_hears_every_move(duel):
    heard = []

    def listen(sender, instance, update_fields, **kwargs):
        heard.append((instance.pk, instance.version, sorted(update_fields)))

    signals.post_save.connect(listen, sender=Game)
    try:
        results = _play(duel, 3)
    finally:
        signals.post_save.disconnect(listen, sender=Game)
    assert heard == [(duel.pk, result.state.version, sorted(saving.SAVED_FIELDS)) for result in results]
    duel.refresh_from_db()
    assert duel.version == 3


# --- The log rows and the game in one statement (PostgreSQL) ---------------------------------------


def _stored_moves(game_id: int) -> dict[int, list]:
    """The game's log rows as the database holds them (JSON as text), by ``seq``: [id, other columns]."""
    qn = connection.ops.quote_name
    columns = [f.column for f in Move._meta.concrete_fields if not f.primary_key]
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {qn('seq')}, {qn('id')}, {', '.join(qn(c) for c in columns)}"
            f" FROM {qn(Move._meta.db_table)} WHERE {qn('game_id')} = %s",
            [game_id],
        )
        return {row[0]: list(row[1:]) for row in cursor.fetchall()}


def _writes(queries) -> list[str]:
    """The log INSERTs and game UPDATEs among the captured statements (logged as their text, or on the
    prepared cursor as ``QUERY = '...'``), each from its first keyword."""
    found = []
    for query in queries.captured_queries:
        sql = query["sql"].removeprefix("QUERY = '")
        if sql.startswith(('INSERT INTO "games_move"', 'UPDATE "games_game"', "WITH m AS")):
            found.append(sql)
    return found


@pytest.mark.parametrize("bots", [0, 2], ids=["one row a move", "several rows a move"])
def test_a_move_writes_its_log_rows_and_the_game_as_bulk_create_and_model_save_would(
    owner, member, start_game, bots
):
    """On PostgreSQL in ONE statement (the INSERT a ``WITH`` of the UPDATE); on SQLite the INSERT and
    the UPDATE as before. Either way the bytes stored are the ORM's, and each row gets its own id."""
    if bots:
        game = start_game([owner, *[seating.BOT] * bots], seed=99)
    else:
        game = start_game([owner, member], seed=1234)
        seating.accept_seat(game_id=game.pk, user=member)
    sizes = set()
    for _ in range(6):
        with CaptureQueriesContext(connection) as queries:
            (result,) = _play(game, 1)
        writes = _writes(queries)
        if connection.vendor == "postgresql":
            assert len(writes) == 1, writes
            assert writes[0].startswith('WITH m AS (INSERT INTO "games_move"'), writes
        else:
            assert [sql.split(" ", 1)[0] for sql in writes] == ["INSERT", "UPDATE"], writes
        rows = result.moves
        sizes.add(len(rows))
        ids = [row.pk for row in rows]
        assert None not in ids
        assert ids == sorted(ids)  # in the rows' order, as bulk_create gives them
        assert all(not row._state.adding and row._state.db == "default" for row in rows)
        stored = _stored_moves(game.pk)
        assert [stored[row.seq][0] for row in rows] == ids  # each row's id is its own seq's
        written_game, written_rows = _stored(game.pk), [stored[row.seq][1:] for row in rows]
        # The ORM writes the same objects again: the same bytes.
        Move.objects.filter(pk__in=ids).delete()
        fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
        Move.objects.bulk_create(
            [Move(**{f.attname: getattr(row, f.attname) for f in fields}) for row in rows]
        )
        result.game.save(update_fields=saving.SAVED_FIELDS)
        assert _stored(game.pk) == written_game
        stored = _stored_moves(game.pk)
        assert [stored[row.seq][1:] for row in rows] == written_rows
    assert sizes == {1} if not bots else max(sizes) > 1


def test_the_one_statement_raises_as_model_save_when_no_game_row_is_updated(duel):
    """The UPDATE finds no row (never expected: the game is locked): DatabaseError, as
    ``save(update_fields=...)`` raises, and the log rows of the same statement are rolled back with it."""
    _postgresql_only()
    row = Move(game=duel, seq=duel.version + 1, seat=0, action={"type": "draw"}, deal=0)
    missing = Game.objects.get(pk=duel.pk)
    missing.pk = 10**12
    with pytest.raises(DatabaseError, match="did not affect any rows"), transaction.atomic():
        movesql.write_moves_and_game([row], missing, saving.SAVED_FIELDS)
    assert not Move.objects.filter(game=duel).exists()


# --- Prepared statements (PostgreSQL) --------------------------------------------------------------


def _postgresql_only():
    if connection.vendor != "postgresql":
        require_service("postgres")
        pytest.skip("runs on the PostgreSQL flavour of the suite (DATABASE_URL=postgres://...)")


def _prepared() -> list[str]:
    """The statements the server keeps prepared for this connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def _kinds(statements: list[str]) -> set[str]:
    found = set()
    for sql in statements:
        if sql.startswith("SELECT") and "FOR UPDATE" in sql:
            found.add("lock")
        elif sql.startswith('UPDATE "games_game"'):
            found.add("update")
        elif sql.startswith('INSERT INTO "games_move"'):
            found.add("insert")
        elif sql.startswith('WITH m AS (INSERT INTO "games_move"') and 'UPDATE "games_game"' in sql:
            found.add("insert+update")  # the log rows and the game in one statement
        elif sql.startswith('INSERT INTO "handsite_notification"'):
            found.add("your turn")  # the outbox row of the turn's player (a two-player duel: every move)
        else:
            found.add("other")  # every statement is bound on the server: the ORM's are prepared too
    return found


MOVE_STATEMENTS = {"lock", "insert+update", "your turn"}


def test_a_kept_connection_prepares_the_lock_query_the_writes_and_the_outbox_insert(duel):
    _postgresql_only()
    _play(duel, 8)
    kinds = _kinds(_prepared())
    assert kinds >= MOVE_STATEMENTS
    assert not {"update", "insert"} & kinds  # the log rows go with the game's UPDATE


def test_with_prepared_statements_off_nothing_is_prepared(duel):
    """DB_PREPARED_STATEMENTS=0 (a pooler that cannot keep them) sets psycopg's prepare_threshold to None."""
    _postgresql_only()
    connection.ensure_connection()
    raw = connection.connection
    kept, raw.prepare_threshold = raw.prepare_threshold, None
    try:
        _play(duel, 8)
        assert _prepared() == []
    finally:
        raw.prepare_threshold = kept


@pytest.mark.django_db(transaction=True)
def test_moves_go_on_after_a_rollback_and_on_a_new_connection(owner, member, outsider, start_game):
    """A rollback makes psycopg drop its statements (on the server too); a new connection starts with
    none, and one that makes a single move (a connection per request) prepares nothing."""
    _postgresql_only()
    game = start_game([owner, member], seed=1234)
    seating.accept_seat(game_id=game.pk, user=member)
    _play(game, 8)
    assert _kinds(_prepared()) >= MOVE_STATEMENTS
    with pytest.raises(game_core.GameNotFound):  # rolled back
        playing.play(game_id=game.pk, user=outsider, version=8, action={"type": "draw"})
    assert _prepared() == []
    _play(game, 8)
    # Eight actions, four turns since the rollback: the outbox INSERT ran four times, not yet prepared.
    assert {"lock", "insert+update"} <= _kinds(_prepared())
    assert "your turn" not in _kinds(_prepared())
    connections["default"].close()  # as a failed health check or DB_CONN_MAX_AGE do
    _play(game, 1)
    assert _prepared() == []
    game.refresh_from_db()
    assert game.version == 17


def test_the_game_state_is_compressed_with_lz4(duel):
    """A move rewrites the whole state: lz4 compresses it faster than PostgreSQL's default, pglz
    (games/migrations/0012_game_state_lz4.py)."""
    _postgresql_only()
    _play(duel, 1)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_column_compression(state) FROM games_game WHERE id = %s", [duel.pk])
        assert cursor.fetchone()[0] == "lz4"


def test_the_state_columns_compression_is_lz4_after_migrate_and_the_default_again_when_reversed(db):
    """The column's own setting (pg_attribute), which the migration sets and its reverse unsets."""
    _postgresql_only()
    migration = importlib.import_module("games.migrations.0012_game_state_lz4")

    def compression() -> str:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT attcompression FROM pg_attribute"
                " WHERE attrelid = 'games_game'::regclass AND attname = 'state'"
            )
            return cursor.fetchone()[0]

    assert compression() == "l"
    with connection.schema_editor() as editor:  # in the test's transaction: rolled back after it
        migration._compression("default")(apps, editor)
        assert compression() in ("", "\x00")  # the server's default_toast_compression again
        migration._compression("lz4")(apps, editor)
    assert compression() == "l"


def test_a_kept_connection_prepares_the_poll(duel, member):
    _postgresql_only()
    for _ in range(6):
        assert game_core.poll_revision(duel.pk, duel.group.slug, member.pk) == duel.revision
    assert [sql for sql in _prepared() if "revision" in sql and "games_game" in sql]
    assert game_core.poll_revision(duel.pk, "another-group", member.pk) is None
    assert game_core.poll_revision(10**30, duel.group.slug, member.pk) is None  # no 500 for any number


def test_a_game_id_past_bigint_finds_no_game(client, duel, member):
    """Any number in the URL: SQLite could not even bind one past bigint (a 500 before)."""
    client.force_login(member)
    for game_id in (game_core.GAME_ID_MAX, game_core.GAME_ID_MAX + 1, 10**30):
        with pytest.raises(game_core.GameNotFound):
            playing.play(game_id=game_id, user=member, version=0, action={"type": "draw"})
        url = reverse("games:move", args=[duel.group.slug, game_id])
        assert client.post(url, {"act": "draw", "version": 0}, HTTP_HX_REQUEST="true").status_code == 404


# --- The lock query and its ORM equivalent ---------------------------------------------------------


@pytest.mark.parametrize("with_user", [True, False], ids=["membership checked", "no membership check"])
@pytest.mark.parametrize("with_slug", [True, False], ids=["group slug", "no group slug"])
def test_the_lock_query_gives_what_its_orm_equivalent_gives(
    owner, member, admin, outsider, start_game, with_user, with_slug
):
    from tests.games.test_services import instance_picture

    game = start_game([owner, member, seating.BOT, admin], seed=4)
    seating.decline_seat(game_id=game.pk, user=admin)  # an empty seat: no player
    cases = [(owner.pk, game.group.slug), (outsider.pk, game.group.slug), (owner.pk, "another-group")]
    for user_id, slug in cases:
        kwargs = {"user_id": user_id if with_user else None, "group_slug": slug if with_slug else None}
        with transaction.atomic():
            by_hand = movesql.locked_seats(game.pk, **kwargs)
            by_orm = movesql.locked_seats_orm(game.pk, **kwargs)
        assert [instance_picture(seat) for seat in by_hand] == [instance_picture(seat) for seat in by_orm]
        assert len({id(seat.game) for seat in by_hand}) <= 1  # one Game shared by the seats
    with transaction.atomic():
        assert movesql.locked_seats(10**12, user_id=None, group_slug=None) == []


@pytest.mark.django_db(transaction=True)
def test_the_lock_query_needs_a_transaction_as_select_for_update_does(duel):
    with pytest.raises(transaction.TransactionManagementError):
        movesql.locked_seats(duel.pk, user_id=None, group_slug=None)


def test_the_orm_equivalent_of_the_writes_stores_what_the_one_statement_stores(owner, member, start_game):
    """write_moves_and_game_orm is the reference: on SQLite it is what a move runs."""
    game = start_game([owner, member], seed=1234)
    seating.accept_seat(game_id=game.pk, user=member)
    (result,) = _play(game, 1)
    written_game, stored = _stored(game.pk), _stored_moves(game.pk)
    rows = result.moves
    written_rows = [stored[row.seq][1:] for row in rows]
    Move.objects.filter(pk__in=[row.pk for row in rows]).delete()
    fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    again = [Move(**{f.attname: getattr(row, f.attname) for f in fields}) for row in rows]
    with transaction.atomic():
        movesql.write_moves_and_game_orm(again, result.game, saving.SAVED_FIELDS)
    assert _stored(game.pk) == written_game
    stored = _stored_moves(game.pk)
    assert [stored[row.seq][1:] for row in again] == written_rows
    assert all(row.pk is not None for row in again)
