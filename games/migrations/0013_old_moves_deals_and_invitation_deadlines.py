"""Data written before two earlier migrations, made whole (issue 30):

- Moves logged before 0005 have no deal number: the history lumped them under "Earlier moves" and the
  replay's deal buttons jumped to the wrong place. Each such game is replayed from its seed with the
  engine and every move gets the deal it was made in (the number of the deal in play before the
  action, as ``games.services`` logs it today). A game whose log no longer replays is left as it was
  (its moves keep no deal number) rather than stopping the upgrade.
- Seats invited before 0010 have no reply deadline, so the invitation scan never frees them: they get
  ``invited_at`` (the game's creation) and a deadline of GAMES_INVITATION_REPLY_HOURS from the upgrade,
  so the invited player still has the full time to answer.

Both are idempotent (only NULL columns are filled); going back changes nothing."""

import logging
from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone

log = logging.getLogger(__name__)


def deals_of(game, moves) -> list[int]:
    """The deal number in play before each of ``moves`` (in ``seq`` order), by replaying the game."""
    from games import engine

    state = engine.new_game(game.variant, game.players, game.options, game.seed)
    numbers = []
    for move in moves:
        numbers.append(state.deal.number)
        engine.apply(state, move.seat, move.action)
    return numbers


def number_old_moves(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Move = apps.get_model("games", "Move")
    game_ids = Move.objects.filter(deal__isnull=True).values_list("game_id", flat=True).distinct()
    for game in Game.objects.filter(pk__in=list(game_ids)).defer("state").order_by("pk").iterator():
        moves = list(
            Move.objects.filter(game=game).order_by("seq").only("pk", "seq", "seat", "action", "deal")
        )
        try:
            numbers = deals_of(game, moves)
        except Exception:  # an old log the engine refuses: keep the game as it was, say so
            log.warning("game %s: its moves could not be replayed; they keep no deal number", game.pk)
            continue
        changed = []
        for move, number in zip(moves, numbers, strict=True):
            if move.deal is None:
                move.deal = number
                changed.append(move)
        Move.objects.bulk_update(changed, ["deal"], batch_size=1000)


def give_old_invitations_a_deadline(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    reply_by = timezone.now() + timedelta(hours=settings.GAMES_INVITATION_REPLY_HOURS)
    old = Seat.objects.filter(
        user__isnull=False,
        accepted_at__isnull=True,
        bot=False,
        reply_by__isnull=True,
        game__status="waiting",
    ).select_related("game")
    changed = []
    for seat in old:
        seat.invited_at = seat.invited_at or seat.game.created_at
        seat.reply_by = reply_by
        changed.append(seat)
    Seat.objects.bulk_update(changed, ["invited_at", "reply_by"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_game_state_lz4"),
    ]

    operations = [
        migrations.RunPython(number_old_moves, migrations.RunPython.noop),
        migrations.RunPython(give_old_invitations_a_deadline, migrations.RunPython.noop),
    ]
