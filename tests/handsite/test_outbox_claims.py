"""The claim every outbox shares (handsite.services.claims): one claimer per pending row, only when due;
a claimed row moves on only while it is still being sent; a row a dead worker left is released; the due
rows come most overdue first. Shown on each outbox model."""

import datetime as dt

import pytest
from django.utils import timezone

from handsite.models import EmailState, Notification, NotificationState, OutgoingEmail
from handsite.push.models import PushDelivery, PushSubscription
from handsite.services import claims
from handsite.webhooks.models import GroupWebhook, WebhookPing

pytestmark = pytest.mark.django_db

NOW = timezone.now()


def _email(**fields):
    fields.setdefault("send_after", NOW - dt.timedelta(minutes=1))
    return OutgoingEmail.objects.create(
        to="a@example.com", from_email="h@example.com", subject="S", body="B", **fields
    )


def test_a_pending_due_row_is_claimed_once_and_its_attempt_counted():
    row = _email(send_after=NOW)
    assert claims.claim(OutgoingEmail, row.pk, NOW) is True
    assert claims.claim(OutgoingEmail, row.pk, NOW) is False
    row.refresh_from_db()
    assert (row.state, row.attempts, row.claimed_at) == (EmailState.SENDING, 1, NOW)


def test_a_row_not_due_yet_is_claimed_only_when_due_is_not_asked():
    row = _email(send_after=NOW + dt.timedelta(minutes=5))
    assert claims.claim(OutgoingEmail, row.pk, NOW) is False
    assert claims.claim(OutgoingEmail, row.pk, NOW, due=False) is True


def test_finishing_moves_only_rows_still_being_sent():
    sending, released = _email(), _email()
    for row in (sending, released):
        claims.claim(OutgoingEmail, row.pk, NOW)
    OutgoingEmail.objects.filter(pk=released.pk).update(state=EmailState.PENDING)
    assert claims.finish(OutgoingEmail, [sending.pk, released.pk], EmailState.SENT, sent_at=NOW) == 1
    assert claims.finish(OutgoingEmail, sending.pk, EmailState.FAILED) == 0
    assert OutgoingEmail.objects.get(pk=sending.pk).state == EmailState.SENT
    assert OutgoingEmail.objects.get(pk=released.pk).state == EmailState.PENDING


def test_a_row_left_sending_past_the_limit_is_released_and_due_again():
    stuck, recent = _email(), _email()
    claims.claim(OutgoingEmail, stuck.pk, NOW - dt.timedelta(hours=1), due=False)
    claims.claim(OutgoingEmail, recent.pk, NOW)
    later = NOW + dt.timedelta(seconds=1)
    assert claims.release_stuck(OutgoingEmail, later, dt.timedelta(minutes=10)) == 1
    assert claims.due_ids(OutgoingEmail, later, 10) == [stuck.pk]


def test_the_due_rows_come_most_overdue_first_up_to_the_limit():
    rows = [_email(send_after=NOW - dt.timedelta(minutes=minutes)) for minutes in (1, 3, 2)]
    _email(send_after=NOW + dt.timedelta(minutes=1))
    assert claims.due_ids(OutgoingEmail, NOW, 10) == [rows[1].pk, rows[2].pk, rows[0].pk]
    assert claims.due_ids(OutgoingEmail, NOW, 2) == [rows[1].pk, rows[2].pk]


def test_every_outbox_model_is_claimed_the_same_way(owner, group):
    notification = Notification.objects.create(user=owner, kind="test_note", subject="Hi", send_after=NOW)
    subscription = PushSubscription.objects.create(
        user=owner, endpoint="https://push.example/1", p256dh="k", auth="a"
    )
    delivery = PushDelivery.objects.create(
        notification=notification, subscription=subscription, send_after=NOW
    )
    webhook = GroupWebhook.objects.create(group=group, url="https://chat.example/hook")
    ping = WebhookPing.objects.create(webhook=webhook, text="Hi", send_after=NOW)
    for model, pk in ((Notification, notification.pk), (PushDelivery, delivery.pk), (WebhookPing, ping.pk)):
        assert claims.claim(model, pk, NOW) is True, model
        assert claims.claim(model, pk, NOW) is False, model
        assert claims.finish(model, pk, "sent") == 1, model
    assert Notification.objects.get(pk=notification.pk).state == NotificationState.SENT
