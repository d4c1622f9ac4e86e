"""``{% translate "literal" %}`` as Django's i18n tag, without the lazy string that tag makes and forces
at once for every literal (a move's answer on the play page has a dozen or more): the same output, the
literal's translation (safe, as in Django's tag: a template's literal and its translation are not
escaped), kept per process and language; every other use (a variable, a filter, ``noop``, ``context``)
left to Django's tag. Load it after
i18n, so its ``translate`` and ``trans`` are the ones used: ``{% load i18n translate_now %}``."""

from django import template
from django.template.base import render_value_in_context
from django.templatetags.i18n import TranslateNode, do_translate
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import get_language, gettext

from handsite.i18n import per_language

register = template.Library()


@per_language
def _kept(language: str | None) -> dict[str, str]:
    """The literals' kept translations in ``language``, emptied when Django reloads its catalogues."""
    return {}


def _translated(literal: str, context) -> str:
    """What Django's tag renders for ``literal``: it depends on the language and the catalogues only (a
    safe string comes out the same whatever the context's escaping and localisation), so it is kept
    per process and language, and dropped when Django reloads its catalogues (a changed .mo file, a test
    changing the languages)."""
    kept = _kept(get_language())
    value = kept.get(literal)
    if value is None:
        # What Variable.resolve hands to gettext_lazy, translated now (gettext keeps it safe).
        output = gettext(mark_safe(literal.replace("%", "%%")))
        value = render_value_in_context(output, context)
        is_safe = isinstance(value, SafeData)
        value = value.replace("%%", "%")
        value = mark_safe(value) if is_safe else value
        if is_safe:
            kept[literal] = value
    return value


class TranslateNowNode(TranslateNode):
    def render(self, context):
        var = self.filter_expression.var
        if (
            self.noop
            or self.message_context is not None
            or self.filter_expression.filters
            or getattr(var, "lookups", True) is not None
            or not isinstance(var.literal, SafeData)
        ):
            return super().render(context)
        value = _translated(var.literal, context)
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value


@register.tag("translate")
@register.tag("trans")
def translate_now(parser, token):
    node = do_translate(parser, token)
    return TranslateNowNode(node.filter_expression, node.noop, node.asvar, node.message_context)
