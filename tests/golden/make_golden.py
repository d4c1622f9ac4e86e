"""Write the golden games of tests/golden/ with the current engine (not a test; run it by hand).

For each mode (every Hand rule set, two players; the teams mode, four; Hand and Foot with three players
and its team rules with four), a game played by bots from a
fixed seed: ``<mode>-finished.json`` played to its end, ``<mode>-unfinished.json`` stopped mid-game
(inside the second deal when the game has one). Each file holds what the site stores for a game: rule
set, players, options, seed, the rules version, the move log (seat, action) and the JSON state.
tests/golden/test_golden_games.py checks that the code of today loads each, replays its log to the same
state and finishes it with bots. Existing files are never overwritten (they are the past: a new rules
version adds files, see docs/upgrades.md); pass --force to rewrite them.

    .venv/bin/python tests/golden/make_golden.py [--force] [mode ...]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from games import engine  # noqa: E402  (pure Python: no Django needed)

HERE = Path(__file__).resolve().parent
SEED = 20261124
MAX_ACTIONS = 20000


def modes() -> dict[str, tuple[str, int, dict]]:
    """mode name -> (rule set, players, options)."""
    found = {slug: (slug, 2, {}) for slug in engine.HAND_VARIANTS}
    found["classic-teams"] = ("classic", 4, {"teams": True})
    found["hand-and-foot"] = ("hand-and-foot", 3, {})
    found["hand-and-foot-teams"] = ("hand-and-foot-teams", 4, {})
    return found


def play(variant: str, players: int, options: dict, *, stop_in_deal: int | None) -> tuple[list, dict]:
    state = engine.new_game(variant, players, options, SEED)
    log = []
    for _ in range(MAX_ACTIONS):
        if state.finished:
            break
        if (
            stop_in_deal is not None
            and state.deal.number >= stop_in_deal
            and state.deal.turns[state.current] >= 2
        ):
            break
        seat, action = next(
            (seat, action)
            for seat in [state.current, *range(players)]
            if (action := engine.bot_action(state, seat)) is not None
        )
        engine.apply(state, seat, action)
        log.append([seat, action])
    else:
        raise AssertionError(f"{variant}: no end after {MAX_ACTIONS} actions")
    return log, engine.to_json(state)


def write(name: str, variant: str, players: int, options: dict, *, finished: bool, force: bool) -> None:
    path = HERE / f"{name}-{'finished' if finished else 'unfinished'}.json"
    if path.exists() and not force:
        print(f"kept    {path.name}")
        return
    probe = engine.new_game(variant, players, options, SEED)
    stop = None if finished else min(1, probe.options.get("deals", 2) - 1)
    moves, state = play(variant, players, options, stop_in_deal=stop)
    record = {
        "variant": variant,
        "players": players,
        "options": options,
        "seed": SEED,
        "rules_version": engine.RULES_VERSION,
        "format_version": engine.FORMAT_VERSION,
        "finished": finished,
        "moves": moves,
        "state": state,
    }
    path.write_text(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n")
    print(f"wrote   {path.name}: {len(moves)} actions")


def main(argv: list[str]) -> None:
    force = "--force" in argv
    wanted = [arg for arg in argv if not arg.startswith("--")]
    for name, (variant, players, options) in modes().items():
        if wanted and name not in wanted:
            continue
        for finished in (True, False):
            write(name, variant, players, options, finished=finished, force=force)


if __name__ == "__main__":
    main(sys.argv[1:])
