"""Hand and Foot's live rule state (engine.rule_state): this deal's opening minimum and whether the player
or team has opened, what going out needs and what the player's side still misses, when the discard pile
may be taken and why not now; a spectator reads the minimum and who has opened."""

from __future__ import annotations

from games.engine import apply, bot_action, new_game, view
from games.engine.rule_state import TEMPLATES, rule_state
from tests.engine.footrig import SOLO, TEAMS, foot_rig

KINDS = {template: kind for kind, template in TEMPLATES.items()}


def kinds(game, seat) -> list[str]:
    return [KINDS[template] for template, _params in rule_state(view(game, seat))]


def params(game, seat, kind) -> dict:
    return next(p for template, p in rule_state(view(game, seat)) if KINDS[template] == kind)


RED = "KS KH KD KC KS KH KD"
BLACK = "QS QH QD QC QS QH 2S"


def test_a_player_who_has_not_opened_reads_the_minimum_the_books_and_the_pile_rule():
    game = foot_rig(SOLO, 2, ("5S 6S 7S", "8S 9S 10S"))
    assert kinds(game, 0) == [
        "foot_opening_you",
        "foot_out_solo",
        "foot_need_both_you",
        "foot_pile_solo",
        "foot_pile_short",  # the pile cannot be taken yet: no word of what taking it would need
    ]
    assert params(game, 0, "foot_opening_you") == {"number": 1, "deals": 4, "minimum": 50}
    assert params(game, 0, "foot_pile_short") == {"count": 0, "size": 6}
    game = foot_rig(SOLO, 2, ("9S 9D", "8S"), discard="4S 5S 6S 7S 8S 9H")
    assert kinds(game, 0)[-1] == "foot_pile_opening"  # takeable: before opening, the take must reach 50
    assert params(game, 0, "foot_pile_opening") == {"minimum": 50}
    sentence = TEMPLATES["foot_opening_you"].format(**params(game, 0, "foot_opening_you"))
    assert sentence == "Deal 1 of 4: an opening needs 50. You have not opened yet."


def test_what_the_player_still_misses_follows_the_books_on_the_table():
    game = foot_rig(SOLO, 2, ("5S 6S", "8S 9S"), melds=((0, RED),), opened=(True, False))
    assert "foot_opened_you" in kinds(game, 0)
    assert "foot_need_black_you" in kinds(game, 0)
    assert "foot_need_both_you" in kinds(game, 1)
    assert "foot_pile_opening" not in kinds(game, 0)  # opened: the pile needs no minimum
    game = foot_rig(SOLO, 2, ("5S 6S", "8S 9S"), melds=((0, RED), (0, BLACK)), opened=(True, False))
    assert "foot_need_none_you" in kinds(game, 0)
    game = foot_rig(SOLO, 2, ("5S 6S", "8S 9S"), melds=((0, BLACK),), opened=(True, False))
    assert "foot_need_red_you" in kinds(game, 0)


def test_the_pile_line_says_why_the_pile_cannot_be_taken_now():
    six = "4S 5S 6S 7S 8S 9H"
    game = foot_rig(SOLO, 2, ("9S 9D", "8S"), discard=six, opened=(True, False))
    assert not {"foot_pile_short", "foot_pile_blocked"} & set(kinds(game, 0))
    game = foot_rig(SOLO, 2, ("9S 9D", "8S"), discard="4S 5S 6S 7S 8S 2H", opened=(True, False))
    assert "foot_pile_blocked" in kinds(game, 0)  # a wild card on top: no rank to meld
    game = foot_rig(SOLO, 2, ("9S 9D", "8S"), discard="4S 5S 6S 7S 8S 3C", opened=(True, False))
    assert "foot_pile_blocked" in kinds(game, 0)  # a 3 on top
    game = foot_rig(SOLO, 2, ("9S 9D", "8S"), discard="4S 5S 9H", opened=(True, False))
    assert params(game, 0, "foot_pile_short") == {"count": 3, "size": 6}


def test_the_team_rules_speak_of_the_team():
    game = foot_rig(TEAMS, 4, ("5S 6S", "7S 8S", "9S 10S", "JS QS"))
    assert kinds(game, 1) == [
        "foot_opening_team",
        "foot_out_team",
        "foot_need_both_team",
        "foot_pile_team",
        "foot_pile_closed",  # the team has not opened: the pile is closed to it
    ]
    assert params(game, 1, "foot_opening_team") == {"number": 1, "deals": 3, "minimum": 50}
    game = foot_rig(TEAMS, 4, ("5S 6S", "7S 8S", "9S 10S", "JS QS"), melds=((0, RED),), opened=(True, False))
    for partner in (0, 2):  # partners share the team's opening and books
        assert kinds(game, partner)[0] == "foot_opened_team"
        assert "foot_need_black_team" in kinds(game, partner)
        assert "foot_pile_closed" not in kinds(game, partner)
    assert "foot_need_both_team" in kinds(game, 3)
    game = foot_rig(
        TEAMS, 4, ("5S 6S", "7S 8S", "9S 10S", "JS QS"), melds=((1, RED), (1, BLACK)), opened=(False, True)
    )
    assert "foot_need_none_team" in kinds(game, 3)


def test_a_spectator_reads_the_minimum_and_who_has_opened():
    game = foot_rig(TEAMS, 4, ("5S 6S", "7S 8S", "9S 10S", "JS QS"), melds=((1, RED),), opened=(False, True))
    assert kinds(game, None) == ["foot_opening", "opened"]
    assert params(game, None, "opened") == {"seats": [1, 3]}
    game = foot_rig(SOLO, 3, ("5S", "6S", "7S"))
    assert kinds(game, None) == ["foot_opening", "nobody_opened"]


def test_a_later_deal_reads_its_own_minimum_and_a_finished_game_none():
    game = new_game(SOLO, 2, seed=4)
    while game.deal.number == 0:
        apply(game, game.current, bot_action(game, game.current))
    assert params(game, game.current, kinds(game, game.current)[0]) == {
        "number": 2,
        "deals": 4,
        "minimum": 90,
    }
    while not game.finished:
        apply(game, game.current, bot_action(game, game.current))
    assert rule_state(view(game, 0)) == []
    assert rule_state(view(game, None)) == []
