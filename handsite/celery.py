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
