"""Numbers from requests are bounded where they are read (handsite/inputs.py), by every app."""

import ast
from pathlib import Path

from handsite.inputs import small_int, small_ints

ROOT = Path(__file__).resolve().parents[2]


def test_small_int_reads_ascii_digits_only_and_at_most_nine():
    assert small_int("0") == 0
    assert small_int("123456789") == 123456789
    assert small_int("1234567890") is None
    assert small_int("9" * 5000) is None
    assert small_int("-1") is None
    assert small_int(" 1") is None
    assert small_int("1\n") is None
    assert small_int("") is None
    assert small_int("١٢") is None  # Arabic-Indic digits: str.isdigit() says yes, ids never use them
    assert small_int("²") is None  # isdigit() is true, int() raises
    assert small_int(None) is None
    assert small_int(12) is None  # only text from a request
    assert small_int("12", maximum=11) is None


def test_small_int_takes_the_digits_the_caller_allows():
    assert small_int("123456789012", digits=12) == 123456789012
    assert small_int("1234567890123", digits=12) is None
    assert small_int("12", digits=2) == 12
    assert small_int("123", digits=2) is None


def test_small_ints_is_all_or_nothing():
    assert small_ints(["1", "2"]) == [1, 2]
    assert small_ints(["1", "9" * 5000]) is None
    assert small_ints(["12", "123"], digits=2) is None
    assert small_ints([]) == []


def test_views_and_forms_read_numbers_with_it_not_with_isdigit():
    """The ad-hoc ``text.isdigit()`` + ``int(text)`` readers are gone from every view and form."""
    offenders = []
    for app in ("handsite", "games", "scoring"):
        paths = [ROOT / app / name for name in ("views.py", "forms.py", "notification_views.py")]
        for path in [*paths, *sorted((ROOT / app / "views").glob("*.py"))]:
            if not path.exists():
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                called = isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                if called and node.func.attr in ("isdigit", "isnumeric", "isdecimal"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert offenders == []
    for module in ("games/views.py", "games/forms.py", "scoring/views/sheets.py", "scoring/forms.py"):
        assert "from handsite.inputs import small_int" in (ROOT / module).read_text(), module
