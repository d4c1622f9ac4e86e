"""Bots play every rule set through the public API only (``new_game``, ``bot_action``, ``apply``), as
the web layer does, and finish whole games; kuwaiti with 3 players and its default options (the
discard pile reshuffled into a new stock) ends at most one deal in four void."""

from __future__ import annotations

import pytest

from games.engine import apply, bot_action, new_game

GAMES = [
    ("classic", 3, None),
    ("jordanian", 3, None),
    ("saudi", 3, None),
    ("kuwaiti", 3, None),
    ("egyptian", 3, None),
    ("classic", 4, {"teams": True}),
    ("hand-and-foot", 3, None),
    ("hand-and-foot-teams", 4, None),
]
MAX_ACTIONS = 20_000


def play_whole_game(variant, players, options, seed):
    game = new_game(variant, players, options, seed)
    deals = []
    for _ in range(MAX_ACTIONS):
        if game.finished:
            break
        seat = game.current
        action = bot_action(game, seat)
        assert action is not None
        for event in apply(game, seat, action):
            if event["type"] == "deal_ended":
                deals.append(event)
    return game, deals


@pytest.mark.parametrize(("variant", "players", "options"), GAMES, ids=lambda v: str(v))
def test_bots_finish_a_whole_game_of_every_rule_set(variant, players, options):
    game, deals = play_whole_game(variant, players, options, seed=2026)
    assert game.finished
    assert game.winners
    assert game.status().scoring_deals_played >= game.status().scoring_deals_required
    assert deals


def test_kuwaiti_with_3_players_and_default_options_ends_at_most_one_deal_in_four_void():
    deals = []
    for seed in range(3):
        game, played = play_whole_game("kuwaiti", 3, None, seed)
        assert game.finished
        deals += played
    void = sum(1 for deal in deals if deal["void"])
    assert void * 4 <= len(deals), (void, len(deals))
