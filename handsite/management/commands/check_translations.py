"""`manage.py check_translations`: fails when a message of the site is not translated into every language
of LOCALE_PATHS, or only fuzzily.

It runs `makemessages` (the README's command) on a copy of the sources, so the check covers strings added
since the catalogue was last refreshed, and leaves the real catalogue untouched. Needs GNU gettext
(xgettext, msgmerge), like makemessages. Used by `.ci/run` and tests/i18n/test_catalogue.py.
"""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from pathlib import Path

from babel.messages.pofile import read_po
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.test.utils import override_settings

SOURCES = ("games", "handsite", "scoring", "templates")
IGNORED = shutil.ignore_patterns("__pycache__", "*.pyc", "*.mo", "static", "pending")


def missing_translations(po_path: Path) -> tuple[list[str], list[str]]:
    """(untranslated, fuzzy) message ids of a catalogue file."""
    with po_path.open("rb") as handle:
        catalogue = read_po(handle)
    untranslated, fuzzy = [], []
    for message in catalogue:
        if not message.id:
            continue
        shown = message.id if isinstance(message.id, str) else message.id[0]
        strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
        if message.fuzzy:
            fuzzy.append(shown)
        elif not all(strings):
            untranslated.append(shown)
    return untranslated, fuzzy


def refreshed_catalogues(root: Path, work: Path) -> dict[str, Path]:
    """Copies the sources and the catalogues into ``work``, runs makemessages there, and returns each
    language's refreshed django.po."""
    for name in SOURCES:
        shutil.copytree(root / name, work / name, ignore=IGNORED)
    locale_dir = root / "handsite" / "locale"
    languages = sorted(p.name for p in locale_dir.iterdir() if (p / "LC_MESSAGES" / "django.po").exists())
    work_locale = work / "handsite" / "locale"
    with override_settings(LOCALE_PATHS=[work_locale]), contextlib.chdir(work):
        call_command("makemessages", locale=languages, domain="django", verbosity=0)
    return {code: work_locale / code / "LC_MESSAGES" / "django.po" for code in languages}


class Command(BaseCommand):
    help = "Fail when makemessages finds a message without a translation (or with a fuzzy one)."

    def handle(self, *args, **options):
        if shutil.which("xgettext") is None or shutil.which("msgmerge") is None:
            raise CommandError("GNU gettext is needed (apt-get install gettext).")
        root = Path(settings.BASE_DIR)
        problems = []
        with tempfile.TemporaryDirectory(prefix="handsite-messages-") as work:
            for code, po_path in refreshed_catalogues(root, Path(work)).items():
                untranslated, fuzzy = missing_translations(po_path)
                for kind, ids in (("untranslated", untranslated), ("fuzzy", fuzzy)):
                    problems += [f"{code}: {kind}: {text!r}" for text in ids]
                self.stdout.write(f"{code}: {len(untranslated)} untranslated, {len(fuzzy)} fuzzy")
        if problems:
            raise CommandError(
                "Messages without a (non-fuzzy) translation; translate them in handsite/locale "
                "(docs/arabic-glossary.md):\n" + "\n".join(problems)
            )
