"""Notifications: preferences, the outbox, sending e-mails exactly once, quiet hours, digests, unsubscribe.

The outbox: every notification is a :class:`~handsite.models.Notification` row, written in the same
transaction as the change that caused it (a move: :func:`record_turn`, one INSERT ... SELECT). After the
commit a Celery task (:func:`handsite.tasks.send_notification`) calls :func:`deliver`; a beat task every
minute calls it for anything still pending (broker down, worker crashed). :func:`deliver` claims the row
with a conditional UPDATE (pending -> sending) and only the one call that changed the row sends, so a
retried or duplicated task, or two workers, send one e-mail.

This module knows games only through the Notification row's foreign key (it never imports games).
"""

from __future__ import annotations

import datetime as dt
import logging
import zoneinfo
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, connection, transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from handsite.i18n import language_of
from handsite.links import absolute_url
from handsite.models import Notification, NotificationKind, NotificationPreference, NotificationState

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
"""After this many failed attempts a notification is marked failed (the in-site line stays)."""
STUCK_AFTER = dt.timedelta(minutes=10)
"""A row left in ``sending`` this long belongs to a worker that died (well past the hard time limit)."""
UNSUBSCRIBE_SALT = "handsite.notifications.unsubscribe"
TURN_KINDS = (NotificationKind.YOUR_TURN, NotificationKind.REMINDER, NotificationKind.LOW_TIME)


class PreferenceError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# --- Preferences ---------------------------------------------------------------------------------


def preference_for(user) -> NotificationPreference:
    pref = NotificationPreference.objects.filter(user=user).first()
    if pref is None:
        try:
            with transaction.atomic():
                pref = NotificationPreference.objects.create(user=user, time_zone=settings.TIME_ZONE)
        except IntegrityError:
            pref = NotificationPreference.objects.get(user=user)
    return pref


def preference_of_user_id(user_id: int) -> NotificationPreference:
    pref = NotificationPreference.objects.filter(user_id=user_id).first()
    if pref is None:
        from django.contrib.auth import get_user_model

        pref = preference_for(get_user_model().objects.get(pk=user_id))
    return pref


def zone_of(pref: NotificationPreference) -> zoneinfo.ZoneInfo:
    try:
        return zoneinfo.ZoneInfo(pref.time_zone)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def quiet_until(pref: NotificationPreference, now: dt.datetime) -> dt.datetime | None:
    """The end of the quiet hours ``now`` falls in (aware), or None when sending is fine now.

    Quiet hours are wall-clock times in the person's own time zone; a span may cross midnight
    (22:00-07:00). Equal start and end mean no quiet hours."""
    start, end = pref.quiet_start, pref.quiet_end
    if start is None or end is None or start == end:
        return None
    zone = zone_of(pref)
    local = now.astimezone(zone)
    clock = local.time().replace(tzinfo=None)
    if start < end:
        quiet = start <= clock < end
        end_day = local.date()
    else:  # crosses midnight
        quiet = clock >= start or clock < end
        end_day = local.date() + dt.timedelta(days=1) if clock >= start else local.date()
    if not quiet:
        return None
    naive_end = dt.datetime.combine(end_day, end)
    return naive_end.replace(tzinfo=zone).astimezone(dt.UTC)


def wants_email(pref: NotificationPreference, kind: str) -> bool:
    """Whether this kind of notification goes out by e-mail for this person (the in-site list gets
    every notification). The daily digest replaces the turn e-mails and reminders; the low-time warning
    and "time ran out" follow the reminder setting."""
    if kind == NotificationKind.DIGEST:
        return pref.daily_digest
    if pref.daily_digest:
        return False
    if kind == NotificationKind.YOUR_TURN:
        return pref.your_turn_email
    return pref.reminders


# --- Writing notifications -----------------------------------------------------------------------


def record_turn(*, game_id: int, seat: int, turn: int, now: dt.datetime | None = None) -> int | None:
    """The "your turn" intent for the person at ``seat`` (nothing for a bot or an empty seat), in the
    caller's transaction, with ONE query: INSERT ... SELECT from the seat, ON CONFLICT DO NOTHING.
    Queues the sending task for after the commit. Returns the new row's id (None: nothing written)."""
    from games.models import Seat  # the seat table's name only; this module writes no game row

    now = now or timezone.now()
    table, seats = Notification._meta.db_table, Seat._meta.db_table
    stamp = connection.ops.adapt_datetimefield_value(now)
    sql = (
        f"INSERT INTO {table} (user_id, kind, game_id, seat, turn, number, state, send_after, attempts, "
        f"last_error, created_at) SELECT s.user_id, %s, s.game_id, s.number, %s, 0, %s, %s, 0, '', %s "
        f"FROM {seats} s WHERE s.game_id = %s AND s.number = %s AND s.bot = %s AND s.user_id IS NOT NULL "
        f"ON CONFLICT DO NOTHING RETURNING id"
    )
    params = [NotificationKind.YOUR_TURN, turn, NotificationState.PENDING, stamp, stamp, game_id, seat, False]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        return None
    queue_sending(row[0])
    return row[0]


def notify(
    *,
    user_id: int,
    kind: str,
    game_id: int | None = None,
    seat: int | None = None,
    turn: int | None = None,
    number: int = 0,
    day: dt.date | None = None,
    send_after: dt.datetime | None = None,
) -> Notification | None:
    """Write a notification (and queue its sending after the commit); None if it exists already."""
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                user_id=user_id,
                kind=kind,
                game_id=game_id,
                seat=seat,
                turn=turn,
                number=number,
                day=day,
                send_after=send_after or timezone.now(),
            )
    except IntegrityError:
        return None
    queue_sending(notification.pk)
    return notification


def queue_sending(notification_id: int) -> None:
    from handsite.tasks import send_notification

    send_notification.delay_on_commit(notification_id)


# --- Sending -------------------------------------------------------------------------------------


@dataclass
class Email:
    subject: str
    text: str
    html: str
    to: str
    unsubscribe: str


def claim(notification_id: int, now: dt.datetime) -> bool:
    """Pending -> sending, only if still pending and due. True for exactly one caller."""
    changed = Notification.objects.filter(
        pk=notification_id, state=NotificationState.PENDING, send_after__lte=now
    ).update(state=NotificationState.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    return changed == 1


def _finish(notification_id: int, state: str, **fields) -> None:
    Notification.objects.filter(pk=notification_id, state=NotificationState.SENDING).update(
        state=state, **fields
    )


def _obsolete(notification: Notification) -> bool:
    """A turn notification whose turn is over (or game ended) is not e-mailed any more."""
    if notification.kind not in TURN_KINDS:
        return False
    game = notification.game
    return (
        game is None
        or game.status != "active"
        or game.turn_version != notification.turn
        or game.turn_seat != notification.seat
    )


def deliver(notification_id: int, now: dt.datetime | None = None) -> str:
    """Send one notification's e-mail if it is (still) wanted. Returns what happened: "sent",
    "skipped" (not wanted, or out of date), "waiting" (quiet hours), "retry" (sending failed; it stays
    pending for the beat task), "failed" (gave up) or "not_claimed" (someone else has it, or done)."""
    now = now or timezone.now()
    if not claim(notification_id, now):
        return "not_claimed"
    notification = Notification.objects.select_related("user", "game__group").get(pk=notification_id)
    pref = preference_of_user_id(notification.user_id)
    if (
        not notification.user.is_active
        or not notification.user.email
        or not wants_email(pref, notification.kind)
    ):
        _finish(notification_id, NotificationState.SKIPPED)
        return "skipped"
    if _obsolete(notification):
        _finish(notification_id, NotificationState.SKIPPED, last_error="the turn is over")
        return "skipped"
    later = quiet_until(pref, now)
    if later is not None:
        _finish(notification_id, NotificationState.PENDING, send_after=later, attempts=F("attempts") - 1)
        return "waiting"
    try:
        email = render_email(notification, pref, now)
        message = EmailMultiAlternatives(email.subject, email.text, None, [email.to])
        message.attach_alternative(email.html, "text/html")
        message.extra_headers = {
            "List-Unsubscribe": f"<{email.unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        }
        message.send()
    except Exception as error:  # SMTP and template errors alike: keep the row, try again later
        log.warning("notification %s: sending failed: %s", notification_id, error)
        attempts = notification.attempts
        if attempts >= MAX_ATTEMPTS:
            _finish(notification_id, NotificationState.FAILED, last_error=str(error)[:300])
            return "failed"
        backoff = dt.timedelta(minutes=2**attempts)
        _finish(
            notification_id, NotificationState.PENDING, send_after=now + backoff, last_error=str(error)[:300]
        )
        return "retry"
    _finish(notification_id, NotificationState.SENT, sent_at=timezone.now(), last_error="")
    return "sent"


def due_ids(now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    """Pending rows that may be sent now (the partial index on send_after WHERE state='pending')."""
    now = now or timezone.now()
    return list(
        Notification.objects.filter(state=NotificationState.PENDING, send_after__lte=now)
        .order_by("send_after")
        .values_list("pk", flat=True)[:limit]
    )


def release_stuck(now: dt.datetime | None = None) -> int:
    """Rows left in ``sending`` by a worker that died go back to pending (at-least-once for that rare
    case: the e-mail may have left before the crash)."""
    now = now or timezone.now()
    return Notification.objects.filter(
        state=NotificationState.SENDING, claimed_at__lt=now - STUCK_AFTER
    ).update(state=NotificationState.PENDING, send_after=now)


def deliver_pending(now: dt.datetime | None = None, limit: int = 500) -> dict[str, int]:
    """What the beat task does every minute."""
    now = now or timezone.now()
    outcomes: dict[str, int] = {"released": release_stuck(now)}
    for notification_id in due_ids(now, limit):
        outcome = deliver(notification_id, now)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


# --- E-mail contents -----------------------------------------------------------------------------


def unsubscribe_token(user) -> str:
    return signing.dumps({"u": user.pk}, salt=UNSUBSCRIBE_SALT, compress=True)


def user_id_from_token(token: str) -> int | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    user_id = data.get("u") if isinstance(data, dict) else None
    return user_id if isinstance(user_id, int) else None


def unsubscribe(user_id: int) -> NotificationPreference:
    """Every e-mail off (the in-site list stays)."""
    pref = preference_of_user_id(user_id)
    NotificationPreference.objects.filter(pk=pref.pk).update(
        your_turn_email=False, reminders=False, daily_digest=False
    )
    pref.refresh_from_db()
    return pref


def turn_games(user_id: int):
    """Active games where it is this person's turn, soonest deadline first (no deadline last)."""
    from games.models import Game  # reading only

    return (
        Game.objects.filter(
            status="active", seats__user_id=user_id, seats__bot=False, seats__number=F("turn_seat")
        )
        .select_related("group")
        .order_by(F("deadline_at").asc(nulls_last=True), "pk")
    )


def _local(when, zone):
    return timezone.localtime(when, zone) if when else None


def render_email(notification: Notification, pref: NotificationPreference, now: dt.datetime) -> Email:
    zone = zone_of(pref)
    user = notification.user
    unsubscribe_link = absolute_url(reverse("notifications_unsubscribe", args=[unsubscribe_token(user)]))
    context = {
        "user": user,
        "notification": notification,
        "kind": notification.kind,
        "unsubscribe_link": unsubscribe_link,
        "settings_link": absolute_url(reverse("notification_settings")),
        "zone": zone,
    }
    if notification.kind == NotificationKind.DIGEST:
        games = [
            {
                "game": game,
                "name": f"{game.group.name}: {game}",
                "link": absolute_url(game.get_absolute_url()),
                "deadline": _local(game.deadline_at, zone),
            }
            for game in turn_games(user.pk)
        ]
        context["games"] = games
    else:
        game = notification.game
        context.update(
            game=game,
            game_name=f"{game.group.name}: {game}" if game else "",
            link=absolute_url(game.get_absolute_url()) if game else absolute_url("/"),
            deadline=_local(game.deadline_at, zone) if game else None,
        )
    with translation.override(language_of(user)):  # the reader's language, whoever made the move
        subject = " ".join(render_to_string("handsite/email/notification_subject.txt", context).split())
        text = render_to_string("handsite/email/notification_body.txt", context)
        html = render_to_string("handsite/email/notification_body.html", context)
    return Email(subject=subject, text=text, html=html, to=user.email, unsubscribe=unsubscribe_link)


# --- Daily digest --------------------------------------------------------------------------------


def digest_due(pref: NotificationPreference, now: dt.datetime) -> dt.date | None:
    """The person's local date if their digest hour has come today (and it is not quiet now)."""
    local = now.astimezone(zone_of(pref))
    if local.hour < pref.digest_hour or quiet_until(pref, now) is not None:
        return None
    return local.date()


def make_digests(now: dt.datetime | None = None) -> list[int]:
    """One digest row per person with the digest on, once per local day, when it is their turn
    somewhere. Returns the new rows' ids (their sending is queued after the commit)."""
    now = now or timezone.now()
    made = []
    prefs = NotificationPreference.objects.filter(daily_digest=True, user__is_active=True)
    for pref in prefs.iterator():
        day = digest_due(pref, now)
        if day is None or Notification.objects.filter(user_id=pref.user_id, kind="digest", day=day).exists():
            continue
        if not turn_games(pref.user_id).exists():
            continue
        notification = notify(user_id=pref.user_id, kind=NotificationKind.DIGEST, day=day, send_after=now)
        if notification is not None:
            made.append(notification.pk)
    return made


# --- The in-site list ----------------------------------------------------------------------------


def unread_count(user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def notifications_of(user, limit: int = 100):
    return Notification.objects.filter(user=user).select_related("game__group")[:limit]


def mark_read(user, notification_id: int | None = None) -> int:
    """Mark one (or, without an id, every) notification of ``user`` read."""
    rows = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_id is not None:
        rows = rows.filter(pk=notification_id)
    return rows.update(read_at=timezone.now())


def describe(notification: Notification) -> str:
    """One line for the in-site list."""
    game = notification.game
    name = f"{game.group.name}: {game}" if game else ""
    if notification.kind == NotificationKind.YOUR_TURN:
        return _("Your turn in %(game)s.") % {"game": name}
    if notification.kind == NotificationKind.REMINDER:
        return _("Still your turn in %(game)s.") % {"game": name}
    if notification.kind == NotificationKind.LOW_TIME:
        return _("Your time is running out in %(game)s.") % {"game": name}
    if notification.kind == NotificationKind.TIMED_OUT:
        return _("Your time ran out in %(game)s; the game's timeout rule moved for you.") % {"game": name}
    return _("Your daily digest of games waiting for you.")


# --- Vacation (the preference side; games/deadlines.py pauses the deadlines) --------------------


def vacation_allowance() -> int:
    return settings.HANDSITE_VACATION_DAYS_PER_YEAR


def days_left(pref: NotificationPreference, now: dt.datetime) -> int:
    used = pref.vacation_days_used if pref.vacation_year == now.year else 0
    return max(vacation_allowance() - used, 0)


@transaction.atomic
def book_vacation(user, days: int, now: dt.datetime | None = None) -> NotificationPreference:
    """Start (or extend) a vacation of ``days`` days from now. Raises PreferenceError."""
    now = now or timezone.now()
    pref = NotificationPreference.objects.select_for_update().get(pk=preference_for(user).pk)
    if days < 1:
        raise PreferenceError(_("Choose at least one day."))
    if pref.vacation_year != now.year:
        pref.vacation_year, pref.vacation_days_used = now.year, 0
    left = vacation_allowance() - pref.vacation_days_used
    if days > left:
        raise PreferenceError(_("You have %(left)s vacation days left this year.") % {"left": max(left, 0)})
    start = pref.vacation_until if pref.on_vacation(now) else now
    if not pref.on_vacation(now):
        pref.vacation_started_at = now
    pref.vacation_until = start + dt.timedelta(days=days)
    pref.vacation_days_used += days
    pref.save()
    return pref


@transaction.atomic
def cancel_vacation(
    user, now: dt.datetime | None = None
) -> tuple[NotificationPreference, dt.datetime | None]:
    """End the vacation now; whole unused days go back. Returns (preference, the old end or None)."""
    now = now or timezone.now()
    pref = NotificationPreference.objects.select_for_update().get(pk=preference_for(user).pk)
    if not pref.on_vacation(now):
        return pref, None
    old_until = pref.vacation_until
    unused = int((old_until - now) / dt.timedelta(days=1))
    if pref.vacation_year == now.year:
        pref.vacation_days_used = max(pref.vacation_days_used - unused, 0)
    pref.vacation_until = now
    pref.save()
    return pref, old_until
