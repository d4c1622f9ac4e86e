"""Times in the reader's zone, with the zone named: a deadline of 22:00 in New York is 22:00 for a New
York reader and 06:00 the next day for an Amman reader (05:00 in July, when New York is on summer time
and Amman, on UTC+3 all year since 2022, is not), in e-mails whoever triggered them and on the page."""

import datetime as dt
import zoneinfo

import pytest
import time_machine
from django.core import mail

from games import notifications as game_notifications
from games.models import Game
from handsite.middleware import TIME_ZONE_COOKIE
from handsite.models import Notification
from handsite.services import delivery
from tests.notifications.conftest import player_to_move

pytestmark = pytest.mark.django_db
NEW_YORK = zoneinfo.ZoneInfo("America/New_York")


@pytest.mark.parametrize(
    ("day", "amman"),
    [
        (dt.date(2026, 11, 24), "tomorrow 06:00, Amman time"),
        (dt.date(2026, 7, 14), "tomorrow 05:00, Amman time"),
    ],
)
def test_a_new_york_deadline_reads_right_in_new_york_and_in_amman(
    make_game, prefs, owner, member, day, amman
):
    deadline = dt.datetime.combine(day, dt.time(22, 0), tzinfo=NEW_YORK)
    morning = dt.datetime.combine(day, dt.time(9, 0), tzinfo=NEW_YORK)
    with time_machine.travel(morning, tick=False):
        game = make_game(move_hours=24)
        Game.objects.filter(pk=game.pk).update(deadline_at=deadline)
        prefs(owner, time_zone="America/New_York")
        prefs(member, time_zone="Asia/Amman")
        mail.outbox.clear()
        for number, user in enumerate((owner, member)):
            row = game_notifications.record(
                game,
                user_id=user.pk,
                seat=game.turn_seat,
                turn=game.turn_version,
                kind="reminder",
                number=number,
            )
            assert delivery.deliver(row.pk) == "sent"
    by_reader = {message.to[0]: message for message in mail.outbox}
    new_york, jordan = by_reader[owner.email], by_reader[member.email]
    assert "Deadline: today 22:00, New York time (in 13\xa0hours)." in new_york.body
    assert "today 22:00, New York time" in new_york.alternatives[0][0]
    assert f"Deadline: {amman}" in jordan.body
    assert amman in jordan.alternatives[0][0]


def test_the_email_is_in_the_readers_zone_whoever_triggered_it(make_game, prefs, settings):
    with time_machine.travel(dt.datetime(2026, 11, 24, 14, 0, tzinfo=dt.UTC), tick=False):
        game = make_game(move_hours=24)
        player = player_to_move(game)
        prefs(player, time_zone="Asia/Amman")
        row = Notification.objects.get(user=player, kind="your_turn")
        Notification.objects.filter(pk=row.pk).update(state="pending")
        mail.outbox.clear()
        assert delivery.deliver(row.pk) == "sent"  # by a worker in UTC
    assert "tomorrow 17:00, Amman time" in mail.outbox[0].body  # 14:00 UTC + 24 h, in Amman


def test_the_play_page_shows_the_deadline_in_the_readers_zone(make_game, prefs, client):
    deadline = dt.datetime(2026, 11, 24, 22, 0, tzinfo=NEW_YORK)
    with time_machine.travel(dt.datetime(2026, 11, 24, 12, 0, tzinfo=NEW_YORK), tick=False):
        game = make_game(move_hours=24)
        Game.objects.filter(pk=game.pk).update(deadline_at=deadline)
        player = player_to_move(game)
        prefs(player, time_zone="Asia/Amman")
        client.force_login(player)
        first = client.get(game.get_absolute_url())
        assert first.cookies[TIME_ZONE_COOKIE].value == "Asia/Amman"  # from the settings, for next pages
        page = client.get(game.get_absolute_url()).content.decode()
        assert "tomorrow 06:00, Amman time" in page
        client.cookies[TIME_ZONE_COOKIE] = "America/New_York"  # a device the settings changed behind
        stale = client.get(game.get_absolute_url())
        assert "tomorrow 06:00, Amman time" in stale.content.decode()  # a full page follows the settings
        assert stale.cookies[TIME_ZONE_COOKIE].value == "Asia/Amman"
        client.cookies[TIME_ZONE_COOKIE] = "Not/AZone"
        assert client.get(game.get_absolute_url()).status_code == 200


def test_subjects_with_ampersands_and_angle_brackets_arrive_unescaped(make_game, group, owner):
    group.name = "Hand & <Friends>"
    group.save()
    with time_machine.travel(dt.datetime(2026, 11, 24, 12, 0, tzinfo=dt.UTC), tick=False):
        game = make_game()
        player = player_to_move(game)
        row = Notification.objects.get(user=player, kind="your_turn")
        Notification.objects.filter(pk=row.pk).update(state="pending")
        mail.outbox.clear()
        delivery.deliver(row.pk)
    assert mail.outbox[0].subject == f"[Hand] Your turn: Hand & <Friends>: {game}"
    assert "Hand &amp; &lt;Friends&gt;" in mail.outbox[0].alternatives[0][0]  # the HTML part escapes
    assert "Hand & <Friends>" in mail.outbox[0].body
