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

from django.conf import settings
from django.core.mail import EmailMultiAlternatives, send_mail
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from handsite import bulk, fastjson, notifications, signals
from handsite.backends import auth_cache, user_key
from handsite.i18n import language_for_address
from handsite.links import absolute_url
from handsite.models import (
    Invitation,
    Membership,
    Notification,
    NotificationKind,
    NotificationPreference,
    NotificationState,
    PlayerGroup,
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
        forget_user(user.pk)  # update() sends no post_save: the cached copy of the user goes by hand


def forget_user(user_id, *, using: str = "default") -> None:
    """Drop the cached copy of the user ``user_id`` (handsite/backends.py; with Redis only): now, and
    again once the transaction commits (a request between the two reads the row as it was before the
    change, and must not keep it)."""
    cache = auth_cache()
    if cache is None or user_id is None:
        return
    key = user_key(user_id)
    cache.delete(key)
    if connections[using].in_atomic_block:
        transaction.on_commit(lambda: auth_cache() and auth_cache().delete(key), using=using)


def user_changed(sender, instance, using="default", **kwargs):
    """post_save and post_delete of the user model (connected in apps.py)."""
    forget_user(instance.pk, using=using)


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


def claim_invitation_email(invitation_id: int) -> Invitation | None:
    """The e-mail invitation to send, claimed with a conditional update (a repeated task sends
    nothing); None if it is sent, revoked or gone."""
    claimed = Invitation.objects.filter(
        pk=invitation_id, sent_at__isnull=True, revoked_at__isnull=True
    ).update(sent_at=timezone.now())
    if not claimed:
        return None
    return Invitation.objects.select_related("group", "created_by").get(pk=invitation_id)


def release_invitation_email(invitation_id: int) -> None:
    """Sending failed: the invitation may be claimed again by the retry."""
    Invitation.objects.filter(pk=invitation_id).update(sent_at=None)


def send_invitation_email(invitation_id: int) -> bool:
    """Send an e-mail invitation once (raises OSError, after releasing the claim, if sending failed)."""
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
    try:
        send_mail(subject, body, None, [invitation.email])
    except OSError:
        release_invitation_email(invitation_id)
        raise
    return True


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
    """Every e-mail off (the in-site list stays)."""
    pref = notifications.preference_of(user_id)
    if pref.pk is None:
        from django.contrib.auth import get_user_model

        pref = preference_for(get_user_model().objects.get(pk=user_id))
    NotificationPreference.objects.filter(pk=pref.pk).update(
        your_turn_email=False, reminders=False, daily_digest=False
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
                self.columns.append((f.attname, fastjson.saver(f, db), True, None))
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
    # A kept size's INSERT on PostgreSQL: bound on the server and so prepared on a kept connection (the
    # site's backend, handsite/postgresql/base.py), as a move's other statements; a scan's larger batch
    # is bound on the client, as Django's cursors do (each size would be another prepared statement).
    prepared = getattr(db, "prepared_cursor", None) if len(rows) <= INSERT_ROWS_BUILT else None
    with prepared() if prepared is not None else db.cursor() as cursor:
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


def claim(notification_id: int, now: datetime.datetime) -> bool:
    """Pending -> sending, only if still pending and due. True for exactly one caller."""
    changed = Notification.objects.filter(
        pk=notification_id, state=NotificationState.PENDING, send_after__lte=now
    ).update(state=NotificationState.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    return changed == 1


def _claim_batch(notification: Notification, now: datetime.datetime) -> list[Notification]:
    """The same person's other pending rows of a batched kind (due or held), claimed too."""
    waiting = Notification.objects.filter(
        user_id=notification.user_id, kind=notification.kind, state=NotificationState.PENDING
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


def _worth_sending(rows: list[Notification]) -> tuple[list[Notification], list[Notification]]:
    """Split claimed rows into (to send, to skip): out of date, or an e-mail about the same topic
    is still unread."""
    keep, skip = [], []
    for row in rows:
        kind = notifications.kind_of(row.kind)
        current = kind.still_current(row) if kind.still_current else True
        if not current or (kind.one_unread_email_per_topic and row.topic and _unread_email_about(row)):
            skip.append(row)
        else:
            keep.append(row)
    return keep, skip


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
    if notifications.kind_of(notification.kind).batch:
        rows += _claim_batch(notification, now)
    rows, stale = _worth_sending(rows)
    if stale:
        _finish([row.pk for row in stale], NotificationState.SKIPPED, last_error="out of date or unread")
    if not rows:
        return "skipped"
    others = [row.pk for row in rows if row.pk != notification_id]
    try:
        email = notifications.render_email(rows, pref, now)
        if email is None:
            _finish([row.pk for row in rows], NotificationState.SKIPPED, last_error="nothing to say")
            return "skipped"
        message = EmailMultiAlternatives(email.subject, email.text, None, [email.to])
        message.attach_alternative(email.html, "text/html")
        message.extra_headers = {
            "List-Unsubscribe": f"<{email.unsubscribe}>",
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
    due = due_ids(now, limit)
    for start in range(0, len(due), SEND_CHUNK):
        send_notifications.delay(due[start : start + SEND_CHUNK])
    return {"released": released, "queued": len(due)}


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
