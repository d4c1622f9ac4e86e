"""Captures the HTML a player gets on the play page over many positions of seeded games (not a test): each
move's htmx answer, the htmx board of every seat (and a sort) and now and then the whole page, for a
classic duel, a partnership, Kuwaiti, and both Hand and Foot rule sets, in English and Arabic; a
refused press now and then. On its own throwaway PostgreSQL database (ids the same at every run), so
two captures (before and after a change to the page's templates or its view model) compare answer by
answer (bench/render_compare.py: modulo whitespace; ``diff -r``: byte for byte):

    .venv/bin/python bench/render_capture.py var/render_before
    ... change ...
    .venv/bin/python bench/render_capture.py var/render_after
    .venv/bin/python bench/render_compare.py var/render_before var/render_after
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PG = os.environ.get("BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432")
DB_NAME = f"handsite_render_capture_{os.getpid()}"
CLOCK = re.compile(rb"\b\d\d:\d\d\b")  # a deadline's time of day (the capture's own clock): masked
CSRF = re.compile(rb'(name="csrfmiddlewaretoken" value="|"X-CSRFToken": ")[^"]*"')  # masked afresh per page

SCENARIOS = [
    # name, variant, options, players, seed, language, actions, bot seats, move hours, who leaves (step, seat)
    ("classic-en", "classic", {}, 2, 1234, "en", 160, (), 0, None),
    ("classic-ar", "classic", {}, 2, 1234, "ar", 160, (), 24, None),
    ("teams-ar", "classic", {"teams": True}, 4, 31, "ar", 120, (), 0, (40, 3)),
    ("kuwaiti-en", "kuwaiti", {}, 3, 77, "en", 120, (1,), 24, None),
    ("foot-en", "hand-and-foot", {}, 2, 5, "en", 160, (), 0, None),
    ("foot-ar", "hand-and-foot", {}, 2, 5, "ar", 160, (), 48, None),
    ("foot-teams-en", "hand-and-foot-teams", {}, 4, 9, "en", 120, (1,), 0, (30, 2)),
]


def _admin_sql(sql: str) -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(sql)


def capture(out: Path) -> None:
    from django.test import Client
    from django.urls import reverse

    from games import engine, moves
    from games.models import Game, GameStatus
    from games.services import leaving, seating
    from handsite.models import Membership, PlayerGroup, Role, User

    htmx = {"HTTP_HX_REQUEST": "true"}
    out.mkdir(parents=True, exist_ok=True)
    for name, variant, options, players, seed, language, actions, bots, hours, leaves in SCENARIOS:
        group = PlayerGroup.objects.create(name=f"Group «{name}» & co", slug=f"g-{name}")
        users = []
        for seat in range(players):
            user = User.objects.create_user(
                email=f"{name}-{seat}@example.com",
                password="x" * 20,
                display_name=["Hala <b>", "Fadi & Sons", "Rana", "Omar"][seat],
                language=language,
            )
            Membership.objects.create(group=group, user=user, role=Role.OWNER if seat == 0 else Role.MEMBER)
            users.append(user)
        seats = ["bot" if seat in bots else user for seat, user in enumerate(users)]
        game = seating.create_game(
            group=group,
            created_by=users[0],
            variant=variant,
            options=options,
            seats=seats,
            seed=seed,
            move_hours=hours,
        )  # the time left reads "23 hours, 59 minutes" right after each move
        for seat, user in enumerate(users[1:], start=1):
            if seat not in bots:
                seating.accept_seat(game_id=game.pk, user=user)
        clients = []
        for user in users:
            client = Client(HTTP_HOST="127.0.0.1")
            client.force_login(user)
            clients.append(client)
        move_url = reverse("games:move", args=[group.slug, game.pk])
        play_url = Game.objects.get(pk=game.pk).get_absolute_url()
        pages: list[bytes] = []

        def keep(label: str, response, pages: list[bytes] = pages) -> None:
            assert response.status_code == 200, (label, response.status_code)
            pages.append(
                f"\n<!-- {label} -->\n".encode() + CLOCK.sub(b"hh:mm", CSRF.sub(rb'\1-"', response.content))
            )

        for step in range(actions):
            game = Game.objects.get(pk=game.pk)
            if game.status != GameStatus.ACTIVE:
                break
            state = engine.from_json(game.state)
            seat = state.current
            if leaves and step == leaves[0]:
                leaving.leave_game(game_id=game.pk, user=users[leaves[1]], group_slug=group.slug)
                continue
            people = [
                n
                for n in range(players)
                if n not in bots and not (leaves and step > leaves[0] and n == leaves[1])
            ]
            if (
                step % 7 == 3
            ):  # refused presses: a discard without a card, two cards as a meld, a draw out of turn
                keep(
                    f"{step} refused",
                    clients[seat].post(move_url, {"version": game.version, "act": "discard"}, **htmx),
                )
                hand = (
                    [card.id for card in state.deal.hands[seat][:2]] if hasattr(state.deal, "hands") else []
                )
                press = {"version": game.version, "act": "meld", "cards": hand}
                keep(f"{step} refused meld", clients[seat].post(move_url, press, **htmx))
                other = next(n for n in people if n != seat)
                keep(
                    f"{step} out of turn",
                    clients[other].post(move_url, {"version": game.version, "act": "draw"}, **htmx),
                )
            action = engine.bot_action(state, seat)
            for n, press in enumerate(moves.requests_for(state, seat, action)):
                response = clients[seat].post(move_url, press.as_post(game.version), **htmx)
                keep(f"{step}.{n} move {action['type']} by {seat}", response)
            if step % 3 == 0:
                for viewer in people:
                    keep(f"{step} board of {viewer}", clients[viewer].get(play_url, **htmx))
            if step % 11 == 5:
                keep(f"{step} rank sort", clients[seat].get(play_url + "?sort=rank", **htmx))
            if step % 20 == 0:
                keep(f"{step} page", clients[people[step % len(people)]].get(play_url))
        data = b"".join(pages)
        (out / f"{name}.html").write_bytes(data)
        print(
            f"{name}: {len(pages)} answers, {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()[:16]}"
        )


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "var/render_capture")
    _admin_sql(f'CREATE DATABASE "{DB_NAME}"')
    try:
        os.environ["DATABASE_URL"] = f"{PG}/{DB_NAME}"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")
        os.environ["LOG_LEVEL"] = "WARNING"
        os.environ["DEBUG"] = "1"  # static files without a manifest (the whole page)
        os.environ["SECRET_KEY"] = "render-capture-" + "x" * 50
        os.environ["ALLOWED_HOSTS"] = "127.0.0.1"
        os.environ["SECURE_SSL_REDIRECT"] = "0"
        os.environ.pop("REDIS_URL", None)
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        capture(out)
    finally:
        from django.db import connections

        connections.close_all()
        _admin_sql(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


if __name__ == "__main__":
    main()
