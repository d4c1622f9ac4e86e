"""Finding due reminders among many active games uses the partial index and costs what is due, not
what exists.

Creates its own PostgreSQL database (handsite_bench), fills it with 10,000 and then 100,000 active
games (bulk_create), makes 10 / 100 / 1,000 of them due, and times games.deadlines.due_reminders()
(the beat scan's query; median of 25 runs). Prints EXPLAIN ANALYZE of the query. Drops the database
at the end.

    .venv/bin/python bench/reminders_bench.py
"""

from __future__ import annotations

import datetime as dt
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
os.environ["DATABASE_URL"] = f"{SERVER}/handsite_bench"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")

import psycopg  # noqa: E402


def admin(sql: str) -> None:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def main() -> None:
    admin("DROP DATABASE IF EXISTS handsite_bench")
    admin("CREATE DATABASE handsite_bench")
    try:
        run()
    finally:
        from django.db import connections

        connections.close_all()
        admin("DROP DATABASE IF EXISTS handsite_bench")


def run() -> None:
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from games import deadlines
    from games.models import Game
    from handsite.models import PlayerGroup

    call_command("migrate", verbosity=0)
    group = PlayerGroup.objects.create(name="Bench", slug="bench")
    now = timezone.now()
    future = now + dt.timedelta(hours=6)

    def fill(total: int) -> None:
        have = Game.objects.count()
        batch = []
        for i in range(have, total):
            batch.append(
                Game(
                    group=group,
                    variant="classic",
                    players=2,
                    seed=i,
                    status="active",
                    move_hours=24,
                    turn_seat=0,
                    turn_version=1,
                    deadline_at=future + dt.timedelta(seconds=i),
                    next_reminder_at=future + dt.timedelta(seconds=i),
                )
            )
            if len(batch) == 5000:
                Game.objects.bulk_create(batch)
                batch = []
        if batch:
            Game.objects.bulk_create(batch)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE games_game")

    def make_due(count: int) -> None:
        Game.objects.update(next_reminder_at=future)
        ids = list(Game.objects.order_by("?").values_list("pk", flat=True)[:count])
        Game.objects.filter(pk__in=ids).update(next_reminder_at=now - dt.timedelta(minutes=5))
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE games_game")

    def timed(count: int) -> float:
        runs = []
        for _ in range(25):
            start = time.perf_counter()
            found = deadlines.due_reminders(now, limit=100_000)
            runs.append(time.perf_counter() - start)
            assert len(found) == count, (len(found), count)
        return statistics.median(runs) * 1000

    results = []
    for total in (10_000, 100_000):
        fill(total)
        for due in (10, 100, 1000):
            make_due(due)
            results.append((total, due, timed(due)))
            took = results[-1][2]
            print(f"{total:>7} active games, {due:>5} due: {took:7.2f} ms (median of 25)", flush=True)
    query = (
        Game.objects.filter(status="active", next_reminder_at__isnull=False, next_reminder_at__lte=now)
        .order_by("next_reminder_at")
        .values_list("pk", flat=True)[:100_000]
    )
    print("\nEXPLAIN ANALYZE (100,000 games, 1,000 due):")
    print(query.explain(analyze=True))
    deadline_query = (
        Game.objects.filter(status="active", deadline_at__isnull=False, deadline_at__lte=now)
        .exclude(timeout_rule="nothing")
        .order_by("deadline_at")
        .values_list("pk", flat=True)[:1000]
    )
    print("\nEXPLAIN ANALYZE of the deadline scan (none due):")
    print(deadline_query.explain(analyze=True))


if __name__ == "__main__":
    main()
