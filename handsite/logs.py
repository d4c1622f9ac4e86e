"""The handler that e-mails errors to ADMINS (settings.LOGGING), through the site's outbox: a 500 page
or a failed task must not wait for a mail server that hangs. Loaded by the logging configuration before
the apps are ready, so it imports the site's modules only when it sends."""

from __future__ import annotations

from django.utils.log import AdminEmailHandler


class OutboxAdminEmailHandler(AdminEmailHandler):
    def send_mail(self, subject, message, *args, **kwargs):
        """Into the outbox (a worker sends it); straight to the mail server when the outbox cannot take
        it: inside a transaction that may yet be rolled back, or when the database is what failed."""
        from django.conf import settings
        from django.core.mail import EmailMultiAlternatives
        from django.db import connection

        if not settings.ADMINS or connection.in_atomic_block:
            return super().send_mail(subject, message, *args, **kwargs)
        try:
            from handsite.services import email_outbox

            admins = [a[1] if isinstance(a, (list, tuple)) else a for a in settings.ADMINS]
            email = EmailMultiAlternatives(
                f"{settings.EMAIL_SUBJECT_PREFIX}{subject}", message, settings.SERVER_EMAIL, admins
            )
            if kwargs.get("html_message"):
                email.attach_alternative(kwargs["html_message"], "text/html")
            email_outbox.queue_email(email, purpose="error report")
        except Exception:
            return super().send_mail(subject, message, *args, **kwargs)
        return None
