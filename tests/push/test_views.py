"""The installable app's URLs: the manifest and the service worker with the right types and scope, the
offline page in both languages, the device endpoints of the Reminders page."""

import json

import pytest
from django.urls import reverse

from handsite.push.models import ChannelChoice, PushSubscription
from tests.push.conftest import Device

pytestmark = pytest.mark.django_db


def test_the_manifest_is_served_as_a_web_app_manifest_with_standalone_display_and_maskable_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/manifest+json")
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone"
    assert manifest["scope"] == "/"
    assert manifest["start_url"] == reverse("home")
    assert manifest["name"] == "Hand"
    assert manifest["dir"] == "ltr"
    assert {"any", "maskable"} <= {icon["purpose"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in manifest["icons"]}
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_the_manifest_is_in_arabic_for_an_arabic_reader(client):
    client.cookies["django_language"] = "ar"
    manifest = json.loads(client.get("/manifest.webmanifest").content)
    assert manifest["name"] == "هاند"
    assert manifest["lang"] == "ar"
    assert manifest["dir"] == "rtl"


def test_the_service_worker_is_javascript_at_the_root_allowed_the_whole_site_and_never_cached(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    body = response.content.decode()
    assert '"/offline/ar/"' in body
    assert '"/offline/en/"' in body
    assert "&quot;" not in body  # not HTML-escaped


def test_every_page_links_the_manifest_and_registers_the_worker(client, owner):
    client.force_login(owner)
    page = client.get(reverse("home")).content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in page
    assert "handsite/pwa.js" in page


@pytest.mark.parametrize(("language", "title"), [("en", "No connection"), ("ar", "لا اتصال")])
def test_the_offline_page_is_in_each_language(client, language, title):
    response = client.get(f"/offline/{language}/")
    assert response.status_code == 200
    page = response.content.decode()
    assert title in page
    assert f'lang="{language}"' in page


def test_an_unknown_offline_language_is_not_found(client):
    assert client.get("/offline/xx/").status_code == 404


def test_the_reminders_page_says_push_is_off_without_keys(client, owner):
    client.force_login(owner)
    page = client.get(reverse("notification_settings")).content.decode()
    assert "Push notifications are not set up on this site" in page


def test_a_device_subscribes_shows_on_the_reminders_page_and_is_removed(client, owner, vapid):
    client.force_login(owner)
    device = Device("https://fcm.googleapis.com/fcm/send/abc")
    body = {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": "c2VjcmV0LWF1dGgtMTIz"}}
    response = client.post(
        reverse("push_subscribe"),
        json.dumps(body),
        content_type="application/json",
        headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile"},
    )
    assert response.status_code == 200
    row = PushSubscription.objects.get(user=owner)
    assert row.label == "Chrome on Android"
    # the same device again: one row
    client.post(
        reverse("push_subscribe"),
        json.dumps(body),
        content_type="application/json",
        headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/131.0 Mobile"},
    )
    assert PushSubscription.objects.count() == 1
    page = client.get(reverse("notification_settings")).content.decode()
    assert "Chrome on Android" in page
    assert vapid in page  # the public key browsers subscribe with
    assert device.endpoint not in page  # the endpoint is the device's secret
    client.post(reverse("push_remove_device", args=[row.pk]))
    assert not PushSubscription.objects.exists()


def test_a_subscription_not_at_a_known_push_service_over_https_or_without_keys_is_refused(
    client, owner, vapid, settings
):
    settings.HANDSITE_PUSH_ALLOW_HTTP = False
    client.force_login(owner)
    for body in (
        {"endpoint": "http://fcm.googleapis.com/fcm/send/a", "keys": {"p256dh": "x", "auth": "y"}},
        {"endpoint": "https://10.0.0.1/internal", "keys": {"p256dh": "x", "auth": "y"}},
        {"endpoint": "https://fcm.googleapis.com.evil.example/a", "keys": {"p256dh": "x", "auth": "y"}},
        {"endpoint": "https://fcm.googleapis.com/fcm/send/a", "keys": {}},
        "not an object",
    ):
        response = client.post(reverse("push_subscribe"), json.dumps(body), content_type="application/json")
        assert response.status_code == 400
        assert "could not be used" in response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_someone_else_cannot_remove_a_device(client, owner, member, vapid):
    row = PushSubscription.objects.create(
        user=owner, endpoint="https://push.example.net/x", p256dh="k", auth="a"
    )
    client.force_login(member)
    client.post(reverse("push_remove_device", args=[row.pk]))
    assert PushSubscription.objects.filter(pk=row.pk).exists()


def test_the_channel_choice_per_kind_is_saved(client, owner, vapid):
    client.force_login(owner)
    client.post(reverse("push_channels"), {"channel-turn": "push", "channel-time": "bogus"})
    assert dict(ChannelChoice.objects.filter(user=owner).values_list("topic", "channel")) == {"turn": "push"}
    page = client.get(reverse("notification_settings")).content.decode()
    assert '<option value="push" selected>' in page


def test_the_badge_counts_the_games_waiting_on_the_player(client, game):
    from tests.notifications.conftest import player_to_move

    assert client.get(reverse("push_badge")).json() == {"count": 0}
    client.force_login(player_to_move(game))
    assert client.get(reverse("push_badge")).json() == {"count": 1}
