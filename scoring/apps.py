from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Score sheets")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from scoring import tasks  # noqa: F401  (registers the background scoring tasks)
