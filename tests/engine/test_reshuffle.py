"""Kuwaiti option ``reshuffle_discards``: when the stock runs out, the discard pile (all but its top
card) is shuffled into a new stock instead of the deal being void (docs/rules.md, "Options")."""

from __future__ import annotations

import json

import pytest

from games.engine import InvalidOptions, apply, bot_action, dumps, new_game, replay, validate_options
from games.engine.actions import MAX_RESHUFFLES
from games.engine.deal import DRAW, PLAY
from tests.engine.test_actions import ids


def _reshuffle_rig(rig, *, discard="3D 4D 6D 7D 8D 10D KC", stock="3H 4H 6C", options=None):
    return rig(
        "kuwaiti",
        3,
        ("2S 5D 9C",),
        phase=PLAY,
        discard=discard,
        stock=stock,
        options={"reshuffle_discards": True} if options is None else options,
    )


def test_reshuffle_discards_is_a_kuwaiti_option_and_on_by_default():
    assert validate_options("kuwaiti", 3)["reshuffle_discards"] is True
    assert validate_options("kuwaiti", 5, {"reshuffle_discards": False})["reshuffle_discards"] is False
    with pytest.raises(InvalidOptions, match="no option called"):
        validate_options("classic", 3, {"reshuffle_discards": True})


def test_without_the_option_a_kuwaiti_deal_is_void_when_the_stock_runs_out(rig):
    game = _reshuffle_rig(rig, options={"reshuffle_discards": False})
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "9C")[0]})
    assert [e["type"] for e in events][:3] == ["discarded", "stock_exhausted", "deal_ended"]
    assert events[2]["void"]


def test_with_the_option_the_discard_pile_but_its_top_card_becomes_the_new_stock(rig):
    game = _reshuffle_rig(rig)
    old_stock = list(game.deal.stock)
    pile = list(game.deal.discard)
    nine = ids(game, 0, "9C")[0]
    events = apply(game, 0, {"type": "discard", "card": nine})
    assert [e["type"] for e in events] == ["discarded", "stock_reshuffled", "turn_started"]
    assert events[1] == {"type": "stock_reshuffled", "number": 1, "count": 7, "stock": 10}
    deal = game.deal
    assert [c.id for c in deal.discard] == [nine]
    # What was left of the stock stays on top; the old pile (its top card included, now under 9C) below.
    assert deal.stock[-3:] == old_stock
    assert sorted(c.id for c in deal.stock[:-3]) == sorted(c.id for c in pile)
    assert deal.current == 1
    assert deal.phase == DRAW
    assert game.status().scoring_deals_played == 0


def test_the_reshuffle_is_the_same_every_time_for_the_same_deal(rig):
    first, second = _reshuffle_rig(rig), _reshuffle_rig(rig)
    for game in (first, second):
        apply(game, 0, {"type": "discard", "card": ids(game, 0, "9C")[0]})
    assert [c.id for c in first.deal.stock] == [c.id for c in second.deal.stock]


def test_the_reshuffle_event_shows_no_card_of_the_new_stock(rig):
    game = _reshuffle_rig(rig)
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "9C")[0]})
    assert set(events[1]) == {"type", "number", "count", "stock"}


def test_with_the_option_a_deal_is_still_void_when_the_discard_pile_is_too_small(rig):
    # After the discard the pile is only 9C, its top card, which stays: 3 stock cards for 3 players.
    game = _reshuffle_rig(rig, discard="")
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "9C")[0]})
    assert [e["type"] for e in events][:3] == ["discarded", "stock_exhausted", "deal_ended"]
    assert events[2]["void"]


def test_with_the_option_a_deal_is_void_when_the_stock_runs_out_after_the_last_allowed_reshuffle(rig):
    game = _reshuffle_rig(rig)
    game.deal.events = [{"type": "stock_reshuffled", "number": n + 1} for n in range(MAX_RESHUFFLES)]
    events = apply(game, 0, {"type": "discard", "card": ids(game, 0, "9C")[0]})
    assert [e["type"] for e in events][:3] == ["discarded", "stock_exhausted", "deal_ended"]


def _bot_deal(players, options, seed):
    """A whole bot-against-bot deal: the game after it, its action log and every event type seen."""
    game = new_game("kuwaiti", players, options, seed)
    log, seen = [], set()
    while not game.records:
        seat = game.deal.current
        action = bot_action(game, seat)
        seen |= {event["type"] for event in apply(game, seat, action)}
        log.append((seat, action))
    return game, log, seen


def test_three_player_kuwaiti_deals_reach_an_announcement_with_the_option_and_not_without():
    without = [_bot_deal(3, {"reshuffle_discards": False}, seed)[0] for seed in range(6)]
    with_option = [_bot_deal(3, {"reshuffle_discards": True}, seed) for seed in range(6)]
    assert all(game.records[0].score.void for game in without)
    finished = [seen for game, _log, seen in with_option if not game.records[0].score.void]
    assert len(finished) >= 4
    assert all("stock_reshuffled" in seen for seen in finished)
    assert any("announced" in seen for seen in finished)


def test_a_deal_with_reshuffles_replays_to_the_same_state():
    game, log, seen = _bot_deal(5, {"reshuffle_discards": True}, 1)
    assert "stock_reshuffled" in seen
    assert dumps(replay("kuwaiti", {"reshuffle_discards": True}, 5, 1, log)) == dumps(game)


def test_a_game_created_before_the_default_changed_keeps_its_frozen_option_off(rig):
    """Options are frozen when a game is created: a saved game whose options say off (or lack the key,
    from before the option existed) still voids the deal when the stock runs out, after loading."""
    from games.engine import loads

    game = _reshuffle_rig(rig, options={"reshuffle_discards": False})
    for stored_options in ({"reshuffle_discards": False}, {"deals": 7, "tie_break": True}):
        data = json.loads(dumps(game))
        data["options"] = {**data["options"], **stored_options}
        if "reshuffle_discards" not in stored_options:
            del data["options"]["reshuffle_discards"]
        loaded = loads(json.dumps(data))
        events = apply(loaded, 0, {"type": "discard", "card": ids(loaded, 0, "9C")[0]})
        assert [e["type"] for e in events][:3] == ["discarded", "stock_exhausted", "deal_ended"]
        assert events[2]["void"]
