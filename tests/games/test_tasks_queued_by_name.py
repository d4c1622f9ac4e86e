"""The services queue games' Celery tasks by name (the tasks import the services, never the reverse):
the name they use is the registered task's, in the web process as in a worker."""

from celery import current_app

from games import tasks
from games.services import saving


def test_the_result_task_is_queued_by_the_name_it_is_registered_under():
    assert tasks.record_online_result.name == saving.RECORD_RESULT_TASK
    assert current_app.tasks[saving.RECORD_RESULT_TASK] is tasks.record_online_result._get_current_object()
