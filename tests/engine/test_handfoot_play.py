"""Hand and Foot played through the public API: a test per rule of hand-and-foot.md and per decision
on the points the texts leave open (the numbers refer to its "Decisions" list)."""

from __future__ import annotations

import pytest

from games.engine import (
    DomainError,
    apply,
    bot_action,
    dumps,
    legal_actions,
    loads,
    new_game,
    replay,
    view,
)
from games.engine.deal import DRAW, PLAY, deck_for
from games.engine.handfoot import HandFootSideFacts, handfoot_held_cost, score_handfoot_deal
from games.engine.handfoot_deal import perform, side_facts
from tests.engine.footrig import SOLO, TEAMS, foot_rig, ids


def refused(game, seat, action, message: str) -> None:
    before = dumps(game)
    with pytest.raises(DomainError, match=message):
        apply(game, seat, action)
    assert dumps(game) == before


def meld(game, seat, *texts):
    return apply(game, seat, {"type": "meld", "melds": [ids(game, seat, t) for t in texts]})


# --- Decks, the deal, the first player -----------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "players", "decks", "size"),
    [
        (SOLO, 2, 3, 13),
        (SOLO, 3, 4, 13),
        (SOLO, 4, 4, 13),
        (SOLO, 5, 5, 11),
        (SOLO, 8, 8, 11),
        (TEAMS, 4, 4, 11),
    ],
)
def test_decks_and_the_hand_and_foot_dealt_follow_the_player_count(variant, players, decks, size):
    game = new_game(variant, players, seed=7)
    deal = game.deal
    assert len(deck_for(variant, players)) == 54 * decks
    assert sum(1 for c in deck_for(variant, players) if c.rank == 0) == 2 * decks
    assert [len(h) for h in deal.hands] == [size] * players
    assert [len(f) for f in deal.feet] == [size] * players
    assert len(deal.stock) == 54 * decks - 2 * size * players
    assert deal.discard == []  # decision 8: no card is turned up
    assert deal.phase == DRAW


def test_the_first_player_is_drawn_and_each_later_deal_starts_with_the_next_seat():
    firsts = {new_game(SOLO, 3, seed=seed).deal.first for seed in range(12)}
    assert firsts == {0, 1, 2}  # decision 13: drawn (seeded)
    game = new_game(SOLO, 3, seed=5)
    first = game.deal.first
    while game.deal.number == 0:
        apply(game, game.current, bot_action(game, game.current))
    assert game.deal.first == (first + 1) % 3


def test_each_deal_has_its_opening_minimum_and_the_teams_option_adds_a_fourth_at_150():
    for variant, options, minimums in (
        (SOLO, {}, [50, 90, 120, 150]),
        (TEAMS, {}, [50, 90, 120]),
        (TEAMS, {"fourth_deal": True}, [50, 90, 120, 150]),
    ):
        game = new_game(variant, 4, options, seed=3)
        seen = []
        while not game.finished:
            if game.deal.number == len(seen):
                seen.append(game.deal.minimum)
                assert view(game, 0)["opening_minimum"] == game.deal.minimum
            apply(game, game.current, bot_action(game, game.current))
        assert seen == minimums


# --- Drawing ----------------------------------------------------------------------------------


def test_002_draws_two_cards_and_004_one():
    for variant, players, count in ((SOLO, 2, 2), (TEAMS, 4, 1)):
        game = new_game(variant, players, seed=1)
        seat = game.current
        before = len(game.deal.hands[seat])
        events = apply(game, seat, {"type": "draw"})
        assert len(game.deal.hands[seat]) == before + count
        assert events[0]["type"] == "drew_cards"
        assert events[0]["count"] == count
        assert "cards" not in view(game, (seat + 1) % players)["log"][-1]
        assert len(view(game, seat)["log"][-1]["cards"]) == count


def test_a_player_draws_once_then_plays():
    game = foot_rig(SOLO, 2, ("4S 5S 6S",), ("7S",) * 2)
    apply(game, 0, {"type": "draw"})
    refused(game, 0, {"type": "draw"}, "already drawn")
    refused(game, 1, {"type": "draw"}, "not your turn")


# --- Taking the discard pile ------------------------------------------------------------------


PILE = "4C 6C 8C 9C JC KD"  # six cards, the K of diamonds on top


def test_002_the_pile_needs_six_cards_and_two_matching_naturals():
    game = foot_rig(SOLO, 2, ("KS KH AS AH AD 5S",), ("7S", "7H"), discard="6C 8C 9C JC KD")
    refused(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS KH")}, "at least 6 cards; it holds 5")
    game = foot_rig(SOLO, 2, ("KS KH AS AH AD 5S",), ("7S", "7H"), discard=PILE, opened=(True,))
    refused(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS")}, "two natural Ks")
    events = apply(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS KH")})
    assert [e["type"] for e in events] == ["took_pile", "melded"]
    deal = game.deal
    assert [c.face for c in deal.melds[0].cards] == ["KD", "KS", "KH"]
    assert sorted(c.face for c in deal.hands[0]) == sorted(["AS", "AH", "AD", "5S", "6C", "8C", "9C", "JC"])
    assert [c.face for c in deal.discard] == ["4C"]  # the top 5 taken: 1 melded, 4 into the hand
    assert deal.phase == PLAY


def test_002_one_natural_is_enough_when_the_player_has_a_meld_of_that_rank():
    game = foot_rig(
        SOLO, 2, ("KS AS AH AD 5S",), ("7S", "7H"), discard=PILE, opened=(True,), melds=((0, "KC KC KH"),)
    )
    apply(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS")})
    assert [c.face for c in game.deal.melds[0].cards] == ["KC", "KC", "KH", "KD", "KS"]


def test_002_an_unopened_player_opens_with_the_pile_counting_the_top_card_only():
    # KD + KS KH = 30; with the aces (45) 75 >= 50. The pile's other cards do not count.
    game = foot_rig(SOLO, 2, ("KS KH AS AH AD 5S",), ("7S", "7H"), discard="JK JK AC AC " + PILE)
    refused(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS KH")}, "total 30; you need 50")
    events = apply(
        game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS KH"), "melds": [ids(game, 0, "AS AH AD")]}
    )
    assert events[-1] == {"type": "opened", "seat": 0, "total": 75, "minimum": 50}
    assert game.deal.opened[0]


def test_a_pile_whose_top_card_is_wild_or_a_3_cannot_be_taken():
    for top in ("2H", "JK", "3S"):
        game = foot_rig(SOLO, 2, ("KS KH 5S",), ("7S", "7H"), discard=f"4C 6C 8C 9C JC {top}", opened=(True,))
        refused(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS KH")}, "wild card or a 3 on top")


def test_004_only_an_opened_team_takes_the_pile_with_two_naturals_and_five_cards_into_the_hand():
    pile = "5C 4C 6C 8C 9C JC KD"
    hands = ("KS KH KC AS 5S", "4H", "6H", "7H")
    game = foot_rig(TEAMS, 4, hands, ("7S",) * 4, discard=pile)
    refused(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS KH")}, "team must open")
    game = foot_rig(TEAMS, 4, hands, ("7S",) * 4, discard=pile, opened=(True,), melds=((0, "KD KD KD"),))
    # Decision 4: with a team meld of that rank the cards go onto it, still with two naturals.
    refused(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS")}, "two natural Ks")
    apply(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS KH KC")})
    assert len(game.deal.melds) == 1
    assert len(game.deal.melds[0].cards) == 7
    assert game.deal.melds[0].colour == "red"
    assert [c.face for c in game.deal.discard] == ["5C"]
    assert sorted(c.face for c in game.deal.hands[0]) == sorted(["AS", "5S", "4C", "6C", "8C", "9C", "JC"])


def test_004_no_wild_card_goes_with_the_top_card():
    game = foot_rig(TEAMS, 4, ("KS 2H 5S",), ("7S",) * 4, discard=PILE, opened=(True,))
    refused(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS 2H")}, "No wild card")


def test_decision_3_cards_taken_from_the_pile_may_be_melded_the_same_turn():
    game = foot_rig(SOLO, 2, ("KS KH 9S 9H 5S",), ("7S", "7H"), discard=PILE, opened=(True,))
    apply(game, 0, {"type": "take_pile", "cards": ids(game, 0, "KS KH")})
    meld(game, 0, "9S 9H 9C")
    assert {m.rank for m in game.deal.melds} == {13, 9}


# --- Melds, books, openings -------------------------------------------------------------------


def test_threes_never_meld_and_naturals_must_outnumber_wilds():
    game = foot_rig(SOLO, 2, ("3S 3H 3D 7S 2S JK 8S 8H 2H 5S",), ("7S", "7H"), phase=PLAY, opened=(True,))
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "3S 3H 3D")]}, "3s are never melded")
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "7S 2S JK")]}, "outnumber")
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "8S 8H 2S 2H")]}, "outnumber")
    meld(game, 0, "8S 8H 2S")


def test_example_13_openings_at_50():
    hands = ("AS AH AD 7S 7H 7D 7C 4S 4H 4D KS KH JK JK 5S",)
    feet = ("8C",) * 4
    for texts, ok in (
        (("AS AH AD",), True),  # 60
        (("7S 7H 7D 7C", "4S 4H 4D"), True),  # 40 + 15 = 55
        (("KS KH JK",), True),  # 20 + 50 = 70
        (("7S 7H 7D",), False),  # 30
    ):
        game = foot_rig(TEAMS, 4, hands, feet, phase=PLAY)
        if ok:
            meld(game, 0, *texts)
            assert game.deal.opened[0]
        else:
            refused(
                game, 0, {"type": "meld", "melds": [ids(game, 0, t) for t in texts]}, "total 30; you need 50"
            )
    game = foot_rig(TEAMS, 4, hands, feet, phase=PLAY)
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "AS JK JK")]}, "outnumber")


def test_decision_1_the_opening_is_one_lay_down_and_later_melds_that_turn_are_free():
    game = foot_rig(SOLO, 2, ("AS AH AD 7S 7H 7D 9S",), ("7S", "7H"), phase=PLAY, deal_number=1)  # 90
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "AS AH AD")]}, "total 45; you need 90")
    game = foot_rig(SOLO, 2, ("AS AH AD KS KH KD JK 7S 7H 7D 9S",), ("7S", "7H"), phase=PLAY, deal_number=1)
    meld(game, 0, "AS AH AD", "KS KH KD JK")  # 45 + 80 = 125
    meld(game, 0, "7S 7H 7D")  # free after the opening
    assert game.deal.opening_totals[0] == 125


def test_one_meld_per_rank_per_player_in_002():
    game = foot_rig(
        SOLO,
        2,
        ("9S 9H 9D 5S",),
        ("7S", "7H"),
        phase=PLAY,
        opened=(True, True),
        melds=((0, "9C 9C 9H"), (1, "9S 9S 9D")),
    )
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "9S 9H 9D")]}, "You already have a meld of 9s")
    refused(game, 0, {"type": "lay_off", "meld": 2, "cards": ids(game, 0, "9S")}, "only to your own melds")
    apply(game, 0, {"type": "lay_off", "meld": 1, "cards": ids(game, 0, "9S 9H")})
    assert len(game.deal.melds[0].cards) == 5


def test_004_team_melds_are_shared_by_partners_and_one_per_rank_per_team():
    hands = ("5S 6S", "5H 6H", "9S 9H 9D 2C 8S", "4H")
    game = foot_rig(
        TEAMS, 4, hands, ("7S",) * 4, current=2, phase=PLAY, opened=(True, False), melds=((0, "9C 9C 9H"),)
    )
    refused(
        game, 2, {"type": "meld", "melds": [ids(game, 2, "9S 9H 9D")]}, "Your team already has a meld of 9s"
    )
    refused(game, 2, {"type": "meld", "melds": [ids(game, 2, "9S 9H 9D 2C")]}, "Your team already has")
    apply(
        game, 2, {"type": "lay_off", "meld": 1, "cards": ids(game, 2, "9S 9H 9D 2C")}
    )  # the partner's opening counts
    assert game.deal.melds[0].colour == "black"
    assert view(game, 0)["sides"][0]["black_books"] == 1


def test_books_are_seven_or_more_red_without_a_wild_and_no_wild_goes_on_a_red_book():
    game = foot_rig(
        SOLO,
        2,
        ("9S 2C JK 9H 5S 6S",),
        ("7S", "7H"),
        phase=PLAY,
        opened=(True,),
        melds=((0, "9C 9C 9H 9D 9D 9S 9H"), (0, "8S 8H 8D 8C")),
    )
    assert game.deal.melds[0].colour == "red"  # decision 14: no closing action
    refused(game, 0, {"type": "lay_off", "meld": 1, "cards": ids(game, 0, "2C")}, "never go on a red book")
    apply(game, 0, {"type": "lay_off", "meld": 1, "cards": ids(game, 0, "9S")})  # more naturals are fine
    assert game.deal.melds[0].colour == "red"
    apply(game, 0, {"type": "lay_off", "meld": 2, "cards": ids(game, 0, "2C JK")})  # decision 9: 4 + 2 wilds
    refused(game, 0, {"type": "lay_off", "meld": 2, "cards": ids(game, 0, "9H")}, "Only 8s or wild cards")
    assert game.deal.melds[1].colour is None
    assert game.deal.melds[1].wilds == 2


def test_a_meld_with_a_wild_card_is_a_black_book_at_seven_cards():
    game = foot_rig(
        SOLO, 2, ("8S 5S 6S",), ("7S", "7H"), phase=PLAY, opened=(True,), melds=((0, "8C 8H 8D 8C 8D 2S"),)
    )
    apply(game, 0, {"type": "lay_off", "meld": 1, "cards": ids(game, 0, "8S")})
    assert game.deal.melds[0].colour == "black"


# --- The foot ---------------------------------------------------------------------------------


def test_a_foot_is_face_down_even_for_its_owner_until_picked_up():
    game = new_game(SOLO, 3, seed=11)
    foot_ids = {c.id for c in game.deal.feet[0]}
    for seat in (None, 0, 1, 2):
        picture = view(game, seat)
        assert not foot_ids & {c["id"] for c in picture["hand"] or []}
        assert picture["seats"][0]["foot"] == 13
        assert not picture["seats"][0]["in_foot"]
    from tests.engine.playout import card_ids_shown as _card_ids

    assert not foot_ids & _card_ids(view(game, 0))


def test_002_melding_the_whole_hand_runs_to_the_foot_plays_on_and_needs_no_discard():
    game = foot_rig(SOLO, 2, ("9S 9H 9D",), ("KS KH KD 5S 6S",), phase=PLAY, opened=(True,))
    refused(game, 0, {"type": "end_turn"}, "End your turn with a discard")
    events = meld(game, 0, "9S 9H 9D")
    assert events[-1]["type"] == "picked_up_foot"
    assert events[-1]["at_once"]
    assert game.deal.picked_up[0]
    assert len(game.deal.hands[0]) == 5
    assert {c["face"] for c in view(game, 0)["hand"]} == {"KS", "KH", "KD", "5S", "6S"}
    assert "cards" not in view(game, 1)["log"][-1]
    meld(game, 0, "KS KH KD")  # same turn, from the foot
    apply(game, 0, {"type": "end_turn"})
    assert game.deal.current == 1
    assert game.deal.phase == DRAW


def test_002_discarding_the_last_hand_card_picks_up_the_foot_for_the_next_turn():
    game = foot_rig(SOLO, 2, ("9S",), ("KS KH KD 5S 6S",), phase=PLAY)
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "9S")[0]})
    assert [e["type"] for e in events] == ["discarded", "picked_up_foot", "turn_started"]
    assert game.deal.picked_up[0]
    assert len(game.deal.hands[0]) == 5
    assert game.deal.current == 1


def test_004_discard_then_foot_and_soaring_ends_with_a_discard():
    game = foot_rig(TEAMS, 4, ("9S", "4H", "5H", "6H"), ("KS KH 5S",) * 4, phase=PLAY)
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "9S")[0]})
    assert game.deal.picked_up[0]
    assert game.deal.current == 1
    game = foot_rig(TEAMS, 4, ("9S 9H 9D",), ("KS KH 5S",) * 4, phase=PLAY, opened=(True,))
    meld(game, 0, "9S 9H 9D")  # soaring
    assert game.deal.picked_up[0]
    assert game.deal.current == 0
    refused(game, 0, {"type": "end_turn"}, "End your turn with a discard")
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "5S")[0]})
    assert game.deal.current == 1


def test_a_player_keeps_a_card_in_the_foot_unless_going_out():
    game = foot_rig(SOLO, 2, ("9S 9H 9D 5S",), (None,), phase=PLAY, opened=(True,))
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "9S 9H 9D")]}, "Keep two cards")
    game = foot_rig(
        TEAMS,
        4,
        ("9S 9H 9D",),
        (None,),
        phase=PLAY,
        opened=(True,),
        melds=((0, "KS KH KD KC KS KH KD"), (0, "QS QH QD QC QS QH 2S")),
    )
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "9S 9H 9D")]}, "discarding your last card")


# --- Discards ---------------------------------------------------------------------------------


def test_004_twos_and_jokers_are_never_discarded_unless_only_wild_cards_are_left():
    game = foot_rig(TEAMS, 4, ("2S JK 5S",), ("7S",) * 4, phase=PLAY)
    refused(game, 0, {"type": "discard", "card": ids(game, 0, "2S")[0]}, "never be discarded")
    refused(game, 0, {"type": "discard", "card": ids(game, 0, "JK")[0]}, "never be discarded")
    # Decision 6: nothing but wild cards and no meld to lay them on.
    game = foot_rig(
        TEAMS, 4, ("2S JK",), ("7S",) * 4, phase=PLAY, opened=(True,), melds=((0, "KS KH KD KC KS KH KD"),)
    )
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "2S")[0]})
    # ...but a wild card that can be laid off must be.
    game = foot_rig(
        TEAMS, 4, ("2S JK",), ("7S",) * 4, phase=PLAY, opened=(True,), melds=((0, "KS KS KS KS"),)
    )
    refused(game, 0, {"type": "discard", "card": ids(game, 0, "2S")[0]}, "never be discarded")


def test_002_wild_cards_may_be_discarded():
    game = foot_rig(SOLO, 2, ("2S 5S",), ("7S", "7H"), phase=PLAY)
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "2S")[0]})


# --- Going out --------------------------------------------------------------------------------


def test_002_going_out_needs_a_red_and_a_black_book_and_may_end_with_a_meld_or_a_discard():
    books = ((0, "KS KH KD KC KS KH KD"), (0, "QS QH QD QC QS QH 2S"))
    game = foot_rig(SOLO, 2, ("9S 9H 9D",), (None, "7H"), phase=PLAY, opened=(True,), melds=books[:1])
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "9S 9H 9D")]}, "To go out you need a black book")
    game = foot_rig(SOLO, 2, ("9S 9H 9D",), (None, "7H"), phase=PLAY, opened=(True,), melds=books)
    events = meld(game, 0, "9S 9H 9D")  # decision 2: with the last foot card melded
    assert [e["type"] for e in events][1:3] == ["went_out", "deal_ended"]
    assert events[2]["winner"] == 0
    assert events[2]["points"][0] == 500 + 300 + 70 + 80 + 15 + 100
    game = foot_rig(SOLO, 2, ("5S",), (None, "7H"), phase=PLAY, opened=(True,), melds=books)
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "5S")[0]})  # or with a discard
    assert events[1]["type"] == "went_out"


def test_004_going_out_is_a_last_discard_with_the_teams_books():
    game = foot_rig(
        TEAMS, 4, ("5S",), (None,), phase=PLAY, opened=(True,), melds=((0, "KS KH KD KC KS KH KD"),)
    )
    refused(game, 0, {"type": "discard", "card": ids(game, 0, "5S")[0]}, "your team needs a black book")
    game = foot_rig(
        TEAMS,
        4,
        ("5S", "4H", "QH 3D", "6H"),
        (None, "7C", "8C", "9C"),
        phase=PLAY,
        opened=(True,),
        melds=((0, "KS KH KD KC KS KH KD"), (2 - 2, "QS QH QD QC QS QH 2S")),
    )
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "5S")[0]})
    ended = next(e for e in events if e["type"] == "deal_ended")
    # Team 0+2: 500 + 300 + 70 + 80 + 100; the partner's QH 3D and foot do not count (decision 11).
    assert ended["points"][0] == ended["points"][2] == 500 + 300 + 70 + 60 + 20 + 100
    assert ended["points"][1] == -(5 + 10 + 10 + 10)


def test_example_11_played_out_online_scores_1130_and_10():
    game = foot_rig(
        SOLO,
        2,
        ("5S 5H 5D 5C", "JK 3H 9C"),
        (None, None),
        phase=PLAY,
        opened=(True, True),
        melds=(
            (0, "KS KH KD KC KS KH KD"),
            (0, "AS AH AD AC AS AH JK"),
            (1, "7S 7H 7D 7C 7S 7H 7D"),
            (1, "QS QH QD"),
        ),
    )
    events = meld(game, 0, "5S 5H 5D 5C")
    assert next(e for e in events if e["type"] == "deal_ended")["points"] == [1130, 10]


def test_example_12_played_out_online_scores_1120_and_minus_490():
    game = foot_rig(
        TEAMS,
        4,
        ("5C", "3H 7C", "QH 3D", ""),
        (None, None, None, "8S 8H 8D 9C 9S 9H 10D 10C 5S"),
        phase=PLAY,
        opened=(True, True),
        melds=(
            (0, "9S 9H 9D 9C 9S 9H 9D"),
            (0, "JS JH JD JC JS 2S 2H"),
            (0, "AS AH AD"),
            (1, "KS KH KD KC JK"),
            (1, "5S 5H 5D"),
        ),
    )
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "5C")[0]})
    points = next(e for e in events if e["type"] == "deal_ended")["points"]
    assert points == [1120, -490, 1120, -490]


# --- The draw pile running out (decision 7) ---------------------------------------------------


def test_when_the_draw_pile_is_too_small_and_the_pile_cannot_be_taken_the_deal_ends_with_nobody_out():
    game = foot_rig(SOLO, 2, ("5S 6S", "9H 9D KS"), ("7S", "7H"), phase=PLAY, stock="4D", discard="JC")
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "5S")[0]})
    assert [e["type"] for e in events][:3] == ["discarded", "draw_pile_empty", "deal_ended"]
    ended = events[2]
    assert ended["winner"] is None
    assert ended["finish"] == "stock"
    assert ended["points"] == [-(5 + 5), -(5 + 5 + 10 + 5)]  # everything held counts, no +100


def test_a_player_who_cannot_draw_but_may_take_the_pile_must_take_it():
    game = foot_rig(
        SOLO,
        2,
        ("5S 6S", "KS KH 4H"),
        ("7S", "7H"),
        phase=PLAY,
        stock="4D",
        discard="4C 6C 8C 9C JC",
        opened=(True, True),
    )
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "5S")[0]})
    assert game.deal.phase == DRAW  # the pile is 6 cards now, but its top is 5S: no match for KS KH...
    game = foot_rig(
        SOLO,
        2,
        ("KD 6S", "KS KH 4H"),
        ("7S", "7H"),
        phase=PLAY,
        stock="4D",
        discard="4C 6C 8C 9C JC",
        opened=(True, True),
    )
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "KD")[0]})
    assert game.deal.phase == DRAW
    assert game.deal.current == 1
    assert legal_actions(game, 1) == [{"type": "take_pile", "cards": ids(game, 1, "KS KH")}]
    refused(game, 1, {"type": "draw"}, "too few to draw")


# --- Scores are the score sheets' -------------------------------------------------------------


def test_a_deal_played_online_scores_as_the_same_deal_logged_on_a_sheet():
    """The last move of a bots' deal, replayed on a copy, gives the table facts a phone would log (books
    counted, melded and held points typed); the sheet's scoring of them equals the online score."""
    for variant, players in ((SOLO, 3), (TEAMS, 4)):
        game = new_game(variant, players, seed=21)
        while True:
            seat = game.current
            action = bot_action(game, seat)
            before = game.copy()
            events = apply(game, seat, action)
            ended = next((e for e in events if e["type"] == "deal_ended"), None)
            if ended is not None:
                break
        perform(before, seat, action)  # the finished deal, before the next one is dealt
        sheet = [
            HandFootSideFacts(
                red_books=facts.red_books,
                black_books=facts.black_books,
                melded_points=sum(before.rules.card_value(c.rank) for c in facts.melded),
                held=0 if facts.went_out and variant == TEAMS else handfoot_held_cost(facts.held, variant),
                went_out=facts.went_out,
            )
            for facts in side_facts(before)
        ]
        assert list(score_handfoot_deal(variant, {}, sheet).points_by_seat()) == ended["points"]


# --- Persistence and refusals -----------------------------------------------------------------


def test_state_round_trips_through_json_and_replays_from_seed_and_log():
    for variant, players in ((SOLO, 3), (TEAMS, 4)):
        game = new_game(variant, players, seed=99)
        log = []
        for _ in range(150):
            seat = game.current
            action = bot_action(game, seat)
            apply(game, seat, action)
            log.append((seat, action))
        assert dumps(loads(dumps(game))) == dumps(game)
        assert dumps(replay(variant, None, players, 99, log)) == dumps(game)


def test_a_hand_game_saved_before_still_loads_as_a_hand_game():
    game = new_game("classic", 3, seed=4)
    loaded = loads(dumps(game))
    assert type(loaded) is type(game)
    assert dumps(loaded) == dumps(game)
    assert "family" not in dumps(game)


def test_refusals_are_sentences_and_change_nothing():
    game = new_game(TEAMS, 4, seed=2)
    seat = game.current
    refused(game, seat, {"type": "discard", "card": game.deal.hands[seat][0].id}, "Draw first")
    refused(game, seat, {"type": "meld", "melds": [[9999]]}, "Draw first")
    apply(game, seat, {"type": "draw"})
    refused(game, seat, {"type": "meld", "melds": [[9999]]}, "You do not hold one of those cards")
    refused(game, seat, {"type": "lay_off", "meld": 7, "cards": []}, "no such meld")
    refused(game, seat, {"type": "nonsense"}, "not a move")
    refused(game, (seat + 1) % 4, {"type": "draw"}, "not your turn")
