"""The Reminders page (what quiet hours do to deadlines) and the unsubscribe page (what it stops, the
per-kind choices) fit a 360 px phone and a desktop, in English and Arabic, light and dark, with
screenshots in test-artifacts/."""

import pytest
from django.urls import reverse

from handsite import notifications

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def fits(page, width):
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{page.url} is {scroll}px wide at {width}px"


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True])
def test_the_reminders_and_unsubscribe_pages_fit_and_say_what_they_do(
    open_as, screenshot, member, width, language, dark
):
    look = f"{language}-{width}-{'dark' if dark else 'light'}"
    page = open_as(member, reverse("notification_settings"), width, language=language, dark=dark)
    assert page.locator("#quiet-deadlines").is_visible()
    fits(page, width)
    screenshot(page, f"reminders-{look}")
    page.goto(reverse("notifications_unsubscribe", args=[notifications.unsubscribe_token(member)]))
    assert page.locator(".unsubscribe-list li").count() == 4
    assert page.locator("input[type=checkbox]").count() == 3
    fits(page, width)
    screenshot(page, f"unsubscribe-{look}")
