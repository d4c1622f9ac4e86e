"""The zone: proposed from the browser (site.js fills a bar with one button from the Intl API), set
in one tap, chosen in the settings from a searchable list with the common zones first, checked."""

import pytest
from django.test import Client
from django.urls import reverse

from handsite import notification_prefs
from handsite.middleware import TIME_ZONE_COOKIE
from handsite.zones import zone_options

pytestmark = pytest.mark.django_db


def test_one_tap_sets_the_zone_and_the_pages_follow(client, member):
    client.force_login(member)
    response = client.post(reverse("set_time_zone"), {"time_zone": "Asia/Amman", "next": "/notifications/"})
    assert response.status_code == 302
    assert response["Location"] == "/notifications/"
    assert notification_prefs.preference_of(member.pk).time_zone == "Asia/Amman"
    assert response.cookies[TIME_ZONE_COOKIE].value == "Asia/Amman"
    page = client.get(reverse("notification_settings")).content.decode()
    assert "Times are now shown in Amman time." in page
    assert 'data-current="Asia/Amman"' in page  # the bar stays hidden for a device on Amman time


def test_a_bad_zone_or_a_foreign_next_changes_nothing(client, member):
    client.force_login(member)
    response = client.post(
        reverse("set_time_zone"), {"time_zone": "Mars/Olympus", "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("home")
    assert notification_prefs.preference_of(member.pk).time_zone == "UTC"
    assert client.get(reverse("set_time_zone")).status_code == 405


def test_the_zone_list_puts_common_zones_first_and_is_searchable_by_city(client, member):
    names = [name for name, _label in zone_options()]
    assert names[:3] == ["Asia/Amman", "Asia/Riyadh", "Asia/Kuwait"]
    assert len(names) == len(set(names)) > 400
    client.force_login(member)
    page = client.get(reverse("notification_settings")).content.decode()
    assert 'list="time-zones"' in page
    assert '<option value="Asia/Amman">Amman</option>' in page
    assert "data-browser-zone" in page


def test_the_settings_refuse_a_zone_that_does_not_exist(client, member):
    client.force_login(member)
    form = {"your_turn_email": "on", "first_reminder_hours": 12, "reminder_every_hours": 24, "digest_hour": 8}
    response = client.post(reverse("notification_settings"), {**form, "time_zone": "Nowhere/Atall"})
    assert "Choose a time zone from the list" in response.content.decode()
    assert notification_prefs.preference_of(member.pk).time_zone == "UTC"
    client.post(reverse("notification_settings"), {**form, "time_zone": "America/New_York"})
    assert notification_prefs.preference_of(member.pk).time_zone == "America/New_York"


def test_the_bar_offering_the_browsers_zone_is_on_every_page_for_people_signed_in(client, member):
    client.force_login(member)
    page = client.get(reverse("home")).content.decode()
    assert "data-zone-offer" in page
    assert 'action="/notifications/time-zone/"' in page
    client.logout()
    assert "data-zone-offer" not in client.get(reverse("account_login")).content.decode()


def test_the_first_log_in_takes_the_browsers_zone_and_later_ones_keep_the_settings(client, member, password):
    client.cookies[TIME_ZONE_COOKIE] = "Asia/Kuwait"  # what site.js writes before log-in
    client.post(reverse("account_login"), {"login": member.email, "password": password})
    assert notification_prefs.preference_of(member.pk).time_zone == "Asia/Kuwait"
    client.logout()
    client.cookies[TIME_ZONE_COOKIE] = "Europe/London"  # travelling: the settings stay; the bar offers it
    client.post(reverse("account_login"), {"login": member.email, "password": password})
    assert notification_prefs.preference_of(member.pk).time_zone == "Asia/Kuwait"


def test_the_one_tap_zone_form_sends_a_next_that_is_no_path_home(client, member):
    client.force_login(member)
    response = client.post("/notifications/time-zone/", {"time_zone": "Asia/Amman", "next": "²"})
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_a_zone_changed_on_one_device_shows_on_the_others_next_page(member):
    phone, laptop = Client(), Client()
    phone.force_login(member)
    laptop.force_login(member)
    phone.post(reverse("set_time_zone"), {"time_zone": "America/New_York", "next": "/"})
    assert 'data-current="America/New_York"' in laptop.get(reverse("home")).content.decode()
    assert laptop.cookies[TIME_ZONE_COOKIE].value == "America/New_York"
    phone.post(reverse("set_time_zone"), {"time_zone": "Asia/Tokyo", "next": "/"})
    page = laptop.get(reverse("home"))
    assert 'data-current="Asia/Tokyo"' in page.content.decode()  # this page, not the one after it
    assert page.cookies[TIME_ZONE_COOKIE].value == "Asia/Tokyo"  # for its moves and fragments
