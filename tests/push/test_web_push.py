"""Web Push end to end: a turn passing makes one delivery row per device of the player; the task sends
an encrypted payload to the push service (a stand-in on 127.0.0.1) that the test decrypts with the
device's keys; 410 removes the device; nothing is pushed while the player is on the site; quiet hours
hold it; the per-kind channel choice decides e-mail and push."""

import datetime as dt
import zoneinfo

import pytest
from django.core import mail
from django.utils import timezone

from games import notifications as game_notifications
from handsite.models import Notification, NotificationState
from handsite.push import services as push_services
from handsite.push import tasks as push_tasks
from handsite.push.models import Channel, ChannelChoice, PushDelivery, PushState, PushSubscription
from handsite.services import delivery as delivery_services
from handsite.services import preferences
from tests.notifications.conftest import play_one_turn, player_to_move

pytestmark = pytest.mark.django_db


def _turn_passes(game):
    """A move: the turn passes; the e-mail outbox's sweep hands the "your turn" row to push."""
    Notification.objects.all().delete()
    play_one_turn(game)
    return player_to_move(game)


def test_a_turn_passing_makes_one_delivery_per_device_and_each_device_decrypts_its_push(
    vapid, push_service, add_device, game
):
    game.deadline_at = timezone.now() + dt.timedelta(hours=5)
    game.save(update_fields=["deadline_at"])
    next_player = player_to_move(game)
    other = next(seat.user for seat in game.seats.all() if seat.user != next_player)
    # the player to move after this one's turn: give both their devices before the move
    phone, _phone_row = add_device(other, "phone")
    laptop, _laptop_row = add_device(other, "laptop")
    _turn_passes(game)
    assert delivery_services.deliver_pending()["sent"] == 1  # the e-mail, as before
    deliveries = list(PushDelivery.objects.all())
    assert len(deliveries) == 2
    assert {d.subscription.user for d in deliveries} == {other}
    assert {d.state for d in deliveries} == {PushState.PENDING}
    delivery_services.deliver_pending()  # a second sweep adds nothing
    assert PushDelivery.objects.count() == 2

    outcomes = push_tasks.send_pushes([d.pk for d in deliveries])
    assert outcomes == {"sent": 2}
    assert push_tasks.send_pushes([d.pk for d in deliveries]) == {"not_claimed": 2}  # exactly once
    assert sorted(r["path"] for r in push_service.received) == ["/laptop", "/phone"]
    for device in (phone, laptop):
        request = next(
            r for r in push_service.received if r["path"] == "/" + device.endpoint.rsplit("/", 1)[1]
        )
        assert request["headers"]["content-encoding"] == "aes128gcm"
        assert request["headers"]["authorization"].startswith("vapid t=")
        assert b"Your turn" not in request["body"]  # encrypted
        payload = device.decrypt(request["body"])
        assert payload["title"] == "Your turn"
        assert str(game) in payload["body"]
        assert game.group.name in payload["body"]
        local = timezone.localtime(game.deadline_at, timezone.get_fixed_timezone(0))
        assert f"Play by {local:%a %H:%M}." in payload["body"]  # a clock time in the reader's zone (UTC)
        assert payload["url"].endswith(game.get_absolute_url())
        assert payload["tag"] == game_notifications.topic(game.pk)
        assert payload["badge"] == 1
    assert set(PushDelivery.objects.values_list("state", flat=True)) == {PushState.SENT}


def test_the_push_is_in_the_readers_language_and_zone(vapid, push_service, add_device, game, prefs):
    next_player = player_to_move(game)
    other = next(seat.user for seat in game.seats.all() if seat.user != next_player)
    type(other).objects.filter(pk=other.pk).update(language="ar")
    prefs(other, time_zone="Asia/Amman")
    game.deadline_at = timezone.now() + dt.timedelta(hours=5)
    game.save(update_fields=["deadline_at"])
    device, _row = add_device(other, "phone")
    _turn_passes(game)
    delivery_services.deliver_pending()
    push_services.send_pending()
    payload = device.decrypt(push_service.received[0]["body"])
    assert payload["title"] == "دورك"
    assert payload["lang"] == "ar"
    assert payload["dir"] == "rtl"
    amman = timezone.localtime(game.deadline_at, zoneinfo.ZoneInfo("Asia/Amman"))
    assert f"{amman:%H:%M}" in payload["body"]


def test_a_410_from_the_push_service_removes_the_device(vapid, push_service, add_device, game):
    player = player_to_move(game)
    _device, row = add_device(player, "gone")
    push_service.status = 410
    delivery_services.deliver_pending()  # the game's first "your turn"
    assert push_services.send_pending() == {"released": 0, "gone": 1}
    assert not PushSubscription.objects.filter(pk=row.pk).exists()
    assert PushDelivery.objects.count() == 0


def test_a_failing_push_service_is_retried_with_backoff_then_given_up(vapid, push_service, add_device, game):
    player = player_to_move(game)
    add_device(player, "flaky")
    push_service.status = 500
    delivery_services.deliver_pending()
    now = timezone.now()
    assert push_services.send_pending(now) == {"released": 0, "retry": 1}
    delivery = PushDelivery.objects.get()
    assert delivery.state == PushState.PENDING
    assert delivery.send_after == now + dt.timedelta(minutes=2)
    assert "500" in delivery.last_error
    assert "127.0.0.1" not in delivery.last_error
    for _ in range(4):
        now = delivery.send_after
        push_services.send_pending(now)
        delivery.refresh_from_db()
    assert delivery.state == PushState.FAILED
    assert len(push_service.received) == 5


def test_a_player_with_the_game_open_gets_no_push_and_opening_it_drops_the_push(
    vapid, push_service, add_device, game
):
    player = player_to_move(game)
    add_device(player, "phone")
    now = timezone.now()
    preferences.record_presence(player.pk, now)  # the game's page polls
    delivery_services.deliver_pending(now)
    assert push_services.send_pending(now) == {"released": 0, "waiting": 1}
    delivery = PushDelivery.objects.get()
    assert delivery.send_after > now
    game_notifications.opened(player, game)  # they saw it on the page
    assert push_services.send_pending(delivery.send_after + dt.timedelta(minutes=30)) == {
        "released": 0,
        "skipped": 1,
    }
    assert push_service.received == []


def test_quiet_hours_hold_the_push_until_they_end(vapid, push_service, add_device, game, prefs):
    player = player_to_move(game)
    add_device(player, "phone")
    now = timezone.now().replace(hour=23, minute=0, second=0, microsecond=0)
    prefs(player, time_zone="UTC", quiet_start=dt.time(22), quiet_end=dt.time(7))
    delivery_services.deliver_pending(now)
    Notification.objects.update(created_at=now)
    PushDelivery.objects.update(send_after=now)
    assert push_services.send_pending(now) == {"released": 0, "waiting": 1}
    delivery = PushDelivery.objects.get()
    assert delivery.send_after == (now + dt.timedelta(days=1)).replace(hour=7)
    assert push_service.received == []
    assert push_services.send_pending(delivery.send_after) == {"released": 0, "sent": 1}


def test_push_only_for_turns_sends_no_email_but_pushes(vapid, push_service, add_device, game):
    player = player_to_move(game)
    add_device(player, "phone")
    ChannelChoice.objects.create(user=player, topic="turn", channel=Channel.PUSH)
    assert delivery_services.deliver_pending()["skipped"] == 1
    assert mail.outbox == []
    assert push_services.send_pending() == {"released": 0, "sent": 1}


def test_email_only_makes_no_delivery_row(vapid, push_service, add_device, game):
    player = player_to_move(game)
    add_device(player, "phone")
    ChannelChoice.objects.create(user=player, topic="turn", channel=Channel.EMAIL)
    assert delivery_services.deliver_pending()["sent"] == 1
    assert PushDelivery.objects.count() == 0


def test_one_your_turn_push_per_game_until_it_is_opened(vapid, push_service, add_device, game):
    player = player_to_move(game)
    add_device(player, "phone")
    delivery_services.deliver_pending()
    assert push_services.send_pending() == {"released": 0, "sent": 1}
    # another "your turn" row about the same game (say, after an undo), still unread
    first = Notification.objects.get()
    Notification.objects.create(
        user=player, kind=first.kind, key="again", topic=first.topic, link=first.link, data=first.data
    )
    delivery_services.deliver_pending()
    assert push_services.send_pending() == {"released": 0, "skipped": 1}
    assert len(push_service.received) == 1


def test_without_vapid_keys_push_is_off_and_email_is_unchanged(push_service, add_device, game):
    player = player_to_move(game)
    add_device(player, "phone")
    ChannelChoice.objects.create(user=player, topic="turn", channel=Channel.PUSH)
    assert delivery_services.deliver_pending()["sent"] == 1
    assert len(mail.outbox) == 1
    assert PushDelivery.objects.count() == 0
    assert Notification.objects.get().state == NotificationState.SENT


def test_two_waiting_games_make_one_email_and_a_push_per_game_on_each_device(
    vapid, push_service, add_device, make_game, member
):
    games = []
    for seed in (1, 2):
        game = make_game(seed=seed)
        if player_to_move(game) != member:
            play_one_turn(game)
        games.append(game)
    add_device(member, "phone")
    add_device(member, "laptop")
    mail.outbox.clear()
    delivery_services.deliver_pending()
    turns = Notification.objects.filter(user=member, kind=game_notifications.YOUR_TURN)
    assert turns.count() == 2
    assert set(turns.values_list("state", flat=True)) == {NotificationState.SENT}
    [message] = [m for m in mail.outbox if m.to == [member.email]]  # one e-mail for both games
    assert all(game.get_absolute_url() in message.body for game in games)
    pairs = list(
        PushDelivery.objects.filter(subscription__user=member).values_list(
            "notification_id", "subscription_id"
        )
    )
    assert len(pairs) == len(set(pairs)) == 4  # each game's turn on each of the two devices
    assert {pk for pk, _device in pairs} == set(turns.values_list("pk", flat=True))


def test_a_push_only_player_gets_no_email_for_any_of_the_waiting_games(
    vapid, push_service, add_device, make_game, member
):
    for seed in (1, 2):
        game = make_game(seed=seed)
        if player_to_move(game) != member:
            play_one_turn(game)
    add_device(member, "phone")
    ChannelChoice.objects.create(user=member, topic="turn", channel=Channel.PUSH)
    mail.outbox.clear()
    delivery_services.deliver_pending()
    assert [m for m in mail.outbox if m.to == [member.email]] == []
    turns = Notification.objects.filter(user=member, kind=game_notifications.YOUR_TURN)
    assert set(turns.values_list("state", flat=True)) == {NotificationState.SKIPPED}
    assert PushDelivery.objects.filter(subscription__user=member).count() == 2
