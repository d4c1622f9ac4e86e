"""Compiles the translation catalogues (handsite/locale/<lang>/LC_MESSAGES/django.po -> django.mo) with
Babel, so a fresh clone shows Arabic without GNU gettext: `python -m handsite.catalogue` (.ci/setup).

In right-to-left languages every placeholder of a translation is compiled inside a first-strong isolate
(U+2068 ... U+2069): what fills it (a name, a card "Q♠", a score "-30", a date) keeps its own direction
and cannot drag the sentence's full stop, colon or neighbouring words around. Translators write plain
placeholders; the catalogue on disk stays free of invisible characters. Placeholders inside an HTML tag
(an attribute) are left alone.

No Django import: it runs before the project is set up.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
RIGHT_TO_LEFT = frozenset({"ar", "fa", "he", "ur"})
FSI, PDI = "\u2068", "\u2069"
PLACEHOLDER = re.compile(r"%\([A-Za-z_][A-Za-z0-9_]*\)[sdif]|\{[A-Za-z_][A-Za-z0-9_]*\}")
TAG = re.compile(r"<[^<>]*>")


def isolate(text: str) -> str:
    """Every placeholder of ``text`` outside HTML tags wrapped in FSI ... PDI (idempotent)."""
    if not text:
        return text
    out, position = [], 0
    for tag in [*TAG.finditer(text), None]:
        end = tag.start() if tag else len(text)
        out.append(_isolate_plain(text[position:end]))
        if tag:
            out.append(tag.group())
            position = tag.end()
    return "".join(out)


def _isolate_plain(text: str) -> str:
    def wrap(match: re.Match) -> str:
        start, end = match.span()
        if text[start - 1 : start] == FSI and text[end : end + 1] == PDI:
            return match.group()
        return FSI + match.group() + PDI

    return PLACEHOLDER.sub(wrap, text)


def compiled(po_path: Path, language: str):
    """The catalogue of ``po_path`` as it goes into the .mo: fuzzy entries left out (as msgfmt does),
    placeholders isolated for right-to-left languages."""
    with po_path.open("rb") as handle:
        catalogue = read_po(handle, locale=language)
    if language.split("_")[0] in RIGHT_TO_LEFT:
        for message in catalogue:
            if not message.id:
                continue
            if isinstance(message.string, tuple | list):
                message.string = tuple(isolate(form) for form in message.string)
            else:
                message.string = isolate(message.string)
    return catalogue


def compile_all(locale_dir: Path = LOCALE_DIR) -> list[Path]:
    """Writes every language's django.mo next to its django.po; returns the .mo paths."""
    written = []
    for po_path in sorted(locale_dir.glob("*/LC_MESSAGES/django.po")):
        language = po_path.parent.parent.name
        catalogue = compiled(po_path, language)
        mo_path = po_path.with_suffix(".mo")
        with mo_path.open("wb") as handle:
            write_mo(handle, catalogue, use_fuzzy=False)
        written.append(mo_path)
    return written


if __name__ == "__main__":
    for path in compile_all():
        print(f"compiled {path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path}")
    sys.exit(0)
