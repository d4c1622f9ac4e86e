"""Speed of the meld solver on random hands (not a test; numbers go into the report).

Deals seeded random 15-card hands from the 106-card deck (two decks, two jokers) and times
``can_meld_all`` and ``going_out_melds`` on each, plus ``kuwaiti_hand`` and ``best_melds`` on fewer
hands, and prints median, p99 and max. A second run uses "meldable" hands built from real melds,
which make the search work hardest.

    .venv/bin/python bench/solver_bench.py [hands]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.cards import make_deck, shuffled
from games.engine.melds import MeldRules, Wilds
from games.engine.solver import best_melds, can_meld_all, going_out_melds, kuwaiti_hand

DECK = make_deck(2, 2)


def random_hands(count: int, size: int = 15):
    for seed in range(count):
        yield shuffled(DECK, seed)[:size]


def built_hands(count: int, size: int = 15):
    """Hands made of a few melds plus filler, so that many are (nearly) meldable."""
    faces = {}
    for card in DECK:
        faces.setdefault((card.rank, card.suit), []).append(card)
    jokers = faces[(0, "")]
    for seed in range(count):
        rng = random.Random(seed)
        hand: dict[int, object] = {}
        while len(hand) < size:
            if rng.random() < 0.5:
                rank = rng.randint(1, 13)
                for suit in rng.sample("SHDC", rng.randint(2, 4)):
                    card = rng.choice(faces[(rank, suit)])
                    hand[card.id] = card
            else:
                suit = rng.choice("SHDC")
                low = rng.randint(1, 11)
                for rank in range(low, min(low + rng.randint(2, 6), 14)):
                    card = rng.choice(faces[(rank, suit)])
                    hand[card.id] = card
            if rng.random() < 0.2:
                card = rng.choice(jokers)
                hand[card.id] = card
        yield list(hand.values())[:size]


def timed(function, hands, *args):
    times = []
    hits = 0
    for hand in hands:
        start = time.perf_counter()
        result = function(hand, *args)
        times.append((time.perf_counter() - start) * 1000)
        hits += bool(result)
    times.sort()
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    return statistics.median(times), p99, times[-1], hits


def report(name, hands, function, *args):
    median, p99, worst, hits = timed(function, hands, *args)
    print(
        f"{name:48} n={len(hands):6}  median {median:7.3f} ms  p99 {p99:7.3f} ms  "
        f"max {worst:7.3f} ms  true {hits}"
    )


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    wilds, one, two = Wilds(), MeldRules(), MeldRules(max_wild=2)
    random15 = list(random_hands(count))
    built15 = list(built_hands(count))
    two_wild = sum(sum(c.rank == 0 for c in hand) == 2 for hand in random15)
    print(f"random hands holding both jokers: {two_wild}")
    report("can_meld_all, random 15 cards", random15, can_meld_all, wilds, one)
    report("can_meld_all, random 15 cards, 2 wilds/meld", random15, can_meld_all, wilds, two)
    report("can_meld_all, built 15 cards", built15, can_meld_all, wilds, one)
    report("can_meld_all, built 15 cards, 2 wilds/meld", built15, can_meld_all, wilds, two)
    report("going_out_melds, random 15 cards", random15, going_out_melds, wilds, one)
    report("going_out_melds, built 15 cards", built15, going_out_melds, wilds, one)
    report("going_out_melds, built 15 cards, 2 wilds/meld", built15, going_out_melds, wilds, two)
    few = max(1, count // 10)
    report("kuwaiti_hand, built 15 cards", built15[:few], kuwaiti_hand, wilds, one)
    report("best_melds, random 15 cards", random15[:few], best_melds, wilds, one)
    report("best_melds, built 15 cards", built15[:few], best_melds, wilds, one)


if __name__ == "__main__":
    main()
