"""A group's chat ping: a turn passing posts "Samir, your turn in Hand #12 (Diwaniya Friday)" with a link
to the group's webhook (a stand-in on 127.0.0.1) once; a failing webhook is retried, then turned off
with a note to the admin; the URL never appears in a page or a log line; only http(s) URLs, only
owners and admins."""

import datetime as dt
import logging

import pytest
from django.urls import reverse
from django.utils import timezone

from handsite.models import Notification
from handsite.services import delivery
from handsite.webhooks import services as webhooks
from handsite.webhooks.models import GroupWebhook, PingState, WebhookPing
from tests.notifications.conftest import player_to_move
from tests.support import membership_of

pytestmark = pytest.mark.django_db


def _set(owner, group, url, kind="discord", chat_id=""):
    return webhooks.set_webhook(
        actor_membership=membership_of(owner, group), kind=kind, url=url, chat_id=chat_id
    )


def test_a_turn_pings_the_groups_chat_once_with_a_link(owner, group, game, receiver):
    _set(owner, group, receiver.url())
    player = player_to_move(game)
    delivery.deliver_pending()
    delivery.deliver_pending()  # a second sweep adds nothing
    assert WebhookPing.objects.count() == 1
    assert webhooks.send_pending() == {"sent": 1}
    assert webhooks.send_pending() == {}
    [request] = receiver.received
    text = request["json"]["content"]
    assert text.startswith(f"{player.name}, your turn in {game} (Thursday Hand)\n")
    assert text.endswith(f"http://127.0.0.1:8000{game.get_absolute_url()}")
    assert request["json"]["allowed_mentions"] == {"parse": []}


def test_each_chat_service_gets_its_own_body(owner, group, game, receiver):
    _set(owner, group, receiver.url("/bot123:abc/sendMessage"), kind="telegram", chat_id="-10042")
    delivery.deliver_pending()
    webhooks.send_pending()
    body = receiver.received[0]["json"]
    assert body["chat_id"] == "-10042"
    assert "your turn in" in body["text"]


def test_the_ping_is_in_the_language_of_the_admin_who_set_it(owner, group, game, receiver):
    type(owner).objects.filter(pk=owner.pk).update(language="ar")
    owner.refresh_from_db()
    _set(owner, group, receiver.url(), kind="slack")
    delivery.deliver_pending()
    webhooks.send_pending()
    assert "دورك في" in receiver.received[0]["json"]["text"]


def test_a_failing_webhook_is_retried_with_backoff_then_counts_one_failure(owner, group, game, receiver):
    webhook = _set(owner, group, receiver.url())
    receiver.status = 503
    delivery.deliver_pending()
    now = timezone.now()
    for minutes in (1, 2, 4, 8):
        assert webhooks.send_pending(now) == {"retry": 1}
        ping = WebhookPing.objects.get()
        assert ping.send_after == now + dt.timedelta(minutes=minutes)
        now = ping.send_after
    assert webhooks.send_pending(now) == {"failed": 1}
    assert len(receiver.received) == 5
    webhook.refresh_from_db()
    assert webhook.failures == 1
    assert webhook.disabled_at is None


def test_repeated_permanent_failures_turn_the_webhook_off_and_tell_the_admin(
    owner, group, game, receiver, caplog
):
    webhook = _set(owner, group, receiver.url())
    receiver.status = 404  # the webhook was deleted in the chat service
    caplog.set_level(logging.INFO)
    outcomes = []
    for number in range(3):
        WebhookPing.objects.create(webhook=webhook, key=f"k{number}", text="Samir, your turn", link="/x/")
        outcomes.append(webhooks.send_pending())
    assert outcomes == [{"failed": 1}, {"failed": 1}, {"disabled": 1}]
    webhook.refresh_from_db()
    assert webhook.disabled_at is not None
    note = Notification.objects.get(user=owner, kind=webhooks.DISABLED_KIND)
    assert "turned off" in note.subject
    assert "HTTP 404" in note.body
    assert receiver.url() not in note.body
    assert receiver.url() not in caplog.text
    assert "s3cr3t" not in caplog.text
    # turned off: a turn pings nothing
    delivery.deliver_pending()
    assert not WebhookPing.objects.filter(state=PingState.PENDING).exists()


def test_a_webhook_that_cannot_be_reached_is_retried_and_its_url_is_not_logged(owner, group, game, caplog):
    _set(owner, group, "http://127.0.0.1:9/api/webhooks/1/s3cr3t-token")  # nothing listens on port 9
    delivery.deliver_pending()
    caplog.set_level(logging.INFO)
    assert webhooks.send_pending() == {"retry": 1}
    ping = WebhookPing.objects.get()
    assert ping.last_error == "ConnectionError"
    assert "s3cr3t" not in caplog.text


def test_the_url_never_appears_in_a_page(client, owner, group, receiver):
    client.force_login(owner)
    page_url = reverse("group_webhook", args=[group.slug])
    response = client.post(page_url, {"do": "save", "kind": "discord", "url": receiver.url()}, follow=True)
    assert response.status_code == 200
    assert GroupWebhook.objects.get(group=group).url == receiver.url()
    for url in (page_url, reverse("group_detail", args=[group.slug])):
        page = client.get(url).content.decode()
        assert "s3cr3t" not in page
        assert receiver.url() not in page
    assert "A Discord webhook is set" in client.get(page_url).content.decode()


@pytest.mark.parametrize("url", ["ftp://example.com/hook", "javascript:alert(1)", "file:///etc/passwd"])
def test_only_http_and_https_urls_are_taken(client, owner, group, url):
    client.force_login(owner)
    response = client.post(
        reverse("group_webhook", args=[group.slug]), {"do": "save", "kind": "json", "url": url}
    )
    assert response.status_code == 200
    assert not GroupWebhook.objects.exists()
    with pytest.raises(webhooks.WebhookError):
        _set(owner, group, url, kind="json")


def test_a_member_who_is_not_an_admin_cannot_set_or_see_it(client, member, group):
    client.force_login(member)
    url = reverse("group_webhook", args=[group.slug])
    assert client.get(url).status_code == 403
    assert client.post(url, {"do": "save", "kind": "json", "url": "https://example.com/h"}).status_code == 403
    assert not GroupWebhook.objects.exists()


def test_an_admin_removes_it(client, owner, group, receiver):
    _set(owner, group, receiver.url())
    client.force_login(owner)
    client.post(reverse("group_webhook", args=[group.slug]), {"do": "remove"})
    assert not GroupWebhook.objects.exists()
