"""The group's chat ping page fits a phone and a desktop in English and Arabic, light and dark, and never
shows the webhook's URL (screenshots in test-artifacts/)."""

import pytest
from django.urls import reverse

from handsite.models import Role
from handsite.webhooks.models import GroupWebhook, WebhookKind
from tests.factories import MembershipFactory, PlayerGroupFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [360, 1280])
@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("dark", [False, True], ids=["light", "dark"])
def test_the_chat_ping_page_fits_and_hides_the_url(open_as, screenshot, width, language, dark):
    group = PlayerGroupFactory(name="ديوانية الجمعة", slug="diwaniya")
    owner = MembershipFactory(group=group, role=Role.OWNER, user__display_name="Samir").user
    GroupWebhook.objects.create(
        group=group,
        kind=WebhookKind.DISCORD,
        url="https://discord.com/api/webhooks/1/s3cr3t",
        created_by=owner,
    )
    page = open_as(owner, reverse("group_webhook", args=[group.slug]), width, language=language, dark=dark)
    assert page.locator("#chat-ping form").count() == 2
    assert "s3cr3t" not in page.content()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    screenshot(page, f"chat-ping-{width}-{language}-{'dark' if dark else 'light'}")
