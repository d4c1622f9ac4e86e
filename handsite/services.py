"""The one writer of handsite: people's accounts (sign-up, profile, language), groups, memberships,
invitations and the notification outbox. Views, forms, the allauth adapter and tasks stay thin and call
these; other apps call :func:`notify` (never write handsite's rows). ``tests/handsite/test_one_writer.py``
fails if a view, form or adapter module writes a row itself.

Each group function checks what the acting person may do and raises GroupError (or InvitationError)
with a sentence for people when the change is not allowed; nothing is changed in that case.

The outbox: every notification is a :class:`~handsite.models.Notification` row, written by
:func:`notify` in the caller's transaction (a move's, for "your turn"). After the commit a Celery task
(:func:`handsite.tasks.send_notification`) calls :func:`deliver`; a beat task every minute calls
:func:`deliver_pending` for anything still pending (broker down, worker crashed, held e-mails now due).
:func:`deliver` claims the row with a conditional UPDATE (pending -> sending) and only the one call that
changed the row sends, so a retried or duplicated task, or two workers, send one e-mail.
"""

from __future__ import annotations

import contextlib
import datetime
import logging
import secrets
from email.header import Header

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from handsite import bulk, notifications, signals
from handsite.i18n import language_for_address
from handsite.links import absolute_url
from handsite.models import (
    EmailState,
    Invitation,
    Membership,
    Notification,
    NotificationKind,
    NotificationPreference,
    NotificationState,
    OutgoingEmail,
    PlayerGroup,
    QueuedTask,
    Role,
)

log = logging.getLogger(__name__)


class GroupError(Exception):
    """A refused change; str(error) is a sentence to show the person."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class InvitationError(GroupError):
    """An invitation that cannot be used (unknown, revoked, expired or already used)."""


# --- People ---------------------------------------------------------------------------------


def save_new_user(user, *, invitation_token: str | None = None, commit: bool = True):
    """A person signing up (allauth's ``save_user``). The invitation they followed while logged out is
    remembered on the account, not only in this browser's session: with e-mail verification they may
    confirm and log in from another browser and must still land in the group. An unusable token is not
    remembered (logging in tells the person why)."""
    if invitation_token:
        with contextlib.suppress(InvitationError):
            user.pending_invitation = check_invitation(invitation_token)
    if commit:
        user.save()
    return user


def take_pending_invitation(user) -> str | None:
    """At log-in: the token of the invitation remembered at sign-up (see :func:`save_new_user`), cleared
    from the account so it is used once; None without one."""
    if not user.pending_invitation_id:
        return None
    token = user.pending_invitation.token
    user.pending_invitation = None
    user.save(update_fields=["pending_invitation"])
    return token


def set_signup_details(user, *, display_name: str, language: str):
    """The sign-up form's own fields (the name others see, the language of pages and e-mails)."""
    user.display_name = display_name.strip()
    user.language = language
    user.save(update_fields=["display_name", "language"])
    return user


def update_profile(user, *, display_name: str, language: str):
    """The profile page: the name others see and the person's language."""
    user.display_name = display_name
    user.language = language
    user.save(update_fields=["display_name", "language"])
    return user


def set_language(user, code: str) -> None:
    """Remember ``code`` (already one of the site's) as the person's language, if it changed."""
    if code and user.language != code:
        user.language = code
        user._meta.model.objects.filter(pk=user.pk).update(language=code)


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
    _require_manager(actor_membership)
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


def purge_old_notifications(*, now: datetime.datetime | None = None) -> int:
    """Delete the notifications e-mailed (or never to be e-mailed) more than
    HANDSITE_NOTIFICATION_RETENTION_DAYS ago: the outbox and the in-site list would otherwise only grow.
    Rows still waiting, being sent or failed stay (the operator sees failures in the admin)."""
    cutoff = (now or timezone.now()) - datetime.timedelta(days=settings.HANDSITE_NOTIFICATION_RETENTION_DAYS)
    deleted, _detail = Notification.objects.filter(
        state__in=[NotificationState.SENT, NotificationState.SKIPPED], created_at__lt=cutoff
    ).delete()
    return deleted


def send_again(notification_ids: list[int]) -> int:
    """The admin's "send again": the chosen notifications that failed, were sent or were skipped go
    back to the outbox as pending, due now, and are queued after the commit (a kind that is no longer
    current is still skipped by ``deliver``). Rows waiting or being sent are left alone. Returns how
    many were put back."""
    rows = Notification.objects.filter(
        pk__in=notification_ids,
        state__in=[NotificationState.FAILED, NotificationState.SENT, NotificationState.SKIPPED],
    )
    ids = list(rows.values_list("pk", flat=True))
    Notification.objects.filter(pk__in=ids).update(
        state=NotificationState.PENDING, send_after=timezone.now(), claimed_at=None, sent_at=None
    )
    if ids:
        from handsite.tasks import send_notifications

        for start in range(0, len(ids), SEND_CHUNK):
            send_notifications.delay_on_commit(ids[start : start + SEND_CHUNK])
    return len(ids)


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


# --- The e-mail outbox (every e-mail that is not a notification) ---------------------------------

EMAIL_MAX_ATTEMPTS = 6
"""A send that failed this many times is marked failed (retried after 2, 4, 8, 16, 32 minutes)."""
EMAIL_STUCK_AFTER = datetime.timedelta(minutes=10)
"""A row left ``sending`` this long belongs to a worker that died (well past the task's time limit)."""


def queue_email(message: EmailMessage, *, purpose: str) -> list[OutgoingEmail]:
    """Put ``message`` (Django's, rendered: subject, text, an HTML alternative, headers) in the outbox,
    one row per recipient, in the caller's transaction; a worker sends each after the commit. Nothing
    here touches the mail server."""
    from handsite.tasks import send_email

    html = next(
        (content for content, mimetype in getattr(message, "alternatives", []) if mimetype == "text/html"), ""
    )
    now = timezone.now()
    rows = []
    with transaction.atomic():
        for address in [*message.to, *message.cc, *message.bcc]:
            rows.append(
                OutgoingEmail.objects.create(
                    to=address,
                    from_email=message.from_email or settings.DEFAULT_FROM_EMAIL,
                    subject=str(message.subject)[:400],
                    body=str(message.body),
                    html=str(html),
                    headers={str(k): str(v) for k, v in (message.extra_headers or {}).items()},
                    purpose=purpose[:80],
                    send_after=now,
                    created_at=now,
                )
            )
    for row in rows:
        send_email.delay_on_commit(row.pk)
        log.info("e-mail %s (%s) to %s queued", row.pk, purpose, address_for_log(row.to))
    return rows


def address_for_log(address: str) -> str:
    """An address as logs show it: the domain whole, the name's first letter (logs are read by more
    people than should know every player's address)."""
    name, _at, domain = address.rpartition("@")
    return f"{name[:1]}…@{domain}" if name else "…"


def _outgoing_message(row: OutgoingEmail) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        row.subject, row.body, row.from_email, [row.to], headers=row.headers or None
    )
    if row.html:
        message.attach_alternative(row.html, "text/html")
    return message


def send_emails_again(email_ids: list[int]) -> int:
    """The admin's "send again" for the e-mail outbox: the chosen e-mails that failed go back to
    pending, due now, with their attempts counted afresh, and are queued after the commit. E-mails sent
    or waiting are left alone (an account e-mail sent twice would confuse). Returns how many."""
    from handsite.tasks import send_email as send_email_task

    ids = list(
        OutgoingEmail.objects.filter(pk__in=email_ids, state=EmailState.FAILED).values_list("pk", flat=True)
    )
    OutgoingEmail.objects.filter(pk__in=ids).update(
        state=EmailState.PENDING, send_after=timezone.now(), attempts=0, claimed_at=None
    )
    for email_id in ids:
        send_email_task.delay_on_commit(email_id)
    return len(ids)


def send_email(email_id: int, now: datetime.datetime | None = None) -> str:
    """Send one outbox e-mail if it is pending and due. Returns "sent", "retry" (the mail server
    failed: pending again, with the error and a later ``send_after``), "failed" (the last attempt
    failed) or "not_claimed" (sent already, another worker has it, or not due)."""
    now = now or timezone.now()
    claimed = OutgoingEmail.objects.filter(pk=email_id, state=EmailState.PENDING, send_after__lte=now).update(
        state=EmailState.SENDING, claimed_at=now, attempts=F("attempts") + 1
    )
    if not claimed:
        return "not_claimed"
    row = OutgoingEmail.objects.get(pk=email_id)
    sending = OutgoingEmail.objects.filter(pk=email_id, state=EmailState.SENDING)
    try:
        _outgoing_message(row).send()
    except Exception as error:  # refused, unreachable, timed out, TLS...: the row says why
        reason = f"{type(error).__name__}: {error}"[:300]
        if row.attempts >= EMAIL_MAX_ATTEMPTS:
            sending.update(state=EmailState.FAILED, last_error=reason)
            log.error(
                "e-mail %s (%s) failed for good after %s attempts: %s",
                row.pk,
                row.purpose,
                row.attempts,
                reason,
            )
            return "failed"
        retry_at = timezone.now() + datetime.timedelta(minutes=2**row.attempts)
        sending.update(state=EmailState.PENDING, send_after=retry_at, last_error=reason)
        log.warning(
            "e-mail %s (%s) not sent (attempt %s), retried at %s: %s",
            row.pk,
            row.purpose,
            row.attempts,
            retry_at.isoformat(timespec="seconds"),
            reason,
        )
        return "retry"
    sending.update(state=EmailState.SENT, sent_at=timezone.now(), last_error="")
    log.info("e-mail %s (%s) sent to %s", row.pk, row.purpose, address_for_log(row.to))
    return "sent"


def pending_email_ids(now: datetime.datetime | None = None, limit: int = 500) -> list[int]:
    """The outbox's due rows, and rows a dead worker left ``sending`` put back first (the partial
    indexes on ``send_after`` and ``claimed_at``)."""
    now = now or timezone.now()
    released = OutgoingEmail.objects.filter(
        state=EmailState.SENDING, claimed_at__lt=now - EMAIL_STUCK_AFTER
    ).update(state=EmailState.PENDING, send_after=now)
    if released:
        log.warning("%s e-mails left sending by a stopped worker are pending again", released)
    return list(
        OutgoingEmail.objects.filter(state=EmailState.PENDING, send_after__lte=now)
        .order_by("send_after")
        .values_list("pk", flat=True)[:limit]
    )


def queue_pending_emails(now: datetime.datetime | None = None) -> int:
    """The beat sweep, every minute: queue a sending task for each due outbox row (the broker was
    away at the commit, a retry is due, a worker died). A row queued twice is sent once. Returns how
    many were queued."""
    from handsite.tasks import send_email

    due = pending_email_ids(now)
    for email_id in due:
        send_email.delay(email_id)
    return len(due)


# --- Tasks that must run (recorded with the change that needs them) ------------------------------

QUEUED_TASK_AGAIN_AFTER = datetime.timedelta(minutes=2)
"""A recorded task not done this long after it was queued is queued again by the beat scan."""
QUEUED_TASK_MAX_ATTEMPTS = 30
"""After this many queuings a task that never finishes is left for the operator (logged as an error)."""


def run_after_commit(task, *args) -> QueuedTask:
    """Queue ``task(*args)`` (a QueuedAfterCommit task taking ``queued_task_id``) after the caller's
    transaction commits, recorded in that transaction: if the broker is away then, or the message is
    lost, :func:`requeue_tasks` queues it again. The task calls :func:`task_done` when it has run."""
    row = QueuedTask.objects.create(task=task.name, args=list(args))
    task.delay_on_commit(*args, queued_task_id=row.pk)
    return row


def task_done(queued_task_id: int | None) -> None:
    if queued_task_id is not None:
        QueuedTask.objects.filter(pk=queued_task_id).delete()


def requeue_tasks(now: datetime.datetime | None = None, limit: int = 500) -> int:
    """The beat scan: queue again each recorded task not done a while after it was queued (by name:
    handsite imports no app's tasks). Returns how many were queued."""
    from celery import current_app

    now = now or timezone.now()
    due = list(
        QueuedTask.objects.filter(
            queued_at__lte=now - QUEUED_TASK_AGAIN_AFTER, attempts__lt=QUEUED_TASK_MAX_ATTEMPTS
        ).order_by("queued_at")[:limit]
    )
    for row in due:
        current_app.send_task(row.task, args=row.args, kwargs={"queued_task_id": row.pk})
        QueuedTask.objects.filter(pk=row.pk).update(queued_at=now, attempts=F("attempts") + 1)
        level = logging.ERROR if row.attempts + 1 >= QUEUED_TASK_MAX_ATTEMPTS else logging.INFO
        log.log(level, "task %s%s queued again (attempt %s)", row.task, tuple(row.args), row.attempts + 1)
    return len(due)


# --- Notification preferences -------------------------------------------------------------------


def preference_for(user) -> NotificationPreference:
    """The person's preference row, made on first use."""
    pref = NotificationPreference.objects.filter(user=user).first()
    if pref is None:
        try:
            with transaction.atomic():
                pref = NotificationPreference.objects.create(user=user, time_zone=settings.TIME_ZONE)
        except IntegrityError:
            pref = NotificationPreference.objects.get(user=user)
    return pref


def save_preferences(form) -> NotificationPreference:
    """Save the (valid) preference form of the settings page."""
    return form.save()


def set_time_zone(user, name: str) -> NotificationPreference:
    """The one-tap zone from the browser (a zone name; checked by the caller's form)."""
    pref = preference_for(user)
    NotificationPreference.objects.filter(pk=pref.pk).update(time_zone=name)
    pref.time_zone = name
    return pref


def adopt_time_zone(user, name: str) -> bool:
    """A person without preferences yet (just signed up, or never opened the settings) takes the zone
    their browser proposed. Returns whether it was adopted."""
    if NotificationPreference.objects.filter(user=user).exists():
        return False
    try:
        with transaction.atomic():
            NotificationPreference.objects.create(user=user, time_zone=name)
    except IntegrityError:
        return False
    return True


def record_presence(user_id: int, now: datetime.datetime | None = None) -> bool:
    """The person is on the site (their page polled, or they acted): e-mails that are held while
    they are present wait. One conditional UPDATE, written at most every SEEN_EVERY."""
    now = now or timezone.now()
    stale = Q(last_seen_at__isnull=True) | Q(last_seen_at__lt=now - notifications.SEEN_EVERY)
    changed = NotificationPreference.objects.filter(stale, user_id=user_id).update(last_seen_at=now)
    if not changed and not NotificationPreference.objects.filter(user_id=user_id).exists():
        try:
            with transaction.atomic():
                NotificationPreference.objects.create(
                    user_id=user_id, time_zone=settings.TIME_ZONE, last_seen_at=now
                )
        except IntegrityError:
            return False
        return True
    return bool(changed)


def unsubscribe(user_id: int) -> NotificationPreference:
    """Every e-mail about games off: turns, reminders and warnings, the digest, and so invitations and
    their news too (notifications.wants_email). The in-site list and account e-mails stay."""
    return set_email_choices(user_id, your_turn_email=False, reminders=False, daily_digest=False)


def set_email_choices(user_id: int, *, your_turn_email: bool, reminders: bool, daily_digest: bool):
    """The unsubscribe page's per-kind choices (the link's signed token is the proof: no log-in)."""
    pref = notifications.preference_of(user_id)
    if pref.pk is None:
        from django.contrib.auth import get_user_model

        pref = preference_for(get_user_model().objects.get(pk=user_id))
    NotificationPreference.objects.filter(pk=pref.pk).update(
        your_turn_email=your_turn_email, reminders=reminders, daily_digest=daily_digest
    )
    pref.refresh_from_db()
    return pref


@transaction.atomic
def book_vacation(user, days: int, now: datetime.datetime | None = None) -> NotificationPreference:
    """Start (or extend) a vacation of ``days`` days from now. Raises notifications.PreferenceError."""
    now = now or timezone.now()
    pref = NotificationPreference.objects.select_for_update().get(pk=preference_for(user).pk)
    if days < 1:
        raise notifications.PreferenceError(_("Choose at least one day."))
    if pref.vacation_year != now.year:
        pref.vacation_year, pref.vacation_days_used = now.year, 0
    left = notifications.vacation_allowance() - pref.vacation_days_used
    if days > left:
        raise notifications.PreferenceError(
            ngettext(
                "You have %(left)s vacation day left this year.",
                "You have %(left)s vacation days left this year.",
                max(left, 0),
            )
            % {"left": max(left, 0)}
        )
    start = pref.vacation_until if pref.on_vacation(now) else now
    if not pref.on_vacation(now):
        pref.vacation_started_at = now
    pref.vacation_until = start + datetime.timedelta(days=days)
    pref.vacation_days_used += days
    pref.save()
    signals.vacation_started.send(
        sender=NotificationPreference, user=user, now=now, until=pref.vacation_until
    )
    return pref


@transaction.atomic
def cancel_vacation(
    user, now: datetime.datetime | None = None
) -> tuple[NotificationPreference, datetime.datetime | None]:
    """End the vacation now; whole unused days go back. Returns (preference, the old end or None)."""
    now = now or timezone.now()
    pref = NotificationPreference.objects.select_for_update().get(pk=preference_for(user).pk)
    if not pref.on_vacation(now):
        return pref, None
    old_until = pref.vacation_until
    unused = int((old_until - now) / datetime.timedelta(days=1))
    if pref.vacation_year == now.year:
        pref.vacation_days_used = max(pref.vacation_days_used - unused, 0)
    pref.vacation_until = now
    pref.save()
    signals.vacation_ended.send(sender=NotificationPreference, user=user, now=now, old_until=old_until)
    return pref, old_until


# --- The outbox: writing ------------------------------------------------------------------------


def notify(
    *,
    recipient,
    kind: str,
    key: str | None = None,
    topic: str = "",
    subject: str = "",
    body: str = "",
    link: str = "",
    data: dict | None = None,
    send_after: datetime.datetime | None = None,
    now: datetime.datetime | None = None,
) -> Notification | None:
    """Write a notification for ``recipient`` (a user or a user id) in the caller's transaction and
    queue its sending after the commit. ``key`` makes it exactly-once: a second write with the same key
    adds nothing and returns None. ``kind`` is registered by the app (notifications.register) with how
    it is described and e-mailed; without a renderer the row's ``subject``/``body``/``link`` are used.
    ONE query (an INSERT in a savepoint)."""
    now = now or timezone.now()
    user_id = getattr(recipient, "pk", recipient)
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                user_id=user_id,
                kind=kind,
                key=key,
                topic=topic,
                subject=subject[:200],
                body=body,
                link=link,
                data=data or {},
                send_after=send_after or now,
                created_at=now,
            )
    except IntegrityError:
        return None
    if not notifications.kind_of(kind).swept:
        queue_sending(notification.pk)
    return notification


def queue_sending(notification_id: int) -> None:
    from handsite.tasks import send_notification

    send_notification.delay_on_commit(notification_id)


SEND_CHUNK = 25
"""Notifications one sending task delivers when a scan writes many (one broker message per chunk)."""


class _NotificationInsert:
    """The INSERT of :func:`notify_many` for one database: its SQL built once per process and number of
    rows (up to :data:`INSERT_ROWS_BUILT`), each row's values prepared straight from its dict as
    ``Notification(...)``'s fields would give them (``pre_save`` then ``get_db_prep_save``; the columns
    a row does not name get their field's default, a constant prepared once), with no model instance:
    building one per row, and the column types of the ``VALUES`` list at every call, were most of a
    move's "your turn" row (the ORM's instances give the same parameters: tested)."""

    _built: dict[tuple, _NotificationInsert] = {}

    NAMED = (
        "state",
        "user_id",
        "kind",
        "key",
        "topic",
        "subject",
        "body",
        "link",
        "data",
        "send_after",
        "created_at",
    )
    """The columns a row's dict (or the write itself: state, created_at) gives."""

    @classmethod
    def of(cls, db) -> _NotificationInsert:
        key = (db.alias, db.vendor)
        if key not in cls._built:
            cls._built[key] = cls(db)
        return cls._built[key]

    def __init__(self, db) -> None:
        fields = [f for f in Notification._meta.concrete_fields if not f.primary_key]
        # [(attname, its get_db_prep_save, whether the row gives the value, else the default prepared once)]
        self.columns = []
        for f in fields:
            if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False):
                raise TypeError(f"{f}: pre_save would set it (write it through the ORM)")
            if f.attname in self.NAMED:
                self.columns.append((f.attname, f.get_db_prep_save, True, None))
            elif f.has_default() and callable(f.default):
                raise TypeError(f"{f}: a default made at each save (name it in NAMED)")
            else:
                self.columns.append((f.attname, f, False, f.get_db_prep_save(f.get_default(), db)))
        qn = db.ops.quote_name
        source, _params = bulk.rows(fields, [[None] * len(fields)])  # the default database's
        self.row = source.removeprefix("VALUES ")
        names = ", ".join(qn(f.column) for f in fields)
        self.head = f"INSERT INTO {qn(Notification._meta.db_table)} ({names}) VALUES "
        self.tail = f" ON CONFLICT DO NOTHING RETURNING {qn('id')}, {qn('state')}, {qn('kind')}"
        self._sql: dict[int, str] = {}

    def sql(self, count: int) -> str:
        sql = self._sql.get(count)
        if sql is None:
            sql = self.head + ", ".join([self.row] * count) + self.tail
            if count <= INSERT_ROWS_BUILT:
                self._sql[count] = sql
        return sql

    def values(self, row: dict, *, state: str, now, db) -> list:
        given = {
            "state": state,
            "user_id": row["recipient"],
            "kind": row["kind"],
            "key": row["key"],
            "topic": row.get("topic", ""),
            "subject": row.get("subject", "")[:200],
            "body": row.get("body", ""),
            "link": row.get("link", ""),
            "data": row.get("data") or {},
            "send_after": row.get("send_after") or now,
            "created_at": now,
        }
        return [prep(given[name], db) if named else constant for name, prep, named, constant in self.columns]


INSERT_ROWS_BUILT = 16
"""Up to this many rows, :func:`notify_many`'s INSERT text is kept per number of rows (a move writes one;
a scan's batches, more, are built at each call from the row's text kept once)."""


def notify_many(rows: list[dict], *, now: datetime.datetime | None = None) -> list[int]:
    """:func:`notify` for many rows at once (a scan's batch): ONE query whatever their number, rows
    whose ``key`` exists already skipped (exactly-once as with notify). Each row has ``recipient`` (a
    user id), ``kind``, ``key`` and optionally ``topic``, ``subject``, ``body``, ``link``, ``data``,
    ``send_after``. Queues the sending after the commit, SEND_CHUNK rows per task. Returns the new ids.
    Rows of a kind registered as in-site only (``notifications.EMAIL_NEVER``) are written as not
    e-mailed and queue nothing; rows of a swept kind (``Kind.swept``) wait for the minute's sweep."""
    if not rows:
        return []
    now = now or timezone.now()
    never = {
        row["kind"] for row in rows if notifications.kind_of(row["kind"]).email == notifications.EMAIL_NEVER
    }
    db = connections[DEFAULT_DB_ALIAS]
    insert = _NotificationInsert.of(db)
    params = []
    for row in rows:
        params += insert.values(
            row,
            state=NotificationState.SKIPPED if row["kind"] in never else NotificationState.PENDING,
            now=now,
            db=db,
        )
    with db.cursor() as cursor:
        cursor.execute(insert.sql(len(rows)), params)
        found = cursor.fetchall()
    ids = [row_id for row_id, _state, _kind in found]
    queued = [
        row_id
        for row_id, state, kind in found
        if state == NotificationState.PENDING and not notifications.kind_of(kind).swept
    ]
    if queued:
        from handsite.tasks import send_notifications

        for start in range(0, len(queued), SEND_CHUNK):
            send_notifications.delay_on_commit(queued[start : start + SEND_CHUNK])
    return ids


def mark_read(
    user, notification_id: int | None = None, *, topic: str | None = None, kind: str | None = None
) -> int:
    """Mark one notification of ``user`` read, or all about ``topic`` (of ``kind`` only, if given), or
    (none of these) all of them."""
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_id is not None:
        rows = rows.filter(pk=notification_id)
    if topic is not None:
        rows = rows.filter(topic=topic)
    if kind is not None:
        rows = rows.filter(kind=kind)
    return rows.update(read_at=timezone.now())


def mark_read_by_keys(keys: list[str]) -> int:
    """Mark the notifications with these exactly-once keys read, whoever they are for (what they told
    is gone: e.g. a chat message was deleted)."""
    if not keys:
        return 0
    return Notification.objects.filter(key__in=keys, read_at__isnull=True).update(read_at=timezone.now())


# --- The outbox: sending ------------------------------------------------------------------------


class PreparedHeader(str):
    """A header value written to the message as it is given: plain ASCII, already folded if at all. The
    e-mail package's own folding has two faults mail clients see: a long value without spaces (the
    unsubscribe URL) becomes RFC 2047 encoded words, which no client reads as a ``List-Unsubscribe``
    URL; and an encoded Arabic subject may be folded at a space, which is then outside any encoded word
    and dropped by the reader ("في بيت" read "فيبيت"). A value with ``name`` and ``fold`` is kept as
    it is by the policy (email.policy.EmailPolicy.header_store_parse)."""

    def __new__(cls, name: str, value: str):
        lines = value.split("\r\n")
        if not value.isascii() or "\n" in value.replace("\r\n", "") or any(len(line) > 900 for line in lines):
            raise ValueError(f"{name}: not a prepared ASCII header value")
        header = super().__new__(cls, value)
        header.name = name
        return header

    @classmethod
    def encoded(cls, name: str, text: str) -> PreparedHeader:
        """``text`` as RFC 2047 encoded words whose every space is inside a word (email.header's
        encoder, which folds between words it encoded whole)."""
        return cls(name, Header(text, "utf-8", header_name=name).encode(linesep="\r\n"))

    def __getnewargs__(self):  # copied (the test backend's outbox) and pickled as it was made
        return (self.name, str(self))

    def fold(self, *, policy) -> str:
        return f"{self.name}: {self.replace(chr(13) + chr(10), policy.linesep)}{policy.linesep}"


class NotificationMail(EmailMultiAlternatives):
    """A notification's e-mail, with a subject in another script encoded so that no space is lost."""

    def message(self, **kwargs):
        message = super().message(**kwargs)
        if not str(self.subject).isascii():
            message.replace_header("Subject", PreparedHeader.encoded("Subject", str(self.subject)))
        return message


def claim(notification_id: int, now: datetime.datetime) -> bool:
    """Pending -> sending, only if still pending and due. True for exactly one caller."""
    changed = Notification.objects.filter(
        pk=notification_id, state=NotificationState.PENDING, send_after__lte=now
    ).update(state=NotificationState.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    return changed == 1


def _claim_batch(notification: Notification, now: datetime.datetime) -> list[Notification]:
    """The same person's other pending rows (due or held) of a batched kind, or of any kind of its
    bundle (notifications.bundle_kinds), claimed too."""
    waiting = Notification.objects.filter(
        user_id=notification.user_id,
        kind__in=notifications.bundle_kinds(notification.kind),
        state=NotificationState.PENDING,
    ).exclude(pk=notification.pk)
    claimed = []
    for other_id in waiting.values_list("pk", flat=True)[:50]:
        changed = Notification.objects.filter(pk=other_id, state=NotificationState.PENDING).update(
            state=NotificationState.SENDING, claimed_at=now, attempts=F("attempts") + 1
        )
        if changed:
            claimed.append(other_id)
    return list(
        Notification.objects.filter(pk__in=claimed).select_related("user").order_by("created_at", "pk")
    )


def _finish(notification_ids, state: str, **fields) -> None:
    ids = [notification_ids] if isinstance(notification_ids, int) else list(notification_ids)
    Notification.objects.filter(pk__in=ids, state=NotificationState.SENDING).update(state=state, **fields)


def _unread_email_about(notification: Notification) -> bool:
    return (
        Notification.objects.filter(
            user_id=notification.user_id,
            topic=notification.topic,
            kind=notification.kind,
            state=NotificationState.SENT,
            read_at__isnull=True,
        )
        .exclude(pk=notification.pk)
        .exists()
    )


def _worth_sending(
    rows: list[Notification], pref, now: datetime.datetime
) -> tuple[list[Notification], list[Notification], list[Notification]]:
    """Split claimed rows into (to send, to skip, to keep waiting). Skipped: read on the site already,
    not wanted by e-mail, out of date, or an e-mail about the same topic is still unread. Waiting: a
    row the person's presence (or vacation) still holds (the first row was checked by the caller)."""
    keep, skip, later = [], [], []
    fresh = set(
        Notification.objects.filter(pk__in=[row.pk for row in rows], read_at__isnull=True).values_list(
            "pk", flat=True
        )
    )  # read now, not when claimed: a row read a moment ago is not sent
    for row in rows:
        kind = notifications.kind_of(row.kind)
        if row.pk not in fresh or not notifications.wants_email(pref, row.kind):
            skip.append(row)
            continue
        current = kind.still_current(row) if kind.still_current else True
        if not current or (kind.one_unread_email_per_topic and row.topic and _unread_email_about(row)):
            skip.append(row)
        elif notifications.held_until(row, pref, now) is not None:
            later.append(row)
        else:
            keep.append(row)
    return keep, skip, later


def deliver(notification_id: int, now: datetime.datetime | None = None) -> str:
    """Send one notification's e-mail if it is (still) wanted, with the same person's other waiting
    rows of a batched kind in the same e-mail. Returns what happened: "sent", "skipped" (not wanted,
    out of date, or an e-mail about it is unread), "waiting" (quiet hours, vacation, or the person is
    on the site), "retry" (sending failed; it stays pending for the beat task), "failed" (gave up) or
    "not_claimed" (someone else has it, or done)."""
    now = now or timezone.now()
    if not claim(notification_id, now):
        return "not_claimed"
    notification = Notification.objects.select_related("user").get(pk=notification_id)
    pref = notifications.preference_of(notification.user_id)
    user = notification.user
    from handsite.push.services import hand_over  # Web Push: a delivery row per device of the person

    if not hand_over(notification, pref, now):  # they chose push only (or neither) for this kind
        _finish(notification_id, NotificationState.SKIPPED)
        return "skipped"
    if not user.is_active or not user.email or not notifications.wants_email(pref, notification.kind):
        _finish(notification_id, NotificationState.SKIPPED)
        return "skipped"
    later = notifications.held_until(notification, pref, now) or notifications.quiet_until(pref, now)
    if later is not None:
        _finish(notification_id, NotificationState.PENDING, send_after=later, attempts=F("attempts") - 1)
        return "waiting"
    rows = [notification]
    if notifications.bundle_kinds(notification.kind):
        batch = _claim_batch(notification, now)
        # Each row the e-mail takes is handed over too (its push deliveries); push only: not e-mailed.
        push_only = [row.pk for row in batch if not hand_over(row, pref, now)]
        if push_only:
            _finish(push_only, NotificationState.SKIPPED)
        rows += [row for row in batch if row.pk not in push_only]
    rows, stale, held = _worth_sending(rows, pref, now)
    if stale:
        _finish(
            [row.pk for row in stale], NotificationState.SKIPPED, last_error="read, out of date or unread"
        )
    if held:
        _finish([row.pk for row in held], NotificationState.PENDING, attempts=F("attempts") - 1)
    if not rows:
        return "skipped"
    others = [row.pk for row in rows if row.pk != notification_id]
    try:
        email = notifications.render_email(rows, pref, now)
        if email is None:
            _finish([row.pk for row in rows], NotificationState.SKIPPED, last_error="nothing to say")
            return "skipped"
        message = NotificationMail(email.subject, email.text, email.from_email, [email.to])
        message.attach_alternative(email.html, "text/html")
        message.extra_headers = {
            "List-Unsubscribe": PreparedHeader("List-Unsubscribe", f"<{email.unsubscribe}>"),
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
        message.send()
    except Exception as error:  # SMTP and template errors alike: keep the row, try again later
        log.warning("notification %s: sending failed: %s", notification_id, error)
        _finish(others, NotificationState.PENDING, attempts=F("attempts") - 1)
        if notification_id not in [row.pk for row in rows]:
            return "retry"
        if notification.attempts >= notifications.MAX_ATTEMPTS:
            _finish(notification_id, NotificationState.FAILED, last_error=str(error)[:300])
            return "failed"
        backoff = datetime.timedelta(minutes=2**notification.attempts)
        _finish(
            notification_id, NotificationState.PENDING, send_after=now + backoff, last_error=str(error)[:300]
        )
        return "retry"
    _finish([row.pk for row in rows], NotificationState.SENT, sent_at=timezone.now(), last_error="")
    return "sent" if notification_id in [row.pk for row in rows] else "skipped"


def due_ids(now: datetime.datetime | None = None, limit: int = 500) -> list[int]:
    """Pending rows that may be sent now (the partial index on send_after WHERE state='pending')."""
    now = now or timezone.now()
    return list(
        Notification.objects.filter(state=NotificationState.PENDING, send_after__lte=now)
        .order_by("send_after")
        .values_list("pk", flat=True)[:limit]
    )


def release_stuck(now: datetime.datetime | None = None) -> int:
    """Rows left in ``sending`` by a worker that died go back to pending (at-least-once for that rare
    case: the e-mail may have left before the crash)."""
    now = now or timezone.now()
    return Notification.objects.filter(
        state=NotificationState.SENDING, claimed_at__lt=now - notifications.STUCK_AFTER
    ).update(state=NotificationState.PENDING, send_after=now)


PENDING_QUEUE_LIMIT = 20_000
"""Due rows one sweep queues at most (25 to a task: 800 small messages); the rest wait a minute."""


def queue_pending(now: datetime.datetime | None = None, limit: int = PENDING_QUEUE_LIMIT) -> dict[str, int]:
    """What the beat task does every minute: release rows a dead worker left in ``sending``, then queue
    every due pending row (turn e-mails, retries, held e-mails now due), SEND_CHUNK rows per task on the
    ``mail`` queue, so the mail workers send them side by side (a deadline scan's thousands of turn
    e-mails included). ONE query for the due rows. A row queued twice (a slow minute) is sent once:
    :func:`deliver` claims it."""
    from handsite.tasks import send_notifications

    now = now or timezone.now()
    released = release_stuck(now)
    due = list(
        Notification.objects.filter(state=NotificationState.PENDING, send_after__lte=now)
        .order_by("send_after")
        .values_list("pk", "user_id")[:limit]
    )
    for chunk in chunks_by_person(due, SEND_CHUNK):
        send_notifications.delay(chunk)
    return {"released": released, "queued": len(due)}


def chunks_by_person(due: list[tuple[int, int]], size: int) -> list[list[int]]:
    """The due rows' ids ((id, person) pairs, most overdue first) in chunks of about ``size``, every
    person's rows in one chunk: one task delivers them one after the other, so the first claims the
    person's others into its e-mail and two mail workers never send one person two e-mails in a sweep."""
    people: dict[int, list[int]] = {}
    for pk, user_id in due:
        people.setdefault(user_id, []).append(pk)
    chunks: list[list[int]] = [[]]
    for ids in people.values():
        if chunks[-1] and len(chunks[-1]) + len(ids) > size:
            chunks.append([])
        chunks[-1].extend(ids)
    return [chunk for chunk in chunks if chunk]


def deliver_pending(now: datetime.datetime | None = None, limit: int = 500) -> dict[str, int]:
    """Send what is pending and due in this process, one by one (tests, and a shell when the broker is
    away): the beat task queues them instead (:func:`queue_pending`)."""
    now = now or timezone.now()
    outcomes: dict[str, int] = {"released": release_stuck(now)}
    for notification_id in due_ids(now, limit):
        outcome = deliver(notification_id, now)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


def make_digests(now: datetime.datetime | None = None) -> list[int]:
    """One digest row per person with the digest on, once per local day, when something waits for
    them (the apps' digest sections say). Returns the new rows' ids (sending queued after the commit)."""
    now = now or timezone.now()
    made = []
    prefs = NotificationPreference.objects.filter(daily_digest=True, user__is_active=True)
    for pref in prefs.iterator():
        day = notifications.digest_due(pref, now)
        if day is None:
            continue
        key = notifications.digest_key(pref.user_id, day)
        if Notification.objects.filter(key=key).exists() or not notifications.digest_waiting(pref.user_id):
            continue
        notification = notify(
            recipient=pref.user_id,
            kind=NotificationKind.DIGEST,
            key=key,
            data={"day": day.isoformat()},
            send_after=now,
            now=now,
        )
        if notification is not None:
            made.append(notification.pk)
    return made
