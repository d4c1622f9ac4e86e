"""The invitation scan over many unanswered invitations (not a test; numbers go into the report).

Creates its own PostgreSQL database with N waiting games (default 10,000) in 100 groups, each with its
creator seated and one member invited whose reply deadline has passed, then runs the beat task
(``games.tasks.scan_invitations``) once, as one Celery worker would: every seat is freed and each
creator told. Prints seats freed, seconds, SQL queries (in all and per seat), the process's peak
memory and the notifications written; then checks nothing due is left. The e-mail tasks the scan
queues go to REDIS_URL (default redis://127.0.0.1:6379/12) and are dropped at the end. The last line
is one JSON object.

    .venv/bin/python bench/invitation_scan_bench.py [N]
"""

from __future__ import annotations

import datetime as dt
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scan_bench import _admin_sql, _empty_queues, _setup_django, rss_mb  # noqa: E402

GROUPS = 100


def fill(count: int) -> dt.datetime:
    """N waiting games, each with one invitation already past its reply deadline (bulk rows)."""
    from django.utils import timezone

    from games import engine
    from games.models import Game, Seat
    from handsite.models import Membership, PlayerGroup, Role, User

    now = timezone.now()
    groups = PlayerGroup.objects.bulk_create(
        [PlayerGroup(name=f"Group {n}", slug=f"group-{n}") for n in range(GROUPS)]
    )
    users = User.objects.bulk_create(
        [
            User(email=f"p{n}@example.com", username=f"p{n}@example.com", display_name=f"Player {n}")
            for n in range(GROUPS * 2)
        ]
    )
    Membership.objects.bulk_create(
        [Membership(group=groups[n // 2], user=user, role=Role.MEMBER) for n, user in enumerate(users)]
    )
    options = engine.validate_options("classic", 2, {})
    games = Game.objects.bulk_create(
        [
            Game(
                group=groups[n % GROUPS],
                variant="classic",
                options=options,
                players=2,
                seed=n,
                created_by=users[(n % GROUPS) * 2],
            )
            for n in range(count)
        ],
        batch_size=2000,
    )
    invited_at = now - dt.timedelta(days=3)
    seats = []
    for n, game in enumerate(games):
        creator, guest = users[(n % GROUPS) * 2], users[(n % GROUPS) * 2 + 1]
        seats.append(Seat(game=game, number=0, user=creator, accepted_at=invited_at))
        seats.append(
            Seat(game=game, number=1, user=guest, invited_at=invited_at, reply_by=now - dt.timedelta(hours=1))
        )
    Seat.objects.bulk_create(seats, batch_size=4000)
    return now


def scan() -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from games import tasks
    from games.models import Seat
    from handsite.models import Notification

    before = rss_mb()
    with CaptureQueriesContext(connection) as captured:
        began, cpu = time.perf_counter(), time.process_time()
        freed = tasks.scan_invitations()
        seconds, cpu_seconds = time.perf_counter() - began, time.process_time() - cpu
    return {
        "freed": freed,
        "seconds": seconds,
        "cpu_seconds": cpu_seconds,
        "queries": len(captured.captured_queries),
        "rss_before_mb": before,
        "rss_peak_mb": rss_mb(),
        "notifications": Notification.objects.count(),
        "still_due": Seat.objects.filter(reply_by__isnull=False).count(),
    }


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    began = time.perf_counter()
    db_name = f"handsite_invitation_bench_{os.getpid()}"
    _admin_sql(f'CREATE DATABASE "{db_name}"')
    try:
        _setup_django(db_name)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        fill(count)
        print(f"{count} invitations due ({time.perf_counter() - began:.0f} s), load {os.getloadavg()[0]:.2f}")
        figures = scan()
        print(
            f"invitation scan: {figures['freed']} seats freed in {figures['seconds']:.2f} s (CPU "
            f"{figures['cpu_seconds']:.2f} s), {figures['queries']} queries "
            f"({figures['queries'] / max(figures['freed'], 1):.4f} per seat), memory "
            f"{figures['rss_before_mb']:.0f} -> peak {figures['rss_peak_mb']:.0f} MB, notifications "
            f"written {figures['notifications']}, still due {figures['still_due']}"
        )
    finally:
        from django.db import connections

        connections.close_all()
        _admin_sql(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        _empty_queues()
    figures.update(load=round(os.getloadavg()[0], 2), due=count)
    print(json.dumps({k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}))


if __name__ == "__main__":
    main()
