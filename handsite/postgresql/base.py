"""Django's PostgreSQL backend, with a health check of a kept connection that costs no round trip.

With persistent connections (``DB_CONN_MAX_AGE``) and ``CONN_HEALTH_CHECKS``, Django checks the kept
connection at the first query of every request with ``SELECT 1``: one more round trip for every move
and every poll (an unchanged poll's one query became two). Here the check looks at the connection
instead: closed or in a bad state, it is replaced; when the server said something on the idle
connection unasked — what it does when it closes it: a restart, ``pg_terminate_backend``, an idle
timeout — the socket is readable, and only then ``SELECT 1`` decides. A healthy idle connection has
nothing to read, so the usual request pays nothing.

    DATABASES["default"]["ENGINE"] = "handsite.postgresql"   (handsite/settings.py does it)
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        raw = self.connection
        if raw is None or raw.closed or raw.info.status != pq.ConnStatus.OK:
            return False
        if raw.info.transaction_status not in (pq.TransactionStatus.IDLE, pq.TransactionStatus.INTRANS):
            return super().is_usable()  # a failed or unknown transaction state: as Django checks it
        try:
            readable, _writable, _failed = select.select([raw.fileno()], [], [], 0)
        except (OSError, ValueError):
            return False
        if readable:  # the server spoke first (it closed the connection?): ask it
            return super().is_usable()
        return True
