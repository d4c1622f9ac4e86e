"""Searching a hand for melds: can every card be melded, going out, the most valuable melds, and the
kuwaiti named hands.

The search works on counts of natural cards (52 faces; identical cards of two decks are one face
with count 2) and a number of wild cards. It always takes the lowest remaining natural card (suit by
suit, ace first): that card must be in some set or run, and every meld that can hold it is tried
(a run may also use a wild card where a natural card is available, so nothing is missed). Failed
positions are remembered by their canonical key (counts + wild cards left), so each is explored once.
Cards that cannot be in any meld at all (no card of the same rank in another suit, no card of the
same suit near enough) are found first and end the search at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import ACE, RED_SUITS, SUITS, Card
from .melds import HIGH_ACE, Meld, MeldRules, Wilds, _order_set, card_value
from .scoring import KUWAITI_TABLE

_NFACES = 52


def _index(rank: int, suit: int) -> int:
    """Face index: suit-major, the ace first in its suit (a high ace uses the same index)."""
    return suit * 13 + (0 if rank in (ACE, HIGH_ACE) else rank - 1)


# A meld found by the search, before physical cards are chosen:
#   ("set", rank, natural suit indexes, wild count)
#   ("run", suit index, low position, high position, wild positions)
Spec = tuple


class _Search:
    """Partitions of a multiset of natural faces plus ``w`` wild cards into melds."""

    def __init__(self, rules: MeldRules, *, runs_only: bool = False) -> None:
        self.max_wild = rules.max_wild
        self.low_ace = rules.ace_in_low_run
        self.runs_only = runs_only
        self.failed: set[tuple] = set()
        self.best: dict[tuple[bytes, int], tuple[tuple[int, int], Spec | None]] = {}

    # --- melds holding the lowest card ---------------------------------------------------------

    def options(self, counts: list[int], i: int, w: int) -> list[tuple[Spec, list[int], int]]:
        """Every meld holding face ``i`` (the lowest face left): (spec, natural indexes, wilds used)."""
        rank = i % 13 + 1
        suit = i // 13
        budget = min(w, self.max_wild)
        found: list[tuple[Spec, list[int], int]] = []
        base = suit * 13

        # Runs going up from the card (with up to ``budget`` wild cards below it).
        def extend_up(low: int, position: int, used: list[int], wild_pos: list[int]) -> None:
            length = position - low + 1
            nat = length - len(wild_pos)
            if length >= 3 and nat > len(wild_pos):
                found.append((("run", suit, low, position, tuple(wild_pos)), list(used), len(wild_pos)))
            nxt = position + 1
            if nxt > HIGH_ACE or (low == ACE and nxt == HIGH_ACE):
                return
            if nxt != HIGH_ACE and counts[base + nxt - 1] > 0:
                used.append(base + nxt - 1)
                extend_up(low, nxt, used, wild_pos)
                used.pop()
            if len(wild_pos) < budget:
                wild_pos.append(nxt)
                extend_up(low, nxt, used, wild_pos)
                wild_pos.pop()

        if rank != ACE:
            for below in range(budget + 1):
                low = rank - below
                if low < ACE:
                    break
                extend_up(low, rank, [i], list(range(low, rank)))
        else:
            extend_up(ACE, ACE, [i], [])

            # Runs ending with this ace high, going down.
            def extend_down(position: int, used: list[int], wild_pos: list[int]) -> None:
                length = HIGH_ACE - position + 1
                nat = length - len(wild_pos)
                if length >= 3 and nat > len(wild_pos):
                    found.append(
                        (("run", suit, position, HIGH_ACE, tuple(wild_pos)), list(used), len(wild_pos))
                    )
                nxt = position - 1
                if nxt <= ACE:  # a run never holds two aces
                    return
                if counts[base + nxt - 1] > 0:
                    used.append(base + nxt - 1)
                    extend_down(nxt, used, wild_pos)
                    used.pop()
                if len(wild_pos) < budget:
                    wild_pos.append(nxt)
                    extend_down(nxt, used, wild_pos)
                    wild_pos.pop()

            extend_down(HIGH_ACE, [i], [])

        if not self.runs_only:
            offset = i - base
            others = [t for t in range(4) if t != suit and counts[t * 13 + offset] > 0]
            for k in range(len(others), -1, -1):
                for chosen in combinations(others, k):
                    nat = 1 + k
                    for j in range(min(budget, nat - 1) + 1):
                        if 3 <= nat + j <= 4:
                            found.append(
                                (
                                    ("set", rank, (suit, *chosen), j),
                                    [i] + [t * 13 + offset for t in chosen],
                                    j,
                                )
                            )
        found.sort(key=lambda option: option[2] - len(option[1]))  # more natural cards, fewer wilds first
        return found

    # --- whole-hand partition ------------------------------------------------------------------

    def partition(self, counts: list[int], w: int) -> list[Spec] | None:
        i = next((k for k in range(_NFACES) if counts[k]), -1)
        if i < 0:
            return [] if w == 0 else None
        key = (bytes(counts), w)
        if key in self.failed:
            return None
        for spec, used, wilds_used in self.options(counts, i, w):
            for k in used:
                counts[k] -= 1
            rest = self.partition(counts, w - wilds_used)
            for k in used:
                counts[k] += 1
            if rest is not None:
                return [spec, *rest]
        self.failed.add(key)
        return None

    def partition_but_one(self, counts: list[int], w: int) -> bool:
        """Whether all these cards but one natural card can be melded (the one left over is skipped
        when it is the lowest card left, so each position is explored once for either case)."""
        i = next((k for k in range(_NFACES) if counts[k]), -1)
        if i < 0:
            return False
        key = (bytes(counts), w, 1)
        if key in self.failed:
            return False
        counts[i] -= 1
        found = self.partition(counts, w) is not None
        counts[i] += 1
        if not found:
            for _spec, used, wilds_used in self.options(counts, i, w):
                for k in used:
                    counts[k] -= 1
                found = self.partition_but_one(counts, w - wilds_used)
                for k in used:
                    counts[k] += 1
                if found:
                    break
        if not found:
            self.failed.add(key)
        return found

    # --- most valuable disjoint melds ----------------------------------------------------------

    def spec_value(self, spec: Spec) -> int:
        if spec[0] == "set":
            _kind, rank, suits, j = spec
            return card_value(rank) * (len(suits) + j)
        _kind, _suit, low, high, _wild = spec
        return sum(self.low_ace if p == ACE else card_value(p) for p in range(low, high + 1))

    def most(self, counts: list[int], w: int) -> tuple[int, int]:
        """The greatest (value, -wild cards used) of disjoint melds among these cards."""
        i = next((k for k in range(_NFACES) if counts[k]), -1)
        if i < 0:
            return (0, 0)
        key = (bytes(counts), w)
        known = self.best.get(key)
        if known is not None:
            return known[0]
        counts[i] -= 1
        best = self.most(counts, w)
        counts[i] += 1
        choice: Spec | None = None
        for spec, used, wilds_used in self.options(counts, i, w):
            for k in used:
                counts[k] -= 1
            value, minus_wild = self.most(counts, w - wilds_used)
            for k in used:
                counts[k] += 1
            score = (value + self.spec_value(spec), minus_wild - wilds_used)
            if score > best:
                best, choice = score, spec
        self.best[key] = (best, choice)
        return best

    def most_specs(self, counts: list[int], w: int) -> list[Spec]:
        self.most(counts, w)
        specs = []
        while True:
            i = next((k for k in range(_NFACES) if counts[k]), -1)
            if i < 0:
                return specs
            _score, choice = self.best[(bytes(counts), w)]
            if choice is None:
                counts[i] -= 1
                continue
            specs.append(choice)
            for k in _spec_indexes(choice):
                counts[k] -= 1
            w -= _spec_wilds(choice)


def _spec_indexes(spec: Spec) -> list[int]:
    if spec[0] == "set":
        _kind, rank, suits, _j = spec
        return [_index(rank, s) for s in suits]
    _kind, suit, low, high, wild = spec
    return [_index(p, suit) for p in range(low, high + 1) if p not in wild]


def _spec_wilds(spec: Spec) -> int:
    return spec[3] if spec[0] == "set" else len(spec[4])


# --- from cards to counts and back ---------------------------------------------------------------


class _Hand:
    """A hand split into natural-face counts (with the physical cards of each face) and wild cards."""

    def __init__(self, cards: Sequence[Card], wilds: Wilds) -> None:
        self.counts = [0] * _NFACES
        self.pool: dict[int, list[Card]] = {}
        self.wild: list[Card] = []
        for card in sorted(cards, key=lambda c: c.id):
            if wilds.is_wild(card):
                self.wild.append(card)
            else:
                rank, suit = wilds.natural_face(card)
                k = _index(rank, SUITS.index(suit))
                self.counts[k] += 1
                self.pool.setdefault(k, []).append(card)

    def melds(self, specs: list[Spec]) -> list[Meld]:
        pool = {k: list(cards) for k, cards in self.pool.items()}
        wild = list(self.wild)
        return [_build(spec, pool, wild) for spec in specs]


def _build(spec: Spec, pool: dict[int, list[Card]], wild: list[Card]) -> Meld:
    if spec[0] == "set":
        _kind, rank, suits, j = spec
        pairs = [(pool[_index(rank, s)].pop(0), (rank, SUITS[s])) for s in suits]
        if j:
            missing = [SUITS[t] for t in range(4) if t not in suits]
            suit = missing[0] if len(suits) + j == 4 else ""
            pairs.append((wild.pop(0), (rank, suit)))
        cards, plays_as = _order_set(pairs)
        return Meld("set", cards, plays_as)
    _kind, suit, low, high, wild_pos = spec
    cards, plays_as = [], []
    for p in range(low, high + 1):
        cards.append(wild.pop(0) if p in wild_pos else pool[_index(p, suit)].pop(0))
        plays_as.append((ACE if p == HIGH_ACE else p, SUITS[suit]))
    return Meld("run", tuple(cards), tuple(plays_as))


def _hopeless(counts: list[int], max_wild: int, w: int, runs_only: bool = False) -> list[int]:
    """Faces that can be in no meld at all: no other natural card of the same rank (a set), and none of
    the same suit close enough to share a run. Each such card is listed once per copy."""
    reach = 1 + min(max_wild, w)
    lonely = []
    for k in range(_NFACES):
        if not counts[k]:
            continue
        suit, offset = divmod(k, 13)
        partner = False
        if not runs_only:
            same_rank = sum(1 for t in range(4) if t != suit and counts[t * 13 + offset])
            partner = same_rank >= (1 if w else 2)
        positions = (ACE, HIGH_ACE) if offset == 0 else (offset + 1,)
        for position in positions:
            for d in range(1, reach + 1):
                for other in (position - d, position + d):
                    if not ACE <= other <= HIGH_ACE or (offset == 0 and other in (ACE, HIGH_ACE)):
                        continue  # off the suit, or the ace itself (a run never holds two aces)
                    if counts[_index(other, suit)]:
                        partner = True
        if not partner:
            lonely.extend([k] * counts[k])
    return lonely


# --- public API ---------------------------------------------------------------------------------


def meld_partition(cards: Sequence[Card], wilds: Wilds, rules: MeldRules) -> list[Meld] | None:
    """One way to meld every card (each card in exactly one meld), or ``None``."""
    return _partition(cards, wilds, rules)


def _partition(
    cards: Sequence[Card], wilds: Wilds, rules: MeldRules, search: _Search | None = None
) -> list[Meld] | None:
    hand = _Hand(cards, wilds)
    search = search or _Search(rules)
    if _hopeless(hand.counts, rules.max_wild, len(hand.wild), search.runs_only):
        return None
    specs = search.partition(hand.counts, len(hand.wild))
    return None if specs is None else hand.melds(specs)


def can_meld_all(cards: Sequence[Card], wilds: Wilds, rules: MeldRules) -> bool:
    """Whether every card can be melded at once (each card in exactly one legal meld)."""
    hand = _Hand(cards, wilds)
    if _hopeless(hand.counts, rules.max_wild, len(hand.wild)):
        return False
    return _Search(rules).partition(hand.counts, len(hand.wild)) is not None


def _discard_order(cards: Sequence[Card], wilds: Wilds) -> list[Card]:
    """One card of each face, the highest penalty first (wild, ace, K Q J 10, 9 ... 2)."""
    seen: dict[tuple, Card] = {}
    for card in sorted(cards, key=lambda c: c.id):
        face = ("wild",) if wilds.is_wild(card) else wilds.natural_face(card)
        seen.setdefault(face, card)

    def penalty(card: Card) -> tuple[int, int]:
        if wilds.is_wild(card):
            return (99, 99)
        rank, _suit = wilds.natural_face(card)
        return (card_value(rank), rank)

    return sorted(seen.values(), key=penalty, reverse=True)


def going_out_melds(cards: Sequence[Card], wilds: Wilds, rules: MeldRules) -> tuple[list[Meld], Card] | None:
    """Meld all cards but one and discard that one (the highest-penalty such card), or ``None``."""
    cards = list(cards)
    if len(cards) < 4:
        return None
    hand = _Hand(cards, wilds)
    lonely = _hopeless(hand.counts, rules.max_wild, len(hand.wild))
    if len(lonely) > 1:
        return None
    search = _Search(rules)
    # One search first: can all but one card (a natural one, or a wild one) be melded at all? Most hands
    # cannot, and then trying every discard in turn is wasted work.
    counts, w = list(hand.counts), len(hand.wild)
    if lonely:
        counts[lonely[0]] -= 1
        possible = search.partition(counts, w) is not None
    else:
        possible = search.partition_but_one(counts, w) or (
            w > 0 and search.partition(counts, w - 1) is not None
        )
    if not possible:
        return None
    for discard in _discard_order(cards, wilds):
        if lonely and (wilds.is_wild(discard) or _face_index(discard, wilds) != lonely[0]):
            continue
        rest = [card for card in cards if card.id != discard.id]
        melds = _partition(rest, wilds, rules, search)
        if melds is not None:
            return melds, discard
    return None


def _face_index(card: Card, wilds: Wilds) -> int:
    rank, suit = wilds.natural_face(card)
    return _index(rank, SUITS.index(suit))


def best_melds(
    cards: Sequence[Card], wilds: Wilds, rules: MeldRules, *, minimum_total: int = 0
) -> list[Meld]:
    """Disjoint melds of the greatest total value (ties: fewer wild cards used).

    Returns ``[]`` when no melds reach ``minimum_total``.
    """
    hand = _Hand(cards, wilds)
    for k in _hopeless(hand.counts, rules.max_wild, len(hand.wild)):
        hand.counts[k] -= 1
    search = _Search(rules)
    specs = search.most_specs(list(hand.counts), len(hand.wild))
    total = sum(search.spec_value(spec) for spec in specs)
    if not specs or total < minimum_total:
        return []
    return hand.melds(specs)


# --- kuwaiti named hands ------------------------------------------------------------------------


@dataclass(frozen=True)
class KuwaitiHand:
    """A named hand (``scoring.HAND_NAMES``): the melds and the discarded card(s)."""

    name: str
    melds: list
    discards: tuple[Card, ...]


def _row_rank(name: str) -> tuple[int, int, int]:
    row = KUWAITI_TABLE[name]
    return (-row.winner, row.multiplier, row.not_opened)


KUWAITI_HAND_ORDER = (
    "double_joker_suited",
    "double_joker_colored",
    "joker_suited",
    "joker_colored",
    "double_joker",
    "suited",
    "joker",
    "colored",
    "regular",
)
"""The named hands a player may declare, best for the winner first (by the kuwaiti table: the
winner's score, then what opponents pay; equal rows keep this order)."""


def _colour_groups(naturals: list[Card], wilds: Wilds) -> tuple[bool, bool]:
    """(all one colour, all one suit) of these natural cards."""
    suits = {wilds.natural_face(card)[1] for card in naturals}
    colours = {suit in RED_SUITS for suit in suits}
    return len(colours) <= 1, len(suits) <= 1


def kuwaiti_hand(cards15: Sequence[Card], wilds: Wilds, rules: MeldRules) -> KuwaitiHand | None:
    """The best named hand these 15 cards make (kuwaiti table rows), or ``None``.

    "Joker" means a wild card of the deal. A wild card inside a meld takes the colour and suit of
    the card it stands for, so colored and suited hands are made of runs only (a set always mixes
    suits, and a 3-card set's wild stands for the two missing suits, one of each colour).
    """
    cards = list(cards15)
    wild = sorted((card for card in cards if wilds.is_wild(card)), key=lambda c: c.id)
    plain = _Search(rules)
    runs = _Search(rules, runs_only=True)
    found: list[KuwaitiHand] = []

    def add(name: str, rest: list[Card], discards: tuple[Card, ...], search: _Search) -> bool:
        melds = _partition(rest, wilds, rules, search)
        if melds is not None:
            found.append(KuwaitiHand(name, melds, discards))
            return True
        return False

    def rows(prefix: str, rest: list[Card], discards: tuple[Card, ...]) -> None:
        naturals = [
            card for card in rest + [d for d in discards if not wilds.is_wild(d)] if not wilds.is_wild(card)
        ]
        one_colour, one_suit = _colour_groups(naturals, wilds)
        if one_suit and add(prefix + "suited", rest, discards, runs):
            return
        if one_colour and add(prefix + "colored", rest, discards, runs):
            return
        add(prefix + "regular" if not prefix else prefix.rstrip("_"), rest, discards, plain)

    if len(wild) >= 2:
        rest = [card for card in cards if card.id not in (wild[0].id, wild[1].id)]
        rows("double_joker_", rest, (wild[0], wild[1]))
    if wild:
        rest = [card for card in cards if card.id != wild[0].id]
        rows("joker_", rest, (wild[0],))
    for discard in _discard_order([c for c in cards if not wilds.is_wild(c)], wilds):
        rest = [card for card in cards if card.id != discard.id]
        rows("", rest, (discard,))
    if not found:
        return None
    return max(found, key=lambda hand: (_row_rank(hand.name), -KUWAITI_HAND_ORDER.index(hand.name)))


__all__ = [
    "KUWAITI_HAND_ORDER",
    "KuwaitiHand",
    "best_melds",
    "can_meld_all",
    "going_out_melds",
    "kuwaiti_hand",
    "meld_partition",
]
