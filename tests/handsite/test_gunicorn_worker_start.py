"""A gunicorn worker, once it has loaded the site, freezes what it loaded out of the collector's reach."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import gc, runpy
import django
django.setup()
import handsite.wsgi  # what a gunicorn worker loads before post_worker_init
config = runpy.run_path(".ci/gunicorn.conf.py")
before = gc.get_freeze_count()
config["post_worker_init"](None)
print(before, gc.get_freeze_count(), len(gc.get_objects()))
"""


def test_the_worker_hook_freezes_the_loaded_site_and_leaves_few_objects_to_collect():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "handsite.settings", "CELERY_TASK_ALWAYS_EAGER": "1"}
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    before, frozen, tracked = map(int, result.stdout.split())
    assert frozen - before > 20_000  # Django and the site's modules
    assert tracked < frozen / 10  # what the collector still walks
