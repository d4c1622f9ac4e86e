"""A move costs a constant number of queries, at most 6 in all — session, user, the game locked with its
seats and the membership check, the move log INSERT, the "your turn" outbox INSERT (issue 6: in the
move's transaction) and the game UPDATE — however long the game has run; on PostgreSQL at most 5, the
log INSERT and the game UPDATE being one statement (games/movesql.py). A move
that ends a deal writes one row more: the standings task recorded in its transaction (handsite.QueuedTask).
Only the move's own BEGIN and COMMIT are left out of the count (Django logs neither; in a test they are the
outermost SAVEPOINT and RELEASE): a savepoint inside the move is two more round trips and counts
(issue 17)."""

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine, moves
from games.models import Game
from tests.celery.conftest import own_redis  # noqa: F401 (fixture)
from tests.support import caches_on_redis, request_queries

HTMX = {"HTTP_HX_REQUEST": "true"}


def _writes() -> int:
    """The statements that write the log rows and the game: one on PostgreSQL, two elsewhere."""
    return 1 if connection.vendor == "postgresql" else 2


def _deal_end_task(sqls: list[str]) -> int:
    """1 when the move ended a deal and so recorded the standings task with it, else 0."""
    return int(any('INSERT INTO "handsite_queuedtask"' in sql for sql in sqls))


def _counted_move(clients, game, most: int | None = None) -> tuple[str, list[str]]:
    most = 4 + _writes() if most is None else most
    state = engine.from_json(game.state)
    seat = state.current
    action = engine.bot_action(state, seat)
    url = reverse("games:move", args=[game.group.slug, game.pk])
    for press in moves.requests_for(state, seat, action):  # staging presses first, each counted
        with CaptureQueriesContext(connection) as queries:
            response = clients[seat].post(url, press.as_post(game.version), **HTMX)
        assert response.status_code == 200
        sqls = request_queries(queries.captured_queries)
        assert len(sqls) <= most + _deal_end_task(sqls), "\n".join(sqls)  # putting a meld aside too
    game.refresh_from_db()
    assert game.version == state.version + 1
    return action["type"], sqls


def _until_a_discard(clients, game) -> list[tuple[str, list[str]]]:
    counted = []
    while not counted or counted[-1][0] != "discard":
        assert len(counted) < 12, "no discard in 12 moves"
        counted.append(_counted_move(clients, game))
    return counted


def test_a_move_needs_at_most_six_queries_early_and_late_five_on_postgresql(duel):
    clients = {}
    for seat in duel.seats.select_related("user"):
        clients[seat.number] = Client()
        clients[seat.number].force_login(seat.user)
    early = _until_a_discard(clients, duel)
    for _ in range(40):
        _counted_move(clients, duel)
    duel = Game.objects.get(pk=duel.pk)
    late = _until_a_discard(clients, duel)
    counted = early + late
    for _kind, sqls in counted:
        assert len(sqls) <= 4 + _writes() + _deal_end_task(sqls), "\n".join(sqls)
    # A discard passes the turn: it writes the outbox row too, and still fits.
    discards = [sqls for kind, sqls in counted if kind == "discard"]
    assert discards
    assert any("handsite_notification" in sql for sqls in discards for sql in sqls)
    early_discard = next(len(sqls) - _deal_end_task(sqls) for kind, sqls in early if kind == "discard")
    late_discard = next(len(sqls) - _deal_end_task(sqls) for kind, sqls in late if kind == "discard")
    assert early_discard == late_discard <= 4 + _writes()


def test_on_redis_a_move_reads_its_session_from_redis_and_needs_at_most_five_four_on_postgresql(
    duel,
    settings,
    own_redis,  # noqa: F811
):
    """With REDIS_URL the session comes from Redis (handsite/sessions.py): what is left is the user, the
    game locked with its seats, the log INSERT, the outbox INSERT and the UPDATE (the log INSERT and
    the UPDATE in one statement on PostgreSQL)."""
    caches_on_redis(settings, own_redis.url)
    clients = {}
    for seat in duel.seats.select_related("user"):
        clients[seat.number] = Client()
        clients[seat.number].force_login(seat.user)
    for client in clients.values():
        client.get(reverse("profile"))  # the session cached
    counted = [_counted_move(clients, duel, most=3 + _writes()) for _ in range(12)]
    for _kind, sqls in counted:
        assert not [sql for sql in sqls if "django_session" in sql], sqls
        assert len([sql for sql in sqls if 'FROM "handsite_user"' in sql]) == 1, sqls
    assert any("handsite_notification" in sql for _kind, sqls in counted for sql in sqls)
