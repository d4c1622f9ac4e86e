"""An online game records the same per-deal facts a score sheet does: the online game is played out
(both seats handed to bots, so it is not practice: the players stay on their seats), games reports it
to scoring, and the same deals entered on a sheet of another group give the same statistics."""

from __future__ import annotations

import dataclasses

import pytest

from games import engine, results
from games.engine.actions import perform
from games.engine.cards import format_cards
from games.models import Game, GameStatus, Move
from games.services import leaving, seating
from handsite.models import Role
from scoring import stats
from scoring.models import DealFact
from tests.factories import MembershipFactory, PlayerGroupFactory
from tests.scoring.conftest import make_sheet

pytestmark = pytest.mark.django_db


def _played_out(group, owner, member):
    game = seating.create_game(
        group=group, created_by=owner, variant="classic", options=None, seats=[owner, member], seed=2024
    )
    seating.accept_seat(game_id=game.pk, user=member)
    leaving.hand_seat_to_bot(game_id=game.pk, number=1)
    leaving.hand_seat_to_bot(game_id=game.pk, number=0)
    game = Game.objects.get(pk=game.pk)
    assert game.status == GameStatus.FINISHED
    return game


def _sheet_facts(game: Game) -> tuple[int, list[dict]]:
    """Replay the game's log with the engine and read each finished deal's facts as a table would
    write them on a sheet: who went out and how, who had opened, the cards each player still held."""
    state = engine.new_game(game.variant, game.players, game.options, game.seed)
    first_dealer, deals = state.first_dealer, []
    for move in Move.objects.filter(game=game).order_by("seq"):
        before = state.copy()
        events = engine.apply(state, move.seat, move.action)
        if any(event["type"] == "deal_ended" for event in events):
            perform(before, move.seat, move.action)  # the deal as it ended, before the next is dealt
            facts = engine.deal_facts(before)
            deals.append(
                {
                    "winner": facts.winner,
                    "finish": facts.finish,
                    "opened": list(facts.opened),
                    "held": [
                        None if seat == facts.winner or not cards else format_cards(cards)
                        for seat, cards in enumerate(facts.held)
                    ],
                }
            )
    return first_dealer, deals


def test_an_online_game_and_the_same_deals_on_a_sheet_give_the_same_statistics(group, owner, member):
    game = _played_out(group, owner, member)
    assert results.record_result(game.pk)
    assert results.record_result(game.pk)  # reported again (a retried task): nothing is added twice
    online = DealFact.objects.filter(source="online", source_id=game.pk)
    first_dealer, deals = _sheet_facts(game)
    assert online.count() == 2 * len(deals)
    assert online.filter(opened=True).exists()

    other = PlayerGroupFactory(name="Other table", slug="other-table")
    MembershipFactory(group=other, user=owner, role=Role.OWNER)
    MembershipFactory(group=other, user=member, role=Role.MEMBER)
    sheet = make_sheet(other, owner, "classic", [owner, member], first_dealer=first_dealer)
    from scoring.services.deals import add_deal

    for facts in deals:
        add_deal(sheet, by=owner, facts=facts)
    sheet.refresh_from_db()
    assert sheet.finished

    fields = ("number", "seat", "player_key", "went_out", "won", "finish", "opened", "points")
    on_sheet = DealFact.objects.filter(source="sheet", source_id=sheet.pk)
    assert list(online.order_by("number", "seat").values_list(*fields)) == list(
        on_sheet.order_by("number", "seat").values_list(*fields)
    )
    assert not online.filter(practice=True).exists()
    for user in (owner, member):
        key = f"user:{user.pk}"
        there, here = stats.player_stats(group, "hand", key), stats.player_stats(other, "hand", key)
        assert there.rating.rating == here.rating.rating
        there, here = dataclasses.asdict(there), dataclasses.asdict(here)
        for figures in (there, here):
            for name in ("best", "worst"):
                figures[name].pop("source"), figures[name].pop("source_id")
            figures["rating_history"] = [rating for _when, rating in figures["rating_history"]]
            figures.pop("rating")
        assert there == here
        assert there["deals"] == len(deals)
        assert there["games"] == 1
