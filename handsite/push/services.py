"""Web Push, the writes: a person's devices, their channel choices, and the push side of the outbox.

handsite's outbox calls :func:`hand_over` for each notification it delivers: it makes one
:class:`PushDelivery` row per device of the person (exactly once: a unique pair, inserted with ON
CONFLICT DO NOTHING), queues their sending after the commit and says whether the person still wants
that kind by e-mail. :func:`send` claims a row with a conditional UPDATE (pending -> sending), so a
repeated task or two workers push once; it waits as e-mails do (quiet hours, vacation, the person on the
site) and skips what is out of date or already seen. A push service answering 404 or 410 means the device
unsubscribed: its row goes. Other failures are retried with backoff by the minute's sweep.
"""

from __future__ import annotations

import datetime as dt
import json
import logging

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from handsite import notification_prefs, notifications
from handsite.models import Notification, NotificationPreference, NotificationState
from handsite.push import messages
from handsite.push.models import Channel, ChannelChoice, PushDelivery, PushState, PushSubscription
from handsite.services import claims
from handsite.services.task_queue import queue_after_commit
from handsite.webhooks.services import ping_for

log = logging.getLogger(__name__)

STUCK_AFTER = dt.timedelta(minutes=10)
"""A delivery left in ``sending`` this long belongs to a worker that died."""
GONE = (404, 410)
"""A push service's answers that mean the device's subscription is no more."""


class PushError(Exception):
    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


# --- Devices and choices ---------------------------------------------------------------------------


def subscribe(user, *, endpoint: str, p256dh: str, auth: str, user_agent: str = "") -> PushSubscription:
    """This device takes pushes for ``user`` (again: the same endpoint updates its row; a device
    someone else used before is theirs no more). Raises PushError when push is off or the browser's
    subscription is not usable."""
    if not messages.enabled():
        raise PushError(_("Push notifications are not set up on this site."))
    if (
        not messages.valid_endpoint(endpoint)
        or not p256dh
        or not auth
        or len(p256dh) > 200
        or len(auth) > 100
    ):
        raise PushError(_("This browser's push subscription could not be used. Try again."))
    fields = {"user": user, "p256dh": p256dh, "auth": auth, "label": messages.device_label(user_agent)[:100]}
    try:
        with transaction.atomic():
            subscription, _made = PushSubscription.objects.update_or_create(
                endpoint=endpoint, defaults=fields
            )
    except IntegrityError:  # two taps at once: the other one made it
        subscription = PushSubscription.objects.get(endpoint=endpoint)
    return subscription


def remove_device(user, subscription_id: int) -> bool:
    """The person removes one of their devices (nothing is pushed to it any more)."""
    removed, _detail = PushSubscription.objects.filter(pk=subscription_id, user=user).delete()
    return bool(removed)


def devices_of(user) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(user=user))


def channels_of(user_id: int) -> dict[str, str]:
    """The person's choice per topic (every registered topic; "both" where they chose nothing)."""
    chosen = dict(ChannelChoice.objects.filter(user_id=user_id).values_list("topic", "channel"))
    return {topic.name: chosen.get(topic.name, Channel.BOTH) for topic in messages.topics()}


def set_channels(user, choices: dict[str, str]) -> None:
    for topic, channel in choices.items():
        if topic in messages.TOPICS and channel in Channel.values:
            ChannelChoice.objects.update_or_create(user=user, topic=topic, defaults={"channel": channel})


# --- The outbox's side ------------------------------------------------------------------------------


def hand_over(notification: Notification, pref, now: dt.datetime) -> bool:
    """Called by the outbox as it delivers ``notification`` (its one hook): one delivery row per device
    of the person (with, for a batched kind, their other waiting rows of that kind, which the same e-mail
    takes), their sending queued after the commit. Returns whether the person still wants this kind by
    e-mail (their channel choice; with push off, always True). The group's chat ping, if the kind has
    one, goes too."""
    ping_for(notification, now)
    if not messages.enabled():
        return True
    topic = messages.topic_of(notification.kind)
    if topic is None:
        return True
    channel = (
        ChannelChoice.objects.filter(user_id=notification.user_id, topic=topic)
        .values_list("channel", flat=True)
        .first()
    ) or Channel.BOTH
    if channel in (Channel.PUSH, Channel.BOTH):
        ids = [notification.pk]
        if notifications.kind_of(notification.kind).batch:
            ids += (
                Notification.objects.filter(
                    user_id=notification.user_id,
                    kind=notification.kind,
                    state__in=[NotificationState.PENDING, NotificationState.SENDING],
                )
                .exclude(pk=notification.pk)
                .values_list("pk", flat=True)[:50]
            )
        made = fan_out(notification.user_id, ids, now)
        if made:
            queue_after_commit("handsite.push.tasks.send_pushes", made)
    return channel in (Channel.EMAIL, Channel.BOTH)


def hand_over_in_site(notification_ids: list[int], *, unless_present: bool = False, now=None) -> list[int]:
    """Notifications of kinds the outbox never e-mails (a chat message, a game's end) still go by push
    to the people whose channel choice for their kind includes push: one delivery per device, sent after
    the commit (held, like the others, while the person is on the site). ``unless_present``: someone on
    the site now gets none (they see it there). Returns the ids of the deliveries made."""
    if not notification_ids or not messages.enabled():
        return []
    now = now or timezone.now()
    rows = list(Notification.objects.filter(pk__in=notification_ids).values_list("pk", "user_id", "kind"))
    users = {user_id for _pk, user_id, _kind in rows}
    chosen = {
        (user_id, topic): channel
        for user_id, topic, channel in ChannelChoice.objects.filter(user_id__in=users).values_list(
            "user_id", "topic", "channel"
        )
    }
    if unless_present:
        users -= set(
            NotificationPreference.objects.filter(
                user_id__in=users, last_seen_at__gt=now - notification_prefs.PRESENT_FOR
            ).values_list("user_id", flat=True)
        )
    wanted: dict[int, list[int]] = {}
    for pk, user_id, kind in rows:
        topic = messages.topic_of(kind)
        if user_id in users and topic and chosen.get((user_id, topic), Channel.BOTH) in PUSHED:
            wanted.setdefault(user_id, []).append(pk)
    made = [delivery for user_id, ids in wanted.items() for delivery in fan_out(user_id, ids, now)]
    if made:
        queue_after_commit("handsite.push.tasks.send_pushes", made)
    return made


PUSHED = (Channel.PUSH, Channel.BOTH)


def fan_out(user_id: int, notification_ids: list[int], now: dt.datetime) -> list[int]:
    """One pending delivery per (notification, device of the person); pairs made before add nothing.
    Returns the ids of the rows made now."""
    devices = list(PushSubscription.objects.filter(user_id=user_id).values_list("pk", flat=True))
    if not devices or not notification_ids:
        return []
    before = set(
        PushDelivery.objects.filter(notification_id__in=notification_ids).values_list("pk", flat=True)
    )
    PushDelivery.objects.bulk_create(
        [
            PushDelivery(notification_id=n, subscription_id=d, send_after=now, created_at=now)
            for n in notification_ids
            for d in devices
        ],
        ignore_conflicts=True,
    )
    after = PushDelivery.objects.filter(notification_id__in=notification_ids).values_list("pk", flat=True)
    return sorted(set(after) - before)


def claim(delivery_id: int, now: dt.datetime) -> bool:
    """Pending -> sending, only if still pending and due. True for exactly one caller."""
    return claims.claim(PushDelivery, delivery_id, now)


def _finish(delivery_id: int, state: str, **fields) -> None:
    claims.finish(PushDelivery, delivery_id, state, **fields)


def _held_until(notification: Notification, pref, now: dt.datetime) -> dt.datetime | None:
    """When a push must wait: as the e-mail would (vacation, the grace after the person left, quiet
    hours); and nothing is pushed while the person is on the site (their page polls)."""
    later = notifications.held_until(notification, pref, now) or notification_prefs.quiet_until(pref, now)
    if later is not None:
        return later
    seen = pref.last_seen_at
    if seen is not None and seen > now - notification_prefs.PRESENT_FOR:
        return seen + notification_prefs.PRESENT_FOR
    return None


def _pushed_unread(delivery: PushDelivery) -> bool:
    """A push about the same thing reached this device and the person has not opened it yet."""
    notification = delivery.notification
    return (
        PushDelivery.objects.filter(
            subscription_id=delivery.subscription_id,
            state=PushState.SENT,
            notification__kind=notification.kind,
            notification__topic=notification.topic,
            notification__read_at__isnull=True,
        )
        .exclude(pk=delivery.pk)
        .exists()
    )


def _worth_pushing(delivery: PushDelivery) -> bool:
    notification = delivery.notification
    if notification.read_at is not None or not notification.user.is_active:
        return False  # opened on the site already
    kind = notifications.kind_of(notification.kind)
    if kind.still_current is not None and not kind.still_current(notification):
        return False
    push_kind = messages.PUSH_KINDS.get(notification.kind)
    return not (push_kind and push_kind.once_until_read and notification.topic and _pushed_unread(delivery))


def send(delivery_id: int, now: dt.datetime | None = None) -> str:
    """Push one delivery to its device if it is (still) wanted. Returns what happened: "sent",
    "skipped", "waiting", "gone" (the device unsubscribed: its row is removed), "retry", "failed" or
    "not_claimed"."""
    from pywebpush import WebPushException, webpush

    now = now or timezone.now()
    if not claim(delivery_id, now):
        return "not_claimed"
    delivery = PushDelivery.objects.select_related("notification__user", "subscription").get(pk=delivery_id)
    notification = delivery.notification
    pref = notification_prefs.preference_of(notification.user_id)
    if not messages.enabled() or not _worth_pushing(delivery):
        _finish(delivery_id, PushState.SKIPPED)
        return "skipped"
    later = _held_until(notification, pref, now)
    if later is not None:
        _finish(delivery_id, PushState.PENDING, send_after=later, attempts=F("attempts") - 1)
        return "waiting"
    data = messages.payload([notification], pref, now)
    if data is None:
        _finish(delivery_id, PushState.SKIPPED, last_error="nothing to say")
        return "skipped"
    subscription = delivery.subscription
    try:
        webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(data, ensure_ascii=False),
            vapid_private_key=settings.HANDSITE_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.HANDSITE_VAPID_SUBJECT},
            ttl=messages.TTL,
            timeout=messages.SENDING_TIMEOUT,
        )
    except Exception as error:  # the push service refused, timed out or is down
        status = getattr(getattr(error, "response", None), "status_code", None)
        if isinstance(error, WebPushException) and status in GONE:
            PushSubscription.objects.filter(pk=subscription.pk).delete()
            return "gone"
        reason = f"{type(error).__name__}: HTTP {status}" if status else type(error).__name__
        log.warning("push delivery %s failed: %s", delivery_id, reason)  # never the endpoint (a secret URL)
        if delivery.attempts >= messages.MAX_ATTEMPTS:
            _finish(delivery_id, PushState.FAILED, last_error=reason[:300])
            return "failed"
        backoff = dt.timedelta(minutes=2**delivery.attempts)
        _finish(delivery_id, PushState.PENDING, send_after=now + backoff, last_error=reason[:300])
        return "retry"
    _finish(delivery_id, PushState.SENT, sent_at=timezone.now(), last_error="")
    PushSubscription.objects.filter(pk=subscription.pk).update(last_sent_at=now)
    return "sent"


def due_ids(now: dt.datetime | None = None, limit: int = 500) -> list[int]:
    return claims.due_ids(PushDelivery, now or timezone.now(), limit)


def release_stuck(now: dt.datetime | None = None) -> int:
    return claims.release_stuck(PushDelivery, now or timezone.now(), STUCK_AFTER)


def send_pending(now: dt.datetime | None = None, limit: int = 500) -> dict[str, int]:
    """Send what is due in this process (tests, a shell); the beat task queues them instead."""
    now = now or timezone.now()
    outcomes: dict[str, int] = {"released": release_stuck(now)}
    for delivery_id in due_ids(now, limit):
        outcome = send(delivery_id, now)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
