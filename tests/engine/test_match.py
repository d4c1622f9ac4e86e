"""The game across deals: number of deals, tie-breaks, next dealer, winners (hand-family.md 1 and 6)."""

from __future__ import annotations

import pytest

from games.engine.errors import InvalidOptions
from games.engine.match import DealRecord, match_status, next_dealer
from games.engine.scoring import DealScore, HandDealFacts, InvalidFacts, SideScore, score_hand_deal


def deal(*points: int) -> DealScore:
    return DealScore(tuple(SideScore((seat,), value) for seat, value in enumerate(points)))


def team_deal(even: int, odd: int) -> DealScore:
    return DealScore((SideScore((0, 2), even), SideScore((1, 3), odd)))


def void(players: int) -> DealScore:
    return DealScore(tuple(SideScore((seat,), 0) for seat in range(players)), void=True)


def records(scores, first_dealer=0, players=None):
    players = players or scores[0].players
    return [DealRecord((first_dealer + i) % players, score) for i, score in enumerate(scores)]


# --- next dealer ---


@pytest.mark.parametrize("slug", ["classic", "saudi", "kuwaiti", "hand-and-foot"])
def test_the_deal_passes_to_the_next_seat_in_rotation_rule_sets(slug):
    assert next_dealer(slug, {}, 4, 3, deal(-30, 45, 45, 12)) == 0
    assert next_dealer(slug, {}, 4, 1, deal(-30, 45, 45, 12)) == 2


def test_the_highest_scorer_of_the_deal_deals_next_in_jordanian_and_egyptian():
    assert next_dealer("jordanian", {}, 4, 0, deal(-30, 12, 45, 3)) == 2
    assert next_dealer("egyptian", {}, 3, 2, deal(100, -30, 12)) == 0


def test_the_previous_dealer_deals_again_when_tied_for_highest():
    assert next_dealer("jordanian", {}, 4, 2, deal(-30, 45, 45, 12)) == 2


def test_an_all_zero_deal_and_a_void_deal_leave_the_previous_dealer():
    assert next_dealer("egyptian", {}, 3, 1, deal(0, 0, 0)) == 1
    assert next_dealer("jordanian", {}, 4, 3, void(4)) == 3


def test_in_teams_the_highest_seat_figure_deals_and_the_winners_partner_counts_zero():
    facts = HandDealFacts(
        players=4, winner=0, opened=(True, True, True, True), held=(None, 10, None, 40), teams=True
    )
    score = score_hand_deal("jordanian", {"teams": True}, facts)
    assert score.points_by_seat() == (-30, 50, -30, 50)
    assert next_dealer("jordanian", {"teams": True}, 4, 0, score) == 3


def test_a_dealer_out_of_range_is_refused():
    with pytest.raises(InvalidFacts, match="dealer must be one of the 4"):
        next_dealer("classic", {}, 4, 4, deal(0, 0, 0, 0))


# --- number of deals, totals, winners ---


@pytest.mark.parametrize(
    ("slug", "options", "players", "deals"),
    [
        ("classic", {}, 3, 5),
        ("saudi", {}, 5, 5),
        ("jordanian", {}, 4, 7),
        ("egyptian", {}, 2, 7),
        ("kuwaiti", {}, 3, 7),
        ("kuwaiti", {"deals": 9}, 3, 9),
        ("hand-and-foot", {}, 3, 4),
        ("hand-and-foot-teams", {}, 4, 3),
        ("hand-and-foot-teams", {"fourth_deal": True}, 4, 4),
    ],
)
def test_the_game_ends_after_the_rule_sets_number_of_scoring_deals(slug, options, players, deals):
    scores = [deal(*[seat * 10 for seat in range(players)])] * deals
    if slug == "hand-and-foot-teams":
        scores = [team_deal(100, 50)] * deals
    before = match_status(slug, options, players, 0, records(scores[:-1], players=players))
    assert not before.finished
    assert before.scoring_deals_required == deals
    after = match_status(slug, options, players, 0, records(scores, players=players))
    assert after.finished
    assert after.scoring_deals_played == deals


def test_void_deals_do_not_count_and_score_nothing():
    scores = [deal(-30, 10, 20), void(3), deal(100, -30, 5)]
    status = match_status("classic", {}, 3, 0, records(scores))
    assert status.scoring_deals_played == 2
    assert status.next_deal_number == 3
    assert status.totals == (70, -20, 25)


def test_lowest_total_wins_the_hand_family():
    status = match_status("classic", {}, 2, 0, records([deal(-30, 40)] * 5))
    assert status.finished
    assert status.winners == ((0,),)
    assert status.lower_is_better
    assert status.next_dealer is None


def test_a_tie_for_lowest_in_jordanian_plays_tie_break_deals_until_one_is_lowest_alone():
    scores = [deal(-30, 10, -30)] * 6 + [deal(10, 10, 50)]
    status = match_status("jordanian", {"tie_break": False}, 3, 0, records(scores))
    assert status.totals == (-170, 70, -130)
    assert status.finished
    tied = [deal(-30, 10, -30)] * 7
    status = match_status("jordanian", {"tie_break": False}, 3, 0, records(tied))
    assert not status.finished
    assert status.in_tie_break
    assert status.next_deal_number == 8
    status = match_status("jordanian", {}, 3, 0, records([*tied, void(3), deal(-30, 50, 20)]))
    assert status.finished
    assert status.winners == ((0,),)


def test_the_tie_break_option_decides_for_classic_saudi_and_kuwaiti():
    tied = [deal(-30, -30, 100)] * 5
    assert match_status("classic", {}, 3, 0, records(tied)).in_tie_break
    shared = match_status("saudi", {"tie_break": False}, 3, 0, records(tied))
    assert shared.finished
    assert shared.winners == ((0,), (1,))


def test_hand_and_foot_highest_total_wins_and_a_tie_is_a_shared_win():
    status = match_status("hand-and-foot", {}, 2, 0, records([deal(500, 300)] * 4))
    assert status.winners == ((0,),)
    assert not status.lower_is_better
    shared = match_status("hand-and-foot", {}, 2, 0, records([deal(500, 500)] * 4))
    assert shared.finished
    assert shared.winners == ((0,), (1,))


def test_hand_and_foot_gives_each_deals_opening_minimum():
    minimums = [
        match_status("hand-and-foot", {}, 2, 0, records([deal(0, 0)] * n, players=2)).next_opening_minimum
        for n in range(4)
    ]
    assert minimums == [50, 90, 120, 150]
    teams = match_status("hand-and-foot-teams", {"fourth_deal": True}, 4, 0, records([team_deal(1, 2)] * 3))
    assert teams.next_opening_minimum == 150
    assert match_status("classic", {}, 2, 0, []).next_opening_minimum is None


def test_teams_totals_are_per_team_and_shown_on_both_seats():
    status = match_status("classic", {"teams": True}, 4, 0, records([team_deal(-30, 120)] * 2))
    assert status.sides == ((0, 2), (1, 3))
    assert status.totals_by_seat() == (-60, 240, -60, 240)


def test_the_next_dealer_follows_each_recorded_dealer():
    scores = [deal(-30, 45, 45, 12), deal(10, 20, -30, 5)]
    status = match_status("jordanian", {}, 4, 3, [DealRecord(3, scores[0]), DealRecord(1, scores[1])])
    assert status.next_dealer == 1
    assert match_status("classic", {}, 4, 2, []).next_dealer == 2


def test_a_deal_after_the_game_was_over_is_refused():
    with pytest.raises(InvalidFacts, match="already over before deal 6"):
        match_status("classic", {}, 2, 0, records([deal(-30, 40)] * 6))


def test_a_deal_scored_for_other_sides_is_refused():
    with pytest.raises(InvalidFacts, match="Deal 1 is not scored"):
        match_status("classic", {"teams": True}, 4, 0, records([deal(1, 2, 3, 4)]))
    with pytest.raises(InvalidOptions):
        match_status("classic", {"teams": True}, 3, 0, [])
