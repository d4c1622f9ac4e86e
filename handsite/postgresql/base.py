"""Django's PostgreSQL backend, with a health check of a kept connection that costs no round trip.

With persistent connections (``DB_CONN_MAX_AGE``) and ``CONN_HEALTH_CHECKS``, Django checks the kept
connection at the first query of every request with ``SELECT 1``: one more round trip for every move
and every poll (an unchanged poll's one query became two). Here the check looks at the connection
instead: closed or in a bad state, it is replaced; when the server said something on the idle
connection unasked — what it does when it closes it: a restart, ``pg_terminate_backend``, an idle
timeout — the socket is readable, and only then ``SELECT 1`` decides. A healthy idle connection has
nothing to read, so the usual request pays nothing.

    DATABASES["default"]["ENGINE"] = "handsite.postgresql"   (handsite/settings.py does it)

It also gives :meth:`DatabaseWrapper.prepared_cursor`, for the few statements the site runs on every
move, whose text is built once per process: PostgreSQL then keeps their plans instead of planning each
execution again.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from django.db.backends.postgresql.psycopg_any import register_tzloader
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

    def prepared_cursor(self):
        """A cursor that binds its parameters on the server (Django's own cursors write them into the
        SQL text on the client, so nothing is ever prepared), logged and error-wrapped like any other.
        psycopg prepares a statement once it ran ``prepare_threshold`` times on this connection (the
        ``OPTIONS`` settings gives it: ``DB_PREPARED_STATEMENTS``; Django's default, None, prepares
        nothing): with a kept connection a move's lock query is then planned once per connection, not
        at every move (a third of its cost), and a connection opened per request (``DB_CONN_MAX_AGE=0``)
        never pays for preparing a statement it runs once. psycopg forgets its statements on a
        ROLLBACK (and tells the server), so a rolled-back test or request leaves none behind.

        Only for SQL whose text is the same at every call (values as parameters), and only where the
        server can tell each parameter's type from its place (a column it is compared with or written
        to, not ``SELECT %s``)."""
        self.close_if_health_check_failed()
        self.ensure_connection()
        with self.wrap_database_errors:
            cursor = base.ServerBindingCursor(self.connection)
            # As Django's create_cursor(): the cursor's time zone when the connection's differs.
            loader = self.connection.adapters.get_loader(base.TIMESTAMPTZ_OID, pq.Format.TEXT)
            if self.timezone != loader.timezone:
                register_tzloader(self.timezone, cursor)
            return self._prepare_cursor(cursor)
