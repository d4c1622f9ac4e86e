"""The Hand-family deal as data: its state, the deal itself, phases and per-turn bookkeeping.

A deal moves through explicit phases:

* ``"draw"`` — the player to move must draw from the stock or take the top discard;
* ``"play"`` — the player to move may meld, lay off, exchange a wild card, declare a Hand
  (kuwaiti) and must end the turn with a discard;
* ``"deal_over"`` — somebody went out, declared a Hand, the stock ran out or a redeal was
  demanded (the game then scores the deal and deals the next one);
* ``"game_over"`` — the game (several deals) is finished.

The first player's first turn starts in ``"play"``: they hold 15 cards and do not draw.
Random events (the shuffle, the indicator) come from a per-deal seed derived from the game's
seed with :func:`derive_seed`, so a deal is reproducible and the stored seed never leaves the server.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from .cards import JOKER, Card, make_deck, shuffled
from .variants import VARIANTS, HandVariant, sides

if TYPE_CHECKING:  # pragma: no cover
    from .melds import Meld

DRAW = "draw"
PLAY = "play"
DEAL_OVER = "deal_over"
GAME_OVER = "game_over"
PHASES = (DRAW, PLAY, DEAL_OVER, GAME_OVER)

HAND_SIZE = 14

Event = dict[str, Any]
"""An event: a JSON-able dict with ``"type"``, usually ``"seat"``, public fields, and an optional
``"secret"`` dict that only ``"seat"`` may see (e.g. the card drawn from the stock)."""


def derive_seed(seed: int, *parts: object) -> int:
    """A stable 63-bit seed derived from the game's seed and a purpose (``"deal", 3, 0``)."""
    text = ":".join(str(part) for part in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@lru_cache(maxsize=32)
def deck_for(slug: str, players: int) -> tuple[Card, ...]:
    """The unshuffled deck of a rule set for this many players; ``deck[card.id] is card``. Hand and
    Foot decks are 54 cards each (two jokers per deck). Public."""
    variant = VARIANTS[slug]
    return tuple(make_deck(variant.decks_for(players), variant.jokers_for(players)))


def card_json(card: Card) -> dict:
    """A visible card as JSON: ``{"id": 17, "face": "5H"}``."""
    return {"id": card.id, "face": card.face}


def team_of(seat: int, players: int, teams: bool) -> int | None:
    """Partnership mode: seats 0+2 are team 0, seats 1+3 team 1; ``None`` without teams."""
    if not (teams and players == 4):
        return None
    return next(team for team, seats in enumerate(sides(players, True)) if seat in seats)


@dataclass(frozen=True)
class TableMeld:
    """A meld on the table. ``id`` is stable for the whole deal; ``owner`` is the seat that laid it down."""

    id: int
    owner: int
    meld: Meld


@dataclass
class Turn:
    """Bookkeeping for the turn in progress."""

    seat: int
    number: int  # this seat's turn count in the deal, this turn included (1 = first turn)
    drew: str | None = None  # "stock", "discard", or "dealt" (first player's first turn)
    taken: int | None = None  # id of the card taken from the discard pile this turn
    opened_before: bool = False  # had opened (kuwaiti: announced) before this turn
    touched_others: bool = False  # laid off onto / exchanged from another player's meld
    provisional_exchange: bool = False  # jordanian/egyptian single-card exchange in a 3-card set
    played: list[int] = field(default_factory=list)  # ids this seat put on the table this turn

    def to_json(self) -> dict:
        return {
            "seat": self.seat,
            "number": self.number,
            "drew": self.drew,
            "taken": self.taken,
            "opened_before": self.opened_before,
            "touched_others": self.touched_others,
            "provisional_exchange": self.provisional_exchange,
            "played": list(self.played),
        }

    @classmethod
    def from_json(cls, data: dict) -> Turn:
        return cls(**{**data, "played": list(data["played"])})


@dataclass
class DealState:
    """Everything about one deal. Mutated only through the game's ``apply``."""

    number: int  # 0-based deal number in the game (void deals included)
    attempt: int  # 0, or 1, 2 ... after redeal demands
    dealer: int
    players: int
    seed: int  # this deal's derived seed (never shown)
    hands: list[list[Card]]
    stock: list[Card]  # the top of the stock is the END of the list
    discard: list[Card]  # the top of the pile is the END of the list
    indicator: Card | None
    melds: list[TableMeld]
    next_meld_id: int
    opened: list[bool]  # kuwaiti: announced
    opening_totals: list[int | None]
    last_opening: int | None  # saudi: the most recent opening's total
    turns: list[int]  # turns started per seat (the current one included)
    current: int
    phase: str
    turn: Turn
    fresh: bool  # nobody has played yet: the redeal window is open
    events: list[Event]
    result: dict | None = None  # set when the deal is over

    @property
    def first(self) -> int:
        """The player after the dealer, who plays first."""
        return (self.dealer + 1) % self.players

    def copy(self) -> DealState:
        """A copy whose lists can be changed without touching this deal (cards and melds are immutable)."""
        return DealState(
            number=self.number,
            attempt=self.attempt,
            dealer=self.dealer,
            players=self.players,
            seed=self.seed,
            hands=[list(hand) for hand in self.hands],
            stock=list(self.stock),
            discard=list(self.discard),
            indicator=self.indicator,
            melds=list(self.melds),
            next_meld_id=self.next_meld_id,
            opened=list(self.opened),
            opening_totals=list(self.opening_totals),
            last_opening=self.last_opening,
            turns=list(self.turns),
            current=self.current,
            phase=self.phase,
            turn=Turn.from_json(self.turn.to_json()),
            fresh=self.fresh,
            events=list(self.events),
            result=dict(self.result) if self.result is not None else None,
        )

    def meld_by_id(self, meld_id: object) -> TableMeld | None:
        for table_meld in self.melds:
            if table_meld.id == meld_id:
                return table_meld
        return None

    def all_card_ids(self) -> list[int]:
        """Every card id in the deal (hands, stock, discard pile, melds, indicator), with repeats if any."""
        ids = [card.id for hand in self.hands for card in hand]
        ids += [card.id for card in self.stock]
        ids += [card.id for card in self.discard]
        ids += [card.id for table_meld in self.melds for card in table_meld.meld.cards]
        if self.indicator is not None:
            ids.append(self.indicator.id)
        return ids


def start_deal(
    variant: HandVariant, players: int, game_seed: int, number: int, dealer: int, attempt: int = 0
) -> DealState:
    """Shuffle and deal: 14 cards each, a 15th to the player after the dealer, and (jordanian,
    egyptian) turn up the wild-card indicator, putting a turned joker back into the middle of the stock."""
    seed = derive_seed(game_seed, "deal", number, attempt)
    deck = shuffled(list(deck_for(variant.slug, players)), seed)
    first = (dealer + 1) % players
    hands: list[list[Card]] = [[] for _ in range(players)]
    for _round in range(HAND_SIZE):
        for offset in range(players):
            hands[(first + offset) % players].append(deck.pop())
    hands[first].append(deck.pop())
    events: list[Event] = [
        {"type": "deal_started", "deal": number, "attempt": attempt, "dealer": dealer, "first": first}
    ]
    indicator = None
    if variant.indicator:
        while True:
            card = deck.pop()
            if card.rank != JOKER:
                indicator = card
                break
            deck.insert(len(deck) // 2, card)
            events.append({"type": "indicator_joker_returned", "card": card_json(card)})
        events.append({"type": "indicator_turned", "card": card_json(indicator)})
    turns = [0] * players
    turns[first] = 1
    return DealState(
        number=number,
        attempt=attempt,
        dealer=dealer,
        players=players,
        seed=seed,
        hands=hands,
        stock=deck,
        discard=[],
        indicator=indicator,
        melds=[],
        next_meld_id=1,
        opened=[False] * players,
        opening_totals=[None] * players,
        last_opening=None,
        turns=turns,
        current=first,
        phase=PLAY,
        turn=Turn(seat=first, number=1, drew="dealt"),
        fresh=True,
        events=events,
    )


def redeal_holding(cards: list[Card]) -> tuple[list[Card], int] | None:
    """The cards a player shows to demand a redeal, or ``None``.

    Four pairs of identical cards, or three pairs and a joker, or two pairs and both jokers
    (printed jokers, whether or not they are wild in this deal).
    """
    by_face: dict[tuple[int, str], list[Card]] = {}
    jokers = []
    for card in cards:
        if card.rank == JOKER:
            jokers.append(card)
        else:
            by_face.setdefault((card.rank, card.suit), []).append(card)
    pairs = [group[:2] for group in by_face.values() if len(group) >= 2]
    needed_pairs = {0: 4, 1: 3}.get(len(jokers), 2)
    if len(pairs) < needed_pairs:
        return None
    shown = [card for pair in pairs[:needed_pairs] for card in pair]
    shown += jokers[: 4 - needed_pairs] if needed_pairs < 4 else []
    return shown, len(pairs)
