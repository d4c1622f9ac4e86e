"""The card picker's arithmetic: deck limits, held values per rule set, melded points, opening checks."""

from __future__ import annotations

import pytest

from games.engine.errors import DomainError, MeldError
from games.engine.picker import face_limits, held_value, melded_value, opening_check, picker_faces


def test_two_decks_hold_every_card_twice_and_two_jokers():
    limits = face_limits("classic", 4)
    assert limits["KS"] == 2
    assert limits["JK"] == 2
    assert len(picker_faces("classic", 4)) == 53


def test_small_kuwaiti_game_has_one_deck():
    assert face_limits("kuwaiti", 3)["KS"] == 1
    assert face_limits("kuwaiti", 4)["KS"] == 2


def test_hand_and_foot_has_a_deck_per_player_plus_one_for_small_games():
    assert face_limits("hand-and-foot", 2)["AS"] == 3
    assert face_limits("hand-and-foot", 2)["JK"] == 6
    assert face_limits("hand-and-foot-teams", 4)["AS"] == 4


def test_a_card_can_be_picked_as_often_as_the_decks_hold_it_and_no_more():
    assert held_value("classic", 4, "KS KS").total == 20
    with pytest.raises(DomainError, match="2 × KS, not 3"):
        held_value("classic", 4, "KS KS KS")


def test_held_values_use_the_rule_sets_wild_value():
    assert held_value("classic", 4, "KS 7H JK").values == (10, 7, 15)
    assert held_value("kuwaiti", 3, "8H 9H JK").total == 37


def test_jordanian_indicator_decides_what_jokers_and_aces_are_worth():
    assert held_value("jordanian", 4, "JK AH AC", indicator="7H").values == (11, 15, 11)
    assert held_value("jordanian", 4, "JK AH", indicator="AS").values == (15, 11)
    with pytest.raises(DomainError, match="indicator"):
        held_value("jordanian", 4, "JK")
    with pytest.raises(DomainError, match="never the wild-card indicator"):
        held_value("egyptian", 4, "5S", indicator="JK")


def test_hand_and_foot_held_costs_count_threes():
    assert held_value("hand-and-foot", 2, "JK 3H 9C").total == 555
    assert held_value("hand-and-foot-teams", 4, "3H 3S 7C").total == 510


def test_melded_points_refuse_a_three():
    assert melded_value("hand-and-foot-teams", 4, "AS AH AD").total == 60
    with pytest.raises(DomainError, match="3s are never melded"):
        melded_value("hand-and-foot", 2, "3S 3H 3D")


def test_not_a_card_is_refused():
    with pytest.raises(DomainError, match="is not a card"):
        held_value("classic", 3, "KS 1Z")


def test_opening_check_compares_with_the_saudi_escalating_minimum():
    check = opening_check("saudi", {}, ["QH KH AH", "9C 9D 9S"], last_opening=58)
    assert (check.total, check.minimum, check.enough) == (58, 59, False)


def test_opening_check_uses_the_hand_and_foot_minimum_of_the_deal():
    assert opening_check("hand-and-foot", {}, ["AS AH AD AC"], deal_index=1).minimum == 90
    with pytest.raises(MeldError):
        opening_check("hand-and-foot", {}, ["AS JK JK"])
