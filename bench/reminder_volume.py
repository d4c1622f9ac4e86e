"""How many e-mails a player gets per day, and how many turns are lost in the night: 60 hours on a moved
clock (time-machine) for players in New York and Amman, with the site's beat run every minute (the
deadline and reminder scans, then the outbox's sweep), as issue 31 tried it.

The cast: Nora in New York and Amir and Lina in Amman, quiet hours 22:00-07:00 in their own zones,
default reminders (the first after 12 hours, then every 24). Five games of Nora and Amir and three of
Nora and Lina, a day per move, the timeout rule moving for a player out of time; it is Nora's turn in
all eight at the start (Monday 18:00 in New York). Amir and Lina play each turn that reaches them
within half an hour while awake (08:00-22:00 their time), the game's page open; Nora opens the site once
a day at 19:00 her time and plays every turn waiting for her.

Creates its own PostgreSQL database (handsite_bench_reminders), counts the messages the site sent
(Django's locmem outbox) per player per local day, and drops the database at the end. Runs on any
version of the site with the same services (games.services: create_game / accept_seat / play, the beat
tasks), so the figures before and after a change compare:

    .venv/bin/python bench/reminder_volume.py
"""

from __future__ import annotations

import collections
import datetime as dt
import os
import sys
import time
from pathlib import Path

ROOT = Path(os.environ.get("BENCH_ROOT", Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(ROOT))
SERVER = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
DATABASE = os.environ.get("BENCH_DB", "handsite_bench_reminders")
os.environ["DATABASE_URL"] = f"{SERVER}/{DATABASE}"
os.environ.pop("REDIS_URL", None)  # the cache in the process; Celery runs each task in it (eager)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")

import psycopg  # noqa: E402

HOURS = 60
STEP = int(os.environ.get("BENCH_STEP_MINUTES", "1"))
"""Minutes between two runs of the beat (1 as in production; more runs the 60 hours faster)."""
START = dt.datetime(2026, 1, 12, 23, 0, tzinfo=dt.UTC)  # Monday 18:00 in New York, 02:00 in Amman
ZONES = {"nora": "America/New_York", "amir": "Asia/Amman", "lina": "Asia/Amman"}


def admin(sql: str) -> None:
    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def main() -> None:
    admin(f"DROP DATABASE IF EXISTS {DATABASE}")
    admin(f"CREATE DATABASE {DATABASE}")
    try:
        run()
    finally:
        from django.db import connections

        connections.close_all()
        admin(f"DROP DATABASE IF EXISTS {DATABASE}")


def run() -> None:
    import django

    django.setup()
    import time_machine
    from django.core import mail
    from django.core.management import call_command
    from django.test.utils import setup_test_environment

    from games import engine
    from games import tasks as game_tasks
    from games.models import Game, GameStatus, TimeoutRule
    from games.services import playing, seating
    from handsite import tasks
    from handsite.celery import app
    from handsite.models import Membership, Notification, PlayerGroup, Role, User
    from handsite.services import outbox, preferences

    setup_test_environment()  # the locmem outbox
    app.conf.task_always_eager = True
    call_command("migrate", verbosity=0)

    with time_machine.travel(START - dt.timedelta(hours=1), tick=False):
        group = PlayerGroup.objects.create(name="Bench", slug="bench")
        people = {}
        for name, zone in ZONES.items():
            user = User.objects.create_user(
                username=name, email=f"{name}@example.com", password="x", display_name=name.title()
            )
            Membership.objects.create(
                group=group, user=user, role=Role.OWNER if name == "nora" else Role.MEMBER
            )
            pref = preferences.preference_for(user)
            pref.time_zone, pref.quiet_start, pref.quiet_end = zone, dt.time(22), dt.time(7)
            pref.save()
            people[name] = user
        games = []
        for other, count in (("amir", 5), ("lina", 3)):
            for _number in range(count):
                game = seating.create_game(
                    group=group,
                    created_by=people["nora"],
                    variant="classic",
                    options=None,
                    seats=[people["nora"], people[other]],
                    move_hours=24,
                    timeout_rule=TimeoutRule.AUTO_MOVE,
                    seed=len(games) + 1,
                )
                seating.accept_seat(game_id=game.pk, user=people[other])
                games.append(game.pk)
        Notification.objects.all().delete()  # the invitations: not what is measured
    mail.outbox.clear()
    by_email = {user.email: name for name, user in people.items()}
    by_id = {user.pk: name for name, user in people.items()}

    def to_move(game: Game) -> str | None:
        seat = game.seats.filter(number=game.turn_seat).first()
        return by_id.get(seat.user_id) if seat is not None and not seat.bot else None

    def play_turn(game: Game, name: str) -> None:
        """The player opens the game and draws and discards (the turn passes once)."""
        user = people[name]
        preferences.record_presence(user.pk)
        outbox.mark_read(user, topic=f"game:{game.pk}")
        state = engine.from_json(game.state)
        seat = state.current
        while state.current == seat and game.status == GameStatus.ACTIVE:
            action = engine.bot_action(state, seat)
            playing.play(game_id=game.pk, user=user, version=game.version, action=action)
            game.refresh_from_db()
            state = engine.from_json(game.state)

    def local(name: str, moment: dt.datetime) -> dt.datetime:
        import zoneinfo

        return moment.astimezone(zoneinfo.ZoneInfo(ZONES[name]))

    # Nora's turn everywhere to begin with (the seed decides who deals first).
    with time_machine.travel(START, tick=False):
        for pk in games:
            game = Game.objects.get(pk=pk)
            if to_move(game) != "nora":
                play_turn(game, to_move(game))

    sent: list[tuple[str, dt.datetime, str]] = []
    night_timeouts = collections.Counter()
    timeouts = collections.Counter()
    began = time.perf_counter()
    with time_machine.travel(START, tick=False) as clock:
        for minute in range(0, HOURS * 60, STEP):
            now = START + dt.timedelta(minutes=minute)
            game_tasks.scan_deadlines()
            game_tasks.scan_reminders()
            tasks.send_pending_notifications()
            for message in mail.outbox:
                name = by_email.get(message.to[0], message.to[0])
                sent.append((name, now, str(message.subject)))
            mail.outbox.clear()
            # The players.
            for pk in games:
                game = Game.objects.get(pk=pk)
                name = to_move(game)
                if game.status != GameStatus.ACTIVE or name is None:
                    continue
                hour = local(name, now)
                if name == "nora":
                    if hour.hour == 19 and hour.minute < STEP:
                        play_turn(game, name)
                elif 8 <= hour.hour < 22 and hour.minute % 30 < STEP:
                    play_turn(game, name)
            if minute % 360 == 0:
                print(f"  {now:%a %H:%M} UTC: {len(sent)} e-mails so far", flush=True)
            clock.shift(dt.timedelta(minutes=STEP))
    elapsed = time.perf_counter() - began

    from games.models import Move

    for move in Move.objects.filter(game_id__in=games, kind="timeout").select_related("game"):
        seat = move.game.seats.filter(number=move.seat).first()
        name = by_id.get(seat.user_id) if seat else "?"
        timeouts[name] += 1
        clock_there = local(name, move.created_at) if name in ZONES else move.created_at
        if clock_there.hour >= 22 or clock_there.hour < 7:
            night_timeouts[name] += 1

    per_day = collections.Counter((name, local(name, when).date()) for name, when, _s in sent)
    print(
        f"{HOURS} hours from {START:%Y-%m-%d %H:%M} UTC, beat every {STEP} min, {len(games)} games, "
        f"{elapsed:.0f} s"
    )
    print(f"{'player':8} {'local day':12} e-mails")
    for (name, day), count in sorted(per_day.items()):
        print(f"{name:8} {day!s:12} {count}")
    for name in ZONES:
        days = [count for (who, _day), count in per_day.items() if who == name]
        total = sum(days)
        print(
            f"{name}: {total} e-mails in {HOURS} h ({total / HOURS * 24:.1f} a day, most in one local day "
            f"{max(days, default=0)}); turns lost to the clock {timeouts[name]}, of them in the night "
            f"{night_timeouts[name]}"
        )
    same_minute = collections.Counter((name, when) for name, when, _s in sent)
    print(f"most e-mails to one player in one minute: {max(same_minute.values(), default=0)}")
    print(f"total e-mails: {len(sent)}")
    if os.environ.get("BENCH_SUBJECTS"):
        for name, when, subject in sent:
            print(f"  {when:%a %H:%M} UTC {name:5} {subject}")


if __name__ == "__main__":
    main()
