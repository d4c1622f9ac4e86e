from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HandsiteConfig(AppConfig):
    name = "handsite"
    verbose_name = _("Hand site")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in
        from django.core.signals import request_finished
        from django.db.models.signals import post_migrate

        from handsite.i18n import forget_request_language
        from handsite.user_language import propose_at_login

        user_logged_in.connect(propose_at_login, dispatch_uid="handsite.propose_at_login")
        request_finished.connect(forget_request_language, dispatch_uid="handsite.forget_request_language")
        post_migrate.connect(sync_site, dispatch_uid="handsite.sync_site")
        from handsite.zones import adopt_at_login

        user_logged_in.connect(adopt_at_login, dispatch_uid="handsite.adopt_time_zone")
        # The services queue these modules' tasks by name (handsite.services.task_queue): registered here,
        # in every process, so that a name finds its task (eager in tests, the site's publish policy).
        import handsite.push.tasks
        import handsite.tasks
        import handsite.webhooks.tasks  # noqa: F401


def sync_site(sender, *, using="default", apps=None, **kwargs):
    """The Sites framework's row follows the settings (SITE_URL's host and port, SITE_NAME), so
    allauth's e-mails say "[Hand]" and link to the real domain, not "[127.0.0.1:8102]"."""
    from urllib.parse import urlsplit

    from django.conf import settings

    if apps is None or sender.label != "sites":
        return
    try:
        Site = apps.get_model("sites", "Site")
    except LookupError:
        return
    domain = urlsplit(settings.SITE_URL).netloc or "localhost"
    Site.objects.using(using).update_or_create(
        pk=settings.SITE_ID, defaults={"domain": domain[:100], "name": settings.SITE_NAME[:50]}
    )
