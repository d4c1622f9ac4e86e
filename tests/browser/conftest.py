import os
import threading
import time
from pathlib import Path

import pytest
from django.core.signals import request_finished, request_started

from tests.support import ROOT, require_service

# Django's live_server runs in a thread next to Playwright's sync API (which runs an event loop).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


CSP_VIOLATIONS: list[str] = []
"""Console messages of every page of every browser test that report a Content-Security-Policy
violation (Chromium logs each one); the autouse fixture below fails the test that caused one."""


def _watch_console(context) -> None:
    def on_console(message):
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            CSP_VIOLATIONS.append(f"{message.type}: {message.text} ({message.location.get('url')})")

    context.on("console", on_console)


@pytest.fixture(scope="session")
def browser():
    """Chromium; every context it opens (``new_context``/``new_page``) has its console watched for CSP
    violations."""
    executable = require_service("chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_ARGS)
        new_context = browser.new_context

        def watched_context(*args, **kwargs):
            context = new_context(*args, **kwargs)
            _watch_console(context)
            return context

        def watched_page(*args, **kwargs):
            return watched_context(*args, **kwargs).new_page()  # the context closes with the browser

        browser.new_context = watched_context
        browser.new_page = watched_page
        yield browser
        browser.close()


class _RequestsInFlight:
    """The live server's threads answering a request now (Django's request signals, in those threads).
    A thread whose answer was cut off (its page closed) may never send request_finished: it counts until
    it ends."""

    def __init__(self):
        self.threads: set[threading.Thread] = set()
        self.lock = threading.Lock()

    def started(self, **_kwargs):
        with self.lock:
            self.threads.add(threading.current_thread())

    def finished(self, **_kwargs):
        with self.lock:
            self.threads.discard(threading.current_thread())

    def busy(self) -> bool:
        with self.lock:
            self.threads = {thread for thread in self.threads if thread.is_alive()}
            return bool(self.threads - {threading.current_thread()})

    def wait_until_none(self, timeout: float = 5.0) -> None:
        stop = time.monotonic() + timeout
        while self.busy() and time.monotonic() < stop:
            time.sleep(0.02)


IN_FLIGHT = _RequestsInFlight()
request_started.connect(IN_FLIGHT.started, dispatch_uid="browser-tests-in-flight-started")
request_finished.connect(IN_FLIGHT.finished, dispatch_uid="browser-tests-in-flight-finished")


@pytest.fixture(autouse=True)
def _server_idle_before_the_database_is_emptied():
    """A request a closed page left in flight still runs in the live server; emptying the database under
    it (the flush after each browser test) could deadlock on PostgreSQL. Each test ends once the server
    has answered what it was given (its pages are closed by then), or after 5 s."""
    yield
    IN_FLIGHT.wait_until_none()


@pytest.fixture(autouse=True)
def _no_csp_violation():
    """Every browser test fails on a Content-Security-Policy violation in any page's console."""
    CSP_VIOLATIONS.clear()
    yield
    found, CSP_VIOLATIONS[:] = list(CSP_VIOLATIONS), []
    assert not found, "Content-Security-Policy violations:\n" + "\n".join(found)


@pytest.fixture
def new_phone(browser, live_server):
    """Open a fresh browser context (a new person) sized like a phone; `width=360` for a narrow one."""
    contexts = []

    def make(width: int | None = None):
        options = dict(PHONE)
        if width is not None:
            options["viewport"] = {**PHONE["viewport"], "width": width}
        context = browser.new_context(base_url=live_server.url, **options)
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def screenshot():
    def take(page, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def log_in(live_server):
    """Log a page's browser context in as a user (session cookie), without going through the form."""
    from django.test import Client

    def do(page, user):
        client = Client()
        client.force_login(user)
        page.context.add_cookies(
            [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
        )

    return do


@pytest.fixture
def open_as(browser, live_server, log_in):
    """``open_as(user, url, width)``: a new browser context logged in as ``user`` and the page at ``url``
    in it — a phone below 1000 px (touch; 740 px high unless ``height``), a desktop above (800 px high);
    ``language`` (the cookie, and the person's own language, set after logging in, which stores one),
    ``dark`` for the dark colour scheme, ``scale`` the device pixel ratio. Its contexts close at the end."""

    contexts = []

    def open_page(user, url, width, height=None, *, language="en", dark=False, scale=1):
        context = browser.new_context(
            base_url=live_server.url,
            viewport={"width": width, "height": height or (800 if width > 1000 else 740)},
            device_scale_factor=scale,
            is_mobile=width < 1000,
            has_touch=width < 1000,
            color_scheme="dark" if dark else "light",
        )
        contexts.append(context)
        if language != "en":
            context.add_cookies([{"name": "django_language", "value": language, "url": live_server.url}])
        page = context.new_page()
        log_in(page, user)
        type(user).objects.filter(pk=user.pk).update(language=language)
        page.goto(url)
        return page

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def amira_and_badr(db):
    """Amira against Badr (a name in Arabic) in "Friday Hand": a classic game, seed 5, both seated, Amira's
    deal to start. Returns (group, amira, badr, game)."""
    from games.models import Game
    from games.services import seating
    from tests.factories import MembershipFactory, PlayerGroupFactory

    group = PlayerGroupFactory(name="Friday Hand", slug="friday-hand")
    amira = MembershipFactory(group=group, user__display_name="Amira").user
    badr = MembershipFactory(group=group, user__display_name="بدر").user
    game = seating.create_game(
        group=group, created_by=amira, variant="classic", options={}, seats=[amira, badr], seed=5
    )
    seating.accept_seat(game_id=game.pk, user=badr)
    return group, amira, badr, Game.objects.get(pk=game.pk)
