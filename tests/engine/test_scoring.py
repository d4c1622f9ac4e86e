"""Scoring of one Hand-family deal: one test per rule of hand-family.md sections 3 and 6."""

from __future__ import annotations

import pytest

from games.engine.cards import parse_cards
from games.engine.errors import DomainError, InvalidOptions
from games.engine.scoring import (
    HAND_NAMES,
    KUWAITI_TABLE,
    HandDealFacts,
    InvalidFacts,
    deal_wilds,
    max_held_value,
    penalty_value,
    score_hand_deal,
    winner_from_flags,
)


def cards(text: str):
    return tuple(parse_cards(text))


def card(text: str):
    return parse_cards(text)[0]


def three_players(finish="normal", opened=(False, True, False), held=(None, 10, None), **more):
    return HandDealFacts(players=3, winner=0, finish=finish, opened=opened, held=held, **more)


# --- Card values (section 3) ---


@pytest.mark.parametrize(
    ("face", "value"), [("AS", 11), ("KD", 10), ("QC", 10), ("JH", 10), ("10S", 10), ("9H", 9), ("2C", 2)]
)
def test_cards_left_in_hand_cost_ace_11_faces_10_and_numbers_their_value(face, value):
    for slug in ("classic", "saudi", "kuwaiti", "jordanian", "egyptian"):
        assert penalty_value(card(face), slug) == value


def test_a_wild_joker_left_in_hand_costs_15_and_20_in_kuwaiti():
    joker = card("JK")
    assert penalty_value(joker, "classic") == 15
    assert penalty_value(joker, "saudi") == 15
    assert penalty_value(joker, "kuwaiti") == 20
    assert penalty_value(joker, "jordanian", deal_wilds("jordanian", card("AD"))) == 15


def test_a_jordanian_joker_that_is_a_natural_ace_costs_11_and_the_wild_ace_15():
    wilds = deal_wilds("egyptian", card("9C"))
    assert penalty_value(card("JK"), "egyptian", wilds) == 11
    assert penalty_value(card("AC"), "egyptian", wilds) == 15
    assert penalty_value(card("AD"), "egyptian", wilds) == 11


def test_the_most_a_hand_can_be_worth_is_two_wilds_and_twelve_aces():
    assert max_held_value("classic") == 162
    assert max_held_value("kuwaiti") == 172


# --- classic, saudi, jordanian (section 6) ---


@pytest.mark.parametrize("slug", ["classic", "saudi", "jordanian", "egyptian"])
def test_the_player_who_goes_out_scores_minus_30_and_minus_60_for_a_hand(slug):
    assert score_hand_deal(slug, {}, three_players()).points_by_seat()[0] == -30
    assert score_hand_deal(slug, {}, three_players("hand")).points_by_seat()[0] == -60


def test_an_opened_opponent_scores_the_value_of_their_cards_and_twice_that_for_a_hand():
    held = (None, cards("KS 7H JK"), None)
    assert score_hand_deal("saudi", {}, three_players(held=held)).points_by_seat()[1] == 32
    assert score_hand_deal("saudi", {}, three_players("hand", held=held)).points_by_seat()[1] == 64


def test_an_unopened_opponent_scores_100_and_200_for_a_hand():
    assert score_hand_deal("classic", {}, three_players()).points_by_seat()[2] == 100
    assert score_hand_deal("classic", {}, three_players("hand")).points_by_seat()[2] == 200


def test_an_unopened_opponents_cards_do_not_matter():
    facts = three_players(held=(None, 10, cards("JK JK AS")))
    assert score_hand_deal("classic", {}, facts).points_by_seat()[2] == 100


def test_a_void_deal_scores_nothing_and_is_marked_void():
    score = score_hand_deal("classic", {}, HandDealFacts(players=3, winner=None))
    assert score.void
    assert score.points_by_seat() == (0, 0, 0)


def test_every_score_is_the_sum_of_its_breakdown_parts():
    facts = three_players("hand", held=(None, cards("5C 5D 9S"), None))
    score = score_hand_deal("classic", {}, facts)
    texts = [part.text() for side in score.sides for part in side.parts]
    assert texts == ["Went out “Hand”", "Cards left: 5C 5D 9S = 19", "Went out “Hand”: ×2", "Not opened"]
    for side in score.sides:
        assert side.points == sum(part.points for part in side.parts)


def test_typed_points_score_like_the_cards_they_stand_for():
    by_cards = score_hand_deal("classic", {}, three_players(held=(None, cards("KS 7H JK"), None)))
    by_number = score_hand_deal("classic", {}, three_players(held=(None, 32, None)))
    assert by_cards.points_by_seat() == by_number.points_by_seat()
    assert by_number.sides[1].parts[0].text() == "Cards left: 32"


# --- egyptian special hands ---


@pytest.mark.parametrize("name", HAND_NAMES[2:])
def test_an_egyptian_special_hand_uses_its_kuwaiti_row(name):
    row = KUWAITI_TABLE[name]
    score = score_hand_deal("egyptian", {}, three_players(name, held=(None, 10, None)))
    assert score.points_by_seat() == (row.winner, 10 * row.multiplier, row.not_opened)


def test_an_egyptian_regular_hand_is_the_doubled_row():
    score = score_hand_deal("egyptian", {}, three_players("regular"))
    assert score.points_by_seat() == (-60, 20, 200)


def test_an_egyptian_special_hand_counts_a_natural_joker_as_an_ace():
    facts = three_players("colored", held=(None, cards("JK"), None), indicator=card("7H"))
    assert score_hand_deal("egyptian", {}, facts).points_by_seat()[1] == 44


def test_egyptian_special_hands_need_a_player_who_had_not_opened():
    facts = three_players("suited", opened=(True, True, False))
    with pytest.raises(InvalidFacts, match="already opened"):
        score_hand_deal("egyptian", {}, facts)


# --- kuwaiti ---


def test_the_kuwaiti_table_has_the_spec_figures_row_by_row():
    table = {
        name: (row.winner, row.multiplier, row.not_opened, row.irregularity)
        for name, row in KUWAITI_TABLE.items()
    }
    assert table == {
        "announcement": (-30, 1, 100, 150),
        "regular": (-60, 2, 200, 300),
        "colored": (-120, 4, 400, 600),
        "suited": (-240, 8, 800, 1200),
        "joker": (-120, 4, 400, 600),
        "double_joker": (-240, 8, 800, 1200),
        "joker_colored": (-240, 8, 800, 1200),
        "joker_suited": (-480, 16, 1200, 1800),
        "double_joker_colored": (-480, 32, 1600, 3200),
        "double_joker_suited": (-720, 64, 3200, 6400),
    }


@pytest.mark.parametrize("name", HAND_NAMES[1:])
def test_each_kuwaiti_hand_scores_its_row_with_jokers_at_20(name):
    row = KUWAITI_TABLE[name]
    facts = three_players(name, held=(None, cards("JK 2S"), None))
    assert score_hand_deal("kuwaiti", {}, facts).points_by_seat() == (
        row.winner,
        22 * row.multiplier,
        row.not_opened,
    )


def test_a_kuwaiti_irregularity_replaces_the_players_figure_with_the_penalty_for_the_winning_hand():
    facts = three_players("joker_suited", opened=(False, True, False), irregular=(False, True, True))
    score = score_hand_deal("kuwaiti", {}, facts)
    assert score.points_by_seat() == (-480, 1800, 1800)
    assert score.sides[1].parts[0].text() == "Irregularity (Joker Suited Hand)"


def test_kuwaiti_reads_normal_as_announcement_and_hand_as_regular():
    assert score_hand_deal(
        "kuwaiti", {}, three_players("normal", opened=(True, True, False))
    ).points_by_seat() == (
        -30,
        10,
        100,
    )
    assert score_hand_deal("kuwaiti", {}, three_players("hand")).points_by_seat() == (-60, 20, 200)


def test_a_kuwaiti_announcement_win_needs_an_announced_winner():
    with pytest.raises(InvalidFacts, match="had not announced"):
        score_hand_deal("kuwaiti", {}, three_players("announcement", opened=(False, True, False)))


def test_a_player_who_announced_may_not_declare_a_kuwaiti_hand():
    with pytest.raises(InvalidFacts, match="may not declare a Hand"):
        score_hand_deal("kuwaiti", {}, three_players("colored", opened=(True, True, False)))


def test_irregularities_are_refused_outside_kuwaiti_and_for_the_winner():
    with pytest.raises(InvalidFacts, match="kuwaiti rule"):
        score_hand_deal("classic", {}, three_players(irregular=(False, True, False)))
    with pytest.raises(InvalidFacts, match="won the deal"):
        score_hand_deal("kuwaiti", {}, three_players("colored", irregular=(True, False, False)))


# --- teams ---


def test_in_teams_the_out_team_scores_the_winners_figure_and_the_partners_cards_do_not_count():
    facts = HandDealFacts(
        players=4,
        winner=0,
        finish="hand",
        opened=(False, True, True, True),
        held=(None, 10, 99, 5),
        teams=True,
    )
    score = score_hand_deal("jordanian", {}, facts)
    assert [(side.seats, side.points) for side in score.sides] == [((0, 2), -60), ((1, 3), 30)]
    assert score.points_by_seat() == (-60, 30, -60, 30)
    assert score.figures_by_seat() == (-60, 20, 0, 10)


def test_in_teams_egyptian_special_hands_apply_to_each_opponent():
    facts = HandDealFacts(
        players=4,
        winner=3,
        finish="joker",
        opened=(True, True, False, False),
        held=(7, None, None, None),
        teams=True,
    )
    score = score_hand_deal("egyptian", {}, facts)
    assert {side.seats: side.points for side in score.sides} == {(0, 2): 28 + 400, (1, 3): -120}


def test_teams_mode_is_refused_for_kuwaiti_and_for_other_than_four_players():
    with pytest.raises(InvalidOptions):
        score_hand_deal("kuwaiti", {}, HandDealFacts(players=4, winner=None, teams=True))
    with pytest.raises(InvalidOptions):
        score_hand_deal("classic", {"teams": True}, HandDealFacts(players=3, winner=None))


# --- impossible facts ---


def test_two_winners_are_refused():
    with pytest.raises(InvalidFacts, match="Only one player can go out"):
        winner_from_flags([True, False, True])
    assert winner_from_flags([False, True, False]) == 1
    assert winner_from_flags([False, False]) is None


def test_a_winner_who_is_not_in_the_game_is_refused():
    with pytest.raises(InvalidFacts, match="Player 4 is not in this game"):
        score_hand_deal(
            "classic", {}, HandDealFacts(players=3, winner=3, opened=(True,) * 3, held=(None,) * 3)
        )


def test_negative_typed_points_are_refused():
    with pytest.raises(InvalidFacts, match="negative"):
        score_hand_deal("classic", {}, three_players(held=(None, -4, None)))
    with pytest.raises(InvalidFacts, match="negative"):
        score_hand_deal("classic", {}, three_players(held=(None, 5, -1)))


@pytest.mark.parametrize("points", [0, 1, 163, 1000])
def test_typed_points_no_cards_could_make_are_refused(points):
    with pytest.raises(InvalidFacts, match=r"not possible|No cards"):
        score_hand_deal("classic", {}, three_players(held=(None, points, None)))


def test_an_opened_opponent_with_no_cards_or_too_many_is_refused():
    with pytest.raises(InvalidFacts, match="at least one card"):
        score_hand_deal("classic", {}, three_players(held=(None, (), None)))
    with pytest.raises(InvalidFacts, match="15 cards"):
        score_hand_deal(
            "classic",
            {},
            three_players(held=(None, cards("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 2H 3H 4H"), None)),
        )


def test_more_copies_of_a_card_than_the_decks_hold_are_refused():
    with pytest.raises(InvalidFacts, match="2 × KS"):
        score_hand_deal("classic", {}, three_players(held=(None, cards("KS KS KS"), None)))
    with pytest.raises(InvalidFacts, match="1 × KS"):
        score_hand_deal("kuwaiti", {}, three_players("colored", held=(None, cards("KS KS"), None)))


def test_the_opened_cards_of_an_opponent_must_be_given():
    with pytest.raises(InvalidFacts, match="Say what player 2 still holds"):
        score_hand_deal("classic", {}, three_players(held=(None, None, None)))


def test_a_winner_holding_cards_is_refused():
    with pytest.raises(InvalidFacts, match="hold no cards"):
        score_hand_deal("classic", {}, three_players(held=(cards("5S"), 10, None)))


def test_a_hand_by_a_player_who_had_already_opened_is_refused():
    with pytest.raises(InvalidFacts, match="cannot go out “Hand”"):
        score_hand_deal("classic", {}, three_players("hand", opened=(True, True, False)))


@pytest.mark.parametrize("slug", ["classic", "saudi", "jordanian"])
def test_a_kuwaiti_hand_type_is_refused_outside_kuwaiti_and_egyptian(slug):
    with pytest.raises(InvalidFacts, match="kuwaiti hand"):
        score_hand_deal(slug, {}, three_players("colored"))


def test_an_egyptian_announcement_and_an_unknown_finish_are_refused():
    with pytest.raises(InvalidFacts, match="kuwaiti hand"):
        score_hand_deal("egyptian", {}, three_players("announcement"))
    with pytest.raises(InvalidFacts, match="not a way to go out"):
        score_hand_deal("classic", {}, three_players("sideways"))


def test_facts_with_the_wrong_number_of_seats_are_refused():
    with pytest.raises(InvalidFacts, match="3 players but 2 values"):
        score_hand_deal("classic", {}, three_players(opened=(True, False)))


def test_a_player_count_the_rule_set_does_not_allow_is_refused():
    with pytest.raises(InvalidFacts, match="2 to 4 players, not 5"):
        score_hand_deal("jordanian", {}, HandDealFacts(players=5, winner=None))


def test_the_indicator_must_be_given_when_it_decides_a_held_cards_value():
    with pytest.raises(InvalidFacts, match="indicator"):
        score_hand_deal("jordanian", {}, three_players(held=(None, cards("JK 5S"), None)))
    with pytest.raises(InvalidFacts, match="no wild-card indicator"):
        score_hand_deal("classic", {}, three_players(indicator=card("7H")))
    with pytest.raises(InvalidFacts, match="never the wild-card indicator"):
        score_hand_deal("jordanian", {}, three_players(indicator=card("JK")))


def test_error_sentences_are_templates_with_params_for_translation():
    with pytest.raises(DomainError) as caught:
        score_hand_deal("classic", {}, three_players(held=(None, -4, None)))
    assert "{number}" in caught.value.template
    assert caught.value.params["number"] == 2
    arabic = {caught.value.template: "اللاعب {number}: {points}"}
    assert caught.value.sentence(arabic.get) == "اللاعب 2: -4"


def test_a_deal_score_round_trips_through_json():
    import json

    from games.engine.scoring import DealScore

    facts = HandDealFacts(
        players=4,
        winner=1,
        opened=(True, True, False, True),
        held=(cards("KS 7H"), None, None, 5),
        teams=True,
    )
    score = score_hand_deal("classic", {}, facts)
    assert DealScore.from_json(json.loads(json.dumps(score.to_json()))) == score
