"""Every string games/ marks for translation is one `makemessages` extracts (an alias such as
``gettext_noop as _noop`` is not: xgettext only knows the names Django passes it)."""

import ast
import shutil

from django.core.management import call_command

from tests.support import ROOT, skip_or_fail

MARKERS = {"gettext", "gettext_lazy", "gettext_noop", "pgettext", "pgettext_lazy"}


def _marked_strings(path) -> set[str]:
    """Literal first arguments of calls to django.utils.translation's markers, whatever they are
    imported as."""
    tree = ast.parse(path.read_text())
    aliases = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "django.utils.translation":
            for name in node.names:
                if name.name in MARKERS:
                    aliases[name.asname or name.name] = name.name
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in aliases:
            argument = node.args[0] if node.args else None
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.add(argument.value)
    return found


def test_makemessages_extracts_every_marked_string_of_the_games_app(tmp_path, settings, monkeypatch):
    if shutil.which("xgettext") is None:
        skip_or_fail("GNU gettext (xgettext) is not installed")
    sources = list((ROOT / "games").glob("*.py"))
    tree = tmp_path / "games"
    tree.mkdir()
    for path in sources:
        shutil.copy(path, tree / path.name)
    (tmp_path / "locale").mkdir()
    settings.LOCALE_PATHS = []
    monkeypatch.chdir(tmp_path)
    call_command("makemessages", locale=["ar"], domain="django", verbosity=0)
    # A long msgid is wrapped over several quoted lines: joined, it reads as one.
    catalogue = (tmp_path / "locale" / "ar" / "LC_MESSAGES" / "django.po").read_text().replace('"\n"', "")
    marked = set().union(*(_marked_strings(path) for path in sources))
    assert "Select the cards to meld first." in marked
    missing = sorted(text for text in marked if f'msgid "{text}"' not in catalogue and text not in catalogue)
    assert not missing, missing
