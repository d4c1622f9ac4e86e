"""Online play speed (not a test; numbers go into the report).

1. SQL queries per move (the whole request: session, user, game lock + membership, seats, log, save),
   early and late in a game: must be the same and at most 6.
2. Queries of an unchanged poll: at most 1.
3. Throughput against the stack's own limit: gunicorn (4 sync workers, .ci/gunicorn.conf.py, DEBUG=0
   with collected static files) on PostgreSQL and Redis, 20 concurrent clients (threads, 127.0.0.1,
   keep-alive connections), three rounds. Each round has five phases:
   - ``trivial``: the logged-out welcome page only (no query): the stack's own limit;
   - ``move``: each client plays moves in its own game (the actions are computed before the phase, so
     the clients spend no CPU on the engine while timing). Each POST is a move request, counted and
     timed on its own: a move that lays down melds is the page's presses (put each meld aside, then lay
     down), about one move in twenty;
   - ``poll``: each client polls its game, unchanged (the 204 answer);
   - ``move+trivial`` and ``poll+trivial``: each client alternates the two, so both kinds of request
     queue behind the same load.
   Ratios: ``move_throughput_ratio`` = move requests/s over the trivial page's (target >= 1/4);
   ``move_p95_ratio`` = move p95 over the trivial page's p95 in ``move+trivial`` (target <= 1.5: a
   move alone is slower than the page by the throughput ratio, so only the same load compares them);
   ``poll_p95_ratio`` = p95 of the ``poll`` phase over the p95 of the ``trivial`` phase (target <= 1.1;
   the stricter of the two poll ratios: ``mixed_poll_p95_ratio`` is printed too).
   Requests/s of a phase = its requests / the time from the start signal to the last answer. Each
   client's first move of a round is sent before the timing starts (the first round's is the cold
   start: first templates, first connections). Figures: min / median / max over the rounds.

Uses its own throwaway PostgreSQL database (dropped at the end) and a throwaway folder for static files.
Redis: REDIS_URL, default redis://127.0.0.1:6379/12 (the queues it filled are emptied at the end).
DB_CONN_MAX_AGE and the other settings are the site's defaults unless set in the environment.

    .venv/bin/python bench/play_bench.py [rounds]

BENCH_VARIANT=hand-and-foot (or any two-player rule set; default classic) plays that rule set: every figure
above is then for its games (a Hand and Foot game: 2 players, 2 cards drawn a turn, hand and foot).

BENCH_PROFILE=path writes a cProfile of the in-process moves of part 1 (the view's own CPU) to path.

The last line is one JSON object: ``move_throughput_ratio`` and ``poll_p95_ratio`` (medians over the
rounds) with the other figures.
"""

from __future__ import annotations

import cProfile
import http.client
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DB_NAME = f"handsite_play_bench_{os.getpid()}"
CLIENTS = 20
WORKERS = int(os.environ.get("BENCH_WORKERS", "4"))
# Each phase lasts a second or two (2,000 trivial pages, 500 moves ...): with a tenth of that, each
# phase lasted about half a second and its start and its tail (the last clients finishing alone, fewer
# than the workers) weighed on the figure. 20 + 3 x (26 + 15) moves fit in the shortest bench game (170).
TRIVIAL_PER_CLIENT = 100
MOVES_PER_CLIENT = 25
POLLS_PER_CLIENT = 100
MIXED_MOVES_PER_CLIENT = 15
MIXED_POLLS_PER_CLIENT = 60
PREPLAY_MOVES = 20
"""Moves played in each game before the timing (through the server, all clients at once: also the
workers' warm-up): the rounds measure moves in the middle of a deal, not only the cheap first moves."""
QUEUES = ("celery", "turn", "scans", "results")
VARIANT = os.environ.get("BENCH_VARIANT", "classic")
"""The rule set of every game of the bench (two players)."""


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


def _environment(var_dir: str) -> None:
    os.environ["DATABASE_URL"] = f"{PG}/{DB_NAME}"
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")
    os.environ["LOG_LEVEL"] = "WARNING"
    # Production settings, served over plain HTTP on 127.0.0.1.
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "play-bench-" + "x" * 50)
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    os.environ["HANDSITE_VAR_DIR"] = var_dir
    os.environ["EMAIL_MODE"] = "console"


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    began = time.perf_counter()
    load_before = os.getloadavg()
    _admin_sql(f'CREATE DATABASE "{DB_NAME}"')
    server = None
    with tempfile.TemporaryDirectory(prefix="play-bench-") as var_dir:
        _environment(var_dir)
        try:
            import django

            django.setup()
            from django.conf import settings
            from django.core.management import call_command

            call_command("migrate", verbosity=0)
            call_command("collectstatic", interactive=False, verbosity=0)
            counts = query_counts()
            print(f"[{time.perf_counter() - began:.0f} s]")
            server, port = start_gunicorn()
            figures = throughput(port, rounds)
        finally:
            if server is not None:
                server.terminate()
                server.wait(10)
            from django.db import connections

            connections.close_all()
            _admin_sql(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
            _empty_queues()
    summary = {
        "variant": VARIANT,
        "move_throughput_ratio": figures["move_throughput_ratio"]["median"],
        "poll_p95_ratio": figures["poll_p95_ratio"]["median"],
        "move_p95_ratio": figures["move_p95_ratio"]["median"],
        "mixed_poll_p95_ratio": figures["mixed_poll_p95_ratio"]["median"],
        "trivial_rps": figures["trivial_rps"]["median"],
        "move_rps": figures["move_rps"]["median"],
        "poll_rps": figures["poll_rps"]["median"],
        "queries_per_move_max": counts["max"],
        "queries_per_move_min": counts["min"],
        "queries_unchanged_poll": counts["poll"],
        "workers": WORKERS,
        "clients": CLIENTS,
        "rounds": rounds,
        "db_conn_max_age": settings.DATABASES["default"]["CONN_MAX_AGE"],
        "load_before": round(load_before[0], 2),
        "load_after": round(os.getloadavg()[0], 2),
        "seconds": round(time.perf_counter() - began, 1),
    }
    print(json.dumps(summary))


def _empty_queues() -> None:
    """Nothing consumes the tasks the moves queued (turn e-mails, results): drop them."""
    try:
        import redis

        client = redis.Redis.from_url(os.environ["REDIS_URL"])
        client.delete(*QUEUES)
    except Exception as error:  # the figures are printed anyway
        print(f"could not empty the bench's Redis queues: {error}")


def make_game(index: int):
    from games.services import seating
    from handsite.models import Membership, PlayerGroup, Role, User

    group = PlayerGroup.objects.create(name=f"Bench {index}", slug=f"bench-{index}")
    users = []
    for seat in range(2):
        user = User.objects.create_user(email=f"b{index}-{seat}@example.com", password="x" * 20)
        Membership.objects.create(group=group, user=user, role=Role.OWNER if seat == 0 else Role.MEMBER)
        users.append(user)
    game = seating.create_game(
        group=group, created_by=users[0], variant=VARIANT, options={}, seats=users, seed=1000 + index
    )
    seating.accept_seat(game_id=game.pk, user=users[1])
    game.refresh_from_db()
    return game, users


def query_counts() -> dict:
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
    profile = cProfile.Profile() if os.environ.get("BENCH_PROFILE") else None
    for _ in range(200):
        if state.finished:
            break
        seat = state.current
        action = engine.bot_action(state, seat)
        for press in requests_for(state, seat, action):  # the page's buttons; the last one moves
            with CaptureQueriesContext(connection) as captured:
                if profile is not None:
                    profile.enable()
                response = clients[seat].post(url, press.as_post(state.version), HTTP_HX_REQUEST="true")
                if profile is not None:
                    profile.disable()
            assert response.status_code == 200
        engine.apply(state, seat, action)
        sql = [q["sql"] for q in captured.captured_queries]
        counts.append(len([q for q in sql if q not in ("BEGIN", "COMMIT")]))
        control = len(sql) - counts[-1]
        if len(counts) == 100 and os.environ.get("BENCH_SHOW_SQL"):
            print("\n".join(q["sql"][:150] for q in captured.captured_queries))
    if profile is not None:
        profile.dump_stats(os.environ["BENCH_PROFILE"])
        print(f"cProfile of the {len(counts)} moves above: {os.environ['BENCH_PROFILE']}")
    print(
        f"queries per move: first {counts[0]}, move 100 {counts[99]}, last ({len(counts)}) {counts[-1]}, "
        f"min {min(counts)}, max {max(counts)} (plus BEGIN/COMMIT: {control})"
    )
    game.refresh_from_db()
    poll = reverse("games:poll", args=[game.group.slug, game.pk])
    query = {"r": game.revision, "u": users[0].pk, "t": poll_token(game.pk, users[0].pk)}
    clients[0].get(poll, query)  # the first poll in 30 s records the player's presence (and shows the badge)
    with CaptureQueriesContext(connection) as captured:
        response = clients[0].get(poll, query)
    assert response.status_code == 204, response.status_code
    print(f"queries of an unchanged poll: {len(captured.captured_queries)}")
    return {"min": min(counts), "max": max(counts), "poll": len(captured.captured_queries)}


def start_gunicorn():
    port = _free_port()
    server = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/gunicorn"),
            "handsite.wsgi",
            "-c",
            ".ci/gunicorn.conf.py",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(WORKERS),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=dict(os.environ),
    )
    for _ in range(100):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                break
        except OSError:
            time.sleep(0.1)
    print(f"gunicorn: {WORKERS} sync workers on 127.0.0.1:{port}, {os.cpu_count()} CPUs")
    return server, port


class Player:
    """One client: a game, both seats' session cookies, the engine state as the server has it."""

    TOKEN = "benchcsrftoken0123456789abcdefgh"  # any 32 letters/digits: cookie and header must match

    def __init__(self, index: int, port: int) -> None:
        from django.test import Client
        from django.urls import reverse

        from games import engine
        from games.views import poll_token

        self.port = port
        game, self.users = make_game(index)
        self.cookies = []
        for user in self.users:
            client = Client()
            client.force_login(user)
            self.cookies.append(client.cookies["sessionid"].value)
        self.move_url = reverse("games:move", args=[game.group.slug, game.pk])
        self.poll_path = reverse("games:poll", args=[game.group.slug, game.pk])
        self.game_id, self.slug = game.pk, game.group.slug
        self.poll_token = poll_token(game.pk, self.users[0].pk)
        self.state = engine.from_json(game.state)
        self.planned: list[tuple[int, list[str]]] = []
        self.poll_url = ""

    def plan_moves(self, count: int) -> None:
        """The next ``count`` moves as (seat, request bodies), computed now (not while timing). A move
        that lays down several melds is the page's presses: put each aside, then lay down."""
        from games import engine
        from games.moves import requests_for

        self.planned = []
        for _ in range(count):
            if self.state.finished:
                break
            seat = self.state.current
            action = engine.bot_action(self.state, seat)
            presses = requests_for(self.state, seat, action)
            bodies = [urlencode(press.as_post(self.state.version), doseq=True) for press in presses]
            self.planned.append((seat, bodies))
            engine.apply(self.state, seat, action)

    def connect(self) -> http.client.HTTPConnection:
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def move(self, conn) -> list[tuple[str, float, int]]:
        """Plays the next planned move: one POST per press of the page (a move that lays down melds is
        several). Each POST is a move request, timed on its own: ``[("move", seconds, status), ...]``."""
        seat, bodies = self.planned.pop(0)
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            # The language cookie a browser holds after its first page (the site sets it to the player's
            # language): without it every answer would set it again.
            "Cookie": f"sessionid={self.cookies[seat]}; csrftoken={self.TOKEN}; django_language=en",
            "X-CSRFToken": self.TOKEN,
            "HX-Request": "true",
            "Referer": f"http://127.0.0.1:{self.port}/",
        }
        requests = []
        for body in bodies:
            began = time.perf_counter()
            conn.request("POST", self.move_url, body, headers)
            response = conn.getresponse()
            response.read()
            requests.append(("move", time.perf_counter() - began, response.status))
            if response.status != 200:
                break
        return requests

    def refresh_poll_url(self) -> None:
        """The poll of a page showing the game as it is now (so the polls find it unchanged)."""
        from games.models import Game

        revision = Game.objects.values_list("revision", flat=True).get(pk=self.game_id)
        query = urlencode({"r": revision, "u": self.users[0].pk, "t": self.poll_token, "sort": "suit"})
        self.poll_url = f"{self.poll_path}?{query}"

    def get(self, conn, path: str, *, logged_in: bool) -> int:
        headers = {"HX-Request": "true", "Cookie": f"sessionid={self.cookies[0]}"} if logged_in else {}
        conn.request("GET", path, headers=headers)
        response = conn.getresponse()
        response.read()
        return response.status


def run_phase(players, step, count: int, warm=None) -> dict:
    """Every player runs ``step(player, conn, i)`` ``count`` times at once; returns the latencies by kind
    and the requests per second of the phase."""
    times: dict[str, list[float]] = {}
    errors: list[str] = []
    lock = threading.Lock()
    ready = threading.Barrier(len(players) + 1)
    go = threading.Event()
    ends: list[float] = []

    def client(player):
        conn = player.connect()
        try:
            if warm is not None:
                warm(player, conn)
            ready.wait()
            go.wait()
            mine: dict[str, list[float]] = {}
            for i in range(count):
                for kind, took, status in step(player, conn, i):
                    if status not in (200, 204):
                        errors.append(f"{kind} {status}")
                    mine.setdefault(kind, []).append(took)
            with lock:
                for kind, values in mine.items():
                    times.setdefault(kind, []).extend(values)
                ends.append(time.perf_counter())
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(player,)) for player in players]
    for thread in threads:
        thread.start()
    ready.wait()
    began = time.perf_counter()
    go.set()
    for thread in threads:
        thread.join()
    elapsed = max(ends) - began
    if errors:
        print("errors:", errors[:5], f"({len(errors)} in all)")
    total = sum(len(values) for values in times.values())
    return {"times": times, "rps": total / elapsed, "elapsed": elapsed}


def ms(phase: dict, kind: str) -> str:
    return f"{p95(phase['times'][kind]) * 1000:.1f}"


def timed(kind, call):
    began = time.perf_counter()
    status = call()
    return kind, time.perf_counter() - began, status


def throughput(port: int, rounds: int) -> dict:
    t0 = time.perf_counter()
    players = [Player(index, port) for index in range(CLIENTS)]
    for player in players:
        player.plan_moves(PREPLAY_MOVES)
    run_phase(players, lambda p, c, i: p.move(c), PREPLAY_MOVES)  # not counted
    print(
        f"{CLIENTS} games, {PREPLAY_MOVES} moves played in each before the timing "
        f"({time.perf_counter() - t0:.0f} s)"
    )
    rows: dict[str, list[float]] = {}

    def warm_move(player, conn):
        player.move(conn)  # not timed: the round's first move (the cold start in round 1)

    for number in range(1, rounds + 1):
        trivial = run_phase(
            players,
            lambda p, c, i: [timed("trivial", lambda: p.get(c, "/", logged_in=False))],
            TRIVIAL_PER_CLIENT,
        )
        for player in players:
            player.plan_moves(1 + MOVES_PER_CLIENT)
        moves = run_phase(players, lambda p, c, i: p.move(c), MOVES_PER_CLIENT, warm_move)
        for player in players:
            player.refresh_poll_url()
        polls = run_phase(
            players,
            lambda p, c, i: [timed("poll", lambda: p.get(c, p.poll_url, logged_in=True))],
            POLLS_PER_CLIENT,
        )
        for player in players:
            player.plan_moves(MIXED_MOVES_PER_CLIENT)
        mixed_move = run_phase(
            players,
            lambda p, c, i: [*p.move(c), timed("trivial", lambda: p.get(c, "/", logged_in=False))],
            MIXED_MOVES_PER_CLIENT,
        )
        for player in players:
            player.refresh_poll_url()
        mixed_poll = run_phase(
            players,
            lambda p, c, i: [
                timed("poll", lambda: p.get(c, p.poll_url, logged_in=True)),
                timed("trivial", lambda: p.get(c, "/", logged_in=False)),
            ],
            MIXED_POLLS_PER_CLIENT,
        )
        figures = {
            "trivial_rps": trivial["rps"],
            "trivial_p95_ms": p95(trivial["times"]["trivial"]) * 1000,
            "move_rps": moves["rps"],
            "move_p95_ms": p95(moves["times"]["move"]) * 1000,
            "poll_rps": polls["rps"],
            "poll_p95_ms": p95(polls["times"]["poll"]) * 1000,
            "move_throughput_ratio": moves["rps"] / trivial["rps"],
            "move_p95_ratio": p95(mixed_move["times"]["move"]) / p95(mixed_move["times"]["trivial"]),
            "poll_p95_ratio": p95(polls["times"]["poll"]) / p95(trivial["times"]["trivial"]),
            "mixed_poll_p95_ratio": p95(mixed_poll["times"]["poll"]) / p95(mixed_poll["times"]["trivial"]),
        }
        print(
            f"round {number} ({time.perf_counter() - t0:.0f} s, load {os.getloadavg()[0]:.2f}): "
            f"trivial {figures['trivial_rps']:.0f}/s p95 {figures['trivial_p95_ms']:.1f} ms; "
            f"move {figures['move_rps']:.1f}/s p95 {figures['move_p95_ms']:.1f} ms; "
            f"poll {figures['poll_rps']:.0f}/s p95 {figures['poll_p95_ms']:.1f} ms; "
            f"mixed p95s: move {ms(mixed_move, 'move')} / trivial {ms(mixed_move, 'trivial')} ms, "
            f"poll {ms(mixed_poll, 'poll')} / trivial {ms(mixed_poll, 'trivial')} ms"
        )
        for key, value in figures.items():
            rows.setdefault(key, []).append(value)
    result = {}
    print(f"over {rounds} rounds (min / median / max):")
    for key, values in rows.items():
        result[key] = {"min": min(values), "median": statistics.median(values), "max": max(values)}
        digits = 3 if "ratio" in key else 1
        print(
            f"  {key:22} {min(values):.{digits}f} / {statistics.median(values):.{digits}f}"
            f" / {max(values):.{digits}f}"
        )
    print("targets: move_throughput_ratio >= 0.25, move_p95_ratio <= 1.5, poll_p95_ratio <= 1.1")
    for key in list(result):
        result[key] = {k: round(v, 3) for k, v in result[key].items()}
    return result


if __name__ == "__main__":
    main()
