"""Web Push: the app on the phone.

- ``models``: a person's devices (one subscription row each), the delivery rows (one per notification and
  device, the push side of the outbox) and the per-kind choice of channel (e-mail, push, both, none).
- ``messages``: the read side: whether push is on (VAPID keys set), what each kind says in a push (apps
  register their own wording, as they do for e-mails) and the badge count.
- ``services``: every write (subscribing, removing a device, handing a notification to the devices,
  claiming and sending a delivery).
- ``tasks``: the Celery tasks that send; ``views``: the device endpoints, the web app manifest, the
  service worker at ``/sw.js`` and the offline page.

handsite's outbox hands each notification it delivers to :func:`handsite.push.services.hand_over` (one
call in ``handsite.services.delivery.deliver``); nothing else in the outbox knows about push.
"""
