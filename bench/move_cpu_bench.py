"""CPU per move in the web process (not a test; numbers go into the report).

Plays the first N moves of a two-player classic game through the test client (the whole request:
session, the game locked with its seats, the engine, the log INSERT, the outbox row, the UPDATE) and
reports the process CPU time per move, and apart the CPU of the locking read alone
(``games.services._locked``, the game row with its seats and their players), repeated on a game in
progress. Uses its own throwaway PostgreSQL database (dropped at the end).

    .venv/bin/python bench/move_cpu_bench.py [moves]
"""

from __future__ import annotations

import json
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
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        measure(moves)
    finally:
        from django.db import connections

        connections.close_all()
        _admin_sql(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def measure(moves: int) -> None:
    from django.db import transaction
    from django.test import Client
    from django.urls import reverse

    from games import engine, services
    from handsite.models import Membership, PlayerGroup, Role, User

    group = PlayerGroup.objects.create(name="Bench", slug="bench")
    users = []
    for seat in range(2):
        user = User.objects.create_user(email=f"cpu{seat}@example.com", password="x" * 20)
        Membership.objects.create(group=group, user=user, role=Role.OWNER if seat == 0 else Role.MEMBER)
        users.append(user)
    game = services.create_game(
        group=group, created_by=users[0], variant="classic", options={}, seats=users, seed=4242
    )
    services.accept_seat(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    clients = []
    for user in users:
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        clients.append(client)
    url = reverse("games:move", args=[group.slug, game.pk])
    state = engine.from_json(game.state)
    cpu = []
    for _ in range(moves):
        if state.finished:
            break
        seat = state.current
        action = engine.bot_action(state, seat)
        start = time.process_time()
        response = clients[seat].post(
            url, {"preset": json.dumps(action), "version": state.version}, HTTP_HX_REQUEST="true"
        )
        cpu.append(time.process_time() - start)
        assert response.status_code == 200, response.status_code
        engine.apply(state, seat, action)
    locked = []
    for _ in range(300):
        start = time.process_time()
        with transaction.atomic():
            services._locked(game.pk, user=users[0], group_slug=group.slug)
        locked.append(time.process_time() - start)
    ms = 1000
    print(
        f"move request CPU over {len(cpu)} moves: median {statistics.median(cpu) * ms:.2f} ms, "
        f"mean {statistics.fmean(cpu) * ms:.2f} ms"
    )
    print(
        f"locking read (_locked) CPU over 300 calls: median {statistics.median(locked) * ms:.3f} ms, "
        f"mean {statistics.fmean(locked) * ms:.3f} ms"
    )


if __name__ == "__main__":
    main()
