"""Outages lose nothing and answer at once, with real services the tests start: an SMTP stand-in on
127.0.0.1 (answering, hanging, or a port where nothing listens) and a redis-server of the test's own
(stopped and started again). Every e-mail that is not a notification (allauth's, invitations) goes
through the outbox (OutgoingEmail) and a Celery task; a game's result for the standings is recorded
with the move (QueuedTask); the beat scans send and queue whatever the broker missed."""

from __future__ import annotations

import datetime as dt
import statistics
import time

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Game, GameStatus
from games.services import leaving, seating
from handsite.celery import warm_broker
from handsite.models import EmailState, Invitation, OutgoingEmail, QueuedTask, User
from handsite.services import email_outbox, task_queue
from scoring.models import OnlineResult
from tests.celery.conftest import OwnRedis, celery_app_on, wait_for_mail, worker
from tests.factories import PASSWORD, MembershipFactory, PlayerGroupFactory, UserFactory
from tests.smtp_standin import mailers_at, refusing_port, smtp_standin

FAST = 3.0  # seconds: an answer, not a wait for the mail server (it hangs 10 s here) or the broker
SIGN_UP = {"email": "nour@example.com", "display_name": "Nour", "password1": PASSWORD, "password2": PASSWORD}


@pytest.fixture
def broker():
    """A running Redis of the test's own as the broker, with no worker: what a page queues waits there."""
    server = OwnRedis()
    server.start()
    try:
        with celery_app_on(server.url) as app:
            app.conf.broker_transport_options = {"socket_connect_timeout": 1, "socket_timeout": 1}
            warm_broker(app)  # as gunicorn's worker start does: the first publish does not pay for connecting
            Client().get(reverse("account_signup"))  # and the pages' code is loaded, as in a running site
            yield server, app
    finally:
        server.stop()


def _timed(call):
    start = time.monotonic()
    result = call()
    return result, time.monotonic() - start


@pytest.mark.django_db(transaction=True)
def test_sign_up_answers_at_once_while_the_mail_server_hangs_and_the_email_goes_when_it_answers(
    broker, settings
):
    with smtp_standin("hanging") as hanging:
        settings.MAILERS = hanging.mailers(timeout=10)
        response, seconds = _timed(lambda: Client().post(reverse("account_signup"), SIGN_UP))
        assert response.status_code == 302
        assert seconds < FAST  # the request never spoke to the mail server
        # the account is whole: the user, their address, and they can log in
        user = User.objects.get(email="nour@example.com")
        assert user.name == "Nour"
        assert EmailAddress.objects.filter(user=user, email="nour@example.com").exists()
        assert (
            Client().post(reverse("account_login"), {"login": user.email, "password": PASSWORD}).status_code
            == 302
        )
        (row,) = OutgoingEmail.objects.filter(to="nour@example.com")
        assert (row.state, row.attempts, row.purpose) == (EmailState.PENDING, 0, "email_confirmation_signup")

        settings.MAILERS = hanging.mailers(timeout=1)
        assert email_outbox.send_email(row.pk) == "retry"  # what the worker does: the hang times out
    row.refresh_from_db()
    assert (row.state, row.attempts) == (EmailState.PENDING, 1)
    assert "timed out" in row.last_error.lower() or "timeout" in row.last_error.lower()
    assert row.send_after > timezone.now()  # retried later, not at once

    with smtp_standin("answering") as answering:
        settings.MAILERS = answering.mailers()
        assert email_outbox.send_email(row.pk) == "not_claimed"  # not due yet
        assert email_outbox.send_email(row.pk, now=row.send_after + dt.timedelta(seconds=1)) == "sent"
        assert email_outbox.send_email(row.pk, now=row.send_after + dt.timedelta(hours=1)) == "not_claimed"
    row.refresh_from_db()
    assert (row.state, row.attempts, row.last_error) == (EmailState.SENT, 2, "")
    (message,) = answering.messages
    assert message["To"] == "nour@example.com"
    assert "/accounts/confirm-email/" in message.get_body(("plain",)).get_content()


@pytest.mark.django_db(transaction=True)
def test_password_reset_answers_at_once_while_the_mail_server_is_down_and_the_row_says_why(broker, settings):
    member = UserFactory(email="mona@example.com")
    settings.MAILERS = mailers_at(refusing_port())
    response, seconds = _timed(
        lambda: Client().post(reverse("account_reset_password"), {"email": member.email})
    )
    assert response.status_code == 302
    assert seconds < FAST
    (row,) = OutgoingEmail.objects.all()
    assert row.purpose == "password_reset_key"
    assert email_outbox.send_email(row.pk) == "retry"
    row.refresh_from_db()
    assert row.state == EmailState.PENDING
    assert "ConnectionRefusedError" in row.last_error


@pytest.mark.django_db(transaction=True)
def test_a_500_page_answers_at_once_while_the_mail_server_hangs_and_the_error_report_waits_in_the_outbox(
    broker, settings
):
    settings.ROOT_URLCONF = "tests.error_urls"
    settings.ADMINS = ["ops@example.com"]
    with smtp_standin("hanging") as hanging:
        settings.MAILERS = hanging.mailers(timeout=10)
        response, seconds = _timed(lambda: Client(raise_request_exception=False).get("/broken-for-tests/"))
    assert response.status_code == 500
    assert seconds < FAST
    (row,) = OutgoingEmail.objects.filter(purpose="error report")
    assert row.to == "ops@example.com"
    assert "RuntimeError" in row.body
    assert row.state == EmailState.PENDING


@pytest.mark.django_db
def test_a_send_that_keeps_failing_is_marked_failed_with_its_error(settings, member, mailoutbox):
    settings.MAILERS = mailers_at(refusing_port())
    with_row = email_outbox.queue_email(
        mail.EmailMessage("Hi", "Body", None, ["x@example.com"]), purpose="test"
    )
    row = with_row[0]
    now = timezone.now()
    outcomes = []
    for _ in range(email_outbox.EMAIL_MAX_ATTEMPTS):
        outcomes.append(email_outbox.send_email(row.pk, now=now))
        row.refresh_from_db()
        now = row.send_after + dt.timedelta(seconds=1)
    assert outcomes == ["retry"] * (email_outbox.EMAIL_MAX_ATTEMPTS - 1) + ["failed"]
    assert (row.state, row.attempts) == (EmailState.FAILED, email_outbox.EMAIL_MAX_ATTEMPTS)
    assert "ConnectionRefusedError" in row.last_error
    assert email_outbox.pending_email_ids(now + dt.timedelta(days=1)) == []


@pytest.mark.django_db
def test_a_row_left_sending_by_a_stopped_worker_is_sent_by_a_later_sweep(mailoutbox):
    (row,) = email_outbox.queue_email(
        mail.EmailMessage("Hi", "Body", None, ["x@example.com"]), purpose="test"
    )
    OutgoingEmail.objects.filter(pk=row.pk).update(
        state=EmailState.SENDING, claimed_at=timezone.now() - dt.timedelta(hours=1), attempts=1
    )
    assert email_outbox.pending_email_ids() == [row.pk]
    assert email_outbox.queue_pending_emails() == 1  # eager in unit tests: sent at once
    assert len(mailoutbox) == 1
    assert OutgoingEmail.objects.get(pk=row.pk).state == EmailState.SENT


def _played_out(group, owner, guest) -> Game:
    """A game of two played to its end by bots (both seats handed over): deals end, results are due."""
    game = seating.create_game(
        group=group, created_by=owner, variant="classic", options=None, seats=[owner, guest], seed=2024
    )
    seating.accept_seat(game_id=game.pk, user=guest)
    leaving.hand_seat_to_bot(game_id=game.pk, number=1)
    leaving.hand_seat_to_bot(game_id=game.pk, number=0)
    return Game.objects.get(pk=game.pk)


@pytest.mark.django_db(transaction=True)
def test_with_redis_stopped_a_finished_game_and_an_invitation_wait_in_the_database_and_go_once_it_is_back(
    broker, settings
):
    server, app = broker
    group = PlayerGroupFactory()
    owner = MembershipFactory(group=group, role="owner").user
    guest = MembershipFactory(group=group).user
    server.stop()

    game, seconds = _timed(lambda: _played_out(group, owner, guest))
    assert game.status == GameStatus.FINISHED
    assert seconds < 10  # each failed publish gives up at once (the bots played the whole game)
    browser = Client()
    browser.force_login(owner)
    response, seconds = _timed(
        lambda: browser.post(
            reverse("group_invite_email", args=[group.slug]), {"email": "friend@example.com"}
        )
    )
    assert response.status_code == 302
    assert seconds < FAST + 1
    assert Invitation.objects.filter(email="friend@example.com").exists()
    # nothing was lost: both wait in the database
    assert not OnlineResult.objects.filter(game_id=game.pk).exists()
    assert QueuedTask.objects.filter(task="games.tasks.record_online_result", args=[game.pk]).exists()
    (row,) = OutgoingEmail.objects.filter(to="friend@example.com")
    assert row.state == EmailState.PENDING

    server.start()
    with worker(app):
        # beat's minute: the outbox sweep, and the scan of recorded tasks (as if two minutes had passed)
        assert email_outbox.queue_pending_emails() == 1
        assert task_queue.requeue_tasks(now=timezone.now() + dt.timedelta(minutes=3)) >= 1
        wait_for_mail(1)
        deadline = time.monotonic() + 30
        while QueuedTask.objects.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        # later sweeps find nothing left
        time.sleep(0.5)
        assert email_outbox.queue_pending_emails() == 0
        assert task_queue.requeue_tasks(now=timezone.now() + dt.timedelta(minutes=10)) == 0
        time.sleep(0.5)
    assert OnlineResult.objects.filter(game_id=game.pk).exists()  # the standings have the game
    assert not QueuedTask.objects.exists()
    assert [m.to for m in mail.outbox] == [["friend@example.com"]]  # the invitation went, once
    assert OutgoingEmail.objects.get(pk=row.pk).state == EmailState.SENT


@pytest.mark.django_db
def test_a_result_recorded_with_the_move_is_done_by_its_task_and_then_forgotten(
    django_capture_on_commit_callbacks,
):
    group = PlayerGroupFactory()
    owner = MembershipFactory(group=group, role="owner").user
    guest = MembershipFactory(group=group).user
    with django_capture_on_commit_callbacks(execute=True):
        game = _played_out(group, owner, guest)
    assert OnlineResult.objects.filter(game_id=game.pk).exists()
    assert not QueuedTask.objects.exists()


@pytest.mark.django_db
def test_an_account_email_is_in_the_accounts_language_not_the_browsers(
    client, member, mailoutbox, django_capture_on_commit_callbacks
):
    User.objects.filter(pk=member.pk).update(language="ar")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("account_reset_password"), {"email": member.email}, HTTP_ACCEPT_LANGUAGE="en"
        )
    assert response.status_code == 302
    assert "Password" in client.get(reverse("account_login"), HTTP_ACCEPT_LANGUAGE="en").text  # page: English
    (message,) = mailoutbox
    assert "إعادة" in message.subject or "كلمة" in message.subject or "كلمة المرور" in message.body
    assert "You're receiving this" not in message.body


@pytest.mark.django_db
def test_a_sign_up_email_is_in_the_language_chosen_on_the_form(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account_signup"), {**SIGN_UP, "language": "ar"}, HTTP_ACCEPT_LANGUAGE="en")
    (message,) = [m for m in mailoutbox if "nour@example.com" in m.to]
    assert "تأكيد" in message.subject or "تأكيد" in message.body


@pytest.mark.django_db
def test_a_sign_up_email_is_in_english_when_chosen_on_an_arabic_page(
    client, mailoutbox, django_capture_on_commit_callbacks
):
    client.cookies["django_language"] = "ar"  # the footer's choice: the form is shown in Arabic
    assert '<html lang="ar"' in client.get(reverse("account_signup")).text
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("account_signup"), {**SIGN_UP, "language": "en"}, HTTP_ACCEPT_LANGUAGE="ar")
    (message,) = [m for m in mailoutbox if "nour@example.com" in m.to]
    assert "Confirm" in message.subject or "confirm" in message.body
    assert "تأكيد" not in message.subject + message.body


@pytest.mark.django_db
def test_sign_up_takes_as_long_for_a_known_address_as_for_a_new_one(settings, member):
    """Real password hashing (the test suite's is MD5): a known address hashed nothing and answered in
    0.026 s against 1.14 s. A cheaper PBKDF2 keeps the test short while the hash still dominates."""
    settings.PASSWORD_HASHERS = ["tests.handsite.test_outages_lose_nothing.MeasuredHasher"]
    known, new = [], []
    for i in range(5):
        _response, seconds = _timed(
            lambda i=i: Client().post(reverse("account_signup"), {**SIGN_UP, "email": f"new{i}@example.com"})
        )
        new.append(seconds)
        _response, seconds = _timed(
            lambda: Client().post(reverse("account_signup"), {**SIGN_UP, "email": member.email})
        )
        known.append(seconds)
    assert User.objects.filter(email__startswith="new").count() == 5
    assert statistics.median(known) > 0.6 * statistics.median(new), (known, new)


from django.contrib.auth.hashers import PBKDF2PasswordHasher  # noqa: E402


class MeasuredHasher(PBKDF2PasswordHasher):
    iterations = 200_000
