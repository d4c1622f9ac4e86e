"""``{% translate "literal" %}`` as Django's i18n tag, without the lazy string that tag makes and forces
at once for every literal (a move's answer on the play page has a dozen or more): the same output, the
literal's translation (safe, as in Django's tag: a template's literal and its translation are not
escaped), every other use (a variable, a filter, ``noop``, ``context``) left to Django's tag. Load it after
i18n, so its ``translate`` and ``trans`` are the ones used: ``{% load i18n translate_now %}``."""

from django import template
from django.template.base import render_value_in_context
from django.templatetags.i18n import TranslateNode, do_translate
from django.utils.safestring import SafeData, mark_safe
from django.utils.translation import gettext

register = template.Library()


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
        # What Variable.resolve hands to gettext_lazy, translated now (gettext keeps it safe).
        output = gettext(mark_safe(var.literal.replace("%", "%%")))
        value = render_value_in_context(output, context)
        is_safe = isinstance(value, SafeData)
        value = value.replace("%%", "%")
        value = mark_safe(value) if is_safe else value
        if self.asvar:
            context[self.asvar] = value
            return ""
        return value


@register.tag("translate")
@register.tag("trans")
def translate_now(parser, token):
    node = do_translate(parser, token)
    return TranslateNowNode(node.filter_expression, node.noop, node.asvar, node.message_context)
