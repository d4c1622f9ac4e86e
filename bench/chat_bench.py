"""Table talk's costs (not a test; the figures go into the report).

In a throwaway database, a classic game of two people; measured as the players, through the real views
(Django's test client, htmx headers), the median of ``--rounds``:

- ``post``: writing a message (queries, ms);
- ``play``: the play page with no message, with ``games.chat.SHOWN`` (what a page shows) and with
  ``--messages`` more (queries, ms): the last two must be the same (the page reads the newest SHOWN);
- ``poll_changed``: the poll after a new message (queries, ms), with the long chat;
- ``poll_unchanged``: the unchanged poll (status, body bytes, queries): must stay 204, 0 bytes, 1 query;
- ``move``: a move's htmx answer in the game with the long chat (queries): must stay <= 6 and read no
  message.

SQLite in a temporary directory by default; ``--pg`` uses PostgreSQL (BENCH_PG, default
postgres://postgres@127.0.0.1:5432, database handsite_chat_bench, dropped at the end). The last line
printed is one JSON object.

    .venv/bin/python bench/chat_bench.py [--messages 5000] [--rounds 15] [--pg]

Targets: play and poll_changed flat in the chat's length; poll_unchanged 204 / 0 bytes / 1 query;
move <= 6 queries.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
DB_NAME = "handsite_chat_bench"
CONTROL = ("SAVEPOINT", "RELEASE", "BEGIN", "COMMIT", "ROLLBACK")


def admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--messages", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--pg", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as var:
        os.environ["HANDSITE_VAR_DIR"] = var
        os.environ.pop("REDIS_URL", None)
        if args.pg:
            os.environ["DATABASE_URL"] = f"{SERVER}/{DB_NAME}"
            admin(f"DROP DATABASE IF EXISTS {DB_NAME}")
            admin(f"CREATE DATABASE {DB_NAME}")
        else:
            os.environ["DATABASE_URL"] = f"sqlite:///{var}/bench.sqlite3"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")
        try:
            run(args.messages, args.rounds)
        finally:
            if args.pg:
                from django.db import connections

                connections.close_all()
                admin(f"DROP DATABASE IF EXISTS {DB_NAME}")


def run(message_count: int, rounds: int) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from games import engine, moves
    from games.chat import SHOWN
    from games.models import ChatMessage, Game
    from games.services import seating
    from games.views import poll_token
    from handsite.celery import app as celery_app
    from handsite.models import Membership, PlayerGroup, Role, User

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.GAMES_CHAT_PER_MINUTE = 10**6
    celery_app.conf.task_always_eager = True
    call_command("migrate", verbosity=0)
    group = PlayerGroup.objects.create(name="Thursday Hand", slug="bench")
    people = []
    for number in range(2):
        user = User.objects.create_user(
            email=f"p{number}@example.com", password="x", display_name=f"Player {number + 1}"
        )
        Membership.objects.create(group=group, user=user, role=Role.OWNER if number == 0 else Role.MEMBER)
        people.append(user)
    game = seating.create_game(
        group=group, created_by=people[0], variant="classic", options={}, seats=people, seed=11
    )
    seating.accept_seat(game_id=game.pk, user=people[1])
    game = Game.objects.get(pk=game.pk)
    clients = []
    for user in people:
        client = Client()
        client.force_login(user)
        clients.append(client)
    htmx = {"HTTP_HX_REQUEST": "true"}
    play_url = game.get_absolute_url()
    chat_url = reverse("games:chat", args=[group.slug, game.pk])
    poll_url = reverse("games:poll", args=[group.slug, game.pk])

    def measure(call) -> tuple[int, float]:
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = call()
            elapsed = (time.perf_counter() - started) * 1000
        assert response.status_code in (200, 204, 302), response.status_code
        counted = [q for q in queries.captured_queries if not q["sql"].lstrip().upper().startswith(CONTROL)]
        return len(counted), elapsed

    def median_of(call) -> dict:
        runs = [measure(call) for _ in range(rounds)]
        return {
            "queries": max(q for q, _ms in runs),
            "ms": round(statistics.median(ms for _q, ms in runs), 1),
        }

    results: dict = {"messages": message_count}
    results["play_empty"] = median_of(lambda: clients[1].get(play_url))
    results["post"] = median_of(lambda: clients[0].post(chat_url, {"text": "Yalla, your turn!"}, **htmx))

    def add_messages(count: int) -> None:
        ChatMessage.objects.bulk_create(
            ChatMessage(game=game, author=people[n % 2], text=f"message {n} " + "x" * 60, version=0)
            for n in range(count)
        )

    add_messages(max(0, SHOWN - ChatMessage.objects.filter(game=game).count()))
    results["play_shown"] = median_of(lambda: clients[1].get(play_url))
    add_messages(message_count)
    results["play_long"] = median_of(lambda: clients[1].get(play_url))

    def changed_poll():
        revision = Game.objects.values_list("revision", flat=True).get(pk=game.pk)
        clients[0].post(chat_url, {"text": "one more"}, **htmx)
        query = {"r": revision, "u": people[1].pk, "t": poll_token(game.pk, people[1].pk)}
        return measure(lambda: clients[1].get(poll_url, query, **htmx))

    runs = [changed_poll() for _ in range(rounds)]
    results["poll_changed_long"] = {
        "queries": max(q for q, _ms in runs),
        "ms": round(statistics.median(ms for _q, ms in runs), 1),
    }
    revision = Game.objects.values_list("revision", flat=True).get(pk=game.pk)
    query = {"r": revision, "u": people[1].pk, "t": poll_token(game.pk, people[1].pk)}
    clients[1].get(poll_url, query, **htmx)  # presence written
    with CaptureQueriesContext(connection) as queries:
        response = clients[1].get(poll_url, query, **htmx)
    results["poll_unchanged"] = {
        "status": response.status_code,
        "bytes": len(response.content),
        "queries": len(queries.captured_queries),
    }
    game.refresh_from_db()
    state = engine.from_json(game.state)
    seat = state.current
    press = next(iter(moves.requests_for(state, seat, engine.bot_action(state, seat))))
    mover = clients[
        next(i for i, user in enumerate(people) if game.seats.get(number=seat).user_id == user.pk)
    ]
    with CaptureQueriesContext(connection) as queries:
        response = mover.post(
            reverse("games:move", args=[group.slug, game.pk]), press.as_post(game.version), **htmx
        )
    counted = [
        q["sql"] for q in queries.captured_queries if not q["sql"].lstrip().upper().startswith(CONTROL)
    ]
    results["move_long"] = {
        "status": response.status_code,
        "queries": len(counted),
        "reads_chat": any("games_chatmessage" in sql for sql in counted),
    }
    for name, value in results.items():
        print(f"{name:>18}: {value}")
    print(json.dumps(results))


if __name__ == "__main__":
    main()
