"""Invitations to a group: the group's link, one-time invitations by e-mail (their e-mail put in the
outbox), checking and accepting a token, and purging the ones that stopped working."""

from __future__ import annotations

import datetime

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from handsite import notifications
from handsite.i18n import language_for_address
from handsite.links import absolute_url
from handsite.models import EmailState, Invitation, Membership, OutgoingEmail, PlayerGroup, Role
from handsite.services.email_outbox import queue_email
from handsite.services.groups import GroupError, require_manager
from handsite.services.outbox import notify


class InvitationError(GroupError):
    """An invitation that cannot be used (unknown, revoked, expired or already used)."""


@transaction.atomic
def regenerate_invite_link(
    *, actor_membership: Membership, expires_in: datetime.timedelta | None = None
) -> Invitation:
    """Revoke the group's current link (if any) and make a new one; the old link stops working."""
    require_manager(actor_membership)
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
    require_manager(actor_membership)
    return actor_membership.group.invitations.filter(email="", revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def pending_email_invitations(group: PlayerGroup) -> list[Invitation]:
    """The group's e-mail invitations still waiting for their answer (not accepted, taken back or
    expired), newest first."""
    return list(
        group.invitations.exclude(email="")
        .filter(accepted_at__isnull=True, revoked_at__isnull=True)
        .filter(Q(expires_at__isnull=True) | Q(expires_at__gt=timezone.now()))
        .order_by("-created_at", "-pk")
    )


def take_back_email_invitation(*, actor_membership: Membership, invitation_id: int) -> Invitation | None:
    """Take back one of the group's pending e-mail invitations: its link stops working (an e-mail not
    sent yet is not sent). None when there is no such pending invitation."""
    require_manager(actor_membership)
    invitation = (
        actor_membership.group.invitations.exclude(email="")
        .filter(pk=invitation_id, accepted_at__isnull=True, revoked_at__isnull=True)
        .first()
    )
    if invitation is None:
        return None
    invitation.revoked_at = timezone.now()
    invitation.save(update_fields=["revoked_at"])
    # Its e-mail, if still waiting in the outbox, never leaves (the body holds the link's unique token).
    OutgoingEmail.objects.filter(
        state=EmailState.PENDING, purpose="invitation", to=invitation.email, body__contains=invitation.token
    ).delete()
    return invitation


@transaction.atomic
def invite_by_email(*, actor_membership: Membership, email: str) -> Invitation:
    """Create a one-time invitation for an e-mail address, its e-mail in the outbox in the same
    transaction (a Celery worker sends it after the commit; the beat sweep if the broker was away)."""
    require_manager(actor_membership)
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
    queue_invitation_email(invitation.pk)
    return invitation


def holds_address(user, email: str, since: datetime.datetime | None = None) -> bool:
    """Whether ``user`` may use an invitation sent to ``email``: the address is one of the account's,
    verified, or the account signed up with it after the invitation was sent (``since``)."""
    from allauth.account.models import EmailAddress

    if EmailAddress.objects.filter(user=user, email__iexact=email, verified=True).exists():
        return True
    return bool(
        since is not None
        and user.email
        and user.email.lower() == email.lower()
        and user.date_joined is not None
        and user.date_joined >= since
    )


def check_invitation(token: str, user=None) -> Invitation:
    """The usable invitation with this token, or InvitationError saying why it cannot be used. With
    ``user``: an invitation sent to an address is for that address's account only (:func:`holds_address`;
    a forwarded one is refused with a sentence saying what to do)."""
    usable = isinstance(token, str) and 0 < len(token) <= 64 and "\x00" not in token  # PostgreSQL refuses NUL
    invitation = Invitation.objects.select_related("group").filter(token=token).first() if usable else None
    if invitation is None:
        raise InvitationError(_("This invitation link is not valid. Ask for a new one."))
    if invitation.revoked_at is not None:
        raise InvitationError(_("This invitation link has been switched off. Ask for a new one."))
    if invitation.is_expired:
        raise InvitationError(_("This invitation link has expired. Ask for a new one."))
    if invitation.accepted_at is not None:
        raise InvitationError(_("This invitation has already been used."))
    if (
        user is not None
        and not invitation.is_link
        and not holds_address(user, invitation.email, invitation.created_at)
    ):
        raise InvitationError(
            _(
                "This invitation was sent to another e-mail address, so it cannot be used with your "
                "account. Ask the person who invited you for the group's link."
            )
        )
    return invitation


@transaction.atomic
def accept_invitation(*, token: str, user) -> tuple[Membership, bool]:
    """Join the invitation's group. Returns (membership, created); joining twice creates nothing. An
    invitation sent to an address is for its account only; its sender is told who joined."""
    invitation = check_invitation(token, user)
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
    if not invitation.is_link and invitation.created_by_id is not None:
        notify(
            recipient=invitation.created_by_id,
            kind=notifications.GROUP_JOINED,
            key=f"invitation:{invitation.pk}:joined",
            topic=f"group:{invitation.group_id}",
            link=invitation.group.get_absolute_url(),
            data={"group": invitation.group.name, "name": user.name, "email": invitation.email},
        )
    return membership, True


def purge_stale_invitations(*, older_than: datetime.timedelta = datetime.timedelta(days=30)) -> int:
    """Delete invitations that stopped working (revoked or expired) more than `older_than` ago."""
    cutoff = timezone.now() - older_than
    deleted, _detail = Invitation.objects.filter(revoked_at__lt=cutoff).delete()
    deleted_expired, _detail = Invitation.objects.filter(expires_at__lt=cutoff).delete()
    return deleted + deleted_expired


def claim_invitation_email(invitation_id: int) -> Invitation | None:
    """The e-mail invitation to send, claimed with a conditional update (a repeated call queues
    nothing); None if it is queued already, revoked or gone."""
    claimed = Invitation.objects.filter(
        pk=invitation_id, sent_at__isnull=True, revoked_at__isnull=True
    ).update(sent_at=timezone.now())
    if not claimed:
        return None
    return Invitation.objects.select_related("group", "created_by").get(pk=invitation_id)


def queue_invitation_email(invitation_id: int) -> bool:
    """Put an e-mail invitation's e-mail in the outbox once (``sent_at`` says it is there). Returns
    whether it was queued now."""
    invitation = claim_invitation_email(invitation_id)
    if invitation is None:
        return False
    context = {
        "invitation": invitation,
        "group": invitation.group,
        "inviter": invitation.created_by,
        "link": absolute_url(invitation.get_absolute_url()),
        "site_name": notifications.site_name(),
    }
    # The invited person's language if they have an account, else the inviter's.
    with translation.override(language_for_address(invitation.email, invitation.created_by)):
        subject = notifications.plain_subject(
            render_to_string("handsite/email/invitation_subject.txt", context).strip()
        )
        body = render_to_string("handsite/email/invitation_body.txt", context)
    queue_email(EmailMessage(subject, body, None, [invitation.email]), purpose="invitation")
    return True
