"""Hand and Foot: melds, openings and deal scores (hand-and-foot.md), one test per rule."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_cards
from games.engine.errors import IllegalAction, InvalidOptions, MeldError
from games.engine.handfoot import (
    HandFootSideFacts,
    handfoot_card_points,
    handfoot_held_cost,
    handfoot_meld_check,
    handfoot_opening_check,
    handfoot_opening_value,
    score_handfoot_deal,
)
from games.engine.scoring import InvalidFacts

SOLO, TEAMS = "hand-and-foot", "hand-and-foot-teams"


def cards(text: str):
    return tuple(parse_cards(text))


def side(**facts) -> HandFootSideFacts:
    facts.setdefault("red_books", 0)
    facts.setdefault("black_books", 0)
    return HandFootSideFacts(**facts)


def test_card_points_follow_each_rule_set():
    assert (
        handfoot_card_points(cards("JK 2S AS KS 10S 9S 6S 5S 4S"), SOLO)
        == 50 + 20 + 15 + 10 + 10 + 5 + 5 + 5 + 5
    )
    assert (
        handfoot_card_points(cards("JK 2S AS KS 10S 9S 6S 5S 4S"), TEAMS)
        == 50 + 20 + 20 + 10 + 10 + 10 + 10 + 5 + 5
    )


def test_held_threes_cost_500_red_and_50_black_in_002_but_nothing_black_in_004():
    assert handfoot_held_cost(cards("3H 3D 3S 3C"), SOLO) == 1100
    assert handfoot_held_cost(cards("3H 3D 3S 3C"), TEAMS) == 1000
    assert handfoot_held_cost(cards("JK 9C"), SOLO) == 55


def test_threes_can_never_be_melded():
    with pytest.raises(MeldError, match="3s are never melded"):
        handfoot_meld_check(cards("3S 3H 3D"), SOLO)
    with pytest.raises(MeldError):
        handfoot_card_points(cards("3S"), SOLO)


def test_a_meld_is_three_or_more_of_one_rank_with_naturals_outnumbering_wilds():
    handfoot_meld_check(cards("KS KH JK"), SOLO)
    handfoot_meld_check(cards("4S 4H 4D 2C 2S 4C"), SOLO)
    for illegal in ("KS KH", "KS QH JK", "AS JK JK", "AS AH 2S JK", "JK JK 2S"):
        with pytest.raises(MeldError):
            handfoot_meld_check(cards(illegal), TEAMS)


def test_an_opening_below_the_deals_minimum_is_refused_with_its_total():
    with pytest.raises(IllegalAction, match="total 30; you need 90"):
        handfoot_opening_check([cards("KS KH KD")], TEAMS, deal_number=1)
    assert handfoot_opening_check([cards("KS KH KD JK 2S")], SOLO, deal_number=1) == 100


def test_opening_value_is_the_sum_of_card_points_of_legal_melds():
    assert handfoot_opening_value([cards("KS KH JK"), cards("5S 5D 5C")], SOLO) == 70 + 15
    with pytest.raises(IllegalAction, match="need 150"):
        handfoot_opening_check([cards("KS KH JK")], TEAMS, deal_number=3)


def test_a_side_scores_books_plus_melded_points_minus_held_plus_100_for_going_out():
    facts = side(red_books=1, black_books=2, melded_points=400, held=0, went_out=True)
    assert score_handfoot_deal(
        SOLO, {}, [facts, side(melded_points=20, held=cards("3H"))]
    ).points_by_seat() == (
        500 + 600 + 400 + 100,
        20 - 500,
    )


def test_a_deal_where_nobody_went_out_is_scored_without_the_bonus():
    score = score_handfoot_deal(SOLO, {}, [side(melded_points=60, held=15), side(held=cards("3S"))])
    assert score.points_by_seat() == (45, -50)
    assert not score.void


def test_every_side_score_is_the_sum_of_its_breakdown_parts():
    facts = [
        side(
            red_books=1,
            black_books=1,
            melded=cards("KS KH KD KC KS KH KD AS AH AD AC AS AH JK"),
            went_out=True,
        ),
        side(melded_points=30, held=cards("JK 3H 9C")),
    ]
    score = score_handfoot_deal(SOLO, {}, facts)
    texts = [part.text() for part in score.sides[1].parts]
    assert texts == ["Melded cards: 30", "Cards held: JK 3H 9C = 555"]
    for result in score.sides:
        assert result.points == sum(part.points for part in result.parts)


def test_in_team_rules_the_out_teams_held_cards_are_shown_but_do_not_count():
    out = side(red_books=1, black_books=1, melded_points=150, held=cards("QH 3D"), went_out=True)
    score = score_handfoot_deal(TEAMS, {}, [side(melded_points=15, held=25), out])
    assert [(result.seats, result.points) for result in score.sides] == [((0, 2), -10), ((1, 3), 1050)]
    assert score.sides[1].parts[-2].text() == "Partner's cards do not count: 510"


def test_the_22_card_bonus_is_100_per_player_in_team_rules_only():
    score = score_handfoot_deal(TEAMS, {}, [side(picked_22=2), side(picked_22=1)])
    assert score.points_by_seat() == (200, 100, 200, 100)
    with pytest.raises(InvalidFacts, match="22-card bonus"):
        score_handfoot_deal(SOLO, {}, [side(picked_22=1), side()])
    with pytest.raises(InvalidFacts, match="at most 2"):
        score_handfoot_deal(TEAMS, {}, [side(picked_22=3), side()])


def test_two_sides_going_out_are_refused():
    with pytest.raises(InvalidFacts, match="Only one player"):
        score_handfoot_deal(
            SOLO, {}, [side(red_books=1, black_books=1, melded_points=200, went_out=True)] * 2
        )


def test_going_out_needs_a_red_and_a_black_book():
    with pytest.raises(InvalidFacts, match="red book and one black book"):
        score_handfoot_deal(SOLO, {}, [side(red_books=2, melded_points=200, went_out=True), side()])


def test_a_player_who_went_out_in_individual_rules_holds_nothing():
    with pytest.raises(InvalidFacts, match="holds no cards"):
        score_handfoot_deal(
            SOLO, {}, [side(red_books=1, black_books=1, melded_points=200, held=10, went_out=True), side()]
        )


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        (side(red_books=-1), "cannot be negative"),
        (side(melded_points=-5), "cannot be negative"),
        (side(held=-5), "cannot be negative"),
        (side(melded_points=12), "in fives"),
        (side(held=7), "in fives"),
        (side(red_books=1, melded_points=30), "at least 35"),
        (side(black_books=1, melded_points=45), "at least 50"),
        (side(red_books=1, melded=cards("KS KH KD")), "at least 7 melded cards"),
        (side(melded=cards("KS KH KD"), melded_points=40), "worth 30, not the 40"),
        (side(melded=cards("3S 3H 3D")), "3s are never melded"),
    ],
)
def test_impossible_side_facts_are_refused_with_a_sentence(facts, message):
    with pytest.raises(InvalidFacts, match=message):
        score_handfoot_deal(SOLO, {}, [facts, side()])


def test_the_number_of_sides_must_fit_the_rule_set():
    with pytest.raises(InvalidFacts, match="two teams, not 4"):
        score_handfoot_deal(TEAMS, {}, [side()] * 4)
    with pytest.raises(InvalidFacts, match="2 to 8 players, not 1"):
        score_handfoot_deal(SOLO, {}, [side()])


def test_a_hand_family_rule_set_is_refused():
    with pytest.raises(InvalidOptions):
        score_handfoot_deal("classic", {}, [side(), side()])
