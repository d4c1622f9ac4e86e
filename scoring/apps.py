from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    name = "scoring"
    verbose_name = _("Score sheets")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from handsite.sections import register_group_section
        from scoring import sections, tasks  # noqa: F401  (tasks: registers the background scoring tasks)

        register_group_section("scoring/_group_section.html", sections.group_section, order=20)
