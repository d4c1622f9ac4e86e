"""Groups and their memberships: creating and editing a group, roles, removing members, leaving.

Each function checks what the acting person may do and raises GroupError with a sentence for people
when the change is not allowed; nothing is changed in that case."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from handsite.models import Invitation, Membership, PlayerGroup, Role


class GroupError(Exception):
    """A refused change; str(error) is a sentence to show the person."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# --- Groups ---------------------------------------------------------------------------------


def _unique_slug(name: str) -> str:
    base = slugify(name, allow_unicode=False)[:60] or "group"
    while True:
        slug = f"{base}-{secrets.token_hex(3)}"
        if not PlayerGroup.objects.filter(slug=slug).exists():
            return slug


@transaction.atomic
def create_group(*, owner, name: str, description: str = "", invite_link: bool = False) -> PlayerGroup:
    """A new group whose creator is its owner; with ``invite_link``, the group's link is made at once
    (never expiring; the organiser switches it off on the group page)."""
    name = name.strip()
    if not name:
        raise GroupError(_("A group needs a name."))
    with transaction.atomic():
        group = PlayerGroup.objects.create(
            name=name, slug=_unique_slug(name), description=description.strip()
        )
        Membership.objects.create(group=group, user=owner, role=Role.OWNER)
        if invite_link:
            Invitation.objects.create(group=group, created_by=owner)
    return group


def update_group(*, actor_membership: Membership, name: str, description: str) -> PlayerGroup:
    require_manager(actor_membership)
    group = actor_membership.group
    if not name.strip():
        raise GroupError(_("A group needs a name."))
    group.name = name.strip()
    group.description = description.strip()
    group.save(update_fields=["name", "description"])
    return group


# --- Roles and members ----------------------------------------------------------------------


def require_manager(actor: Membership) -> None:
    if not actor.can_manage:
        raise GroupError(_("Only the group's owners and admins can do that."))


def _locked_memberships(group: PlayerGroup):
    """Lock the group's memberships so two people cannot remove the last owner at the same time."""
    return Membership.objects.select_for_update().filter(group=group)


def _owner_count(group: PlayerGroup) -> int:
    return len([m for m in _locked_memberships(group) if m.role == Role.OWNER])


@transaction.atomic
def change_role(*, actor_membership: Membership, membership: Membership, role: str) -> Membership:
    """Owners change anyone's role; admins switch people between member and admin. The last owner
    keeps the owner role until someone else is made owner."""
    if role not in Role.values:
        raise GroupError(_("That is not a role."))
    if membership.group_id != actor_membership.group_id:
        raise GroupError(_("That person is not in this group."))
    require_manager(actor_membership)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    actor_membership = Membership.objects.select_for_update().get(pk=actor_membership.pk)
    require_manager(actor_membership)
    if membership.role == role:
        return membership
    if not actor_membership.is_owner and Role.OWNER in (role, membership.role):
        raise GroupError(_("Only an owner can make someone an owner or change an owner's role."))
    if membership.role == Role.OWNER and _owner_count(membership.group) <= 1:
        raise GroupError(_("The group's last owner cannot step down. Make someone else an owner first."))
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def remove_member(*, actor_membership: Membership, membership: Membership) -> None:
    """Owners and admins remove others from the group (admins cannot remove owners)."""
    if membership.group_id != actor_membership.group_id:
        raise GroupError(_("That person is not in this group."))
    require_manager(actor_membership)
    if membership.pk == actor_membership.pk:
        raise GroupError(_("To leave the group yourself, use “Leave group”."))
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Role.OWNER:
        if not actor_membership.is_owner:
            raise GroupError(_("Only an owner can remove another owner."))
        if _owner_count(membership.group) <= 1:
            raise GroupError(_("The group's last owner cannot be removed."))
    membership.delete()


@transaction.atomic
def leave_group(*, membership: Membership) -> None:
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    if membership.role == Role.OWNER and _owner_count(membership.group) <= 1:
        raise GroupError(_("You are the group's last owner. Make someone else an owner before you leave."))
    membership.delete()
