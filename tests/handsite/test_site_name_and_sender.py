"""The site's name and domain come from the settings: SITE_NAME in every subject and sender, the Sites
framework's domain from SITE_URL (so allauth's e-mails no longer say "[127.0.0.1:8102]")."""

import pytest
from django.apps import apps as global_apps
from django.contrib.sites.models import Site
from django.core import mail
from django.urls import reverse

from handsite.apps import sync_site

pytestmark = pytest.mark.django_db


def test_the_site_row_follows_site_url_and_site_name(settings):
    site = Site.objects.get(pk=settings.SITE_ID)
    assert (site.domain, site.name) == ("127.0.0.1:8000", "Hand")
    settings.SITE_URL = "https://hand.example.com"
    settings.SITE_NAME = "Jordan Hand & Co"
    sync_site(global_apps.get_app_config("sites"), apps=global_apps)
    site.refresh_from_db()
    assert (site.domain, site.name) == ("hand.example.com", "Jordan Hand & Co")


def test_the_sender_carries_the_site_name(settings):
    assert settings.DEFAULT_FROM_EMAIL == "Hand <noreply@localhost>"


def test_account_emails_name_the_site_not_the_host(client, member, django_capture_on_commit_callbacks):
    Site.objects.clear_cache()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("account_reset_password"), {"email": member.email})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.subject.startswith("[Hand] ")
    assert "127.0.0.1" not in message.subject
    assert message.from_email == "Hand <noreply@localhost>"
