"""Many rows in one statement, for the scans' batches (a VALUES list Django's ORM would build as a CASE
expression per row and column, which costs more than the batch's other work).

:func:`rows` gives the SQL of a row source and its parameters: on PostgreSQL ``SELECT * FROM unnest(...)``
with ONE array parameter per column (the query text and the driver's work do not grow with the rows);
elsewhere (SQLite) a plain ``VALUES (...), (...)`` list.
"""

from __future__ import annotations

from django.db import connection


def rows(fields: list, values: list[list]) -> tuple[str, list]:
    """``fields``: model fields (their column types); ``values``: one list per row, already prepared
    for the database (``field.get_db_prep_save``). Use as ``WITH v (a, b) AS (<sql>)`` or
    ``INSERT INTO t (a, b) <sql>``."""
    if connection.vendor == "postgresql":
        arrays = [f"%s::{field.db_type(connection)}[]" for field in fields]
        return f"SELECT * FROM unnest({', '.join(arrays)})", [
            list(column) for column in zip(*values, strict=True)
        ]
    row = "(" + ", ".join(["%s"] * len(fields)) + ")"
    return "VALUES " + ", ".join([row] * len(values)), [
        value for row_values in values for value in row_values
    ]
