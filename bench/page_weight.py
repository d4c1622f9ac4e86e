"""The play page's weight and speed on a phone (not a test; the figures go into the report).

1. First load of the play page at 390x844 in Chromium (Playwright, /usr/bin/chromium) on a throttled
   profile (150 ms latency, 1.6 Mbit/s down and up): bytes on the wire, requests, and the time until
   ``#hand`` is visible. Served by gunicorn with DEBUG=0 and whitenoise's compressed static files.
   The HTML itself is served as Django renders it (no GZipMiddleware): its gzip size is printed too.
2. A move's fragment (an HTMX discard): bytes, and gzip bytes.
3. An unchanged poll: its status and body length (must be 204 and 0).
4. Render time of the play page (in-process, the median of 7) at the start and at the end of a long
   deal, with the number of events the deal had then: it must stay flat.
5. Representative pages and answers as a browser asking for gzip gets them (in-process, the site's whole
   middleware): home, group, new game, rules, the play page, its log, a move's answer, a changed poll's
   answer, a score sheet: bytes of the HTML and bytes sent (equal when the answer is not compressed).
   ``--pages`` prints only these (quick: no browser, no server, no long deal).

Uses a throwaway folder (SQLite database, static files), removed at the end.

    .venv/bin/python bench/page_weight.py
    .venv/bin/python bench/page_weight.py --pages

Targets (issue 12): first load <= 60 KB compressed and <= 12 requests; #hand visible <= 1.5 s; a
move's fragment <= 15 KB; an unchanged poll answers with no body; render time flat in the deal's length.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

LATENCY_MS = 150
THROUGHPUT = 1.6e6 / 8  # bytes per second
VIEWPORT = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _environment(var_dir: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{var_dir}/bench.sqlite3"
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "handsite.settings"
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "page-weight-bench-" + "x" * 50)
    os.environ["ALLOWED_HOSTS"] = "127.0.0.1,testserver"
    os.environ["SECURE_SSL_REDIRECT"] = "0"
    os.environ["SESSION_COOKIE_SECURE"] = "0"
    os.environ["HANDSITE_VAR_DIR"] = var_dir
    os.environ["EMAIL_MODE"] = "console"
    os.environ["LOG_LEVEL"] = "WARNING"


def _setup_game():
    """Amira against a bot, a classic game a few moves in, Amira to play."""
    from games import engine
    from games.models import Game
    from games.services import playing, seating
    from handsite.models import Membership, PlayerGroup, User

    amira = User.objects.create_user(email="amira@example.com", password="x", display_name="Amira")
    group = PlayerGroup.objects.create(name="Bench", slug="bench")
    Membership.objects.create(group=group, user=amira, role="owner")
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, seating.BOT], seed=4242
    )
    for _ in range(6):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.current != 0:
            break
        playing.play(game_id=game.pk, user=amira, version=game.version, action=engine.bot_action(state, 0))
    return Game.objects.get(pk=game.pk), amira


def _render_ms(client, url: str) -> float:
    times = []
    for _ in range(7):
        began = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200
    return statistics.median(times)


def render_flatness(game, amira) -> dict:
    """Page render time at the start and at the end of the longest deal the game reaches."""
    from django.test import Client

    from games import engine
    from games.services import playing

    client = Client()
    client.force_login(amira)
    url = game.get_absolute_url()
    samples: dict[int, list[tuple[int, float]]] = {}
    for _ in range(400):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.finished:
            break
        if state.current == 0:
            deal = state.deal.number
            taken = samples.setdefault(deal, [])
            events = len(state.deal.events)
            if not taken or events - taken[-1][0] >= 20:  # sample every 20 events or so
                taken.append((events, _render_ms(client, url)))
            playing.play(
                game_id=game.pk, user=amira, version=game.version, action=engine.bot_action(state, 0)
            )
    longest = max(samples.values(), key=lambda rows: rows[-1][0])
    return {
        "events_at_start": longest[0][0],
        "render_ms_at_start": round(longest[0][1], 1),
        "events_at_end": longest[-1][0],
        "render_ms_at_end": round(longest[-1][1], 1),
    }


def fragments(game, amira) -> dict:
    from django.test import Client
    from django.urls import reverse

    from games import engine
    from games.views import poll_token

    client = Client()
    client.force_login(amira)
    game.refresh_from_db()
    poll = reverse("games:poll", args=[game.group.slug, game.pk])
    query = {"r": game.revision, "u": amira.pk, "t": poll_token(game.pk, amira.pk)}
    unchanged = client.get(poll, query, HTTP_HX_REQUEST="true")
    state = engine.from_json(game.state)
    move = reverse("games:move", args=[game.group.slug, game.pk])
    if state.deal.phase == engine.DRAW:
        client.post(move, {"act": "draw", "version": game.version}, HTTP_HX_REQUEST="true")
        game.refresh_from_db()
        state = engine.from_json(game.state)
    card = state.deal.hands[0][0].id
    response = client.post(
        move, {"act": "discard", "cards": [card], "version": game.version}, HTTP_HX_REQUEST="true"
    )
    body = response.content
    return {
        "move_fragment_bytes": len(body),
        "move_fragment_gzip_bytes": len(gzip.compress(body)),
        "unchanged_poll_status": unchanged.status_code,
        "unchanged_poll_body_bytes": len(unchanged.content),
    }


def first_load(port: int, game, amira) -> dict:
    from django.test import Client
    from playwright.sync_api import sync_playwright

    client = Client()
    client.force_login(amira)
    session = client.cookies["sessionid"].value
    page_html = client.get(game.get_absolute_url()).content
    base = f"http://127.0.0.1:{port}"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(base_url=base, viewport=VIEWPORT, is_mobile=True, has_touch=True)
        context.add_cookies([{"name": "sessionid", "value": session, "url": base}])
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        cdp.send(
            "Network.emulateNetworkConditions",
            {
                "offline": False,
                "latency": LATENCY_MS,
                "downloadThroughput": THROUGHPUT,
                "uploadThroughput": THROUGHPUT,
            },
        )
        sizes: dict[str, int] = {}
        urls: dict[str, str] = {}
        cdp.on("Network.requestWillBeSent", lambda e: urls.setdefault(e["requestId"], e["request"]["url"]))
        cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
        began = time.perf_counter()
        page.goto(game.get_absolute_url(), wait_until="commit")
        page.locator("#hand").wait_for(state="visible")
        hand_visible = time.perf_counter() - began
        page.wait_for_load_state("load")
        page.wait_for_timeout(300)
        loaded = {urls[rid]: size for rid, size in sizes.items() if rid in urls}
        browser.close()
    return {
        "first_load_requests": len(loaded),
        "first_load_bytes": sum(loaded.values()),
        "first_load_files": {url.removeprefix(base): size for url, size in loaded.items()},
        "html_bytes": len(page_html),
        "html_gzip_bytes": len(gzip.compress(page_html)),
        "hand_visible_s": round(hand_visible, 2),
    }


def pages(game, amira) -> list[tuple[str, int, int]]:
    """(what, bytes of the HTML, bytes sent) for each representative page and answer, asked for with
    ``Accept-Encoding: gzip, deflate, br`` as browsers do."""
    from django.test import Client
    from django.urls import reverse

    from games import engine
    from games.views import poll_token
    from scoring.services import sheets as scoring_services

    client = Client(HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    client.force_login(amira)
    group = game.group
    sheet = scoring_services.create_sheet(
        group=group,
        by=amira,
        rule_set="classic",
        players=[scoring_services.PlayerEntry(user=amira), scoring_services.PlayerEntry(name="Badr")],
        options={},
        first_dealer=0,
    )
    rows = []

    def weigh(what: str, response) -> None:
        assert response.status_code == 200, (what, response.status_code)
        sent = response.content
        body = gzip.decompress(sent) if response.get("Content-Encoding") == "gzip" else sent
        rows.append((what, len(body), len(sent)))

    weigh("home", client.get(reverse("home")))
    weigh("group", client.get(reverse("group_detail", args=[group.slug])))
    weigh("new game", client.get(reverse("games:new", args=[group.slug])))
    weigh("rules (classic)", client.get(reverse("games:rules", args=["classic"])))
    weigh("score sheet", client.get(sheet.get_absolute_url()))
    game.refresh_from_db()
    weigh("play page", client.get(game.get_absolute_url()))
    weigh("game log", client.get(reverse("games:log", args=[group.slug, game.pk])))
    htmx = {"HTTP_HX_REQUEST": "true"}
    poll = reverse("games:poll", args=[group.slug, game.pk])
    stale = {"r": game.revision - 1, "u": amira.pk, "t": poll_token(game.pk, amira.pk)}
    weigh("poll answer (changed)", client.get(poll, stale, **htmx))
    move = reverse("games:move", args=[group.slug, game.pk])
    state = engine.from_json(game.state)
    if state.deal.phase == engine.DRAW:
        weigh("move answer (draw)", client.post(move, {"act": "draw", "version": game.version}, **htmx))
        game.refresh_from_db()
        state = engine.from_json(game.state)
    card = state.deal.hands[0][0].id
    answer = client.post(move, {"act": "discard", "cards": [card], "version": game.version}, **htmx)
    weigh("move answer (discard)", answer)
    return rows


def _pages_only() -> None:
    var_dir = tempfile.mkdtemp(prefix="page-weight-")
    _environment(var_dir)
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        game, amira = _setup_game()
        rows = pages(game, amira)
        width = max(len(what) for what, _, _ in rows)
        print(f"{'answer':<{width}}  {'HTML':>7}  {'sent':>7}")
        for what, body, sent in rows:
            print(f"{what:<{width}}  {body:>7}  {sent:>7}")
    finally:
        shutil.rmtree(var_dir, ignore_errors=True)


def _warm_up(port: int, game, amira) -> None:
    import urllib.request

    from django.test import Client

    client = Client()
    client.force_login(amira)
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{game.get_absolute_url()}",
        headers={"Cookie": f"sessionid={client.cookies['sessionid'].value}"},
    )
    for _ in range(3):
        with urllib.request.urlopen(request, timeout=60) as response:
            response.read()


def main() -> None:
    var_dir = tempfile.mkdtemp(prefix="page-weight-")
    _environment(var_dir)
    server = None
    try:
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        game, amira = _setup_game()
        port = _free_port()
        server = subprocess.Popen(
            [str(ROOT / ".venv/bin/gunicorn"), "handsite.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1"],
            cwd=ROOT,
            env=dict(os.environ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                time.sleep(0.1)
        _warm_up(port, game, amira)  # the worker's first request (imports, template compiling) is not timed
        figures = first_load(port, game, amira)
        figures.update(fragments(game, amira))
        long_game, player = _setup_game_again()
        figures.update(render_flatness(long_game, player))
        for key, value in figures.items():
            if key != "first_load_files":
                print(f"{key}: {value}")
        print("files:", json.dumps(figures["first_load_files"]))
        print(json.dumps({k: v for k, v in figures.items() if k != "first_load_files"}))
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=10)
        shutil.rmtree(var_dir, ignore_errors=True)


def _setup_game_again():
    """A second game (another seed) for the render figures, so the first one stays at its start."""
    from games.models import Game
    from games.services import seating
    from handsite.models import PlayerGroup, User

    amira = User.objects.get(email="amira@example.com")
    group = PlayerGroup.objects.get(slug="bench")
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, seating.BOT], seed=99
    )
    return Game.objects.get(pk=game.pk), amira


if __name__ == "__main__":
    if "--pages" in sys.argv[1:]:
        _pages_only()
    else:
        main()
