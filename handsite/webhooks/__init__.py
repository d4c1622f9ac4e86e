"""Group chat pings: one outgoing webhook per group, set by an owner or admin (Discord, Slack,
a Telegram bot or a generic JSON POST). "Samir, your turn in Hand #12 (Diwaniya Friday)" with a link,
posted by a Celery task, retried, and turned off after repeated failures with a note to the admin.

The URL is a secret: written once by the admin, never shown in a page again, never logged. Requests go
only to http(s) URLs and wait 5 s at most. Apps register what a notification kind pings
(:func:`handsite.webhooks.messages.register`; games: ``games/push.py``).
"""
