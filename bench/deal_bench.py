"""Speed of a whole bot-against-bot deal (not a test; numbers go into the report). Target: median <= 50 ms.

For each rule set (and the teams mode) plays ``deals`` seeded deals from the first action to the
deal's end with :func:`bot_action` choosing every move and :func:`apply` running it (the real
path, with its copy-on-apply), and prints median, p95 and max milliseconds per deal plus the
actions per deal. With ``--views`` it also renders every seat's view after every action, as the web
layer would for the player who moved.

    .venv/bin/python bench/deal_bench.py [deals] [--views]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import apply, bot_action, new_game, view

MODES = [
    ("classic", 4, None),
    ("jordanian", 4, None),
    ("saudi", 4, None),
    ("kuwaiti", 2, None),
    ("kuwaiti", 4, None),
    ("kuwaiti", 3, {"reshuffle_discards": True}),
    ("kuwaiti", 5, {"reshuffle_discards": True}),
    ("egyptian", 4, None),
    ("classic", 4, {"teams": True}),
    ("saudi", 4, {"teams": True}),
    ("egyptian", 4, {"teams": True}),
    ("hand-and-foot", 3, None),
    ("hand-and-foot-teams", 4, None),
]


def one_deal(variant: str, players: int, options, seed: int, views: bool) -> tuple[float, int]:
    game = new_game(variant, players, options, seed)
    records = len(game.records)
    number = game.deal.number
    actions = 0
    start = time.process_time()
    while not game.finished and game.deal.number == number and len(game.records) == records:
        seat = game.deal.current
        action = None
        for other in range(players):  # a redeal demand may come from any seat
            demand = bot_action(game, other)
            if other == seat:
                action = demand  # the mover's action is worked out once (it used to be twice)
            if demand is not None and demand["type"] == "redeal":
                seat, action = other, demand
                break
        apply(game, seat, action)
        actions += 1
        if game.deal.attempt and game.deal.number == number:
            records = len(game.records)  # a redeal: the same deal again
        if views:
            view(game, seat)
    return (time.process_time() - start) * 1000, actions


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    deals = int(args[0]) if args else 100
    views = "--views" in sys.argv
    print(f"{deals} bot-against-bot deals per mode{' (with a view after every action)' if views else ''}")
    print(f"{'mode':<34} {'median ms':>10} {'p95 ms':>8} {'max ms':>8} {'actions':>8}")
    for variant, players, options in MODES:
        times, counts = [], []
        for seed in range(deals):
            ms, actions = one_deal(variant, players, options, seed, views)
            times.append(ms)
            counts.append(actions)
        times.sort()
        label = f"{variant} {players}p" + "".join(f" {name}" for name in options or {})
        p95 = times[min(len(times) - 1, int(len(times) * 0.95))]
        print(
            f"{label:<34} {statistics.median(times):>10.1f} {p95:>8.1f} {times[-1]:>8.1f} "
            f"{statistics.median(counts):>8.0f}"
        )


if __name__ == "__main__":
    main()
