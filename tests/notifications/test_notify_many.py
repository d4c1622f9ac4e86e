"""notify_many: a scan's batch of notifications in one query, each still exactly-once and e-mailed once,
its sending queued a chunk of rows per task."""

import datetime as dt

import pytest
from django.core import mail
from django.db import connection
from django.test.utils import CaptureQueriesContext

from handsite import tasks
from handsite.models import Notification, NotificationState
from handsite.services import outbox

pytestmark = pytest.mark.django_db


def rows_for(people, prefix="note"):
    return [
        {"recipient": person.pk, "kind": "test_note", "key": f"{prefix}:{person.pk}", "subject": "Hello"}
        for person in people
    ]


def test_many_notifications_are_one_query(owner, admin, member, django_capture_on_commit_callbacks):
    with CaptureQueriesContext(connection) as captured, django_capture_on_commit_callbacks() as queued:
        ids = outbox.notify_many(rows_for([owner, admin, member]))
    assert len(captured.captured_queries) == 1
    assert len(ids) == 3
    assert sorted(Notification.objects.values_list("user_id", flat=True)) == sorted(
        [owner.pk, admin.pk, member.pk]
    )
    assert len(queued) == 1  # three rows: one sending task


def test_rows_written_before_are_skipped(owner, admin, member):
    first = outbox.notify_many(rows_for([owner, admin]))
    again = outbox.notify_many(rows_for([owner, admin, member]))
    assert len(first) == 2
    assert again == [Notification.objects.get(user=member).pk]
    assert Notification.objects.count() == 3


def test_the_sending_is_queued_a_chunk_of_rows_per_task(
    owner, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(outbox, "SEND_CHUNK", 2)
    rows = [
        {"recipient": owner.pk, "kind": "test_note", "key": f"chunk:{number}", "subject": "Hi"}
        for number in range(5)
    ]
    with django_capture_on_commit_callbacks() as queued:
        outbox.notify_many(rows)
    assert len(queued) == 3  # 2 + 2 + 1


def test_each_row_of_a_chunk_is_emailed_once_however_often_the_task_runs(owner, admin):
    ids = outbox.notify_many(rows_for([owner, admin]))
    assert tasks.send_notifications(ids) == {"sent": 2}
    assert tasks.send_notifications(ids) == {"not_claimed": 2}
    assert sorted(message.to[0] for message in mail.outbox) == sorted([owner.email, admin.email])
    assert set(Notification.objects.values_list("state", flat=True)) == {NotificationState.SENT}


def prepared(values):
    """Parameters as the database gets them (PostgreSQL's JSON adapter compared by what it wraps)."""
    return [getattr(value, "obj", value) for value in values]


FULL_ROW = {
    "recipient": None,
    "kind": "test_note",
    "key": "full:1",
    "topic": "game:7",
    "subject": "Ünïcode — " + "s" * 250,
    "body": "Body\nwith lines",
    "link": "/g/club/7/",
    "data": {"game": 7, "seat": 1, "names": ["Amira", "بدر"], "nested": {"n": None, "f": 1.5}},
    "send_after": dt.datetime(2026, 3, 1, 12, 30, tzinfo=dt.UTC),
}


@pytest.mark.parametrize("shape", ["full", "minimal"])
def test_a_rows_parameters_are_those_of_the_orms_notification(owner, shape):
    row = (
        dict(FULL_ROW, recipient=owner.pk)
        if shape == "full"
        else {
            "recipient": owner.pk,
            "kind": "test_note",
            "key": "min:1",
        }
    )
    now = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    orm = Notification(
        state=NotificationState.PENDING,
        user_id=row["recipient"],
        kind=row["kind"],
        key=row["key"],
        topic=row.get("topic", ""),
        subject=row.get("subject", "")[:200],
        body=row.get("body", ""),
        link=row.get("link", ""),
        data=row.get("data") or {},
        send_after=row.get("send_after") or now,
        created_at=now,
    )
    fields = [f for f in Notification._meta.concrete_fields if not f.primary_key]
    expected = [f.get_db_prep_save(f.pre_save(orm, add=True), connection) for f in fields]
    insert = outbox._NotificationInsert.of(connection)
    got = insert.values(row, state=NotificationState.PENDING, now=now, db=connection)
    assert prepared(got) == prepared(expected)
    assert [type(value) for value in got] == [type(value) for value in expected]


def test_a_stored_row_is_the_one_the_orm_stores(owner, admin):
    now = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    [new_id] = outbox.notify_many([dict(FULL_ROW, recipient=owner.pk)], now=now)
    orm = Notification.objects.create(
        user_id=owner.pk,
        kind=FULL_ROW["kind"],
        key="orm:1",
        topic=FULL_ROW["topic"],
        subject=FULL_ROW["subject"][:200],
        body=FULL_ROW["body"],
        link=FULL_ROW["link"],
        data=FULL_ROW["data"],
        send_after=FULL_ROW["send_after"],
        created_at=now,
    )
    written, made = (Notification.objects.filter(pk=pk).values().get() for pk in (new_id, orm.pk))
    assert written.pop("id") != made.pop("id")
    assert (written.pop("key"), made.pop("key")) == ("full:1", "orm:1")
    assert written == made


def test_the_insert_text_is_built_once_per_number_of_rows(owner, admin):
    insert = outbox._NotificationInsert.of(connection)
    assert insert.sql(1) is insert.sql(1)
    assert insert.sql(3) is insert.sql(3)
    assert insert.sql(1) != insert.sql(3)
    many = outbox.INSERT_ROWS_BUILT + 1
    assert insert.sql(many) == insert.sql(many)  # past the kept sizes: built again, the same text
