"""The game across deals: dealers, void deals, teams, kuwaiti endings, the winner."""

from __future__ import annotations

import pytest

from games.engine import DomainError, apply, bot_action, new_game
from games.engine.deal import PLAY
from tests.engine.conftest import Rig
from tests.engine.test_actions import ids


def _finish(game, limit=20000):
    for _ in range(limit):
        if game.finished:
            return game
        seat = game.deal.current
        apply(game, seat, bot_action(game, seat))
    raise AssertionError("the game did not finish")


def test_a_game_ends_after_its_scoring_deals_and_the_lowest_total_wins():
    game = _finish(new_game("classic", 3, seed=12))
    status = game.status()
    assert status.finished
    assert status.scoring_deals_played >= 5
    totals = status.totals_by_seat()
    assert game.winners == [seat for seat in range(3) if totals[seat] == min(totals)]
    assert game.phase == "game_over"
    with pytest.raises(DomainError, match=r"The game is over\."):
        apply(game, 0, {"type": "draw"})


def test_options_are_validated_when_the_game_starts():
    with pytest.raises(DomainError, match="exactly 4 players"):
        new_game("classic", 3, {"teams": True})
    with pytest.raises(DomainError, match="2 to 4 players"):
        new_game("jordanian", 5)
    with pytest.raises(DomainError, match="no rule set called"):
        new_game("bridge", 4)
    with pytest.raises(DomainError, match="4 to 4 players"):
        new_game("hand-and-foot-teams", 3)
    assert new_game("hand-and-foot", 4).family == "hand-and-foot"  # played online too


def test_classic_passes_the_deal_to_the_next_seat(rig: Rig):
    game = rig("classic", 3, ("9D",), phase=PLAY, opened=(True, True, True), turns=(3, 3, 3), dealer=2)
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "9D")[0]})
    assert game.deal.dealer == 0
    assert game.deal.number == 1


def test_jordanian_deals_next_by_the_highest_scorer(rig: Rig):
    # Seat 0 goes out; seat 2 (not opened, 100) scores highest and deals next.
    game = rig(
        "jordanian", 3, ("9D", "2C", "3C"), phase=PLAY, opened=(True, True, False), turns=(3, 3, 3), dealer=1
    )
    game.deal.indicator = next(c for c in game.deal.stock if c.rank == 5)
    game.deal.stock.remove(game.deal.indicator)
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "9D")[0]})
    assert game.records[0].score.points_by_seat() == (-30, 2, 100)
    assert game.deal.dealer == 2


def test_void_deals_do_not_count_and_the_next_deal_is_dealt(rig: Rig):
    game = rig("saudi", 3, ("2S 5D 9C",), phase=PLAY, stock="3H 4H 6C", dealer=2)
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "9C")[0]})
    assert game.records[0].score.void
    assert game.status().scoring_deals_played == 0
    assert game.status().next_deal_number == 1
    assert len(game.deal.hands[game.deal.first]) == 15


def test_teams_score_as_one_side(rig: Rig):
    # Worked example 10 through play: seat 1 goes out; seat 0 opened holding 20; seat 2 not opened.
    game = rig(
        "classic",
        4,
        ("KS QH", "9D", "2C 3C", "AS 2D"),
        current=1,
        phase=PLAY,
        opened=(True, True, False, True),
        turns=(3, 3, 3, 3),
        options={"teams": True},
    )
    apply(game, 1, {"type": "discard", "card": ids(game, 1, "9D")[0]})
    assert game.records[0].score.points_by_seat() == (120, -30, 120, -30)


def test_a_kuwaiti_hand_declaration_ends_the_deal_at_once_with_the_best_named_hand(rig: Rig):
    # 14 red cards in runs and a discard: a Colored Hand (-120); the opponent did not announce: 400.
    game = rig("kuwaiti", 2, ("AH 2H 3H 4H 5H 8D 9D 10D JD QD KD 9H 10H JH 4D",), phase=PLAY, turns=(2, 2))
    events = apply(game, 0, {"type": "declare_hand"})
    declared = next(e for e in events if e["type"] == "hand_declared")
    assert declared["name"] == "colored"
    assert [c["face"] for c in declared["discards"]] == ["4D"]
    ended = next(e for e in events if e["type"] == "deal_ended")
    assert ended["points"] == [-120, 400]
    assert game.deal.number == 1


def test_a_kuwaiti_player_without_a_hand_cannot_declare(rig: Rig):
    game = rig("kuwaiti", 2, ("AH 3H 5H 7H 9H JH KH 2D 4D 6D 8D 10D QD 5S 9C",), phase=PLAY)
    with pytest.raises(DomainError, match="do not make a Hand"):
        apply(game, 0, {"type": "declare_hand"})


def test_a_kuwaiti_player_who_announced_may_not_declare_a_hand(rig: Rig):
    game = rig("kuwaiti", 2, ("AH 2H 3H 4H",), phase=PLAY, opened=(True, False))
    with pytest.raises(DomainError, match="You have announced"):
        apply(game, 0, {"type": "declare_hand"})


def test_hand_declarations_are_kuwaiti_only(rig: Rig):
    game = rig("classic", 2, ("AH 2H 3H 4H",), phase=PLAY)
    with pytest.raises(DomainError, match="Only Kuwaiti Hand"):
        apply(game, 0, {"type": "declare_hand"})


def test_a_kuwaiti_announcer_who_melds_everything_wins_by_announcement(rig: Rig):
    # Worked example 8 through play: winner -30, an announced opponent holding AS 3C: 14.
    game = rig("kuwaiti", 2, ("9D", "AS 3C"), phase=PLAY, opened=(True, True), turns=(9, 9))
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "9D")[0]})
    ended = next(e for e in events if e["type"] == "deal_ended")
    assert ended["finish"] == "announcement"
    assert ended["points"] == [-30, 14]


def test_a_jordanian_tie_after_seven_deals_is_broken_by_further_deals(rig: Rig):
    from games.engine import DealRecord, HandDealFacts, score_hand_deal

    def record(winner, loser_holds):
        held = tuple(None if seat == winner else loser_holds for seat in range(2))
        facts = HandDealFacts(players=2, winner=winner, opened=(True, True), held=held)
        return DealRecord(0, score_hand_deal("jordanian", {}, facts))

    game = rig("jordanian", 2, ("9S", "9D"), phase=PLAY, opened=(True, True), turns=(3, 3), indicator="5C")
    game.records = [record(1, 69)] + [record(seat % 2, 30) for seat in range(5)]
    assert game.status().totals == (39, 0)
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "9S")[0]})  # -30 and 9: 9 each
    status = game.status()
    assert status.totals == (9, 9)
    assert status.scoring_deals_played == 7
    assert status.in_tie_break
    assert not game.finished
    assert game.deal.number == 7
