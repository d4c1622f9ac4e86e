"""Races on seats, with threads on PostgreSQL: two people taking the same free seat at once, one person
taking two free seats at once, a double-tapped "accept". Each seat change locks the game row and reads
the seats again under the lock (games.services.core.locked_seats), so the second change sees the first.

To make the race certain, a third connection holds the game's row lock while both changes start; both
wait on it, and it is let go once both are waiting. (On PostgreSQL the waiting lock query then gets the
game row as the first change left it, but the seats it had joined as they were before.)

The row lock means something on a database server only: a session on SQLite runs these tests again in
a child pytest on the machine's PostgreSQL (its own throwaway database), as tests/games/test_concurrency.py
does; without PostgreSQL they are skipped with the reason (failed under CI=true). The double tap one
after the other runs on any database.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
from django.db import connection, connections, transaction
from django.urls import reverse

from games.models import Game, GameStatus, Seat
from games.services import core as game_core
from games.services import invitation_links, invitations, seating
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.support import ROOT, require_service


def _on_postgresql(request) -> bool:
    """True when this session is on PostgreSQL; else runs this one test in a child pytest on it."""
    if connection.vendor == "postgresql":
        return True
    url = require_service("postgres")
    env = {**os.environ, "DATABASE_URL": f"{url.rsplit('/', 1)[0]}/handsite_seats_{os.getpid()}"}
    child = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            request.node.nodeid,
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 0, child.stdout[-4000:] + child.stderr[-2000:]
    assert "1 passed" in child.stdout
    return False


def _waiting_for_lock(count: int, timeout: float = 10) -> None:
    """Until ``count`` other connections wait for a row lock (pg_locks: not granted)."""
    deadline = time.monotonic() + timeout
    with connections["default"].cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
            if cursor.fetchone()[0] >= count:
                return
            time.sleep(0.02)
    raise AssertionError(f"{count} connections never waited for the game's lock")


def race(game_id: int, *calls) -> list[str]:
    """Run each call in its own thread while another connection holds the game's row lock; let go
    once all of them wait. Returns each call's outcome: "ok", or the GameError's sentence, or the
    class name of any other exception (a 500)."""
    outcomes: list[str | None] = [None] * len(calls)
    locked, release = threading.Event(), threading.Event()

    def hold():
        try:
            with transaction.atomic():
                list(Game.objects.select_for_update().filter(pk=game_id))
                locked.set()
                release.wait(20)
        finally:
            connections.close_all()

    def run(i, call):
        try:
            call()
            outcomes[i] = "ok"
        except game_core.GameError as error:
            outcomes[i] = str(error)
        except Exception as error:  # what the view would turn into a 500
            outcomes[i] = type(error).__name__
        finally:
            connections.close_all()

    holder = threading.Thread(target=hold)
    holder.start()
    assert locked.wait(10)
    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    try:
        _waiting_for_lock(len(calls))
    finally:
        release.set()
        holder.join(30)
        for thread in threads:
            thread.join(60)
    return outcomes


@pytest.fixture
def table(db):
    """A group of four and a waiting game of four: the creator seated, three seats free (no one invited)."""
    group = PlayerGroupFactory()
    people = [MembershipFactory(group=group).user for _ in range(4)]
    creator = people[0]
    game = seating.create_game(
        group=group, created_by=creator, variant="classic", options={}, seats=[creator, *people[1:]]
    )
    # free the three invited seats (declined), so that anyone may take them
    for person in people[1:]:
        seating.decline_seat(game_id=game.pk, user=person)
    return game, people


@pytest.mark.django_db(transaction=True)
def test_two_people_taking_the_same_free_seat_at_once_seat_one_and_tell_the_other(request, table):
    if not _on_postgresql(request):
        return
    game, (_creator, nour, sami, _rest) = table
    outcomes = race(
        game.pk,
        lambda: seating.take_seat(game_id=game.pk, user=nour, number=1),
        lambda: seating.take_seat(game_id=game.pk, user=sami, number=1),
    )
    assert sorted(outcomes) == ["That seat is not free.", "ok"]
    winner = nour if outcomes[0] == "ok" else sami
    assert Seat.objects.get(game=game, number=1).user == winner  # and stays theirs
    assert list(Seat.objects.filter(game=game, user__in=[nour, sami]).values_list("user", flat=True)) == [
        winner.pk
    ]


@pytest.mark.django_db(transaction=True)
def test_one_person_taking_two_free_seats_at_once_gets_one_and_no_error_page(request, table):
    if not _on_postgresql(request):
        return
    game, (_creator, nour, _sami, _rest) = table
    outcomes = race(
        game.pk,
        lambda: seating.take_seat(game_id=game.pk, user=nour, number=1),
        lambda: seating.take_seat(game_id=game.pk, user=nour, number=2),
        lambda: seating.take_seat(game_id=game.pk, user=nour, number=3),
    )
    assert sorted(outcomes) == ["You already have a seat in this game."] * 2 + ["ok"]
    assert Seat.objects.filter(game=game, user=nour).count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_double_tapped_accept_of_the_last_seat_answers_both_taps_as_a_success(request):
    if not _on_postgresql(request):
        return
    group = PlayerGroupFactory()
    creator, guest = (MembershipFactory(group=group).user for _ in range(2))
    game = seating.create_game(
        group=group, created_by=creator, variant="classic", options={}, seats=[creator, guest]
    )
    outcomes = race(
        game.pk,
        lambda: seating.accept_seat(game_id=game.pk, user=guest),
        lambda: seating.accept_seat(game_id=game.pk, user=guest),
    )
    assert outcomes == ["ok", "ok"]
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE


@pytest.mark.django_db(transaction=True)
def test_a_double_tapped_accept_link_accepts_once_and_says_so_the_second_time(request):
    if not _on_postgresql(request):
        return
    group = PlayerGroupFactory()
    creator, guest, third = (MembershipFactory(group=group).user for _ in range(3))
    game = seating.create_game(
        group=group, created_by=creator, variant="classic", options={}, seats=[creator, guest, third]
    )
    seat = Seat.objects.get(game=game, user=guest)
    token = invitation_links.invitation_token(seat)
    answers = []
    outcomes = race(
        game.pk,
        lambda: answers.append(
            invitations.answer_invitation(token=token, user=guest, answer="accept").outcome
        ),
        lambda: answers.append(
            invitations.answer_invitation(token=token, user=guest, answer="accept").outcome
        ),
    )
    assert outcomes == ["ok", "ok"]
    assert sorted(answers) == ["accepted", "already_accepted"]


def test_accepting_again_after_the_game_started_is_a_success_not_already_started(
    client, owner, member, start_game
):
    game = start_game([owner, member])
    client.force_login(member)
    url = reverse("games:seat", args=[game.group.slug, game.pk])
    first = client.post(url, {"do": "accept"}, HTTP_HX_REQUEST="true")
    second = client.post(url, {"do": "accept"}, HTTP_HX_REQUEST="true")
    assert first.status_code == second.status_code == 200
    assert "already started" not in second.content.decode()
    assert "Your hand" in second.content.decode()
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE


def test_accepting_a_started_game_without_a_seat_in_it_is_still_refused(owner, member, admin, start_game):
    game = start_game([owner, member])
    seating.accept_seat(game_id=game.pk, user=member)
    with pytest.raises(game_core.GameError, match="already started"):
        seating.accept_seat(game_id=game.pk, user=admin)
