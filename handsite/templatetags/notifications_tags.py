from django import template

from handsite import notifications

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context) -> int:
    """The signed-in person's unread notifications (one indexed COUNT, full pages only)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    return notifications.unread_count(user)
