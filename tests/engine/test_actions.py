"""Sections 4 and 5 of hand-family.md: a turn, opening, taking the discard, laying off, exchanging,
going out, stock exhaustion — one test per rule, through ``apply``."""

from __future__ import annotations

import pytest

from games.engine import DomainError, apply, dumps
from games.engine.cards import parse_face
from games.engine.deal import DRAW, PLAY
from tests.engine.conftest import Rig


def ids(game, seat, text):
    """Ids of the named cards in ``seat``'s hand (each face once per mention)."""
    hand = list(game.deal.hands[seat])
    result = []
    for token in text.split():
        face = parse_face(token)
        card = next(c for c in hand if (c.rank, c.suit) == face and c.id not in result)
        result.append(card.id)
    return result


def refused(game, seat, action, match):
    before = dumps(game)
    with pytest.raises(DomainError, match=match):
        apply(game, seat, action)
    assert dumps(game) == before


# --- Turn order and phases ----------------------------------------------------------------------


def test_only_the_player_to_move_may_act(rig: Rig):
    game = rig("classic", 3, current=1)
    refused(game, 0, {"type": "draw"}, "It is not your turn.")


def test_a_player_must_draw_before_melding_or_discarding(rig: Rig):
    game = rig("classic", 3, ("2S 5D 9C KH 7H",))
    refused(game, 0, {"type": "discard", "card": ids(game, 0, "2S")[0]}, "Draw a card first.")


def test_a_player_draws_only_once_per_turn(rig: Rig):
    game = rig("classic", 3, ("2S 5D 9C",))
    apply(game, 0, {"type": "draw"})
    refused(game, 0, {"type": "draw"}, "already drawn")


def test_drawing_takes_the_top_card_of_the_stock(rig: Rig):
    game = rig("classic", 3, ("2S 5D 9C",))
    top = game.deal.stock[-1]
    events = apply(game, 0, {"type": "draw"})
    assert game.deal.hands[0][-1] == top
    assert events[0]["secret"]["card"]["id"] == top.id
    assert game.deal.phase == PLAY


def test_the_discard_ends_the_turn_and_the_next_seat_draws(rig: Rig):
    game = rig("classic", 3, ("2S 5D 9C",), phase=PLAY)
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "9C")[0]})
    assert game.deal.discard[-1].face == "9C"
    assert game.deal.current == 1
    assert game.deal.phase == DRAW


def test_a_player_cannot_discard_a_card_they_do_not_hold(rig: Rig):
    game = rig("classic", 3, ("2S 5D 9C",), phase=PLAY)
    other = game.deal.hands[1][0].id
    refused(game, 0, {"type": "discard", "card": other}, "You do not hold one of those cards.")


def test_an_unknown_or_malformed_action_is_refused(rig: Rig):
    game = rig("classic", 3, ("2S 5D 9C",), phase=PLAY)
    refused(game, 0, {"type": "fly"}, "no move called")
    refused(game, 0, "discard", "not a move")
    refused(game, 0, {"type": "discard", "card": "2S"}, "Choose the card")


# --- Opening ------------------------------------------------------------------------------------


def test_an_opening_below_51_is_refused_with_its_total(rig: Rig):
    game = rig("classic", 3, ("5S 6S 7S 10H JH 2C 2D",), discard="9H")
    top = game.deal.discard[-1].id
    refused(
        game,
        0,
        {"type": "take_discard", "melds": [ids(game, 0, "5S 6S 7S"), [top, *ids(game, 0, "10H JH")]]},
        r"^Your opening melds total 47; you need 51\.$",
    )
    assert game.version == 0
    assert game.deal.discard[-1].id == top


def test_an_opening_of_51_or_more_opens_and_all_opening_melds_go_down_in_one_move(rig: Rig):
    game = rig("classic", 3, ("7S 8S 9S 10H JH QH 2C 2D",), phase=PLAY)
    events = apply(game, 0, {"type": "meld", "melds": [ids(game, 0, "7S 8S 9S"), ids(game, 0, "10H JH QH")]})
    assert game.deal.opened[0]
    assert [e["type"] for e in events] == ["melded", "melded", "opened"]
    assert events[-1]["total"] == 54
    assert events[-1]["minimum"] == 51
    assert len(game.deal.melds) == 2


def test_before_opening_a_single_small_meld_is_refused(rig: Rig):
    game = rig("classic", 3, ("7S 8S 9S 10H JH QH 2C 2D",), phase=PLAY)
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "10H JH QH")]}, "total 30; you need 51")


def test_after_opening_further_melds_need_no_minimum(rig: Rig):
    game = rig("classic", 3, ("2C 3C 4C 9D 9H",), phase=PLAY, opened=(True, False, False))
    apply(game, 0, {"type": "meld", "melds": [ids(game, 0, "2C 3C 4C")]})
    assert len(game.deal.hands[0]) == 2


def test_a_player_can_never_meld_their_last_card(rig: Rig):
    game = rig("classic", 3, ("2C 3C 4C",), phase=PLAY, opened=(True, False, False))
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "2C 3C 4C")]}, "keep one card to discard")


def test_saudi_opening_must_beat_the_last_opening(rig: Rig):
    # Worked example 4: the first opening totals 58; the next player's 56 is refused (59 needed),
    # 59 is accepted, and the one after that must reach 60.
    game = rig(
        "saudi",
        3,
        ("9S 10S JS QS KS 3C 3D 3H 2C 2D", "KH KD KC 5C 6C 7C 8C 9D 10D JD 2S 4H"),
        phase=PLAY,
    )
    apply(game, 0, {"type": "meld", "melds": [ids(game, 0, "9S 10S JS QS KS"), ids(game, 0, "3C 3D 3H")]})
    assert game.deal.last_opening == 58
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "2C")[0]})
    apply(game, 1, {"type": "draw"})
    refused(
        game,
        1,
        {"type": "meld", "melds": [ids(game, 1, "KH KD KC"), ids(game, 1, "5C 6C 7C 8C")]},
        r"^Your opening melds total 56; you need 59\.$",
    )
    events = apply(game, 1, {"type": "meld", "melds": [ids(game, 1, "KH KD KC"), ids(game, 1, "9D 10D JD")]})
    assert events[-1] == {"type": "opened", "seat": 1, "total": 59, "minimum": 59}
    assert game.deal.last_opening == 59
    apply(game, 1, {"type": "discard", "card": ids(game, 1, "2S")[0]})
    apply(game, 2, {"type": "draw"})
    view_minimum = __import__("games.engine.view", fromlist=["view"]).view(game, 2)["opening_minimum"]
    assert view_minimum == 60


def test_kuwaiti_announcement_needs_every_player_to_have_had_8_turns(rig: Rig):
    hand = "9S 10S JS QS KS 3C 3D 3H 2C 2D 6H 7H 8H"
    game = rig("kuwaiti", 2, (hand,), phase=PLAY, turns=(8, 7))
    melds = {"type": "announce", "melds": [ids(game, 0, "9S 10S JS QS KS"), ids(game, 0, "3C 3D 3H")]}
    refused(game, 0, melds, "after every player has had 8 turns")
    game = rig("kuwaiti", 2, (hand,), phase=PLAY, turns=(9, 8))
    events = apply(game, 0, melds)
    assert events[-1]["type"] == "announced"
    assert game.deal.opened[0]


def test_kuwaiti_players_announce_rather_than_meld(rig: Rig):
    game = rig("kuwaiti", 2, ("9S 10S JS QS KS 3C 3D 3H 2C 2D",), phase=PLAY, turns=(9, 8))
    refused(
        game, 0, {"type": "meld", "melds": [ids(game, 0, "9S 10S JS QS KS")]}, "Announce your melds first"
    )
    game = rig("classic", 2, ("9S 10S JS QS KS 3C 3D 3H 2C 2D",), phase=PLAY)
    refused(game, 0, {"type": "announce", "melds": [ids(game, 0, "9S 10S JS QS KS")]}, "Kuwaiti Hand rule")


# --- Laying off ---------------------------------------------------------------------------------


def test_laying_off_needs_an_opening(rig: Rig):
    game = rig("classic", 3, ("10S 2D 3D",), phase=PLAY, melds=((1, "7S 8S 9S"),))
    refused(game, 0, {"type": "lay_off", "meld": 1, "cards": ids(game, 0, "10S")}, "must open before")


def test_an_opened_player_lays_off_onto_another_players_meld(rig: Rig):
    game = rig("classic", 3, ("10S 2D 3D",), phase=PLAY, melds=((1, "7S 8S 9S"),), opened=(True, True, False))
    events = apply(game, 0, {"type": "lay_off", "meld": 1, "cards": ids(game, 0, "10S")})
    assert [c["face"] for c in events[0]["meld"]["cards"]] == ["7S", "8S", "9S", "10S"]
    assert game.deal.melds[0].owner == 1
    assert game.deal.turn.touched_others


def test_kuwaiti_lays_off_only_onto_ones_own_melds(rig: Rig):
    game = rig(
        "kuwaiti",
        2,
        ("10S JH 2D 3D",),
        phase=PLAY,
        melds=((1, "7S 8S 9S"), (0, "8H 9H 10H")),
        opened=(True, True),
        turns=(9, 9),
    )
    refused(game, 0, {"type": "lay_off", "meld": 1, "cards": ids(game, 0, "10S")}, "only onto your own melds")
    apply(game, 0, {"type": "lay_off", "meld": 2, "cards": ids(game, 0, "JH")})


def test_laying_off_onto_a_meld_that_does_not_exist_is_refused(rig: Rig):
    game = rig("classic", 3, ("10S 2D 3D",), phase=PLAY, opened=(True, False, False))
    refused(game, 0, {"type": "lay_off", "meld": 9, "cards": ids(game, 0, "10S")}, "no such meld")


# --- Taking the top discard ---------------------------------------------------------------------


def test_jordanian_takes_the_discard_only_into_a_new_meld_with_two_cards_from_hand(rig: Rig):
    game = rig(
        "jordanian",
        3,
        ("7S 8S KD 2C 4H",),
        discard="9S",
        indicator="3H",
        opened=(True, False, False),
        melds=((1, "10S JS QS"),),
    )
    top = game.deal.discard[-1].id
    refused(game, 0, {"type": "take_discard"}, "Say which meld")
    refused(
        game, 0, {"type": "take_discard", "lay_off": {"meld": 1, "cards": [top]}}, "must go into a new meld"
    )
    apply(game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "7S 8S"), top]]})
    assert game.deal.melds[-1].owner == 0
    assert len(game.deal.melds[-1].meld.cards) == 3


def test_jordanian_unopened_taker_must_open_with_that_meld(rig: Rig):
    game = rig("jordanian", 3, ("7S 8S KD KC KH 2C 4H",), discard="9S", indicator="3H")
    top = game.deal.discard[-1].id
    refused(
        game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "7S 8S"), top]]}, "total 24; you need 51"
    )
    apply(
        game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "7S 8S"), top], ids(game, 0, "KD KC KH")]}
    )
    assert game.deal.opened[0]


def test_a_discarded_wild_ace_is_taken_only_as_the_natural_ace_it_is(rig: Rig):
    # Indicator 3H: the aces of hearts are wild. A discarded AH may go into QH KH AH as itself,
    # but not stand for 9S in 7S 8S _.
    game = rig(
        "jordanian",
        3,
        ("QH KH 7S 8S 2C 4D",),
        discard="AH",
        indicator="3H",
        opened=(True, False, False),
    )
    top = game.deal.discard[-1].id
    refused(
        game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "7S 8S"), top]]}, "only as a natural ace"
    )
    apply(game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "QH KH"), top]]})


def test_classic_taker_lays_the_discard_off_in_the_same_move(rig: Rig):
    game = rig(
        "classic", 3, ("2D 3D 5C",), discard="10S", opened=(True, True, False), melds=((1, "7S 8S 9S"),)
    )
    top = game.deal.discard[-1].id
    apply(game, 0, {"type": "take_discard", "lay_off": {"meld": 1, "cards": [top]}})
    assert len(game.deal.melds[0].meld.cards) == 4
    assert len(game.deal.hands[0]) == 3


def test_classic_unopened_taker_must_open_in_that_move(rig: Rig):
    game = rig("classic", 3, ("2D 3D 5C",), discard="10S", melds=((1, "7S 8S 9S"),))
    top = game.deal.discard[-1].id
    refused(game, 0, {"type": "take_discard", "lay_off": {"meld": 1, "cards": [top]}}, "must open before")


def test_the_taken_discard_must_end_the_turn_on_the_table(rig: Rig):
    game = rig("classic", 3, ("2D 3D 4D 9S 7C",), discard="JK", opened=(True, False, False))
    top = game.deal.discard[-1].id
    refused(game, 0, {"type": "take_discard", "melds": [ids(game, 0, "2D 3D 4D")]}, "must go on the table")
    apply(
        game,
        0,
        {
            "type": "take_discard",
            "melds": [{"cards": [*ids(game, 0, "2D 3D"), top], "wild_as": {str(top): "4D"}}],
        },
    )
    meld_id = game.deal.melds[-1].id
    refused(
        game, 0, {"type": "exchange", "meld": meld_id, "cards": ids(game, 0, "4D")}, "must stay on the table"
    )


def test_kuwaiti_takes_the_discard_only_when_announcing_or_declaring(rig: Rig):
    game = rig("kuwaiti", 2, ("2D 3D 5C 9S",), discard="4D", turns=(3, 3), melds=((0, "7H 8H 9H"),))
    top = game.deal.discard[-1].id
    refused(game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "2D 3D"), top]]}, "after every player")
    refused(game, 0, {"type": "take_discard", "lay_off": {"meld": 1, "cards": [top]}}, "announce or declare")


# --- Exchanging a wild card ---------------------------------------------------------------------


def test_an_opened_player_exchanges_a_wild_card_from_a_run(rig: Rig):
    game = rig(
        "classic", 3, ("JS 2D 3D",), phase=PLAY, opened=(True, True, False), melds=((1, "9S 10S JK:JS"),)
    )
    meld = game.deal.melds[0].meld
    assert meld.plays_as[-1] == (11, "S")
    events = apply(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "JS")})
    assert events[0]["wild"]["face"] == "JK"
    assert any(card.rank == 0 for card in game.deal.hands[0])


def test_exchanging_needs_an_opening_except_in_kuwaiti(rig: Rig):
    game = rig("classic", 3, ("JS 2D 3D",), phase=PLAY, melds=((1, "9S 10S JK:JS"),))
    refused(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "JS")}, "must open before")
    game = rig("kuwaiti", 2, ("JS 2D 3D",), phase=PLAY, melds=((1, "9S 10S JK:JS"),))
    apply(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "JS")})


def test_a_three_card_set_needs_both_missing_cards_for_its_wild(rig: Rig):
    game = rig(
        "classic", 3, ("5H 5C 2D 3D",), phase=PLAY, opened=(True, True, False), melds=((1, "5S 5D JK"),)
    )
    refused(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "5H")}, "put down both")
    apply(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "5H 5C")})
    assert len(game.deal.melds[0].meld.cards) == 4


def test_kuwaiti_never_exchanges_the_wild_of_a_three_card_set(rig: Rig):
    game = rig("kuwaiti", 2, ("5H 5C 2D 3D",), phase=PLAY, melds=((1, "5S 5D JK"),))
    refused(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "5H 5C")}, "cannot be exchanged")


def test_jordanian_single_card_exchange_when_another_player_holds_one_card(rig: Rig):
    game = rig(
        "jordanian",
        3,
        ("5H 2D 3D 9C", "7C"),
        phase=PLAY,
        indicator="KH",  # jokers are natural; the aces of hearts are wild
        opened=(True, True, False),
        melds=((1, "5S 5D AH"),),
    )
    apply(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "5H")})
    assert not game.deal.turn.provisional_exchange


def test_jordanian_single_card_exchange_must_end_in_going_out_or_holding_one_card(rig: Rig):
    game = rig(
        "jordanian",
        3,
        ("5H 2D 3D 4D 9C KC",),
        phase=PLAY,
        indicator="KH",
        opened=(True, True, False),
        melds=((1, "5S 5D AH"),),
    )
    apply(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "5H")})
    assert game.deal.turn.provisional_exchange
    refused(
        game, 0, {"type": "discard", "card": ids(game, 0, "KC")[0]}, "go out this turn or end it holding one"
    )
    wild = next(c.id for c in game.deal.hands[0] if c.rank == 1)
    apply(
        game,
        0,
        {
            "type": "meld",
            "melds": [{"cards": [*ids(game, 0, "2D 3D 4D"), wild], "wild_as": {str(wild): "5D"}}],
        },
    )
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "KC")[0]})
    assert len(game.deal.hands[0]) == 1


def test_classic_has_no_single_card_exception(rig: Rig):
    game = rig(
        "classic", 3, ("5H 2D 3D", "7C"), phase=PLAY, opened=(True, True, False), melds=((1, "5S 5D JK"),)
    )
    refused(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "5H")}, "put down both")


# --- Going out and the end of a deal -------------------------------------------------------------


def test_going_out_is_not_allowed_in_a_players_first_turn(rig: Rig):
    game = rig("classic", 3, ("5H 5C",), phase=PLAY, opened=(True, False, False), turns=(1, 1, 1))
    game.deal.hands[0] = game.deal.hands[0][:1]
    refused(game, 0, {"type": "discard", "card": game.deal.hands[0][0].id}, "not go out in your first turn")


def test_melding_down_to_one_card_in_the_first_turn_is_refused(rig: Rig):
    game = rig("classic", 3, ("2C 3C 4C 9D",), phase=PLAY, opened=(True, False, False), turns=(1, 0, 0))
    refused(game, 0, {"type": "meld", "melds": [ids(game, 0, "2C 3C 4C")]}, "keep at least two cards")


def test_going_out_normally_scores_minus_30(rig: Rig):
    game = rig(
        "classic", 3, ("9D", "KS 7H JK", "AS 2D"), phase=PLAY, opened=(True, True, False), turns=(3, 3, 3)
    )
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "9D")[0]})
    ended = next(e for e in events if e["type"] == "deal_ended")
    assert ended["finish"] == "normal"
    assert ended["points"] == [-30, 32, 100]
    assert game.deal.number == 1
    assert len(game.records) == 1


def test_going_out_hand_in_one_turn_without_having_opened_doubles(rig: Rig):
    # Worked example 2 through play: seat 2 had not opened, melds all 14 cards and discards.
    game = rig(
        "classic",
        3,
        ("5C 5D 9S", "2H", "AS 2S 3S 4S 5S 6S 7S 8S KH KD KC 10D JD QD 3C"),
        current=2,
        phase=PLAY,
        opened=(True, False, False),
        turns=(3, 3, 3),
    )
    apply(
        game,
        2,
        {
            "type": "meld",
            "melds": [
                ids(game, 2, "AS 2S 3S 4S 5S 6S 7S 8S"),
                ids(game, 2, "KH KD KC"),
                ids(game, 2, "10D JD QD"),
            ],
        },
    )
    events = apply(game, 2, {"type": "discard", "card": ids(game, 2, "3C")[0]})
    ended = next(e for e in events if e["type"] == "deal_ended")
    assert ended["finish"] == "hand"
    assert ended["points"][2] == -60
    assert ended["points"][0] == 38
    assert ended["points"][1] == 200


def test_laying_off_onto_another_players_meld_is_no_hand(rig: Rig):
    game = rig(
        "classic",
        3,
        ("10S KH KD KC QH JH 10H 2C 3C 4C 5C 6C 7C 9D", "4H"),
        melds=((1, "7S 8S 9S"),),
        phase=PLAY,
        turns=(3, 3, 3),
    )
    apply(
        game,
        0,
        {
            "type": "meld",
            "melds": [ids(game, 0, "KH KD KC"), ids(game, 0, "10H JH QH"), ids(game, 0, "2C 3C 4C 5C 6C 7C")],
        },
    )
    apply(game, 0, {"type": "lay_off", "meld": 1, "cards": ids(game, 0, "10S")})
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "9D")[0]})
    assert next(e for e in events if e["type"] == "went_out")["finish"] == "normal"


def test_egyptian_hand_of_one_suit_scores_the_suited_row(rig: Rig):
    # Worked example 9 through play: 14 spades melded in one turn, a spade discarded, not opened before.
    game = rig(
        "egyptian",
        3,
        ("2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS 3S 4S 5S KS", "2H 10H", "3D"),
        phase=PLAY,
        indicator="AD",
        opened=(False, True, False),
        turns=(3, 3, 3),
    )
    spades = ids(game, 0, "2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS 3S 4S 5S")
    apply(game, 0, {"type": "meld", "melds": [spades[:11], spades[11:]]})
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "KS")[0]})
    ended = next(e for e in events if e["type"] == "deal_ended")
    assert ended["finish"] == "suited"
    assert ended["points"] == [-240, 96, 800]


def test_stock_exhaustion_voids_the_deal_and_it_does_not_count(rig: Rig):
    game = rig("classic", 3, ("2S 5D 9C",), phase=PLAY, stock="3H 4H 6C")
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "9C")[0]})
    assert [e["type"] for e in events][:3] == ["discarded", "stock_exhausted", "deal_ended"]
    ended = events[2]
    assert ended["void"]
    assert ended["points"] == [0, 0, 0]
    assert game.status().scoring_deals_played == 0
    assert game.deal.number == 1
    assert game.deal.phase == PLAY


def test_the_turn_passes_while_the_stock_holds_more_cards_than_players(rig: Rig):
    game = rig("classic", 3, ("2S 5D 9C",), phase=PLAY, stock="3H 4H 6C 7D")
    apply(game, 0, {"type": "discard", "card": ids(game, 0, "9C")[0]})
    assert game.deal.current == 1
    assert game.deal.phase == DRAW


def test_a_refused_action_leaves_the_state_unchanged(rig: Rig):
    game = rig("jordanian", 3, ("5S 6S 7S 10H JH 2C 2D",), discard="9H", indicator="4C")
    before = dumps(game)
    for action in (
        {
            "type": "take_discard",
            "melds": [ids(game, 0, "5S 6S 7S"), [game.deal.discard[-1].id, *ids(game, 0, "10H JH")]],
        },
        {"type": "discard", "card": ids(game, 0, "2C")[0]},
        {"type": "lay_off", "meld": 1, "cards": ids(game, 0, "2C")},
        {"type": "redeal"},
    ):
        with pytest.raises(DomainError):
            apply(game, 0, action)
        assert dumps(game) == before


def test_a_single_card_exchange_that_could_not_be_followed_by_going_out_is_refused(rig: Rig):
    game = rig(
        "jordanian",
        3,
        ("5H 2C 9D KS",),
        phase=PLAY,
        indicator="KH",
        opened=(True, True, False),
        melds=((1, "5S 5D AH"),),
    )
    refused(
        game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "5H")}, "must still be able to go out"
    )


# --- Rules the audit found untested --------------------------------------------------------------


@pytest.mark.parametrize("variant", ["jordanian", "egyptian"])
def test_a_discarded_joker_in_a_deal_where_jokers_are_wild_is_taken_only_as_an_ace_of_any_suit(
    rig: Rig, variant
):
    # Indicator AS: the jokers are the wild cards of this deal.
    def game_with_joker_on_the_pile():
        return rig(
            variant,
            3,
            ("AH AD 2C 3C 7S 8S 9D",),
            discard="JK",
            indicator="AS",
            opened=(True, False, False),
        )

    game = game_with_joker_on_the_pile()
    top = game.deal.discard[-1].id
    refused(
        game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "7S 8S"), top]]}, "only as a natural ace"
    )
    apply(game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "AH AD"), top]]})
    game = game_with_joker_on_the_pile()
    apply(game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "2C 3C"), top]]})
    run = game.deal.melds[-1].meld
    assert dict(zip((c.id for c in run.cards), run.plays_as, strict=True))[top] == (
        1,
        "C",
    )  # not the indicator's suit


@pytest.mark.parametrize("variant", ["jordanian", "egyptian"])
def test_lay_off_and_exchange_are_refused_before_the_opening_melds_and_allowed_after_them_in_the_same_turn(
    rig: Rig, variant
):
    # Indicator 4C: the aces of clubs are wild; seat 1's run holds one standing for JS.
    game = rig(
        variant,
        3,
        ("KH KD KS QS QH QD JS 8H 2D 3D",),
        phase=PLAY,
        indicator="4C",
        opened=(False, True, False),
        melds=((1, "9S 10S AC:JS"), (1, "5H 6H 7H")),
    )
    refused(
        game, 0, {"type": "lay_off", "meld": 2, "cards": ids(game, 0, "8H")}, "must open before you lay off"
    )
    refused(
        game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "JS")}, "must open before you exchange"
    )
    apply(game, 0, {"type": "meld", "melds": [ids(game, 0, "KH KD KS"), ids(game, 0, "QS QH QD")]})
    apply(game, 0, {"type": "lay_off", "meld": 2, "cards": ids(game, 0, "8H")})
    events = apply(game, 0, {"type": "exchange", "meld": 1, "cards": ids(game, 0, "JS")})
    assert events[0]["wild"]["face"] == "AC"
    assert len(game.deal.melds[1].meld.cards) == 4
    assert sorted(c.face for c in game.deal.hands[0]) == ["2D", "3D", "AC"]


def test_kuwaiti_after_announcing_the_discard_may_go_onto_ones_own_meld(rig: Rig):
    game = rig(
        "kuwaiti",
        2,
        ("QS QD 2C 4D",),
        discard="8H",
        opened=(True, True),
        turns=(9, 9),
        melds=((0, "5H 6H 7H"), (1, "9C 10C JC")),
    )
    top = game.deal.discard[-1].id
    apply(game, 0, {"type": "take_discard", "lay_off": {"meld": 1, "cards": [top]}})
    assert top in [c.id for c in game.deal.melds[0].meld.cards]


def test_kuwaiti_after_announcing_the_discard_may_go_into_a_new_meld(rig: Rig):
    game = rig(
        "kuwaiti",
        2,
        ("QS QD 2C 4D",),
        discard="QH",
        opened=(True, True),
        turns=(9, 9),
        melds=((0, "5H 6H 7H"),),
    )
    top = game.deal.discard[-1].id
    apply(game, 0, {"type": "take_discard", "melds": [[*ids(game, 0, "QS QD"), top]]})
    assert game.deal.melds[-1].owner == 0
    assert top in [c.id for c in game.deal.melds[-1].meld.cards]


KUWAITI_REGULAR = "2S 3S 4S 5H 6H 7H 9C 10C JC QC 4D 5D 6D 7D 8S"


def test_kuwaiti_has_no_out_first_turn_off_so_a_hand_may_be_declared_in_the_first_turn(rig: Rig):
    game = rig("kuwaiti", 2, (KUWAITI_REGULAR,), phase=PLAY, turns=(1, 0))
    assert game.options["no_out_first_turn"] is False
    events = apply(game, 0, {"type": "declare_hand"})
    assert events[0]["type"] == "hand_declared"
    assert events[0]["name"] == "regular"
    game = rig(
        "kuwaiti", 2, (KUWAITI_REGULAR,), phase=PLAY, turns=(1, 0), options={"no_out_first_turn": True}
    )
    refused(game, 0, {"type": "declare_hand"}, "may not go out in your first turn")
