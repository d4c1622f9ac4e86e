"""A move costs a constant number of queries (at most 6 with the session and the user), however long
the game has run."""

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine
from games.models import Game

HTMX = {"HTTP_HX_REQUEST": "true"}


def _counted_move(client_by_seat, game):
    state = engine.from_json(game.state)
    seat = state.current
    action = engine.bot_action(state, seat)
    url = reverse("games:move", args=[game.group.slug, game.pk])
    import json

    with CaptureQueriesContext(connection) as queries:
        client_by_seat[seat].post(url, {"preset": json.dumps(action), "version": game.version}, **HTMX)
    game.refresh_from_db()
    assert game.version == state.version + 1
    sqls = [q["sql"] for q in queries.captured_queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))]
    # Issue 6: a move that passes the turn also writes its notification (the outbox row) in the same
    # transaction, one INSERT ... SELECT. Counted apart: at most one per move, on top of the six.
    outbox = [sql for sql in sqls if sql.startswith("INSERT INTO handsite_notification")]
    assert len(outbox) <= 1
    return [sql for sql in sqls if sql not in outbox]


def test_a_move_needs_at_most_six_queries_early_and_late(client, duel, owner, member):
    from django.test import Client

    clients = {}
    for seat in duel.seats.all():
        clients[seat.number] = Client()
        clients[seat.number].force_login(seat.user)
    early = _counted_move(clients, duel)
    for _ in range(40):
        _counted_move(clients, duel)
    duel = Game.objects.get(pk=duel.pk)
    late = _counted_move(clients, duel)
    assert len(early) == len(late) <= 6, "\n".join(late)
