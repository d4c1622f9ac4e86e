"""The play page's templates load ``translate_now`` (handsite/templatetags/translate_now.py): its
``{% translate %}`` of a literal renders what Django's tag renders, in English and Arabic, with an
apostrophe, a percent sign, ``as``, ``noop``, ``context``, a variable and a filter (left to Django's)."""

import pytest
from django.template import Context, Template
from django.templatetags.i18n import TranslateNode
from django.utils import translation

from handsite.templatetags.translate_now import TranslateNowNode

CASES = [
    '{% translate "The whole game\'s log" %}',
    '{% translate "Your turn." %}',
    "{% translate 'Rules of this game' %}",
    '{% translate "100% <b>sure</b> & more" %}',
    '{% translate "Lay off here" as here %}[{{ here }}]{{ here|upper }}',
    '{% trans "Sort by rank" %}',
    '{% translate "Your turn." noop %}',
    '{% translate "May" context "month name" %}',
    "{% translate word %}",
    '{% translate "Your turn."|lower %}',
    '{% autoescape off %}{% translate "The whole game\'s log" %}{% endautoescape %}',
]


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("case", CASES)
def test_translate_now_renders_what_djangos_translate_renders(case, language):
    context = {"word": "Your turn. <i>'x'</i>"}
    with translation.override(language):
        django = Template("{% load i18n %}" + case).render(Context(context))
        now = Template("{% load i18n translate_now %}" + case).render(Context(context))
    assert now == django


def test_a_literal_is_translated_without_djangos_lazy_string(monkeypatch):
    template = Template("{% load i18n translate_now %}{% translate 'Your turn.' %}")
    assert any(isinstance(node, TranslateNowNode) for node in template.nodelist)

    def lazy_path(node, context):
        raise AssertionError("Django's tag was used")

    monkeypatch.setattr(TranslateNode, "render", lazy_path)
    with translation.override("ar"):
        assert template.render(Context()) not in ("", "Your turn.")


def test_kept_translations_never_mix_languages_and_go_with_a_reload_of_the_catalogues(monkeypatch):
    from django.utils.safestring import mark_safe
    from django.utils.translation import trans_real

    from handsite.templatetags import translate_now

    template = Template("{% load i18n translate_now %}{% translate 'Your turn.' %}")
    seen = []
    for language in ("en", "ar", "en", "ar"):
        with translation.override(language):
            seen.append(template.render(Context()))
    assert seen[0] == seen[2] == "Your turn."
    assert seen[1] == seen[3] != "Your turn."
    with translation.override("ar"):
        monkeypatch.setattr(trans_real, "_translations", {})  # what Django does when a .mo file changes
        monkeypatch.setattr(translate_now, "gettext", lambda message: mark_safe(message + " (reloaded)"))
        assert template.render(Context()) == "Your turn. (reloaded)"
