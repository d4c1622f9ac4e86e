"""Words kept per language (handsite.i18n.per_language) follow the language and a catalogue reload."""

from django.utils import translation
from django.utils.translation import gettext, trans_real

from handsite.i18n import per_language


def test_words_are_kept_per_language_and_computed_again_after_a_reload_of_the_catalogues(monkeypatch):
    calls = []

    @per_language
    def words(language):
        calls.append(language)
        return gettext("Your turn.")

    with translation.override("en"):
        english = words("en")
        assert words("en") == english
    with translation.override("ar"):
        arabic = words("ar")
    assert arabic != english
    assert calls == ["en", "ar"]

    monkeypatch.setattr(trans_real, "_translations", {})  # what Django does when a .mo file changes
    with translation.override("en"):
        assert words("en") == english
    assert calls == ["en", "ar", "en"]
