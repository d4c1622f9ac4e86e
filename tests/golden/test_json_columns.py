"""The JSON columns a move reads and writes go through orjson (handsite/fastjson.py): every golden game's
state, its moves and options read back as json reads them (same keys in the same order, ints as ints)
and round-trip through the engine identically; what orjson would write otherwise is left to json."""

import dataclasses
import datetime as dt
import enum
import json
import math
from pathlib import Path

import pytest
from django.db import connection, models

from games import engine
from games.models import Game, Move, Seat
from handsite import fastjson
from handsite.models import Notification

HERE = Path(__file__).resolve().parent
GOLDEN = sorted(HERE.glob("*.json"))
JSON_FIELDS = [
    Game._meta.get_field("state"),
    Game._meta.get_field("options"),
    Game._meta.get_field("staged"),
    Seat._meta.get_field("hand_order"),
    Move._meta.get_field("action"),
    Notification._meta.get_field("data"),
]


def exactly(value):
    """A picture of a value that tells 1 from 1.0 and True and keeps the keys' order."""
    return json.dumps(value, ensure_ascii=False)


def texts_of(record):
    """The record's JSON values as a database gives them back: json's text, and orjson's."""
    values = [record["state"], record["options"], *record["moves"]]
    for value in values:
        yield value, json.dumps(value)
        yield value, fastjson.dumps(value).decode()


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_a_golden_games_json_reads_back_as_json_reads_it(path):
    record = json.loads(path.read_text())
    reader = fastjson.reader(Game._meta.get_field("state"))
    for value, text in texts_of(record):
        read = reader(text, None, connection)
        assert exactly(read) == exactly(json.loads(text)) == exactly(value)


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_a_golden_state_round_trips_through_orjson_and_the_engine_identically(path):
    record = json.loads(path.read_text())
    reader = fastjson.reader(Game._meta.get_field("state"))
    text = fastjson.dumps(record["state"])
    state = engine.from_json(reader(text.decode(), None, connection))
    state_json = engine.to_json(state)
    assert exactly(state_json) == exactly(engine.to_json(engine.from_json(record["state"])))
    assert state_json == record["state"]
    again = reader(fastjson.dumps(state_json).decode(), None, connection)
    assert exactly(again) == exactly(state_json)  # the same keys in the same order, ints as ints


class Colour(models.TextChoices):
    RED = "red"


class Size(enum.IntEnum):
    BIG = 3


@dataclasses.dataclass
class Point:
    x: int


@pytest.mark.parametrize(
    "value",
    [
        {"a": 1, "b": [1, 2.5, -0.0, True, None, "é ♦ \u2066"], "c": {"d": []}},
        [1, 2**63 - 1, -(2**63), 2**64 - 1],
        {"big": 2**64, "negative": -(2**63) - 1},  # past 64 bits: json's text
        {"colour": Colour.RED, "size": Size.BIG},  # subclasses of str and int: json's text
        {1: "int key", None: "none key"},  # keys that are not strings: json's text
        ("a", "tuple"),
        {"b": 2, "a": 1},
    ],
)
def test_what_orjson_writes_reads_back_as_what_json_writes(value):
    ours, theirs = fastjson.dumps(value), json.dumps(value)
    assert exactly(json.loads(ours)) == exactly(json.loads(theirs))


def test_a_float_nan_or_infinity_is_written_as_null_where_json_wrote_what_postgresql_refuses():
    assert json.dumps({"nan": math.nan, "inf": -math.inf}) == '{"nan": NaN, "inf": -Infinity}'
    assert json.loads(fastjson.dumps({"nan": math.nan, "inf": -math.inf})) == {"nan": None, "inf": None}


@pytest.mark.parametrize("value", [{"when": dt.datetime(2026, 1, 1)}, {"point": Point(1)}, {"s": {1}}])
def test_what_json_refuses_orjson_does_not_write_either(value):
    with pytest.raises(TypeError):
        json.dumps(value)
    with pytest.raises(TypeError):
        fastjson.dumps(value)


@pytest.mark.parametrize("text", ["NaN", '{"a": Infinity}', '"\\ud800"', "not json", "", "[1, 2"])
def test_text_orjson_refuses_is_read_by_the_fields_own_code(text):
    field = Game._meta.get_field("state")
    assert repr(fastjson.reader(field)(text, None, connection)) == repr(
        field.from_db_value(text, None, connection)
    )


def test_a_null_column_reads_as_none():
    assert fastjson.reader(Game._meta.get_field("state"))(None, None, connection) is None


def test_a_field_with_its_own_decoder_or_encoder_keeps_its_code():
    decoded = models.JSONField(decoder=json.JSONDecoder)
    encoded = models.JSONField(encoder=json.JSONEncoder)
    assert fastjson.reader(decoded) is None
    assert fastjson.saver(encoded, connection) == encoded.get_db_prep_save
    assert fastjson.reader(models.IntegerField()) is None


@pytest.mark.parametrize("field", JSON_FIELDS, ids=[f"{f.model.__name__}.{f.name}" for f in JSON_FIELDS])
def test_a_move_json_column_is_saved_as_the_field_saves_it(field):
    saver = fastjson.saver(field, connection)
    for value in ({"a": [1, "é"]}, [1, 2], None, "text", 7):
        ours, theirs = saver(value, connection), field.get_db_prep_save(value, connection)
        if connection.vendor != "postgresql":
            assert saver == field.get_db_prep_save  # SQLite stores the text: json's, as before
            assert ours == theirs
        elif type(value) in (dict, list):
            assert type(ours) is type(theirs)  # psycopg's Jsonb: the value, orjson's text
            assert ours.obj == theirs.obj
            assert json.loads(ours.dumps(ours.obj)) == json.loads(theirs.dumps(theirs.obj))
        else:
            assert repr(ours) == repr(theirs)
