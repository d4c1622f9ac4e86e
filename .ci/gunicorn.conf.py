"""gunicorn settings for handsite: `gunicorn handsite.wsgi -c .ci/gunicorn.conf.py --workers 4 --bind ...`.

Each worker opens its broker connection as soon as it has loaded the app, instead of on the first
task it queues (on Redis that first publish took 0.8 s, and seconds under load).
"""


def post_worker_init(worker):
    # Runs in the worker after it loaded handsite.wsgi, so Django is set up.
    from handsite.celery import warm_broker

    warm_broker()
