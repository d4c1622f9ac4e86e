"""A group's history at ten years of play: page costs stay flat, a deal with its rating update is
quick, a full recompute of the ratings is quick (not a test; the numbers go into the report).

Builds, in a throwaway database, one group of 20 players with 1,000 finished score sheets (five
classic deals each, entered through scoring.services.deals.add_deal, so every finished sheet is rated as it
finishes) and 200 finished online games (reported through scoring.services.online.record_online_game, as
games/ does; every tenth with a bot seat, so practice). Then measures, logged in as a member:

- the group page, the standings (leaderboard) page, the sheet list and a player's statistics page:
  queries and ms (median of 5);
- ``add_deal_ms``: one more deal that finishes a sheet, with its incremental rating update (median of
  20 sheets);
- ``recompute_s``: the full recompute of the group's ratings (every game rated again from the first,
  from the stored outcomes); ``rederive_s``: the same after deriving every game's outcome again from
  the raw facts (what a corrected rule needs).

Targets: every page <= 15 queries whatever the history; add_deal_ms <= 50; recompute_s <= 2.
SQLite in a temporary directory by default; ``--pg`` uses PostgreSQL (BENCH_PG, default
postgres://postgres@127.0.0.1:5432, database handsite_history_bench, dropped at the end). The last
line printed is one JSON object.

    .venv/bin/python bench/history_bench.py [--sheets 1000] [--online 200] [--pg]
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
DB_NAME = "handsite_history_bench"


def admin(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{SERVER}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sheets", type=int, default=1000)
    parser.add_argument("--online", type=int, default=200)
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
            run(args.sheets, args.online)
        finally:
            if args.pg:
                from django.db import connections

                connections.close_all()
                admin(f"DROP DATABASE IF EXISTS {DB_NAME}")


def run(sheet_count: int, online_count: int) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection, reset_queries
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse
    from django.utils import timezone

    from games.engine.match import MatchStatus
    from handsite.celery import app as celery_app
    from handsite.models import Membership, PlayerGroup, Role, User
    from scoring.models import DealFact, Sheet
    from scoring.services.deal_facts import score_facts
    from scoring.services.deals import add_deal
    from scoring.services.online import record_online_game
    from scoring.services.ratings import recompute_ratings
    from scoring.services.sheets import PlayerEntry, create_sheet

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    celery_app.conf.task_always_eager = True  # queued replays run in place (none are queued here)
    call_command("migrate", verbosity=0)
    group = PlayerGroup.objects.create(name="Ten years of Thursdays", slug="bench")
    players = []
    for number in range(20):
        user = User.objects.create_user(
            email=f"p{number}@example.com", password="x", display_name=f"Player {number + 1}"
        )
        Membership.objects.create(group=group, user=user, role=Role.OWNER if number == 0 else Role.MEMBER)
        players.append(user)
    owner = players[0]

    def new_sheet(index: int) -> Sheet:
        size = 2 + index % 3
        seated = [players[(index * 7 + offset * 3) % 20] for offset in range(size)]
        return create_sheet(
            group=group,
            by=owner,
            rule_set="classic",
            players=[PlayerEntry(user=user) for user in seated],
            first_dealer=0,
        )

    def facts(size: int, winner: int) -> dict:
        held = [None if seat == winner else 10 + 5 * seat for seat in range(size)]
        return {"winner": winner, "finish": "normal", "opened": [True] * size, "held": held}

    started = time.perf_counter()
    for index in range(sheet_count):
        sheet = new_sheet(index)
        size = 2 + index % 3
        for deal in range(5):
            add_deal(sheet, by=owner, facts=facts(size, (index + deal // 4) % size))
    for game in range(online_count):
        seated = [players[(game * 3 + offset * 5) % 20] for offset in range(2 + game % 3)]
        people = [{"seat": seat, "user_id": user.pk, "name": user.name} for seat, user in enumerate(seated)]
        if game % 10 == 0:
            people[-1] = {"seat": len(people) - 1, "user_id": None, "name": "Bot"}
        totals = tuple(40 * (seat + 1) if seat != game % len(seated) else -30 for seat in range(len(seated)))
        size = len(seated)
        scores = [score_facts("classic", {}, size, facts(size, game % size)) for _ in range(5)]
        record_online_game(
            group_id=group.pk,
            game_id=game + 1,
            rule_set="classic",
            players=people,
            status=MatchStatus(
                sides=tuple((seat,) for seat in range(len(seated))),
                totals=totals,
                scoring_deals_played=5,
                scoring_deals_required=5,
                finished=True,
                winners=((game % len(seated),),),
                next_dealer=None,
                next_deal_number=6,
                in_tie_break=False,
                lower_is_better=True,
            ),
            finished_at=timezone.now(),  # games finish one after another, after the sheets
            deals=scores,  # each deal's facts, for the statistics (as games/ reports them)
        )
    print(
        f"built {sheet_count} sheets and {online_count} online games in {time.perf_counter() - started:.0f} s"
    )

    client = Client()
    client.force_login(owner)
    figures = {}
    pages = {
        "group": reverse("group_detail", args=[group.slug]),
        "standings": reverse("scoring:standings", args=[group.slug]),
        "sheets": reverse("scoring:sheet_list", args=[group.slug]),
        "player": reverse("scoring:player", args=[group.slug]) + f"?key=user:{owner.pk}",
    }
    for name, url in pages.items():
        times, queries = [], 0
        for _ in range(5):
            reset_queries()  # the build filled DEBUG's query log (a full log would count 0)
            with CaptureQueriesContext(connection) as captured:
                start = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - start) * 1000)
            assert response.status_code == 200, (url, response.status_code)
            queries = len(captured)
        figures[f"{name}_queries"] = queries
        figures[f"{name}_ms"] = round(statistics.median(times), 1)
        figures[f"{name}_kb"] = round(len(response.content) / 1024, 1)

    times = []
    for index in range(sheet_count, sheet_count + 20):
        sheet = new_sheet(index)
        size = 2 + index % 3
        for _deal in range(4):
            add_deal(sheet, by=owner, facts=facts(size, 0))
        start = time.perf_counter()
        add_deal(sheet, by=owner, facts=facts(size, 0))  # finishes the sheet: rated at once
        times.append((time.perf_counter() - start) * 1000)
    figures["add_deal_ms"] = round(statistics.median(times), 1)

    start = time.perf_counter()
    recompute_ratings(group.pk, rederive=False)
    figures["recompute_s"] = round(time.perf_counter() - start, 2)
    start = time.perf_counter()
    recompute_ratings(group.pk, rederive=True)
    figures["rederive_s"] = round(time.perf_counter() - start, 2)
    if os.environ.get("BENCH_PROFILE"):
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(recompute_ratings, group.pk)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    figures["database"] = connection.vendor
    figures["sheets"] = Sheet.objects.filter(group=group).count()
    figures["deal_fact_rows"] = DealFact.objects.filter(group=group).count()
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
