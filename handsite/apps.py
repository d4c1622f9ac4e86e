from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HandsiteConfig(AppConfig):
    name = "handsite"
    verbose_name = _("Hand site")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib.auth.signals import user_logged_in
        from django.core.signals import request_finished

        from handsite.i18n import forget_request_language, propose_at_login

        user_logged_in.connect(propose_at_login, dispatch_uid="handsite.propose_at_login")
        request_finished.connect(forget_request_language, dispatch_uid="handsite.forget_request_language")
