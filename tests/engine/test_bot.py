"""The greedy bot: one legal step at a time."""

from __future__ import annotations

import pytest

from games.engine import apply, bot_action, can, legal_actions, new_game
from games.engine.deal import DRAW, PLAY
from tests.engine.conftest import Rig


def test_the_bot_opens_when_it_reaches_the_threshold(rig: Rig):
    game = rig("classic", 3, ("9S 10S JS QS KS 3C 3D 3H 2C 7D",), phase=PLAY)
    action = bot_action(game, 0)
    assert action["type"] == "meld"
    apply(game, 0, action)
    assert game.deal.opened[0]


def test_the_bot_goes_out_when_it_can(rig: Rig):
    game = rig("classic", 3, ("4C 5C 6C 9D",), phase=PLAY, opened=(True, False, False), turns=(3, 3, 3))
    apply(game, 0, bot_action(game, 0))
    assert len(game.deal.hands[0]) == 1
    events = apply(game, 0, bot_action(game, 0))
    assert any(e["type"] == "went_out" and e["seat"] == 0 for e in events)


def test_the_bot_lays_off_what_fits(rig: Rig):
    game = rig("classic", 3, ("10S 2D 9H",), phase=PLAY, melds=((1, "7S 8S 9S"),), opened=(True, True, False))
    assert bot_action(game, 0) == {"type": "lay_off", "meld": 1, "cards": [game.deal.hands[0][0].id]}


def test_the_bot_discards_a_high_lonely_card_and_keeps_pairs(rig: Rig):
    game = rig("classic", 3, ("KS 4D 4H 5D 2C",), phase=PLAY)
    action = bot_action(game, 0)
    assert action == {"type": "discard", "card": game.deal.hands[0][0].id}


def test_the_bot_takes_the_discard_when_it_opens_with_it(rig: Rig):
    game = rig("classic", 3, ("9S 10S JS QS 3C 3D 3H 2C 7D",), discard="KS")
    action = bot_action(game, 0)
    assert action["type"] == "take_discard"
    apply(game, 0, action)
    assert game.deal.opened[0]


def test_the_bot_draws_when_the_discard_does_not_help(rig: Rig):
    game = rig("classic", 3, ("9S 2D 5H",), discard="KC")
    assert bot_action(game, 0) == {"type": "draw"}


def test_the_bot_has_nothing_to_do_out_of_turn(rig: Rig):
    game = rig("classic", 3, ("9S 2D 5H",), current=1)
    assert bot_action(game, 0) is None


@pytest.mark.parametrize(
    ("variant", "players", "options"),
    [
        ("classic", 4, None),
        ("jordanian", 3, None),
        ("saudi", 5, None),
        ("kuwaiti", 2, None),
        ("egyptian", 4, {"teams": True}),
    ],
)
def test_bots_play_whole_games_with_legal_moves_only(variant, players, options):
    game = new_game(variant, players, options, seed=31)
    for _ in range(20000):
        if game.finished:
            break
        seat = game.deal.current
        action = bot_action(game, seat)
        assert can(game, seat, action)
        if game.deal.phase == DRAW:
            assert action["type"] in {a["type"] for a in legal_actions(game, seat)}
        apply(game, seat, action)
    assert game.finished


def test_legal_actions_list_only_the_moves_of_the_player_to_move(rig: Rig):
    game = rig("classic", 3, ("9S 10S JS QS KS 3C 3D 3H 2C 7D",), discard="8S")
    assert legal_actions(game, 1) == []
    moves = legal_actions(game, 0)
    assert moves[0] == {"type": "draw"}
    assert all(m["type"] in ("draw", "take_discard") for m in moves)
    assert all(can(game, 0, m) for m in moves)


def test_legal_actions_in_play_give_discards_melds_and_lay_off_targets(rig: Rig):
    game = rig(
        "classic",
        3,
        ("10S 2D 3D 4D 9H",),
        phase=PLAY,
        melds=((1, "7S 8S 9S"),),
        opened=(True, True, False),
    )
    moves = legal_actions(game, 0)
    kinds = [m["type"] for m in moves]
    assert kinds.count("discard") == 5
    assert {"type": "lay_off", "targets": [{"meld": 1, "cards": [game.deal.hands[0][0].id]}]} in moves
    meld = next(m for m in moves if m["type"] == "meld")
    assert can(game, 0, {"type": "meld", "melds": meld["melds"]})
