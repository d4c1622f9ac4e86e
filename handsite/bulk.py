"""Many rows in one statement, for the scans' batches (a VALUES list Django's ORM would build as a CASE
expression per row and column, which costs more than the batch's other work).

:func:`rows` gives the SQL of a row source and its parameters: a plain ``VALUES (...), (...)`` list,
on PostgreSQL with each placeholder cast to its column's type (``%s::jsonb``), so that the list has
the columns' types wherever it is used (``UPDATE ... FROM (VALUES ...)`` too, where PostgreSQL would
otherwise read text).

Not ``unnest()`` of one array per column: psycopg adapts each element of a text array in Python (over
every game state of the batch), where a plain value goes to libpq as it is.
"""

from __future__ import annotations

from django.db import connection


def rows(fields: list, values: list[list]) -> tuple[str, list]:
    """``fields``: model fields (their column types); ``values``: one list per row, already prepared
    for the database (``field.get_db_prep_save``). Use as ``WITH v (a, b) AS (<sql>)`` or
    ``INSERT INTO t (a, b) <sql>``."""
    if connection.vendor == "postgresql":
        row = "(" + ", ".join(f"%s::{field.db_type(connection)}" for field in fields) + ")"
    else:
        row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return "VALUES " + ", ".join([row] * len(values)), [
        value for row_values in values for value in row_values
    ]
