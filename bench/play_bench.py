"""Online play speed (not a test; numbers go into the report).

1. SQL queries per move (the whole request: session, user, game lock + membership, seats, log, save),
   early and late in a game: must be the same and at most 6.
2. Queries of an unchanged poll: at most 1.
3. gunicorn on PostgreSQL with 20 concurrent clients (threads, 127.0.0.1 only, a bounded number of
   requests): each client plays moves in its own game and loads a trivial page (the logged-out
   welcome page) in turn; p95 of a move must be at most 1.5x the p95 of the trivial page. Each
   client's first move (a burst on cold workers) is reported apart as the warm-up round.

Uses its own throwaway PostgreSQL database (dropped at the end). The Celery broker is the site's: the
filesystem one by default; set REDIS_URL (e.g. redis://127.0.0.1:6379/14) to measure as in production.

    [REDIS_URL=...] .venv/bin/python bench/play_bench.py [moves_per_client]
"""

from __future__ import annotations

import http.client
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DB_NAME = f"handsite_play_bench_{os.getpid()}"
CLIENTS = 20


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


def main() -> None:
    moves_per_client = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    _admin_sql(f'CREATE DATABASE "{DB_NAME}"')
    server = None
    try:
        os.environ["DATABASE_URL"] = f"{PG}/{DB_NAME}"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")
        os.environ["LOG_LEVEL"] = "WARNING"
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        query_counts()
        server, port = start_gunicorn()
        load(port, moves_per_client)
    finally:
        if server is not None:
            server.terminate()
            server.wait(10)
        from django.db import connections

        connections.close_all()
        _admin_sql(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def make_game(index: int):
    from games import services
    from handsite.models import Membership, PlayerGroup, Role, User

    group = PlayerGroup.objects.create(name=f"Bench {index}", slug=f"bench-{index}")
    users = []
    for seat in range(2):
        user = User.objects.create_user(email=f"b{index}-{seat}@example.com", password="x" * 20)
        Membership.objects.create(group=group, user=user, role=Role.OWNER if seat == 0 else Role.MEMBER)
        users.append(user)
    game = services.create_game(
        group=group, created_by=users[0], variant="classic", options={}, seats=users, seed=1000 + index
    )
    services.accept_seat(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game, users


def query_counts() -> None:
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.urls import reverse

    from games import engine
    from games.moves import requests_for
    from games.views import poll_token

    game, users = make_game(999)
    clients = []
    for user in users:
        client = Client(HTTP_HOST="127.0.0.1")
        client.force_login(user)
        clients.append(client)
    url = reverse("games:move", args=[game.group.slug, game.pk])
    state = engine.from_json(game.state)
    counts = []
    for _ in range(200):
        if state.finished:
            break
        seat = state.current
        action = engine.bot_action(state, seat)
        for press in requests_for(state, seat, action):  # the page's buttons; the last one moves
            with CaptureQueriesContext(connection) as captured:
                response = clients[seat].post(url, press.as_post(state.version), HTTP_HX_REQUEST="true")
            assert response.status_code == 200
        engine.apply(state, seat, action)
        sql = [q["sql"] for q in captured.captured_queries]
        counts.append(len([q for q in sql if q not in ("BEGIN", "COMMIT")]))
        control = len(sql) - counts[-1]
        if len(counts) == 100 and os.environ.get("BENCH_SHOW_SQL"):
            print("\n".join(q["sql"][:150] for q in captured.captured_queries))
    print(
        f"queries per move: first {counts[0]}, move 100 {counts[99]}, last ({len(counts)}) {counts[-1]}, "
        f"min {min(counts)}, max {max(counts)} (plus BEGIN/COMMIT: {control})"
    )
    game.refresh_from_db()
    poll = reverse("games:poll", args=[game.group.slug, game.pk])
    with CaptureQueriesContext(connection) as captured:
        response = clients[0].get(
            poll, {"r": game.revision, "u": users[0].pk, "t": poll_token(game.pk, users[0].pk)}
        )
    assert response.status_code == 204
    print(f"queries of an unchanged poll: {len(captured.captured_queries)}")


def start_gunicorn():
    port = _free_port()
    env = {**os.environ, "DEBUG": "1", "LOG_LEVEL": "WARNING"}
    workers = str(max(2, (os.cpu_count() or 1) * 2))
    server = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "handsite.wsgi",
            "-c",
            ".ci/gunicorn.conf.py",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            workers,
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.1)
    print(f"gunicorn: {workers} sync workers on 127.0.0.1:{port}, {os.cpu_count()} CPUs")
    return server, port


WARM_UP_ROUNDS = 1
"""Each client's first move is timed apart: the 20 clients send it at the same moment to freshly started
workers (first template compile, first connections), a cold start that falls on moves only because each
round sends the move before the trivial page."""


def load(port: int, moves_per_client: int) -> None:
    from django.test import Client
    from django.urls import reverse

    from games import engine
    from games.moves import requests_for

    players = []
    for index in range(CLIENTS):
        game, users = make_game(index)
        cookies = []
        for user in users:
            client = Client()
            client.force_login(user)
            cookies.append(client.cookies["sessionid"].value)
        players.append((game, cookies, reverse("games:move", args=[game.group.slug, game.pk])))

    move_times: list[float] = []
    page_times: list[float] = []
    warm_up_times: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    start = threading.Barrier(CLIENTS)

    def run(game, cookies, url):
        state = engine.from_json(game.state)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        token = "benchcsrftoken0123456789abcdefgh"  # any 32 letters/digits: cookie and header must match
        start.wait()
        for round_number in range(moves_per_client + WARM_UP_ROUNDS):
            if state.finished:
                break
            seat = state.current
            action = engine.bot_action(state, seat)
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"sessionid={cookies[seat]}; csrftoken={token}",
                "X-CSRFToken": token,
                "HX-Request": "true",
                "Referer": f"http://127.0.0.1:{port}/",
            }
            for press in requests_for(state, seat, action):  # staging presses first; the last is timed
                body = urlencode(press.as_post(state.version), doseq=True)
                began = time.perf_counter()
                conn.request("POST", url, body, headers)
                response = conn.getresponse()
                response.read()
                took = time.perf_counter() - began
            if response.status != 200:
                errors.append(f"move {response.status}")
                break
            engine.apply(state, seat, action)
            began = time.perf_counter()
            conn.request("GET", "/")
            page = conn.getresponse()
            page.read()
            page_took = time.perf_counter() - began
            with lock:
                if round_number < WARM_UP_ROUNDS:
                    warm_up_times.append(took)
                else:
                    move_times.append(took)
                    page_times.append(page_took)
        conn.close()

    threads = [threading.Thread(target=run, args=player) for player in players]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    if errors:
        print("errors:", errors[:5])
    move_p95, page_p95 = p95(move_times), p95(page_times)
    print(
        f"{CLIENTS} clients, {len(move_times)} moves + {len(page_times)} trivial pages in {elapsed:.1f}s\n"
        f"move:    median {statistics.median(move_times) * 1000:.1f} ms, p95 {move_p95 * 1000:.1f} ms\n"
        f"trivial: median {statistics.median(page_times) * 1000:.1f} ms, p95 {page_p95 * 1000:.1f} ms\n"
        f"ratio of p95s: {move_p95 / page_p95:.2f} (target <= 1.5)\n"
        f"warm-up round (not in the figures above; all clients' first moves at once on cold workers): "
        f"{len(warm_up_times)} moves, median {statistics.median(warm_up_times) * 1000:.1f} ms, "
        f"max {max(warm_up_times) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
