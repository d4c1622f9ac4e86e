"""What an operator needs from the site itself: tables that only grow are cleaned by beat (expired
sessions, notifications past their retention), the admin shows the outbox with "send again", and
`createsuperuser` asks for the e-mail address alone."""

import datetime as dt
import io

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from handsite import tasks
from handsite.models import EmailState, Notification, NotificationState, OutgoingEmail, User

pytestmark = pytest.mark.django_db


def _notification(user, state, days_ago, **fields):
    return Notification.objects.create(
        user=user,
        kind="notice",  # no kind registered: e-mailed always, subject and body as written
        key=f"{state}-{days_ago}-{fields.get('subject', '')}",
        subject=fields.pop("subject", "Hello"),
        body="Body",
        state=state,
        created_at=timezone.now() - dt.timedelta(days=days_ago),
        **fields,
    )


def test_beat_runs_both_cleanups_daily_on_the_scans_queue():
    tasks_in_beat = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {
        "handsite.tasks.purge_expired_sessions",
        "handsite.tasks.purge_old_notifications",
    } <= tasks_in_beat
    for name in ("purge_expired_sessions", "purge_old_notifications"):
        assert settings.CELERY_TASK_ROUTES[f"handsite.tasks.{name}"] == {"queue": "scans"}


def test_expired_sessions_are_deleted_and_live_ones_kept(client, member):
    client.force_login(member)
    live = client.session.session_key
    Session.objects.create(
        session_key="x" * 32, session_data="", expire_date=timezone.now() - dt.timedelta(1)
    )
    tasks.purge_expired_sessions()
    assert list(Session.objects.values_list("session_key", flat=True)) == [live]


def test_sent_notifications_past_the_retention_are_deleted_and_waiting_or_failed_ones_kept(member, settings):
    settings.HANDSITE_NOTIFICATION_RETENTION_DAYS = 90
    old_sent = _notification(member, NotificationState.SENT, 91)
    old_skipped = _notification(member, NotificationState.SKIPPED, 91)
    recent_sent = _notification(member, NotificationState.SENT, 89)
    old_pending = _notification(member, NotificationState.PENDING, 91)
    old_failed = _notification(member, NotificationState.FAILED, 91, last_error="SMTP said no")
    assert tasks.purge_old_notifications() == 2
    left = set(Notification.objects.values_list("pk", flat=True))
    assert left == {recent_sent.pk, old_pending.pk, old_failed.pk}
    assert old_sent.pk not in left
    assert old_skipped.pk not in left


def test_the_retention_is_a_setting_with_a_default_of_90_days():
    from handsite.env import env_int

    assert env_int("HANDSITE_NOTIFICATION_RETENTION_DAYS", 90, minimum=1, environ={}) == 90
    assert settings.HANDSITE_NOTIFICATION_RETENTION_DAYS == 90


@pytest.fixture
def staff(db):
    return User.objects.create_superuser(email="ops@example.com", password="ops-password-1")


def test_the_admin_lists_the_outbox_with_state_attempts_and_last_error(staff, member):
    failed = _notification(member, NotificationState.FAILED, 0, subject="Your turn", attempts=3)
    Notification.objects.filter(pk=failed.pk).update(last_error="SMTPServerDisconnected: gone")
    client = Client()
    client.force_login(staff)
    page = client.get(reverse("admin:handsite_notification_changelist"))
    assert page.status_code == 200
    html = page.content.decode()
    assert "SMTPServerDisconnected: gone" in html
    assert "Could not be sent" in html
    assert '<td class="field-attempts">3</td>' in html


def test_send_again_puts_a_failed_notification_back_and_it_leaves_once(
    staff, member, django_capture_on_commit_callbacks
):
    failed = _notification(member, NotificationState.FAILED, 0, subject="Your turn", link="/")
    pending = _notification(member, NotificationState.PENDING, 0, subject="Waiting")
    Notification.objects.filter(pk=pending.pk).update(send_after=timezone.now() + dt.timedelta(hours=1))
    client = Client()
    client.force_login(staff)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:handsite_notification_changelist"),
            {"action": "send_again", "_selected_action": [failed.pk, pending.pk]},
            follow=True,
        )
    assert "1 notification is queued to be sent again." in response.content.decode()
    failed.refresh_from_db()
    assert failed.state == NotificationState.SENT
    assert [message.to for message in mail.outbox] == [[member.email]]
    pending.refresh_from_db()
    assert pending.state == NotificationState.PENDING  # left alone: it leaves with the sweep


def test_createsuperuser_asks_for_the_e_mail_address_alone_and_that_logs_in_to_the_admin(monkeypatch):
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-long-ops-password-9")
    out = io.StringIO()
    call_command("createsuperuser", "--noinput", "--email", "boss@example.com", stdout=out)
    boss = User.objects.get(email="boss@example.com")
    assert boss.is_superuser
    assert boss.username == "boss@example.com"
    client = Client()
    response = client.post(
        reverse("admin:login"),
        {"username": "boss@example.com", "password": "a-long-ops-password-9", "next": "/admin/"},
    )
    assert response.status_code == 302
    assert client.get("/admin/").status_code == 200


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_createsuperuser_interactive_prompts_for_no_username(monkeypatch):
    prompts = []

    def answer(prompt=""):
        prompts.append(prompt)
        return "boss2@example.com"

    monkeypatch.setattr("builtins.input", answer)
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "a-long-ops-password-9")
    call_command("createsuperuser", interactive=True, stdout=io.StringIO(), stdin=_Terminal())
    assert len(prompts) == 1
    assert "mail" in prompts[0].lower()
    assert User.objects.get(email="boss2@example.com").is_superuser


def test_the_admin_adds_a_person_with_the_e_mail_address_alone(staff):
    client = Client()
    client.force_login(staff)
    response = client.post(
        reverse("admin:handsite_user_add"),
        {
            "email": "new@example.com",
            "usable_password": "true",
            "password1": "a-long-new-password-5",
            "password2": "a-long-new-password-5",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert User.objects.get(email="new@example.com").username == "new@example.com"


def test_every_setting_the_code_reads_from_the_environment_is_in_the_readme_table():
    import re

    from tests.support import ROOT

    read = set()
    for app in ("handsite", "games", "scoring"):
        for path in (ROOT / app).rglob("*.py"):
            read |= set(
                re.findall(r"env_(?:str|int|bool|list|choice|url)\(\s*\"([A-Z_]+)\"", path.read_text())
            )
    table = (ROOT / "README.md").read_text().split("## Configuration", 1)[1].split("\n## ", 1)[0]
    assert "TIME_ZONE" in read
    assert sorted(name for name in read if f"`{name}`" not in table) == []


def test_the_admin_lists_the_email_outbox_and_sends_a_failed_email_again_once(
    staff, django_capture_on_commit_callbacks
):
    failed = OutgoingEmail.objects.create(
        to="lina@example.com",
        from_email="Hand <noreply@localhost>",
        subject="Confirm your address",
        body="Open https://hand.example/confirm/secret-key/",
        purpose="account/email/email_confirmation",
        state=EmailState.FAILED,
        attempts=6,
        last_error="SMTPServerDisconnected: gone",
    )
    sent = OutgoingEmail.objects.create(
        to="karim@example.com",
        from_email="x",
        subject="s",
        body="b",
        purpose="invitation",
        state=EmailState.SENT,
    )
    client = Client()
    client.force_login(staff)
    listed = client.get(reverse("admin:handsite_outgoingemail_changelist")).content.decode()
    assert "SMTPServerDisconnected: gone" in listed
    assert "lina@example.com" in listed
    assert (
        "secret-key" not in client.get(reverse("admin:handsite_outgoingemail_change", args=[failed.pk])).text
    )
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:handsite_outgoingemail_changelist"),
            {"action": "send_again", "_selected_action": [failed.pk, sent.pk]},
            follow=True,
        )
    assert "1 e-mail is queued to be sent again." in response.content.decode()
    failed.refresh_from_db()
    assert failed.state == EmailState.SENT
    assert [message.to for message in mail.outbox] == [["lina@example.com"]]  # the sent one is not resent
