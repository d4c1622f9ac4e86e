"""The one writer of handsite, by concern: people's accounts (:mod:`.accounts`), groups and their members
(:mod:`.groups`), invitations (:mod:`.invitations`), notification preferences and vacations
(:mod:`.preferences`), the notification outbox (:mod:`.outbox` writes rows, :mod:`.delivery` sends them),
every other e-mail (:mod:`.email_outbox`), the claim every outbox shares (:mod:`.claims`) and the Celery
tasks a change queues (:mod:`.task_queue`). Views, forms, the allauth adapter and tasks stay thin and call
these; other apps call :func:`.outbox.notify` (never write handsite's rows).
``tests/handsite/test_one_writer.py`` fails if a view, form or adapter module writes a row itself.

A service queues its Celery tasks by name (:mod:`.task_queue`) and never imports a tasks module: the
tasks import the services.
"""
