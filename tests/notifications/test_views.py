"""The notification list, the settings page and the unsubscribe link."""

import datetime as dt

import pytest
from django.urls import reverse

from games.notifications import topic as game_topic
from handsite import notifications
from handsite.models import Notification, NotificationPreference
from handsite.services import preferences

pytestmark = pytest.mark.django_db


def test_the_list_needs_a_login(client):
    response = client.get(reverse("notification_list"))
    assert response.status_code == 302


def test_the_nav_shows_the_unread_count_and_the_list_shows_the_line(client, game):
    row = Notification.objects.get(topic=game_topic(game.pk))
    client.force_login(row.user)
    page = client.get(reverse("notification_list")).content.decode()
    assert 'class="badge"' in page
    assert "Your turn in Thursday Hand" in page
    assert reverse("notification_settings") in page


def test_opening_a_notification_marks_it_read_and_goes_to_the_game(client, game):
    row = Notification.objects.get(topic=game_topic(game.pk))
    client.force_login(row.user)
    response = client.get(reverse("notification_open", args=[row.pk]))
    assert response.status_code == 302
    assert response["Location"] == game.get_absolute_url()
    assert notifications.unread_count(row.user) == 0


def test_someone_else_cannot_open_my_notification(client, game, outsider):
    row = Notification.objects.get(topic=game_topic(game.pk))
    client.force_login(outsider)
    assert client.get(reverse("notification_open", args=[row.pk])).status_code == 404
    row.refresh_from_db()
    assert row.read_at is None


def test_mark_all_read(client, game):
    row = Notification.objects.get(topic=game_topic(game.pk))
    client.force_login(row.user)
    client.post(reverse("notification_list"))
    assert notifications.unread_count(row.user) == 0


def test_the_settings_page_saves_choices(client, member):
    client.force_login(member)
    assert client.get(reverse("notification_settings")).status_code == 200
    response = client.post(
        reverse("notification_settings"),
        {
            "do": "save",
            "your_turn_email": "on",
            "first_reminder_hours": "6",
            "reminder_every_hours": "12",
            "digest_hour": "9",
            "time_zone": "Asia/Amman",
            "quiet_start": "22:00",
            "quiet_end": "07:00",
        },
    )
    assert response.status_code == 302
    pref = NotificationPreference.objects.get(user=member)
    assert (pref.reminders, pref.first_reminder_hours, pref.time_zone) == (False, 6, "Asia/Amman")
    assert (pref.quiet_start, pref.quiet_end) == (dt.time(22), dt.time(7))


def test_bad_settings_get_a_message_and_change_nothing(client, member):
    client.force_login(member)
    response = client.post(
        reverse("notification_settings"),
        {
            "do": "save",
            "first_reminder_hours": "0",
            "reminder_every_hours": "12",
            "digest_hour": "9",
            "time_zone": "Mars/Olympus",
            "quiet_start": "22:00",
        },
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Give both ends of the quiet hours" in page
    assert "Choose a time zone from the list" in page  # the zone field names real zones
    assert NotificationPreference.objects.get(user=member).first_reminder_hours == 12


def test_vacation_from_the_settings_page(client, member, settings):
    settings.HANDSITE_VACATION_DAYS_PER_YEAR = 10
    client.force_login(member)
    client.post(reverse("notification_settings"), {"do": "vacation", "days": "3"})
    pref = NotificationPreference.objects.get(user=member)
    assert pref.vacation_days_used == 3
    assert pref.vacation_until is not None
    response = client.post(reverse("notification_settings"), {"do": "vacation", "days": "8"})
    assert "7 vacation days left" in response.content.decode()
    client.post(reverse("notification_settings"), {"do": "back"})
    pref.refresh_from_db()
    assert not pref.on_vacation(dt.datetime.now(dt.UTC))


def test_the_unsubscribe_link_works_without_logging_in(client, member):
    url = reverse("notifications_unsubscribe", args=[notifications.unsubscribe_token(member)])
    assert "Stop e-mails about games?" in client.get(url).content.decode()
    assert preferences.preference_for(member).your_turn_email  # a GET (link preview) changes nothing
    response = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    pref = NotificationPreference.objects.get(user=member)
    assert pref.emails_off


def test_a_forged_unsubscribe_link_is_refused(client, member):
    token = notifications.unsubscribe_token(member)
    assert client.post(reverse("notifications_unsubscribe", args=[token[:-2] + "xx"])).status_code == 404
    assert not preferences.preference_for(member).emails_off


def test_the_settings_page_explains_how_turn_emails_respect_players(client, member, settings):
    settings.HANDSITE_NOTIFY_GRACE_MINUTES = 10
    client.force_login(member)
    page = client.get(reverse("notification_settings")).content.decode()
    assert "Sent at once when the turn reaches you." not in page
    assert "None while you have the game open: the turn shows on the page." in page
    assert "one e-mail goes 10 minutes later, and no other for that game until you open it" in page
    assert "Warnings that your time is running out, or ran out, still come." in page


def test_the_unsubscribe_page_says_everything_it_stops_invitations_included(client, member):
    url = reverse("notifications_unsubscribe", args=[notifications.unsubscribe_token(member)])
    page = client.get(url).content.decode()
    for stopped in ("“Your turn” e-mails", "Reminders, and warnings", "The daily digest", "Game invitations"):
        assert stopped in page
    assert "E-mails about your account" in page


def test_the_unsubscribe_page_keeps_the_kinds_chosen_and_invitations_with_them(client, member):
    url = reverse("notifications_unsubscribe", args=[notifications.unsubscribe_token(member)])
    response = client.post(url, {"do": "choose", "reminders": "on"})
    assert "Your choices are saved" in response.content.decode()
    pref = NotificationPreference.objects.get(user=member)
    assert (pref.your_turn_email, pref.reminders, pref.daily_digest) == (False, True, False)
    assert notifications.wants_email(pref, "game_invitation")
    assert not notifications.wants_email(pref, "your_turn")
