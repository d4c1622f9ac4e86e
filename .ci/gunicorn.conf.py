"""gunicorn settings for handsite: `gunicorn handsite.wsgi -c .ci/gunicorn.conf.py --workers 4 --bind ...`.

Each worker opens its broker connection as soon as it has loaded the app, instead of on the first
task it queues (on Redis that first publish took 0.8 s, and seconds under load).

Then it freezes what it has loaded (Django, the site's modules, URL and template caches: some 120,000
objects that live as long as the worker) out of the garbage collector's reach: without that, each full
collection walked them all again (about 60 ms each, and half of the collector's time on the moves of
bench/play_bench.py: 6 % of a worker's CPU before, 3 % after).
"""

import gc

# One line per request on stderr (with the error log), with the time, like the site's own lines: who,
# what, the answer's status and size, and how long it took (microseconds).
accesslog = "-"
errorlog = "-"
access_log_format = '%(t)s %(h)s "%(r)s" %(s)s %(b)s %(D)sus "%(f)s" "%(a)s"'


def post_worker_init(worker):
    # Runs in the worker after it loaded handsite.wsgi, so Django is set up.
    from handsite.celery import warm_broker

    warm_broker()
    gc.collect()
    gc.freeze()
