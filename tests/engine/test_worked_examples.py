"""The worked examples of ``shared/rules/scoring-examples.md``, one test per example."""

from __future__ import annotations

import pytest

from games.engine import actions, melds
from games.engine import game as game_module
from games.engine.cards import parse_cards
from games.engine.scoring import HandDealFacts, penalty_value, score_hand_deal


def cards(text: str):
    return tuple(parse_cards(text))


def card(text: str):
    return parse_cards(text)[0]


def test_example_1_classic_normal_going_out_scores_card_values_and_100_for_unopened():
    facts = HandDealFacts(
        players=4,
        winner=0,
        opened=(True, True, True, False),
        held=(None, cards("KS 7H JK"), cards("AS 2D"), None),
    )
    score = score_hand_deal("classic", {}, facts)
    assert score.points_by_seat() == (-30, 32, 13, 100)


def test_example_2_classic_hand_doubles_every_score():
    facts = HandDealFacts(
        players=3,
        winner=2,
        finish="hand",
        opened=(True, False, False),
        held=(cards("5C 5D 9S"), None, None),
    )
    assert score_hand_deal("classic", {}, facts).points_by_seat() == (38, 200, -60)


def test_example_3_opening_values_differ_by_ace_value_and_wild_stands_for_its_card():
    values = {}
    for slug in ("classic", "saudi", "kuwaiti", "jordanian", "egyptian"):
        from games.engine.variants import HAND_VARIANTS

        variant = HAND_VARIANTS[slug]
        rules = melds.MeldRules.for_variant(variant, {})
        wilds = melds.Wilds()
        values[slug] = (
            melds.meld_value(melds.make_meld(parse_cards("AS 2S 3S"), wilds, rules), rules),
            melds.meld_value(melds.make_meld(parse_cards("QH KH AH"), wilds, rules), rules),
            melds.meld_value(melds.make_meld(parse_cards("10C 10D JK"), wilds, rules), rules),
            melds.meld_value(melds.make_meld(parse_cards("9S 10S JK"), wilds, rules, {2: "JS"}), rules),
        )
    assert values == {
        "classic": (6, 31, 30, 29),
        "saudi": (6, 31, 30, 29),
        "kuwaiti": (6, 31, 30, 29),
        "jordanian": (16, 31, 30, 29),
        "egyptian": (16, 31, 30, 29),
    }


def test_example_4_saudi_escalating_opening_needs_last_opening_plus_one():
    # The opening rule lives in the play engineer's deal (actions.opening_minimum_now); this checks the
    # example's figures through it.
    game = game_module.new_game("saudi", 3, seed=4)
    assert actions.opening_minimum_now(game) == 51
    game.deal.last_opening = 58  # the first opening of the deal totalled 58
    assert actions.opening_minimum_now(game) == 59  # so 56 is refused and 59 accepted
    game.deal.last_opening = 59
    assert actions.opening_minimum_now(game) == 60


def test_example_5_jordanian_indicator_makes_aces_of_its_suit_wild_and_jokers_natural_aces():
    seven_of_hearts = card("7H")
    ace_of_spades = card("AS")
    joker, ace_of_hearts, ace_of_clubs = cards("JK AH AC")
    # Card values left in hand under each indicator (our part of example 5).
    from games.engine.scoring import deal_wilds

    hearts = deal_wilds("jordanian", seven_of_hearts)
    assert hearts.is_wild(ace_of_hearts)
    assert not hearts.is_wild(joker)
    assert not hearts.is_wild(ace_of_clubs)
    assert penalty_value(joker, "jordanian", hearts) == 11
    assert penalty_value(ace_of_hearts, "jordanian", hearts) == 15
    assert penalty_value(ace_of_clubs, "jordanian", hearts) == 11
    aces = deal_wilds("jordanian", ace_of_spades)
    assert aces.is_wild(joker)
    assert penalty_value(joker, "jordanian", aces) == 15
    assert penalty_value(ace_of_hearts, "jordanian", aces) == 11
    # The meld part of example 5, through melds.py.
    from games.engine.errors import MeldError
    from games.engine.variants import HAND_VARIANTS

    rules = melds.MeldRules.for_variant(HAND_VARIANTS["jordanian"], {})
    wilds = melds.Wilds(seven_of_hearts)
    assert melds.meld_value(melds.make_meld(parse_cards("QH KH JK"), wilds, rules), rules) == 31
    set_of_fives = melds.make_meld(parse_cards("5S 5D AH"), wilds, rules)
    assert set_of_fives.kind == "set"
    for illegal in ("5S AH JK", "AH AH 5S 5D"):
        with pytest.raises(MeldError):
            melds.make_meld(parse_cards(illegal), wilds, rules)


def test_example_6_jordanian_next_dealer_is_the_first_tied_highest_after_the_dealer():
    from games.engine.match import next_dealer
    from games.engine.scoring import DealScore, SideScore

    score = DealScore(tuple(SideScore((seat,), points) for seat, points in enumerate((-30, 45, 45, 12))))
    assert next_dealer("jordanian", {}, 4, 3, score) == 1


def test_example_7_kuwaiti_colored_hand_multiplies_by_four_with_jokers_at_20():
    facts = HandDealFacts(
        players=3,
        winner=0,
        finish="colored",
        opened=(False, True, False),
        held=(None, cards("8H 9H JK"), None),
    )
    assert score_hand_deal("kuwaiti", {}, facts).points_by_seat() == (-120, 148, 400)


def test_example_8_kuwaiti_announcement_win_scores_like_a_normal_going_out():
    facts = HandDealFacts(
        players=3,
        winner=0,
        finish="announcement",
        opened=(True, True, False),
        held=(None, cards("AS 3C"), None),
    )
    assert score_hand_deal("kuwaiti", {}, facts).points_by_seat() == (-30, 14, 100)


def test_example_9_egyptian_suited_hand_uses_the_kuwaiti_row_instead_of_doubling():
    facts = HandDealFacts(
        players=3,
        winner=0,
        finish="suited",
        opened=(False, True, False),
        held=(None, 12, None),
    )
    assert score_hand_deal("egyptian", {}, facts).points_by_seat() == (-240, 96, 800)


def test_example_10_teams_out_team_scores_minus_30_and_other_team_sums_its_players():
    facts = HandDealFacts(
        players=4,
        winner=1,
        opened=(True, True, False, True),
        held=(20, None, None, None),
        teams=True,
    )
    score = score_hand_deal("classic", {"teams": True}, facts)
    by_seats = {side.seats: side.points for side in score.sides}
    assert by_seats == {(1, 3): -30, (0, 2): 120}


def test_example_11_hand_and_foot_books_card_points_held_costs_and_going_out():
    from games.engine.handfoot import HandFootSideFacts, score_handfoot_deal

    player_a = HandFootSideFacts(
        red_books=1,
        black_books=1,
        melded=cards("KS KH KD KC KS KH KD") + cards("AS AH AD AC AS AH JK") + cards("5S 5H 5D 5C"),
        went_out=True,
    )
    player_b = HandFootSideFacts(
        red_books=1,
        black_books=0,
        melded=cards("7S 7H 7D 7C 7S 7H 7D") + cards("QS QH QD"),
        held=cards("JK 3H 9C"),
    )
    score = score_handfoot_deal("hand-and-foot", {}, [player_a, player_b])
    assert score.points_by_seat() == (1130, 10)


def test_example_12_hand_and_foot_teams_partner_of_the_out_player_does_not_count_held_cards():
    from games.engine.handfoot import HandFootSideFacts, score_handfoot_deal

    team_x = HandFootSideFacts(
        red_books=1,
        black_books=1,
        melded=cards("9S 9H 9D 9C 9S 9H 9D") + cards("JS JH JD JC JS 2S 2H") + cards("AS AH AD"),
        held=cards("QH 3D"),
        went_out=True,
    )
    # One player holds 3H 7C; the other's never-picked-up foot is worth 85 (eight 10-point cards and a 5).
    team_y = HandFootSideFacts(
        red_books=0,
        black_books=0,
        melded=cards("KS KH KD KC JK") + cards("5S 5H 5D"),
        held=cards("3H 7C") + cards("8S 8H 8D 9C 9S 9H 10D 10C 5S"),
    )
    score = score_handfoot_deal("hand-and-foot-teams", {}, [team_x, team_y])
    assert {side.seats: side.points for side in score.sides} == {(0, 2): 1120, (1, 3): -490}


def test_example_13_hand_and_foot_openings_reach_the_minimum_and_wilds_never_outnumber_naturals():
    from games.engine.errors import MeldError
    from games.engine.handfoot import handfoot_meld_check, handfoot_opening_check, handfoot_opening_value

    assert handfoot_opening_value([cards("AS AH AD")], "hand-and-foot-teams") == 60
    assert handfoot_opening_value([cards("7S 7H 7D 7C"), cards("4S 4H 4D")], "hand-and-foot-teams") == 55
    assert handfoot_opening_value([cards("KS KH JK")], "hand-and-foot-teams") == 70
    for opening in ([cards("AS AH AD")], [cards("7S 7H 7D 7C"), cards("4S 4H 4D")], [cards("KS KH JK")]):
        handfoot_opening_check(opening, "hand-and-foot-teams", deal_number=0)  # minimum 50: no error
    with pytest.raises(MeldError):
        handfoot_meld_check(cards("AS JK JK"), "hand-and-foot-teams")
    with pytest.raises(MeldError):
        handfoot_opening_check([cards("AS JK JK")], "hand-and-foot-teams", deal_number=0)
