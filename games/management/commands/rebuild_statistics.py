"""Write every group's statistics rows again (a history from before the player statistics): scoring
rewrites each sheet's per-deal rows and each finished game's per-player rows, and every online game
reports its deals again (games may call scoring; idempotent)."""

from django.core.management.base import BaseCommand

from games.models import Game
from games.results import record_result
from handsite.models import PlayerGroup
from scoring.services.sheets import rebuild_statistics


class Command(BaseCommand):
    help = "Write the player statistics rows of every group again, from the sheets and the online games."

    def handle(self, *args, **options):
        games = 0
        for game_id in Game.objects.filter(state__isnull=False).values_list("pk", flat=True).iterator():
            games += bool(record_result(game_id))
        sheets = 0
        for group_id in PlayerGroup.objects.values_list("pk", flat=True).iterator():
            sheets += rebuild_statistics(group_id)
        self.stdout.write(f"online games reported: {games}; sheets rewritten: {sheets}")
