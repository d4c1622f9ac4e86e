"""No flood: a player on the site gets the turn in-site and no e-mail; one e-mail a grace period after
they leave; no second "your turn" e-mail for a game until they open it; several games waiting make one
e-mail; a vacation holds "your turn"; digest readers still get the warnings about time. With
time-machine for time."""

import datetime as dt

import pytest
import time_machine
from django.core import mail
from django.urls import reverse

from games import notifications as game_notifications
from games.views import poll_token
from handsite import notifications
from handsite.models import Notification, NotificationState
from handsite.services import delivery, preferences
from tests.notifications.conftest import play_one_turn, player_to_move

pytestmark = pytest.mark.django_db
T0 = dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
MINUTE = dt.timedelta(minutes=1)


def at(minutes: float):
    return time_machine.travel(T0 + minutes * MINUTE, tick=False)


def poll(client, game, user):
    game.refresh_from_db()
    url = reverse("games:poll", args=[game.group.slug, game.pk])
    query = {"r": game.revision, "u": user.pk, "t": poll_token(game.pk, user.pk)}
    return client.get(url, query, HTTP_HX_REQUEST="true")


def emails_to(user):
    return [message for message in mail.outbox if message.to == [user.email]]


def _waiting_player_and_mover(game):
    mover = player_to_move(game)
    waiter = next(seat.user for seat in game.seats.all() if seat.user != mover)
    return waiter, mover


@pytest.fixture(autouse=True)
def _cache_on_the_tests_clock(settings):
    """Presence is counted in the cache (a key that lives SEEN_EVERY): these tests travel in time with
    time-machine, which Redis's own expiry clock does not follow, so they use a local cache whose expiry
    reads the travelled clock (and no key of another test)."""
    settings.CACHES = {
        **settings.CACHES,  # with REDIS_URL, the "auth" cache of sessions and users
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "no-flood"},
    }
    from django.core.cache import cache

    cache.clear()


def test_a_polling_player_gets_it_in_site_then_one_email_after_the_grace_and_none_more_until_they_open_it(
    make_game, client, django_capture_on_commit_callbacks
):
    with at(0):
        game = make_game()
    waiter, _mover = _waiting_player_and_mover(game)
    client.force_login(waiter)
    with at(1):
        assert poll(client, game, waiter).status_code == 200  # presence written (with the header count)
    with at(1.5), django_capture_on_commit_callbacks(execute=True):
        play_one_turn(game)  # the turn passes to the waiter, who has the page open
    row = Notification.objects.get(user=waiter, kind=game_notifications.YOUR_TURN)
    assert row.state == NotificationState.PENDING
    assert row.send_after == T0 + 1.5 * MINUTE  # the move queued nothing: the minute's sweep decides
    assert notifications.unread_count(waiter) == 1  # in-site at once
    with at(2):
        assert delivery.deliver_pending()["waiting"] == 1
    row.refresh_from_db()
    assert row.send_after == T0 + 11 * MINUTE  # seen at 0:01, grace 10 minutes
    assert emails_to(waiter) == []
    for minute in (2, 3, 4, 5):  # still on the page
        with at(minute):
            poll(client, game, waiter)
    with at(12):
        assert delivery.deliver_pending()["waiting"] == 1  # seen at 0:05: held until 0:15
    assert emails_to(waiter) == []
    with at(15.1):
        assert delivery.deliver_pending()["sent"] == 1
    assert len(emails_to(waiter)) == 1
    assert "[Hand] Your turn:" in emails_to(waiter)[0].subject

    # The waiter moves without opening the page (say, from another tab long open), the turn comes back:
    # the first e-mail about this game is unread, so no second one.
    with at(30), django_capture_on_commit_callbacks(execute=True):
        play_one_turn(game)
        play_one_turn(game)
    with at(60):
        delivery.deliver_pending()
    assert len(emails_to(waiter)) == 1
    assert notifications.unread_count(waiter) == 2

    # Opening the game reads its notifications; the next turn after they left is e-mailed again.
    with at(61):
        assert client.get(game.get_absolute_url()).status_code == 200
    assert notifications.unread_count(waiter) == 0
    with at(62), django_capture_on_commit_callbacks(execute=True):
        play_one_turn(game)
        play_one_turn(game)
    with at(70):
        delivery.deliver_pending()
    assert len(emails_to(waiter)) == 1  # seen at 1:01: held until 1:11
    with at(71.1):
        delivery.deliver_pending()
    assert len(emails_to(waiter)) == 2


def test_three_games_waiting_make_one_email(make_game, owner, member, django_capture_on_commit_callbacks):
    with at(0):
        preferences.record_presence(member.pk)  # on the site while the turns come in
    games = []
    for seed in (1, 2, 3):
        with at(1), django_capture_on_commit_callbacks(execute=True):
            game = make_game(seed=seed)
            if player_to_move(game) != member:
                play_one_turn(game)
        games.append(game)
    assert emails_to(member) == []
    assert Notification.objects.filter(user=member, state=NotificationState.PENDING).count() == 3
    with at(10.5):
        outcomes = delivery.deliver_pending()
    assert outcomes.get("sent") == 1
    assert len(emails_to(member)) == 1
    message = emails_to(member)[0]
    assert message.subject == "[Hand] Your turn in 3 games"
    for game in games:
        assert game.get_absolute_url() in message.body
    assert set(Notification.objects.filter(user=member).values_list("state", flat=True)) == {
        NotificationState.SENT
    }


def test_a_vacation_holds_your_turn_emails_until_it_ends(
    make_game, member, django_capture_on_commit_callbacks
):
    with at(0):
        preferences.book_vacation(member, 2)
    with at(1), django_capture_on_commit_callbacks(execute=True):
        game = make_game()
        if player_to_move(game) != member:
            play_one_turn(game)
    with at(2):
        assert delivery.deliver_pending()["waiting"] == 1  # the minute's sweep holds it
    row = Notification.objects.get(user=member, kind=game_notifications.YOUR_TURN)
    assert row.state == NotificationState.PENDING
    assert row.send_after == T0 + dt.timedelta(days=2)
    assert emails_to(member) == []
    with time_machine.travel(T0 + dt.timedelta(days=2, minutes=1), tick=False):
        assert delivery.deliver_pending()["sent"] == 1
    assert len(emails_to(member)) == 1


def test_a_digest_reader_gets_the_warnings_about_time_but_no_turn_email(make_game, prefs):
    with at(0):
        game = make_game()
    player = player_to_move(game)
    prefs(player, daily_digest=True)
    mail.outbox.clear()
    with at(1):
        low = game_notifications.record(
            game,
            user_id=player.pk,
            seat=game.turn_seat,
            turn=game.turn_version,
            kind=game_notifications.LOW_TIME,
        )
        assert delivery.deliver(low.pk) == "sent"
        your_turn = Notification.objects.get(user=player, kind=game_notifications.YOUR_TURN)
        Notification.objects.filter(pk=your_turn.pk).update(state=NotificationState.PENDING)
        assert delivery.deliver(your_turn.pk) == "skipped"
    assert [m.subject for m in emails_to(player)] == [f"[Hand] Time is running out: Thursday Hand: {game}"]


def test_opening_a_game_reads_only_its_notifications(make_game, owner, client):
    with at(0):
        first, second = make_game(seed=1), make_game(seed=2)
    player = player_to_move(first)
    before = notifications.unread_count(player)
    assert before >= 1
    client.force_login(player)
    client.get(first.get_absolute_url())
    unread = Notification.objects.filter(user=player, read_at__isnull=True)
    assert not unread.filter(topic=game_notifications.topic(first.pk)).exists()
    assert (
        unread.count()
        == Notification.objects.filter(user=player, topic=game_notifications.topic(second.pk)).count()
    )


def test_the_header_count_follows_the_poll(make_game, client):
    with at(0):
        game = make_game()
    player = player_to_move(game)
    client.force_login(player)
    with at(1):
        client.get(game.get_absolute_url())  # reads this game's notifications
        Notification.objects.create(user=player, kind="custom", subject="Something new")
        assert poll(client, game, player).status_code == 204  # presence written a moment ago
    with at(1.6):
        response = poll(client, game, player)
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    html = response.content.decode()
    assert 'id="unread-badge" hx-swap-oob="true"' in html
    assert ">1</span>" in html
