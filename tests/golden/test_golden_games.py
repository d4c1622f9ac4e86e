"""Games survive upgrades: every golden game (tests/golden/*.json, written by make_golden.py with the
code of its day) loads with today's code, replays from its seed and move log to exactly its stored state,
and plays on with bots to its end. A failure here means a change alters games in progress: keep the old
behaviour for their rules version or migrate them (docs/upgrades.md)."""

import json
from pathlib import Path

import pytest

from games import engine
from tests.golden.make_golden import modes

HERE = Path(__file__).resolve().parent
GOLDEN = sorted(HERE.glob("*.json"))
MAX_BOT_ACTIONS = 20000


def test_every_mode_has_a_finished_and_an_unfinished_golden_game():
    names = {path.name for path in GOLDEN}
    for mode in modes():
        assert {f"{mode}-finished.json", f"{mode}-unfinished.json"} <= names, mode


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_a_golden_game_loads_replays_to_its_state_and_finishes(path):
    record = json.loads(path.read_text())
    assert record["rules_version"] <= engine.RULES_VERSION
    stored = engine.from_json(record["state"])  # loads as stored
    assert engine.dumps(stored) == engine.dumps(engine.from_json(record["state"]))
    replayed = engine.replay(
        record["variant"], record["options"], record["players"], record["seed"], record["moves"]
    )
    assert engine.to_json(replayed) == record["state"]  # the same state, every field
    assert stored.finished == record["finished"]
    state = replayed
    for _ in range(MAX_BOT_ACTIONS):
        if state.finished:
            break
        seat, action = next(
            (seat, action)
            for seat in [state.current, *range(state.players)]
            if (action := engine.bot_action(state, seat)) is not None
        )
        engine.apply(state, seat, action)
    assert state.finished
    assert engine.from_json(engine.to_json(state)).finished


@pytest.mark.django_db
def test_a_new_game_stores_the_rules_version_it_is_played_by(owner, member, group, monkeypatch):
    """The version a game keeps for its whole life (docs/upgrades.md): a game made after a bump is on
    the new version, a game made before it stays on its own."""
    from games.models import Game
    from games.services import seating

    before = seating.create_game(
        group=group, created_by=owner, variant="classic", options=None, seats=[owner, member]
    )
    monkeypatch.setattr(engine, "RULES_VERSION", engine.RULES_VERSION + 1)  # a rules change ships
    after = seating.create_game(
        group=group, created_by=owner, variant="classic", options=None, seats=[owner, member]
    )
    assert Game.objects.get(pk=before.pk).rules_version == engine.RULES_VERSION - 1
    assert Game.objects.get(pk=after.pk).rules_version == engine.RULES_VERSION
