"""Signals handsite sends to the apps built on it (handsite imports none of them).

- ``vacation_started(user, now, until)``: a person's vacation began or was extended, inside the
  booking's transaction (games pauses the deadlines of their turns).
- ``vacation_ended(user, now, old_until)``: they came back early, inside the transaction.
"""

from django.dispatch import Signal

vacation_started = Signal()
vacation_ended = Signal()
