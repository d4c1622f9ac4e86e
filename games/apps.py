from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Online play")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from games import deadlines, notifications
        from handsite import signals

        notifications.register_all()  # the kinds of game notifications, with handsite's outbox
        signals.vacation_started.connect(deadlines.vacation_started, dispatch_uid="games.vacation_started")
        signals.vacation_ended.connect(deadlines.vacation_ended, dispatch_uid="games.vacation_ended")
