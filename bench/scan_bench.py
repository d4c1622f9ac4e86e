"""The beat scans over many due games (not a test; numbers go into the report).

Creates its own PostgreSQL database, deals one real game (classic, two players, 30 moves in) and copies
it into N active games (default 10,000) in 100 groups of 2 players, with a day per move and the
"automatic move" timeout rule; one player in five is on vacation. Then, each in a fresh process (so its
peak memory is its own), as one Celery worker would run them:

1. the deadline scan (``games.tasks.scan_deadlines``) with every deadline passed: each game gets its
   timeout move, or a pause for the player on vacation;
2. the reminder scan (``games.tasks.scan_reminders``) with every game's turn 13 hours old and its
   ``next_reminder_at`` passed: a reminder each (the default first reminder comes after 12 hours);
   one player in five has quiet hours now, one in five the daily digest.

Prints for each: games handled, seconds, SQL queries (in all and per game), the peak memory of the
process (RSS: before the scan and its peak during it), the notifications written; then checks nothing
due is left. Redis: REDIS_URL (default redis://127.0.0.1:6379/12) receives the e-mail tasks the scans
queue; they are dropped at the end. The last line is one JSON object with ``seconds_10000_due`` (the
slower of the two scans for N = 10,000). BENCH_PROFILE=path writes a cProfile of each scan to
path.<scan>.

    .venv/bin/python bench/scan_bench.py [N] [deadlines,reminders]
"""

from __future__ import annotations

import cProfile
import datetime as dt
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
GROUPS = 100
QUEUES = ("celery", "mail", "scans", "results")


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def _setup_django(db_name: str) -> None:
    os.environ["DATABASE_URL"] = f"{PG}/{db_name}"
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ["EMAIL_MODE"] = "console"
    import django

    django.setup()


def rss_mb() -> float:
    """This process's peak resident memory so far (VmHWM: unlike ru_maxrss it does not count the
    parent's memory the process was forked from)."""
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) / 1024


def current_rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    scans = sys.argv[2].split(",") if len(sys.argv) > 2 else ["deadlines", "reminders"]
    began = time.perf_counter()
    db_name = f"handsite_scan_bench_{os.getpid()}"
    _admin_sql(f'CREATE DATABASE "{db_name}"')
    results = {}
    try:
        _setup_django(db_name)
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        now = fill(count)
        print(f"{count} games ready ({time.perf_counter() - began:.0f} s), load {os.getloadavg()[0]:.2f}")
        for scan in scans:
            if scan == "reminders":
                make_reminders_due(now)
            child = subprocess.run(
                [sys.executable, __file__, "--scan", scan, db_name, now.isoformat()],
                capture_output=True,
                text=True,
                env=dict(os.environ),
                timeout=280,
            )
            if child.returncode != 0:
                raise SystemExit(f"the {scan} scan failed:\n{child.stdout}\n{child.stderr}")
            figures = json.loads(child.stdout.strip().splitlines()[-1])
            results[scan] = figures
            print(
                f"{scan} scan: {figures['handled']} games in {figures['seconds']:.1f} s "
                f"(CPU of the scanning process {figures['cpu_seconds']:.1f} s) "
                f"({figures['handled'] / figures['seconds']:.0f} games/s), {figures['queries']} queries "
                f"({figures['queries'] / max(figures['handled'], 1):.3f} per game), {figures['tasks']} task "
                f"runs, memory {figures['rss_before_mb']:.0f} -> peak {figures['rss_peak_mb']:.0f} MB, "
                f"notifications written {figures['notifications']}, still due {figures['still_due']}; "
                f"load {figures['load']:.2f}"
            )
            for line in figures["outcomes"]:
                print(f"  {line}")
    finally:
        from django.db import connections

        connections.close_all()
        _admin_sql(f'DROP DATABASE IF EXISTS "{db_name}" WITH (FORCE)')
        _empty_queues()
    seconds = max(r["seconds"] for r in results.values())
    summary = {"seconds_10000_due": round(seconds, 2) if count == 10_000 else None, "due": count}
    for scan, figures in results.items():
        summary[f"{scan}_seconds"] = round(figures["seconds"], 2)
        summary[f"{scan}_cpu_seconds"] = round(figures["cpu_seconds"], 2)
        summary[f"{scan}_queries"] = figures["queries"]
        summary[f"{scan}_peak_mb"] = round(figures["rss_peak_mb"], 1)
        summary[f"{scan}_still_due"] = figures["still_due"]
    summary.update(load=round(os.getloadavg()[0], 2), seconds=round(time.perf_counter() - began, 1))
    print(json.dumps(summary))


def _empty_queues() -> None:
    try:
        import redis

        redis.Redis.from_url(os.environ["REDIS_URL"]).delete(*QUEUES)
    except Exception as error:  # the figures are printed anyway
        print(f"could not empty the bench's Redis queues: {error}")


def fill(count: int) -> dt.datetime:
    """``count`` copies of one dealt game, every deadline passed; returns the scans' "now"."""
    from django.db import connection
    from django.utils import timezone

    from games import engine
    from games.models import Game, Seat, TimeoutRule
    from games.services import playing, seating
    from handsite.models import Membership, NotificationPreference, PlayerGroup, Role, User

    users = User.objects.bulk_create(
        User(email=f"p{i}@example.com", username=f"p{i}", display_name=f"Player {i}", password="!")
        for i in range(GROUPS * 2)
    )
    groups = PlayerGroup.objects.bulk_create(
        PlayerGroup(name=f"Group {i}", slug=f"group-{i}") for i in range(GROUPS)
    )
    Membership.objects.bulk_create(
        Membership(group=group, user=users[2 * i + k], role=Role.OWNER if k == 0 else Role.MEMBER)
        for i, group in enumerate(groups)
        for k in range(2)
    )
    template = seating.create_game(
        group=groups[0],
        created_by=users[0],
        variant="classic",
        options={},
        seats=[users[0], users[1]],
        move_hours=24,
        timeout_rule=TimeoutRule.AUTO_MOVE,
        seed=77,
    )
    seating.accept_seat(game_id=template.pk, user=users[1])
    template.refresh_from_db()
    state = engine.from_json(template.state)
    for _ in range(30):
        seat = state.current
        action = engine.bot_action(state, seat)
        template = playing.play(
            game_id=template.pk, user=users[seat], version=state.version, action=action
        ).game
        engine.apply(state, seat, action)
    template.refresh_from_db()
    now = timezone.now()
    started = now - dt.timedelta(hours=25)
    fields = {
        "variant": template.variant,
        "options": template.options,
        "players": 2,
        "move_hours": 24,
        "timeout_rule": TimeoutRule.AUTO_MOVE,
        "status": template.status,
        "version": template.version,
        "revision": template.revision,
        "seed": template.seed,
        "state": template.state,
        "turn_seat": template.turn_seat,
        "turn_version": template.turn_version,
        "turn_started_at": started,
        "deadline_at": started + dt.timedelta(hours=24),
        "next_reminder_at": now + dt.timedelta(days=30),  # the reminder part sets its own
        "started_at": started,
    }
    Game.objects.filter(pk=template.pk).delete()
    index_of = {group.pk: i for i, group in enumerate(groups)}
    for start in range(0, count, 2000):
        games = Game.objects.bulk_create(
            Game(group=groups[i % GROUPS], created_by=users[2 * (i % GROUPS)], **fields)
            for i in range(start, min(count, start + 2000))
        )
        Seat.objects.bulk_create(
            Seat(game=game, number=k, user=users[2 * index_of[game.group_id] + k], accepted_at=started)
            for game in games
            for k in range(2)
        )
    prefs = []
    for i, user in enumerate(users):
        pref = NotificationPreference(user=user, time_zone="UTC")
        if i % 10 in (3, 4):
            pref.vacation_started_at, pref.vacation_until = (
                now - dt.timedelta(hours=2),
                now + dt.timedelta(days=2),
            )
        if i % 10 in (5, 6):
            pref.quiet_start = (now - dt.timedelta(hours=1)).time().replace(second=0, microsecond=0)
            pref.quiet_end = (now + dt.timedelta(hours=1)).time().replace(second=0, microsecond=0)
        if i % 10 in (7, 8):
            pref.daily_digest = True
        prefs.append(pref)
    NotificationPreference.objects.bulk_create(prefs)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return now


def make_reminders_due(now: dt.datetime) -> None:
    """Every game's turn began 13 hours ago, its deadline is 11 hours away, a reminder is due."""
    from django.db import connection

    from games.models import Game

    Game.objects.update(
        turn_started_at=now - dt.timedelta(hours=13),
        deadline_at=now + dt.timedelta(hours=11),
        next_reminder_at=now - dt.timedelta(minutes=1),
        paused_until=None,
    )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE games_game")


def run_scan(scan: str, db_name: str, now_text: str) -> None:
    """In the child process: run one scan as the worker would, with the clock at ``now``."""
    _setup_django(db_name)
    import time_machine
    from django.db import connection

    from games import deadlines, tasks
    from games.models import Move, MoveKind
    from handsite.models import Notification

    now = dt.datetime.fromisoformat(now_text) + dt.timedelta(seconds=1)
    task = tasks.scan_deadlines if scan == "deadlines" else tasks.scan_reminders
    due = deadlines.due_deadlines if scan == "deadlines" else deadlines.due_reminders
    notifications_before = Notification.objects.count()
    connection.ensure_connection()
    rss_before = current_rss_mb()
    profile = cProfile.Profile() if os.environ.get("BENCH_PROFILE") else None
    counted = []

    def count(execute, sql, params, many, context):
        counted.append(sql[:20])  # the statement's start only: the scan's own memory is measured
        return execute(sql, params, many, context)

    with time_machine.travel(now, tick=True), connection.execute_wrapper(count):
        if profile is not None:
            profile.enable()
        began, cpu = time.perf_counter(), time.process_time()
        handled = runs = 0
        while True:  # beat would call the task again a minute later; count the runs it needs
            done = task()
            runs += 1
            handled += done
            if not done or runs >= 20:
                break
        seconds, cpu = time.perf_counter() - began, time.process_time() - cpu
        if profile is not None:
            profile.disable()
            profile.dump_stats(f"{os.environ['BENCH_PROFILE']}.{scan}")
    peak = rss_mb()
    still_due = len(due(now=now, limit=100_000))
    outcomes = []
    if scan == "deadlines":
        timed_out = Move.objects.filter(kind=MoveKind.TIMEOUT).values("game").distinct().count()
        outcomes.append(f"games with a timeout move: {timed_out}")
    rows = Notification.objects.values_list("kind").order_by("kind")
    kinds: dict[str, int] = {}
    for (kind,) in rows:
        kinds[kind] = kinds.get(kind, 0) + 1
    outcomes.append(f"notifications by kind: {kinds}")
    queries = len(counted)
    print(
        json.dumps(
            {
                "handled": handled,
                "seconds": seconds,
                "cpu_seconds": cpu,
                "tasks": runs,
                "queries": queries,
                "rss_before_mb": rss_before,
                "rss_peak_mb": peak,
                "notifications": Notification.objects.count() - notifications_before,
                "still_due": still_due,
                "outcomes": outcomes,
                "load": os.getloadavg()[0],
            }
        )
    )


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--scan":
        run_scan(*sys.argv[2:5])
    else:
        main()
