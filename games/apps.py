from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Online play")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games import (
            notifications,
            sections,
            tasks,  # noqa: F401 - registers the tasks the services queue by name
        )
        from games.services import scans
        from handsite import signals
        from handsite.sections import register_group_section, register_home_section

        register_group_section("games/_group_section.html", sections.group_section, order=10)
        register_home_section("games/_home_section.html", sections.home_section, order=10)

        notifications.register_all()  # the kinds of game notifications, with handsite's outbox
        from games import push

        push.register_all()  # what they say in a push (handsite.push)
        signals.vacation_started.connect(scans.vacation_started, dispatch_uid="games.vacation_started")
        signals.vacation_ended.connect(scans.vacation_ended, dispatch_uid="games.vacation_ended")
