"""CPU per move in the web process (not a test; numbers go into the report).

Plays the first N moves of a two-player classic game through the test client, pressing the page's
buttons as a player does (games.moves.requests_for: a staging press is a request of its own), and
reports the process CPU time per request (the whole request: session, the game locked with its seats,
the engine, the log INSERT, the outbox row, the UPDATE); apart, the CPU of the locking read alone
(``games.services.core.locked``, the game row with its seats and their players), repeated on a game in
progress; and the CPU the PostgreSQL backend of its connection spent per request (read from /proc:
PostgreSQL must run on this machine, else that figure is left out). Production settings (``DEBUG=0``:
no query log) and a kept connection (``DB_CONN_MAX_AGE``, the site's default). Uses its own throwaway
PostgreSQL database (dropped at the end).

With ``REDIS_URL`` set (a database number of your own) the site's cache and sessions are on Redis, as
under gunicorn.

    REDIS_URL=redis://127.0.0.1:6379/13 .venv/bin/python bench/move_cpu_bench.py [moves]
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DB_NAME = f"handsite_move_cpu_bench_{os.getpid()}"


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def main() -> None:
    moves = int(sys.argv[1]) if len(sys.argv) > 1 else 150
    _admin_sql(f'CREATE DATABASE "{DB_NAME}"')
    try:
        os.environ["DATABASE_URL"] = f"{PG}/{DB_NAME}"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")
        os.environ["LOG_LEVEL"] = "WARNING"
        os.environ["DEBUG"] = "0"
        os.environ.setdefault("SECRET_KEY", "move-cpu-bench-" + "x" * 50)
        os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
        os.environ["SECURE_SSL_REDIRECT"] = "0"
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        measure(moves)
    finally:
        from django.db import connections

        connections.close_all()
        _admin_sql(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def describe_caches() -> None:
    """Prints where the cache and the sessions live."""
    from django.conf import settings

    caches = ", ".join(
        f"{alias}: {config['BACKEND'].rsplit('.', 1)[1]}" for alias, config in settings.CACHES.items()
    )
    print(f"caches: {caches}; sessions: {settings.SESSION_ENGINE}")


def _backend_cpu(pid: int | None) -> float:
    """CPU seconds (user + system) the PostgreSQL backend ``pid`` has used, 0 when it is not local."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(moves: int) -> None:
    from django.db import transaction
    from django.test import Client
    from django.urls import reverse

    from games import engine
    from games.moves import requests_for
    from games.services import core as game_core
    from games.services import seating
    from handsite.models import Membership, PlayerGroup, Role, User

    group = PlayerGroup.objects.create(name="Bench", slug="bench")
    users = []
    for seat in range(2):
        user = User.objects.create_user(email=f"cpu{seat}@example.com", password="x" * 20)
        Membership.objects.create(group=group, user=user, role=Role.OWNER if seat == 0 else Role.MEMBER)
        users.append(user)
    game = seating.create_game(
        group=group, created_by=users[0], variant="classic", options={}, seats=users, seed=4242
    )
    seating.accept_seat(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    clients = []
    for user in users:
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        clients.append(client)
    describe_caches()
    url = reverse("games:move", args=[group.slug, game.pk])
    state = engine.from_json(game.state)
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    backend_before = _backend_cpu(backend)
    cpu = []
    for _ in range(moves):
        if state.finished:
            break
        seat = state.current
        action = engine.bot_action(state, seat)
        for press in requests_for(state, seat, action):  # the page's buttons (staging presses too)
            start = time.process_time()
            response = clients[seat].post(url, press.as_post(state.version), HTTP_HX_REQUEST="true")
            cpu.append(time.process_time() - start)
            assert response.status_code == 200, response.status_code
        engine.apply(state, seat, action)
    backend_cpu = _backend_cpu(backend) - backend_before
    game.refresh_from_db()
    assert game.version == state.version, "a move was refused: the bench no longer plays"
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        assert cursor.fetchone()[0] == backend, "the connection was not kept"
    locked = []
    for _ in range(300):
        start = time.process_time()
        with transaction.atomic():
            game_core.locked(game.pk, user=users[0], group_slug=group.slug)
        locked.append(time.process_time() - start)
    ms = 1000
    print(
        f"move request CPU over {len(cpu)} requests: median {statistics.median(cpu) * ms:.2f} ms, "
        f"mean {statistics.fmean(cpu) * ms:.2f} ms"
    )
    if backend_cpu:
        print(f"PostgreSQL backend CPU over {len(cpu)} requests: mean {backend_cpu / len(cpu) * ms:.2f} ms")
    print(
        f"locking read (_locked) CPU over 300 calls: median {statistics.median(locked) * ms:.3f} ms, "
        f"mean {statistics.fmean(locked) * ms:.3f} ms"
    )


if __name__ == "__main__":
    main()
