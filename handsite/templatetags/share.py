"""``{% whatsapp_group_invite group url %}``: the "share on WhatsApp" URL of a group's invite link (apps
add their own share texts with handsite.links.whatsapp_url)."""

from django import template
from django.utils.translation import gettext as _

from handsite import links

register = template.Library()


@register.simple_tag
def whatsapp_group_invite(group, url: str) -> str:
    text = _("Join our group “%(group)s” to play Hand together:") % {"group": group.name}
    return links.whatsapp_url(text, url)
