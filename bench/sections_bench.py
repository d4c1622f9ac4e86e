"""The group page and the home page as a group's games pile up (not a test; the figures go into the
report). Their "Games", "My games" and "Score sheets" sections come from handsite.sections: a few
queries each, whatever the number of games, and no game's state is read to list it.

Builds, in a throwaway SQLite database, one group of 4 players and then, step by step, 1, 20, 200 and
1,000 games (each dealt and played 60 bot moves, so its stored state is a real one of a few tens of KB)
and as many score sheets; after each step measures, logged in as a member: the group page and the home
page, queries and ms (median of 5), and the bytes of game state the page's queries read.

    .venv/bin/python bench/sections_bench.py [--steps 1,20,200,1000]

The last line printed is one JSON object.
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", default="1,20,200,1000")
    args = parser.parse_args()
    steps = [int(step) for step in args.steps.split(",")]
    with tempfile.TemporaryDirectory() as var:
        os.environ["HANDSITE_VAR_DIR"] = var
        os.environ.pop("REDIS_URL", None)
        os.environ["DATABASE_URL"] = f"sqlite:///{var}/bench.sqlite3"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")
        run(steps)


def run(steps: list[int]) -> None:
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, setup_test_environment
    from django.urls import reverse

    from games import engine
    from games.models import Game
    from games.services import seating
    from handsite.celery import app as celery_app
    from handsite.models import Membership, PlayerGroup, Role, User
    from scoring.services.sheets import PlayerEntry, create_sheet

    setup_test_environment()
    settings.ALLOWED_HOSTS = ["testserver"]
    celery_app.conf.task_always_eager = True
    call_command("migrate", verbosity=0)
    group = PlayerGroup.objects.create(name="Thursdays", slug="bench")
    people = []
    for number in range(4):
        user = User.objects.create_user(
            email=f"p{number}@example.com", password="x", display_name=f"P{number}"
        )
        Membership.objects.create(group=group, user=user, role=Role.OWNER if number == 0 else Role.MEMBER)
        people.append(user)
    owner, member = people[0], people[1]
    client = Client()
    client.force_login(member)
    pages = {"group": reverse("group_detail", args=[group.slug]), "home": reverse("home")}
    client.get(pages["home"])  # the session's first page keeps the reader's zone
    made, results = 0, []
    for step in steps:
        while made < step:
            game = seating.create_game(
                group=group,
                created_by=owner,
                variant="classic",
                options=None,
                seats=[owner, member],
                seed=made,
            )
            seating.accept_seat(game_id=game.pk, user=member)
            game = Game.objects.get(pk=game.pk)
            state = engine.from_json(game.state)
            for _ in range(60):  # a game well under way: its state is no longer small
                if state.finished:
                    break
                engine.apply(state, state.current, engine.bot_action(state, state.current))
            Game.objects.filter(pk=game.pk).update(state=engine.to_json(state))
            create_sheet(
                group=group,
                by=owner,
                rule_set="classic",
                players=[PlayerEntry(user=owner), PlayerEntry(user=member)],
                first_dealer=0,
            )
            made += 1
        state_bytes = sum(len(json.dumps(s)) for s in Game.objects.values_list("state", flat=True))
        row = {"games": made, "state_kb_total": round(state_bytes / 1024)}
        for name, url in pages.items():
            timings = []
            for _ in range(5):
                with CaptureQueriesContext(connection) as captured:
                    started = time.perf_counter()
                    response = client.get(url)
                    timings.append((time.perf_counter() - started) * 1000)
                assert response.status_code == 200
            row[f"{name}_queries"] = len(captured)
            row[f"{name}_ms"] = round(statistics.median(timings), 1)
            row[f"{name}_reads_state"] = any(
                '"games_game"."state"' in q["sql"] for q in captured.captured_queries
            )
        results.append(row)
        print(row, flush=True)
    print(json.dumps(results))


if __name__ == "__main__":
    main()
