"""Services queue Celery tasks by name (handsite.services.task_queue), never importing a tasks module:
every name they use is a registered task, and a task queued by name runs as the task itself would."""

import ast
import re

import pytest
from django.core import mail

from handsite.celery import app as celery_app
from handsite.models import EmailState, OutgoingEmail
from handsite.services import task_queue
from tests.support import ROOT

QUEUEING = ("queue_now", "queue_after_commit")


def _names_queued_in(path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if (
            isinstance(node, ast.Call)
            and getattr(node.func, "id", getattr(node.func, "attr", "")) in QUEUEING
        ):
            first = node.args[0] if node.args else None
            assert isinstance(first, ast.Constant), (
                f"{path}:{node.lineno} queues a name that is not written out"
            )
            names.append(first.value)
    return names


def test_every_task_name_a_service_queues_is_a_registered_task():
    sources = [
        *sorted((ROOT / "handsite" / "services").glob("*.py")),
        ROOT / "handsite" / "push" / "services.py",
        ROOT / "handsite" / "webhooks" / "services.py",
    ]
    queued = {name for path in sources for name in _names_queued_in(path)}
    assert {"handsite.tasks.send_email", "handsite.tasks.send_notification"} <= queued
    assert queued - set(celery_app.tasks) == set()


def test_no_service_module_imports_a_tasks_module():
    sources = [
        *sorted((ROOT / "handsite" / "services").glob("*.py")),
        ROOT / "handsite" / "push" / "services.py",
    ]
    sources.append(ROOT / "handsite" / "webhooks" / "services.py")
    importing = [str(path.relative_to(ROOT)) for path in sources if re.search(r"\btasks\b", _imports(path))]
    assert importing == []


def _imports(path) -> str:
    return " ".join(
        ast.unparse(node)
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, (ast.Import, ast.ImportFrom))
    )


@pytest.mark.django_db
def test_a_task_queued_by_name_after_the_commit_runs_then_and_not_before(django_capture_on_commit_callbacks):
    row = OutgoingEmail.objects.create(to="a@example.com", from_email="h@example.com", subject="Hi", body="B")
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        task_queue.queue_after_commit("handsite.tasks.send_email", row.pk)
        assert len(mail.outbox) == 0  # not before the commit
    assert len(callbacks) == 1
    row.refresh_from_db()
    assert row.state == EmailState.SENT
    assert [message.to for message in mail.outbox] == [["a@example.com"]]


def test_a_name_that_is_no_task_is_refused_rather_than_sent_blind():
    with pytest.raises(KeyError):
        task_queue.queue_now("handsite.tasks.no_such_task")
