"""The JSON columns of the statements a move runs (the lock query's reads, the game UPDATE, the move log
and outbox INSERTs), encoded and decoded with orjson instead of the standard library's json: a game's
state is read and written at every move, and json took 20-50 us for each (orjson 2-20).

Same values as Django's ``JSONField`` gives, or the field's own code runs:

- :func:`reader` is ``JSONField.from_db_value`` with ``orjson.loads``; whatever orjson refuses (NaN,
  Infinity, a lone surrogate, a value that is not text) goes to the field's own ``from_db_value``. Not
  for a field with a ``decoder``. orjson reads an integer past 64 bits as a float where json keeps an
  int: the columns read this way hold none (the engine's numbers are card ids, points and 63-bit
  seeds; the services' are ids and counts), and they are written by :func:`saver`, which hands any
  such integer to json.
- :func:`saver` is ``JSONField.get_db_prep_save`` on PostgreSQL with ``orjson.dumps`` for a plain dict
  or list; anything orjson would write differently from json goes to json (a subclass of str, int, dict
  or list, such as a TextChoices value; a dict with keys that are not strings; an integer past 64 bits;
  a date, a dataclass: json refuses those as before), and any other value to the field's own code. One
  difference: a float NaN or infinity, which json writes as ``NaN`` / ``Infinity`` and PostgreSQL then
  refuses (the write failed), orjson writes as null (the columns hold no floats at all). The
  text differs from json's (no spaces, UTF-8 instead of \\u escapes), which a ``jsonb`` column does not
  keep: it stores the parsed value. On SQLite, which stores the text, and for a field with an
  ``encoder``, the field's own code runs: the stored text stays json's.
"""

from __future__ import annotations

import json

import orjson
from django.db.models import JSONField

_DUMP_OPTIONS = (
    orjson.OPT_PASSTHROUGH_SUBCLASS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS
)
"""Types orjson would write on its own where json writes them otherwise or refuses them: handed to
:func:`_refuse`, so that json decides."""


def _refuse(value):
    raise TypeError(f"{type(value).__name__}: left to json")


def dumps(value) -> bytes | str:
    """The JSON text of ``value``: orjson's, else (see the module) json's."""
    try:
        return orjson.dumps(value, default=_refuse, option=_DUMP_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        return json.dumps(value)


def reader(field):
    """A database converter for ``field`` (a JSONField without a decoder) in place of its own
    ``from_db_value``, else None (keep the field's)."""
    if not isinstance(field, JSONField) or field.decoder is not None:
        return None
    if type(field).from_db_value is not JSONField.from_db_value:
        return None
    own = field.from_db_value

    def from_db_value(value, expression, connection):
        if value is None:
            return value
        try:
            return orjson.loads(value)
        except (orjson.JSONDecodeError, TypeError):
            return own(value, expression, connection)  # its json.loads, or the text when not JSON

    return from_db_value


def saver(field, connection):
    """``field.get_db_prep_save`` (called ``(value, connection)``), through orjson for a JSONField
    without an encoder on PostgreSQL."""
    own = field.get_db_prep_save
    if (
        connection.vendor != "postgresql"
        or not isinstance(field, JSONField)
        or field.encoder is not None
        or type(field).get_db_prep_save is not JSONField.get_db_prep_save
        or type(field).get_db_prep_value is not JSONField.get_db_prep_value
        or type(field).get_prep_value is not JSONField.get_prep_value
    ):
        return own
    from psycopg.types.json import Jsonb

    def get_db_prep_save(value, connection):
        if type(value) is dict or type(value) is list:
            return Jsonb(value, dumps=dumps)  # as the backend's adapt_json_value, with orjson's text
        return own(value, connection)

    return get_db_prep_save
