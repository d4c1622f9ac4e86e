"""Everything that changes groups, memberships and invitations. Views stay thin and call these.

Each function checks what the acting person may do and raises GroupError (or InvitationError) with a
sentence for people when the change is not allowed; nothing is changed in that case.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from handsite.models import Invitation, Membership, PlayerGroup, Role


class GroupError(Exception):
    """A refused change; str(error) is a sentence to show the person."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class InvitationError(GroupError):
    """An invitation that cannot be used (unknown, revoked, expired or already used)."""


# --- Groups ---------------------------------------------------------------------------------


def _unique_slug(name: str) -> str:
    base = slugify(name, allow_unicode=False)[:60] or "group"
    while True:
        slug = f"{base}-{secrets.token_hex(3)}"
        if not PlayerGroup.objects.filter(slug=slug).exists():
            return slug


@transaction.atomic
def create_group(*, owner, name: str, description: str = "") -> PlayerGroup:
    """A new group whose creator is its owner."""
    name = name.strip()
    if not name:
        raise GroupError(_("A group needs a name."))
    group = PlayerGroup.objects.create(name=name, slug=_unique_slug(name), description=description.strip())
    Membership.objects.create(group=group, user=owner, role=Role.OWNER)
    return group


def update_group(*, actor_membership: Membership, name: str, description: str) -> PlayerGroup:
    _require_manager(actor_membership)
    group = actor_membership.group
    if not name.strip():
        raise GroupError(_("A group needs a name."))
    group.name = name.strip()
    group.description = description.strip()
    group.save(update_fields=["name", "description"])
    return group


# --- Roles and members ----------------------------------------------------------------------


def _require_manager(actor: Membership) -> None:
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
    _require_manager(actor_membership)
    membership = Membership.objects.select_for_update().get(pk=membership.pk)
    actor_membership = Membership.objects.select_for_update().get(pk=actor_membership.pk)
    _require_manager(actor_membership)
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
    _require_manager(actor_membership)
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


# --- Invitations ----------------------------------------------------------------------------


@transaction.atomic
def regenerate_invite_link(
    *, actor_membership: Membership, expires_in: datetime.timedelta | None = None
) -> Invitation:
    """Revoke the group's current link (if any) and make a new one; the old link stops working."""
    _require_manager(actor_membership)
    group = actor_membership.group
    now = timezone.now()
    group.invitations.filter(email="", revoked_at__isnull=True).update(revoked_at=now)
    return Invitation.objects.create(
        group=group,
        created_by=actor_membership.user,
        created_at=now,
        expires_at=now + expires_in if expires_in else None,
    )


def revoke_invite_link(*, actor_membership: Membership) -> int:
    """Switch the group's invite link off. Returns how many links were revoked."""
    _require_manager(actor_membership)
    return actor_membership.group.invitations.filter(email="", revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def invite_by_email(*, actor_membership: Membership, email: str) -> Invitation:
    """Create a one-time invitation for an e-mail address; a Celery worker sends the e-mail once the
    transaction commits."""
    from handsite.tasks import send_invitation_email

    _require_manager(actor_membership)
    group = actor_membership.group
    email = email.strip()
    if Membership.objects.filter(group=group, user__email__iexact=email).exists():
        raise GroupError(_("%(email)s is already in this group.") % {"email": email})
    invitation = Invitation.objects.create(
        group=group,
        email=email,
        created_by=actor_membership.user,
        expires_at=timezone.now() + datetime.timedelta(days=settings.HANDSITE_EMAIL_INVITATION_DAYS),
    )
    send_invitation_email.delay_on_commit(invitation.pk)
    return invitation


def check_invitation(token: str) -> Invitation:
    """The usable invitation with this token, or InvitationError saying why it cannot be used."""
    invitation = Invitation.objects.select_related("group").filter(token=token).first()
    if invitation is None:
        raise InvitationError(_("This invitation link is not valid. Ask for a new one."))
    if invitation.revoked_at is not None:
        raise InvitationError(_("This invitation link has been switched off. Ask for a new one."))
    if invitation.is_expired:
        raise InvitationError(_("This invitation link has expired. Ask for a new one."))
    if invitation.accepted_at is not None:
        raise InvitationError(_("This invitation has already been used."))
    return invitation


@transaction.atomic
def accept_invitation(*, token: str, user) -> tuple[Membership, bool]:
    """Join the invitation's group. Returns (membership, created); joining twice creates nothing."""
    invitation = check_invitation(token)
    existing = Membership.objects.filter(group=invitation.group, user=user).first()
    if existing is not None:
        return existing, False
    if not invitation.is_link:
        # An e-mail invitation is used once: claim it with a conditional update.
        claimed = Invitation.objects.filter(pk=invitation.pk, accepted_at__isnull=True).update(
            accepted_at=timezone.now(), accepted_by=user
        )
        if not claimed:
            raise InvitationError(_("This invitation has already been used."))
    try:
        with transaction.atomic():
            membership = Membership.objects.create(group=invitation.group, user=user, role=Role.MEMBER)
    except IntegrityError:
        return Membership.objects.get(group=invitation.group, user=user), False
    return membership, True


def purge_stale_invitations(*, older_than: datetime.timedelta = datetime.timedelta(days=30)) -> int:
    """Delete invitations that stopped working (revoked or expired) more than `older_than` ago."""
    cutoff = timezone.now() - older_than
    deleted, _detail = Invitation.objects.filter(revoked_at__lt=cutoff).delete()
    deleted_expired, _detail = Invitation.objects.filter(expires_at__lt=cutoff).delete()
    return deleted + deleted_expired
