"""The Celery app. Configuration lives in settings (CELERY_* names), including the beat schedule."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "handsite.settings")

app = Celery("handsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _make_broker_folders(sender, **kwargs):
    """The embedded filesystem broker needs its folders to exist before anyone sends a message."""
    from pathlib import Path

    options = sender.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "control_folder"):
        if options.get(key):
            Path(options[key]).mkdir(parents=True, exist_ok=True)


def warm_broker(celery_app: Celery | None = None) -> bool:
    """Open one broker connection now and put it back in the pool, so the first task a web worker
    queues does not pay for connecting (seconds on a loaded Redis; the README has the figures). Called
    from gunicorn's post_worker_init hook (.ci/gunicorn.conf.py).

    Never raises: if the broker is down the worker still starts (a move's publish failure is handled
    where it happens, and beat sends what is pending). Does nothing in eager mode, where no message
    is ever sent. Returns True when a connection was opened.
    """
    import logging

    celery_app = celery_app or app
    if celery_app.conf.task_always_eager:
        return False
    try:
        with celery_app.producer_or_acquire() as producer:
            # One attempt, no sleeping retries; connect itself is bounded by broker_connection_timeout.
            producer.connection.ensure_connection(max_retries=0, interval_start=0, timeout=5)
    except Exception as exc:  # a broker outage must never stop a web worker starting
        # The transport name and the error class only: the broker URL may carry a password, and some
        # error messages repeat the URL.
        transport = str(celery_app.conf.broker_url or "").split("://", 1)[0] or "unknown"
        logging.getLogger(__name__).warning(
            "Could not open a %s broker connection at worker start (%s); the first task will connect.",
            transport,
            type(exc).__name__,
        )
        return False
    return True
