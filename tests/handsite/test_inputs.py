"""Numbers and JSON from requests are bounded where they are read (handsite/inputs.py)."""

from handsite.inputs import MAX_JSON_DEPTH, json_depth, small_int, small_ints, small_json


def test_small_int_reads_ascii_digits_only_and_at_most_nine():
    assert small_int("0") == 0
    assert small_int("123456789") == 123456789
    assert small_int("1234567890") is None
    assert small_int("9" * 5000) is None
    assert small_int("-1") is None
    assert small_int(" 1") is None
    assert small_int("١٢") is None  # Arabic-Indic digits: str.isdigit() says yes, ids never use them
    assert small_int("²") is None  # isdigit() is true, int() raises
    assert small_int(None) is None
    assert small_int("12", maximum=11) is None


def test_small_ints_is_all_or_nothing():
    assert small_ints(["1", "2"]) == [1, 2]
    assert small_ints(["1", "9" * 5000]) is None
    assert small_ints([]) == []


def test_small_json_caps_size_and_depth():
    assert small_json('{"cards": [1, 2], "wild_as": {"3": "JS"}}') == {
        "cards": [1, 2],
        "wild_as": {"3": "JS"},
    }
    assert small_json("[" * 5000 + "]" * 5000) is None
    assert small_json('{"a":' * 3000 + "1" + "}" * 3000) is None
    assert small_json("1" * 5000) is None
    assert small_json("[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH) is not None
    assert small_json("[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)) is None
    assert small_json("not json") is None
    assert small_json(None) is None


def test_brackets_inside_strings_do_not_count_as_depth():
    assert json_depth('["[[[[[[[[[[", "\\"{{{{"]') == 1
