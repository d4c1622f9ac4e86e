"""Cards, notation and decks.

A card is written rank then suit (``AS``, ``10H``, ``QD``) or ``JK`` for a joker. With several
decks identical cards exist, so every physical card carries its own ``id`` (its index in the
unshuffled deck); notation does not show it.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from .errors import InvalidCards, _

RANK_NAMES = ("JK", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Index = rank number: 0 is the joker, 1 the ace ... 13 the king."""
JOKER = 0
ACE, JACK, QUEEN, KING = 1, 11, 12, 13
SUITS = ("S", "H", "D", "C")
RED_SUITS = frozenset({"H", "D"})
BLACK_SUITS = frozenset({"S", "C"})
_RANK_BY_NAME = {name: number for number, name in enumerate(RANK_NAMES)}


class Card(NamedTuple):
    """One physical card. ``rank`` 0 is a joker (whose ``suit`` is ``""``)."""

    id: int
    rank: int
    suit: str

    @property
    def is_joker(self) -> bool:
        return self.rank == JOKER

    @property
    def face(self) -> str:
        """The card in the spec's notation, e.g. ``"10H"`` or ``"JK"``."""
        return "JK" if self.rank == JOKER else RANK_NAMES[self.rank] + self.suit

    @property
    def colour(self) -> str | None:
        """``"red"``, ``"black"`` or ``None`` for a joker."""
        if self.rank == JOKER:
            return None
        return "red" if self.suit in RED_SUITS else "black"

    def __str__(self) -> str:
        return self.face


def parse_face(text: str) -> tuple[int, str]:
    """Read one card's notation into ``(rank, suit)``; raise :class:`InvalidCards` if it is not a card."""
    token = text.strip().upper()
    if token == "JK":
        return JOKER, ""
    rank_name, suit = token[:-1], token[-1:]
    rank = _RANK_BY_NAME.get(rank_name)
    if rank is None or rank == JOKER or suit not in SUITS:
        raise InvalidCards(_("“{text}” is not a card. Write rank then suit, like AS, 10H or JK."), text=text)
    return rank, suit


def parse_cards(text: str, first_id: int = 0) -> list[Card]:
    """Parse ``"AS 2S 3S"`` into cards with ids ``first_id, first_id+1, ...`` (for tests and tools)."""
    return [Card(first_id + i, *parse_face(token)) for i, token in enumerate(text.split())]


def format_cards(cards) -> str:
    """The notation of several cards, separated by spaces."""
    return " ".join(card.face for card in cards)


def make_deck(decks: int, jokers: int) -> list[Card]:
    """An unshuffled deck of ``decks`` x 52 cards plus ``jokers`` jokers; ids are 0..n-1 in this order."""
    cards: list[Card] = []
    for _deck in range(decks):
        for suit in SUITS:
            for rank in range(ACE, KING + 1):
                cards.append(Card(len(cards), rank, suit))
    for _joker in range(jokers):
        cards.append(Card(len(cards), JOKER, ""))
    return cards


def shuffled(cards: list[Card], seed: int) -> list[Card]:
    """A new list with ``cards`` shuffled by ``seed``: the same seed always gives the same order."""
    order = list(cards)
    random.Random(seed).shuffle(order)
    return order


def new_seed() -> int:
    """A fresh random seed to store with a game."""
    return random.SystemRandom().getrandbits(63)
