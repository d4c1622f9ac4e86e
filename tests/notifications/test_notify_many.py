"""notify_many: a scan's batch of notifications in one query, each still exactly-once and e-mailed once,
its sending queued a chunk of rows per task."""

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from handsite import services as site_services
from handsite import tasks
from handsite.models import Notification, NotificationState

pytestmark = pytest.mark.django_db


def rows_for(people, prefix="note"):
    return [
        {"recipient": person.pk, "kind": "test_note", "key": f"{prefix}:{person.pk}", "subject": "Hello"}
        for person in people
    ]


def test_many_notifications_are_one_query(owner, admin, member, django_capture_on_commit_callbacks):
    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks() as queued:
        ids = site_services.notify_many(rows_for([owner, admin, member]))
    assert len(captured.captured_queries) == 1
    assert len(ids) == 3
    assert sorted(Notification.objects.values_list("user_id", flat=True)) == sorted(
        [owner.pk, admin.pk, member.pk]
    )
    assert len(queued) == 1  # three rows: one sending task


def test_rows_written_before_are_skipped(owner, admin, member):
    first = site_services.notify_many(rows_for([owner, admin]))
    again = site_services.notify_many(rows_for([owner, admin, member]))
    assert len(first) == 2
    assert again == [Notification.objects.get(user=member).pk]
    assert Notification.objects.count() == 3


def test_the_sending_is_queued_a_chunk_of_rows_per_task(
    owner, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(site_services, "SEND_CHUNK", 2)
    rows = [
        {"recipient": owner.pk, "kind": "test_note", "key": f"chunk:{number}", "subject": "Hi"}
        for number in range(5)
    ]
    with django_capture_on_commit_callbacks() as queued:
        site_services.notify_many(rows)
    assert len(queued) == 3  # 2 + 2 + 1


def test_each_row_of_a_chunk_is_emailed_once_however_often_the_task_runs(owner, admin):
    ids = site_services.notify_many(rows_for([owner, admin]))
    assert tasks.send_notifications(ids) == {"sent": 2}
    assert tasks.send_notifications(ids) == {"not_claimed": 2}
    assert sorted(message.to[0] for message in mail.outbox) == sorted([owner.email, admin.email])
    assert set(Notification.objects.values_list("state", flat=True)) == {NotificationState.SENT}
