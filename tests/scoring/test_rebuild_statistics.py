"""A history from before the statistics: the rows are written again by ``manage.py rebuild_statistics``
(sheets through scoring, online games reporting again through games), giving the same figures."""

import io

import pytest
from django.core.management import call_command

from games.services import leaving, seating
from scoring import stats
from scoring.models import DealFact, PlayerGame
from tests.scoring.conftest import hand, make_sheet

pytestmark = pytest.mark.django_db


def test_the_command_writes_the_rows_again_with_the_same_figures(group, owner, member):
    from scoring.services.deals import add_deal

    sheet = make_sheet(group, owner, "classic", [owner, member, "Gus"])
    for winner in (0, 1, 0, 2, 0):
        held = [None if seat == winner else 10 for seat in range(3)]
        add_deal(sheet, by=owner, facts=hand(winner, [True] * 3, held))
    game = seating.create_game(
        group=group, created_by=owner, variant="classic", options=None, seats=[owner, member], seed=7
    )
    seating.accept_seat(game_id=game.pk, user=member)
    leaving.hand_seat_to_bot(game_id=game.pk, number=1)
    leaving.hand_seat_to_bot(game_id=game.pk, number=0)
    from games.results import record_result

    record_result(game.pk)
    key = f"user:{owner.pk}"
    before = stats.player_stats(group, "hand", key)
    facts, players = DealFact.objects.count(), PlayerGame.objects.count()
    assert before.deals > 5
    assert before.games == 2
    DealFact.objects.all().delete()
    PlayerGame.objects.all().delete()
    assert stats.player_stats(group, "hand", key).deals == 0
    out = io.StringIO()
    call_command("rebuild_statistics", stdout=out)
    assert out.getvalue() == "online games reported: 1; sheets rewritten: 1\n"
    assert (DealFact.objects.count(), PlayerGame.objects.count()) == (facts, players)
    after = stats.player_stats(group, "hand", key)
    assert (after.deals, after.went_out, after.points, after.games, after.wins) == (
        before.deals,
        before.went_out,
        before.points,
        before.games,
        before.wins,
    )
