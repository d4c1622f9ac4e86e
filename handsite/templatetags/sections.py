"""``{% render_section section %}``: one of the sections other apps registered (``handsite.sections``),
rendered with the context its builder already made. It runs no query of its own."""

from django import template

register = template.Library()


@register.simple_tag(takes_context=True)
def render_section(context, section):
    """Like ``{% include %}``: the page's context (request, group, membership, the CSP nonce...) plus the
    section's own."""
    section_template = context.template.engine.get_template(section.template)
    with context.push(**section.context):
        return section_template.render(context)
