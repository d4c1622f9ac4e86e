from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HandsiteConfig(AppConfig):
    name = "handsite"
    verbose_name = _("Hand site")
    default_auto_field = "django.db.models.BigAutoField"
