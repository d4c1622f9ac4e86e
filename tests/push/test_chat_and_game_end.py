"""Web Push for table talk and a game's end: several unread messages make one push per game, which the
device decrypts from the stand-in push service; nothing while the player is on the site; the same
per-kind channel choice (push or not) as the other kinds; a game played to its end pushes "The game is
over" to the player who did not make the last move."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from games import engine
from games import notifications as game_notifications
from games.chat import ChatRequest
from games.models import GameStatus
from games.services import playing, talk
from handsite.models import Notification
from handsite.push import services as push_services
from handsite.push.models import Channel, ChannelChoice, PushDelivery
from handsite.services import preferences as site_services

pytestmark = pytest.mark.django_db


def write(game, user, text):
    outcome = talk.chat(
        game_id=game.pk, group_slug=game.group.slug, user=user, request=ChatRequest(action="post", text=text)
    )
    assert outcome.error is None


def test_three_unread_messages_make_one_push_for_the_game_that_the_device_decrypts(
    vapid, push_service, add_device, game, owner, member
):
    phone, _row = add_device(member, "phone")
    for number in range(3):
        write(game, owner, f"message {number}")
    assert PushDelivery.objects.filter(notification__kind=game_notifications.CHAT).count() == 3
    assert push_services.send_pending() == {"released": 0, "sent": 1, "skipped": 2}
    assert len(push_service.received) == 1
    payload = phone.decrypt(push_service.received[0]["body"])
    assert payload["title"] == "Table talk"
    assert payload["body"] == f"3 unread messages in the table talk of {game} ({game.group.name})"
    assert payload["url"].endswith(game.get_absolute_url())
    assert payload["tag"] == f"{game_notifications.topic(game.pk)}:chat"

    # Read on the page: the next message is pushed again, once.
    game_notifications.chat_read(member, game)
    write(game, owner, "one more")
    assert push_services.send_pending() == {"released": 0, "sent": 1}
    assert phone.decrypt(push_service.received[1]["body"])["body"].startswith("1 unread message ")


def test_the_chat_push_is_in_the_readers_language(vapid, push_service, add_device, game, owner, member):
    type(member).objects.filter(pk=member.pk).update(language="ar")
    phone, _row = add_device(member, "phone")
    write(game, owner, "مرحبا")
    push_services.send_pending()
    payload = phone.decrypt(push_service.received[0]["body"])
    assert payload["title"] == "دردشة الطاولة"
    assert payload["dir"] == "rtl"


def test_a_player_on_the_site_gets_no_chat_push_and_reading_it_there_drops_it(
    vapid, push_service, add_device, game, owner, member
):
    add_device(member, "phone")
    site_services.record_presence(member.pk, timezone.now())  # the game's page polls
    write(game, owner, "are you there?")
    assert push_services.send_pending() == {"released": 0, "waiting": 1}
    game_notifications.chat_read(member, game)  # seen in the table talk
    later = PushDelivery.objects.get().send_after + dt.timedelta(minutes=1)
    assert push_services.send_pending(later) == {"released": 0, "skipped": 1}
    assert push_service.received == []


def test_table_talk_follows_its_own_channel_choice(vapid, push_service, add_device, game, owner, member):
    add_device(member, "phone")
    ChannelChoice.objects.create(user=member, topic="chat", channel=Channel.EMAIL)
    ChannelChoice.objects.create(user=member, topic="turn", channel=Channel.PUSH)
    write(game, owner, "no push for this")
    assert PushDelivery.objects.count() == 0
    ChannelChoice.objects.filter(user=member, topic="chat").update(channel=Channel.PUSH)
    write(game, owner, "this one is pushed")
    assert push_services.send_pending() == {"released": 0, "sent": 1}


def test_without_vapid_keys_a_message_makes_no_delivery(push_service, add_device, game, owner, member):
    add_device(member, "phone")
    write(game, owner, "hello")
    assert PushDelivery.objects.count() == 0


def _play_to_the_end(game):
    """Both players make the bots' choices until the game is over; returns the seat that moved last."""
    users = {seat.number: seat.user for seat in game.seats.all()}
    last = None
    for _ in range(20000):
        game.refresh_from_db()
        if game.status == GameStatus.FINISHED:
            return last
        state = engine.from_json(game.state)
        last = state.current
        action = engine.bot_action(state, last)
        playing.play(game_id=game.pk, user=users[last], version=game.version, action=action)
    raise AssertionError("the game did not end")


def test_the_games_end_is_pushed_to_the_player_who_did_not_end_it(
    client, vapid, push_service, add_device, game, owner, member
):
    names = {owner.pk: "owner", member.pk: "member"}
    devices = {user.pk: add_device(user, names[user.pk])[0] for user in (owner, member)}
    last = _play_to_the_end(game)
    ender = next(seat.user for seat in game.seats.all() if seat.number == last)
    other = member if ender == owner else owner
    rows = Notification.objects.filter(kind=game_notifications.GAME_FINISHED)
    assert list(rows.values_list("user_id", flat=True)) == [other.pk]  # in-site, for the other only
    deliveries = PushDelivery.objects.filter(notification__kind=game_notifications.GAME_FINISHED)
    assert [d.subscription.user_id for d in deliveries] == [other.pk]
    push_services.send_pending(timezone.now() + dt.timedelta(days=2))  # past any turn still held
    ends = [
        devices[other.pk].decrypt(r["body"])
        for r in push_service.received
        if r["path"] == f"/{names[other.pk]}"
    ]
    end = next(p for p in ends if p["title"] == "The game is over")
    assert end["body"] == f"{game} ({game.group.name})"
    assert end["url"].endswith(game.get_absolute_url())
    client.force_login(other)  # and the in-site list says it
    assert (
        f"{game} is over: see the final scores." in client.get(reverse("notification_list")).content.decode()
    )


def test_a_player_on_the_site_when_the_game_ends_gets_no_push_for_it(
    vapid, push_service, add_device, game, owner, member
):
    add_device(owner, "owner")
    add_device(member, "member")
    for user in (owner, member):
        site_services.record_presence(user.pk, timezone.now() + dt.timedelta(days=1))  # on the page
    _play_to_the_end(game)
    assert Notification.objects.filter(kind=game_notifications.GAME_FINISHED).count() == 1
    assert not PushDelivery.objects.filter(notification__kind=game_notifications.GAME_FINISHED).exists()
