"""The installable app in Chromium: the service worker installs with the whole site as its scope;
offline, a page it cannot fetch shows the offline page in the player's language; the Reminders page's
"This device" section fits a 360 px phone in English and Arabic, light and dark (screenshots in
test-artifacts/)."""

import pytest
from django.urls import reverse

from handsite.push.models import PushSubscription
from tests.factories import UserFactory
from tests.support import wait_until_true

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _controlled(page) -> None:
    """Wait for the worker, then reload so that it serves the page (it claims clients on activation)."""
    scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
    assert scope.endswith("/")
    assert scope.count("/") == 3  # http://host:port/ : the whole site
    page.reload()
    wait_until_true(page, "navigator.serviceWorker.controller !== null")


def test_offline_a_page_shows_the_offline_page_in_arabic(open_as, live_server):
    samira = UserFactory(display_name="سميرة")
    page = open_as(samira, reverse("home"), 390, language="ar")
    _controlled(page)
    page.context.set_offline(True)
    page.goto(reverse("notification_settings"))
    assert page.locator("[data-offline-page] h1").inner_text() == "لا اتصال"
    assert page.evaluate("document.documentElement.lang") == "ar"
    assert page.evaluate("document.documentElement.dir") == "rtl"
    page.context.set_offline(False)
    page.goto(reverse("notification_settings"))  # online again: the real page, never a stale copy
    assert page.locator("[data-offline-page]").count() == 0


def test_offline_the_page_is_in_english_for_an_english_reader(open_as):
    page = open_as(UserFactory(display_name="Sam"), reverse("home"), 390)
    _controlled(page)
    page.context.set_offline(True)
    page.goto(reverse("profile"))
    assert page.locator("[data-offline-page] h1").inner_text() == "No connection"


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_reminders_page_with_its_devices_fits_a_phone_and_a_desktop(
    open_as, screenshot, settings, width, language, dark
):
    from handsite.management.commands.vapid_keys import new_keys

    private, public = new_keys()
    settings.HANDSITE_VAPID_PRIVATE_KEY = private
    settings.HANDSITE_VAPID_PUBLIC_KEY = public
    settings.HANDSITE_VAPID_SUBJECT = "mailto:admin@hand.example"
    player = UserFactory(display_name="Samir")
    PushSubscription.objects.create(
        user=player, endpoint="https://push.example.net/1", p256dh="k", auth="a", label="Chrome on Android"
    )
    page = open_as(player, reverse("notification_settings") + "#devices", width, language=language, dark=dark)
    section = page.locator("#devices")
    assert section.is_visible()
    assert section.locator("select").count() == 5  # a choice per kind, table talk included
    assert "Chrome on Android" in section.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"reminders-devices-{width}-{language}-{'dark' if dark else 'light'}")
