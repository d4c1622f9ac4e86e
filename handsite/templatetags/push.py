"""``{% push_section as push %}``: what the Reminders page's "This device" section shows (whether push is
on, the key browsers subscribe with, the person's devices, their e-mail/push choice per kind)."""

from django import template
from django.conf import settings

from handsite.push import messages, services
from handsite.push.models import Channel

register = template.Library()


@register.simple_tag(takes_context=True)
def push_section(context) -> dict:
    user = context["request"].user
    if not messages.enabled() or not user.is_authenticated:
        return {"enabled": False}
    chosen = services.channels_of(user.pk)
    return {
        "enabled": True,
        "public_key": settings.HANDSITE_VAPID_PUBLIC_KEY,
        "devices": services.devices_of(user),
        "topics": [
            {"name": topic.name, "label": topic.label, "channel": chosen[topic.name]}
            for topic in messages.topics()
        ],
        "channels": Channel.choices,
    }
