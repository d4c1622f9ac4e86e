"""Access helpers every group page uses (later apps too).

A person who is not in a group gets 404 for every page of that group: the group's existence is not
revealed. Owners and admins are the only ones who may manage it.
"""

from __future__ import annotations

import functools

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404

from handsite.models import Membership, PlayerGroup


def get_membership_for(user, group_slug: str) -> Membership:
    """The user's membership of the group with this slug (group preloaded), or Http404."""
    if not getattr(user, "is_authenticated", False):
        raise Http404
    membership = Membership.objects.select_related("group").filter(user=user, group__slug=group_slug).first()
    if membership is None:
        raise Http404
    return membership


def get_group_for(user, group_slug: str, *, manage: bool = False) -> tuple[PlayerGroup, Membership]:
    """(group, membership) for a member; Http404 for anyone else. With manage=True, members who are
    neither owner nor admin get PermissionDenied (403)."""
    membership = get_membership_for(user, group_slug)
    if manage and not membership.can_manage:
        raise PermissionDenied
    return membership.group, membership


def group_view(view=None, *, manage: bool = False):
    """Decorator for views under a URL with a `group_slug` argument. The view receives
    `request, group, membership, **other_url_kwargs`; login is required.

        @group_view
        def game_list(request, group, membership): ...

        @group_view(manage=True)
        def settings_page(request, group, membership): ...
    """

    def decorate(func):
        @login_required
        @functools.wraps(func)
        def wrapper(request, group_slug, *args, **kwargs):
            group, membership = get_group_for(request.user, group_slug, manage=manage)
            return func(request, group, membership, *args, **kwargs)

        return wrapper

    if view is not None:
        return decorate(view)
    return decorate
