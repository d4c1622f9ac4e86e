"""What ``GET /healthz`` checks for a load balancer: the database answers a query and the Celery broker
takes a connection (Redis answers PING). Reads nothing of the site's own and writes nothing."""

from __future__ import annotations

import logging

from django.db import connections

log = logging.getLogger(__name__)

PARTS = ("database", "broker")


def database_problem() -> str | None:
    """None when the default database answers ``SELECT 1``, else the error's class name."""
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as error:  # any failure to answer is the answer
        return type(error).__name__
    return None


def broker_problem(celery_app=None) -> str | None:
    """None when the broker takes a new connection (and Redis answers PING, so a hung Redis that takes
    connections and never answers fails too, within its socket timeout), else the error's class name.
    A connection of its own, not the pool's: a broken pooled connection must not look healthy."""
    from celery import current_app

    celery_app = celery_app or current_app
    try:
        with celery_app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=0, interval_start=0, timeout=3)
            client = getattr(connection.default_channel, "client", None)
            if client is not None and hasattr(client, "ping"):
                client.ping()
    except Exception as error:  # refused, timed out, wrong password...: the class name says which
        return type(error).__name__
    return None


def problems() -> dict[str, str]:
    """{part: what failed} for the parts that failed; empty when all is well. Each failure is logged."""
    found = {}
    for part, check in (("database", database_problem), ("broker", broker_problem)):
        problem = check()
        if problem is not None:
            found[part] = problem
            log.warning("health check: the %s failed (%s)", part, problem)
    return found
