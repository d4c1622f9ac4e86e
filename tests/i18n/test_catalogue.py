"""The Arabic catalogue: complete (makemessages finds nothing untranslated or fuzzy), compiled into the
.mo the site reads, with Arabic's six plural forms, and placeholders isolated for right-to-left text."""

import shutil

import pytest
from babel.messages.mofile import read_mo
from django.core.management import CommandError, call_command
from django.utils import translation
from django.utils.translation import ngettext

from handsite.catalogue import FSI, LOCALE_DIR, PDI, compiled, isolate
from handsite.management.commands.check_translations import missing_translations
from tests.support import skip_or_fail

ARABIC_PO = LOCALE_DIR / "ar" / "LC_MESSAGES" / "django.po"
ARABIC_MO = ARABIC_PO.with_suffix(".mo")


def test_makemessages_finds_every_message_of_the_site_translated(capsys):
    if shutil.which("xgettext") is None:
        skip_or_fail("GNU gettext (xgettext) is not installed")
    call_command("check_translations")
    assert "ar: 0 untranslated, 0 fuzzy" in capsys.readouterr().out


def test_the_check_names_an_untranslated_and_a_fuzzy_message(tmp_path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n'
        '"Plural-Forms: nplurals=6; plural=n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 '
        ': n%100>=11 && n%100<=99 ? 4 : 5;\\n"\n\n'
        'msgid "Deal"\nmsgstr "جولة"\n\n'
        'msgid "Stock"\nmsgstr ""\n\n'
        '#, fuzzy\nmsgid "Discard pile"\nmsgstr "كومة"\n\n'
        'msgid "%(n)s card"\nmsgid_plural "%(n)s cards"\n'
        'msgstr[0] "a"\nmsgstr[1] "b"\nmsgstr[2] ""\nmsgstr[3] "d"\nmsgstr[4] "e"\nmsgstr[5] "f"\n',
        encoding="utf-8",
    )
    assert missing_translations(po) == (["Stock", "%(n)s card"], ["Discard pile"])


def test_the_command_fails_when_a_message_is_missing(settings, tmp_path, monkeypatch):
    if shutil.which("xgettext") is None:
        skip_or_fail("GNU gettext (xgettext) is not installed")
    # A source tree with one new, untranslated string.
    for name in ("games", "handsite", "scoring"):
        (tmp_path / name).mkdir()
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "new.html").write_text('{% load i18n %}{% translate "A brand new sentence" %}')
    locale = tmp_path / "handsite" / "locale" / "ar" / "LC_MESSAGES"
    locale.mkdir(parents=True)
    shutil.copy(ARABIC_PO, locale / "django.po")
    settings.BASE_DIR = tmp_path
    with pytest.raises(CommandError, match="A brand new sentence"):
        call_command("check_translations")


def test_the_compiled_catalogue_is_the_po_file_compiled():
    assert ARABIC_MO.exists(), "run .ci/compile-messages (the setup step does)"
    with ARABIC_MO.open("rb") as handle:
        on_disk = {_key(m.id): _key(m.string) for m in read_mo(handle) if m.id}
    expected = {_key(m.id): _key(m.string) for m in compiled(ARABIC_PO, "ar") if m.id and not m.fuzzy}
    assert on_disk == expected, "the .mo is out of date: run .ci/compile-messages"


@pytest.mark.parametrize(
    ("count", "expected"),
    [(0, "لا أوراق"), (1, "ورقة واحدة"), (2, "ورقتان"), (3, "3 أوراق"), (11, "11 ورقة"), (100, "100 ورقة")],
)
def test_arabic_counts_use_six_plural_forms(count, expected):
    with translation.override("ar"):
        text = ngettext("%(cards)s card", "%(cards)s cards", count) % {"cards": count}
    assert text.replace(FSI, "").replace(PDI, "") == expected


def test_placeholders_are_isolated_outside_tags_only():
    assert isolate("النقاط %(total)s.") == f"النقاط {FSI}%(total)s{PDI}."
    assert isolate("{player} يرمي {card}.") == f"{FSI}{{player}}{PDI} يرمي {FSI}{{card}}{PDI}."
    assert isolate('<a href="%(link)s">%(name)s</a>') == f'<a href="%(link)s">{FSI}%(name)s{PDI}</a>'
    assert isolate(isolate("%(n)s")) == isolate("%(n)s")


def test_a_score_in_an_arabic_sentence_keeps_its_minus_sign_in_front():
    with translation.override("ar"):
        text = translation.gettext("Cards left: {value}").format(value=-30)
    assert f"{FSI}-30{PDI}" in text


def _key(value):
    return tuple(value) if isinstance(value, list | tuple) else value
