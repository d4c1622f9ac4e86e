"""Each rule set is played by the family its rule set names, found once by family_of: a new game, its
moves, its view, its bot and its stored form all come from that family's functions."""

import pytest

from games.engine import (
    FAMILIES,
    VARIANTS,
    DomainError,
    apply,
    bot_action,
    dumps,
    family_of,
    legal_actions,
    loads,
    new_game,
    view,
)
from games.engine.rule_state import rule_state


@pytest.mark.parametrize("slug", sorted(VARIANTS))
def test_every_rule_set_is_played_by_the_family_its_rule_set_names(slug):
    rules = VARIANTS[slug]
    family = family_of(slug)
    assert family is FAMILIES[rules.family]
    state = new_game(slug, rules.min_players, seed=7)
    assert type(state) is type(family.new_game(slug, rules.min_players, None, 7))
    seat = state.current
    assert legal_actions(state, seat) == family.legal_actions(state, seat)
    assert view(state, seat) == family.view(state, seat)
    move = bot_action(state, seat)
    assert move == family.bot_action(state, seat)
    assert move["type"] in family.action_types
    apply(state, seat, move)
    assert state.version == 1
    assert loads(dumps(state)) == state


def test_the_two_families_differ_in_what_they_play():
    hand, foot = family_of("classic"), family_of("hand-and-foot-teams")
    assert (hand.name, foot.name) == ("hand", "hand-and-foot")
    assert "take_pile" in foot.action_types
    assert "take_pile" not in hand.action_types
    assert "exchange" in hand.action_types
    assert "exchange" not in foot.action_types


def test_an_unknown_rule_set_has_no_family():
    with pytest.raises(DomainError, match="no rule set called"):
        family_of("bridge")


def test_a_move_of_the_other_family_is_refused_and_changes_nothing():
    state = new_game("hand-and-foot", 2, seed=3)
    before = dumps(state)
    with pytest.raises(DomainError):
        apply(state, state.current, {"type": "take_discard", "melds": []})
    assert dumps(state) == before


@pytest.mark.parametrize("slug", ["classic", "hand-and-foot"])
def test_a_finished_game_has_no_rule_state_in_either_family(slug):
    state = new_game(slug, 2, seed=5)
    picture = view(state, 0)
    assert rule_state(picture) != []
    assert rule_state({**picture, "finished": True}) == []
