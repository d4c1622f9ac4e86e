"""An unanswered invitation frees its seat at the reply deadline (scans.expire_invitations, beat's
games.tasks.scan_invitations): in batches of the same four queries whatever their size, games an answer
holds skipped (SKIP LOCKED), the creator told; the creator may then give the seat to a bot or invite
another member. With time-machine for time."""

import datetime as dt

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import notifications as game_notifications
from games import tasks
from games.models import Game, GameStatus, Seat
from games.services import scans, seating
from handsite.models import Notification
from tests.factories import MembershipFactory
from tests.support import row_locked_elsewhere

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)


@pytest.fixture
def invite_games(owner, group, settings):
    """invite_games(n): n games of the owner, each with one newly made member invited at T0."""

    def make(count):
        games = []
        with time_machine.travel(T0, tick=False):
            for number in range(count):
                guest = MembershipFactory(group=group, user__display_name=f"Guest {number}").user
                games.append(
                    seating.create_game(
                        group=group, created_by=owner, variant="classic", options=None, seats=[owner, guest]
                    )
                )
        return games

    return make


def deadline(settings):
    return T0 + dt.timedelta(hours=settings.GAMES_INVITATION_REPLY_HOURS)


def scan_at(moment, **kwargs):
    with time_machine.travel(moment, tick=False), CaptureQueriesContext(connection) as captured:
        freed = scans.expire_invitations(**kwargs)
    queries = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    return freed, len(queries)


def test_the_deadline_frees_the_seat_and_tells_the_creator(owner, invite_games, settings):
    (game,) = invite_games(1)
    freed, _queries = scan_at(deadline(settings) - dt.timedelta(seconds=1))
    assert freed == {}  # not yet
    revision = Game.objects.get(pk=game.pk).revision
    freed, _queries = scan_at(deadline(settings))
    seat = Seat.objects.get(game=game, number=1)
    assert freed == {seat.pk: game.pk}
    assert seat.user is None
    assert seat.invited_at is None
    assert seat.reply_by is None
    assert Game.objects.get(pk=game.pk).revision == revision + 1  # the page's poll shows the free seat
    (news,) = Notification.objects.filter(user=owner, kind=game_notifications.INVITATION_NEWS)
    assert game_notifications.describe_news([news]) == [
        f"Guest 0 did not answer in time: seat 2 of Thursday Hand: Hand #{game.pk} is free."
    ]
    assert scan_at(deadline(settings) + dt.timedelta(hours=1))[0] == {}  # once
    assert Notification.objects.filter(user=owner, kind=game_notifications.INVITATION_NEWS).count() == 1


def test_a_batch_of_five_costs_the_queries_of_a_batch_of_one(invite_games, settings):
    invite_games(1)
    one, queries_one = scan_at(deadline(settings))
    invite_games(5)
    five, queries_five = scan_at(deadline(settings))
    assert len(one) == 1
    assert len(five) == 5
    assert queries_one == queries_five == 4  # lock, free the seats, bump the games, tell the creators
    assert scan_at(deadline(settings))[1] == 1  # nothing due: one query


def test_the_task_goes_on_batch_after_batch(invite_games, settings, monkeypatch):
    invite_games(5)
    monkeypatch.setattr(scans, "INVITATION_BATCH", 2)
    with time_machine.travel(deadline(settings), tick=False):
        assert tasks.scan_invitations() == 5
    assert not Seat.objects.filter(reply_by__isnull=False).exists()


def test_accepted_declined_and_cancelled_invitations_are_left_alone(owner, member, invite_games, settings):
    accepted, declined, cancelled, due = invite_games(4)
    guests = {game.pk: Seat.objects.get(game=game, number=1).user for game in (accepted, declined, due)}
    with time_machine.travel(T0 + dt.timedelta(hours=1), tick=False):
        seating.accept_seat(game_id=accepted.pk, user=guests[accepted.pk])
        seating.decline_seat(game_id=declined.pk, user=guests[declined.pk])
        seating.cancel_game(game_id=cancelled.pk, actor=owner)
    freed, _queries = scan_at(deadline(settings))
    assert set(freed.values()) == {due.pk}
    assert Game.objects.get(pk=accepted.pk).status == GameStatus.ACTIVE


def test_then_the_creator_gives_the_seat_to_a_bot_or_invites_another_member(
    owner, admin, invite_games, settings
):
    first, second = invite_games(2)
    scan_at(deadline(settings))
    with time_machine.travel(deadline(settings) + dt.timedelta(minutes=5), tick=False):
        seating.fill_seat_with_bot(game_id=first.pk, actor=owner, number=1)
        seating.invite_to_seat(game_id=second.pk, actor=owner, number=1, invitee_id=admin.pk)
    assert Game.objects.get(pk=first.pk).status == GameStatus.ACTIVE
    seat = Seat.objects.get(game=second, number=1)
    assert seat.user == admin
    assert seat.is_invited
    assert seat.reply_by == deadline(settings) + dt.timedelta(
        minutes=5, hours=settings.GAMES_INVITATION_REPLY_HOURS
    )
    (invitation,) = Notification.objects.filter(user=admin, kind=game_notifications.INVITED)
    assert invitation.data["seat"] == 1
    assert invitation.topic == game_notifications.topic(second.pk)


@pytest.mark.django_db(transaction=True)
def test_a_game_an_answer_holds_is_skipped_and_taken_by_the_next_scan(invite_games, settings):
    """The scan never waits on a game another transaction has locked (a player answering right now)."""
    if connection.vendor != "postgresql":
        pytest.skip("SKIP LOCKED needs PostgreSQL (runs in the PostgreSQL flavour of the suite)")
    held, free = invite_games(2)
    with row_locked_elsewhere(held):
        freed, _queries = scan_at(deadline(settings))
        assert set(freed.values()) == {free.pk}
    freed, _queries = scan_at(deadline(settings))
    assert set(freed.values()) == {held.pk}
