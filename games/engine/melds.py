"""Melds: sets and runs, wild cards and what they stand for, meld values, lay-offs and wild exchanges.

Rules: ``hand-family.md`` sections 2 and 3; our decisions are in ``docs/rules.md`` ("Melds and wild
cards"). In short:

- A **set** is 3 or 4 cards of one rank, every card of a different suit.
- A **run** is 3 or more cards of one suit in consecutive rank. The ace is low (``A-2-3``) or high
  (``Q-K-A``), never in the middle; a run never holds two aces, so it has at most 13 cards.
- A meld holds at most ``rules.max_wild`` wild cards and more natural cards than wild cards.
- A wild card always counts as a wild card, even where it stands for itself (a wild ``AH`` in
  ``QH KH AH``).
- A wild card stands for one specific card (``plays_as``). In a 3-card set it stands for "either
  missing suit" (suit ``""``) until the set grows to 4 cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from .cards import ACE, JOKER, KING, RANK_NAMES, SUITS, Card, parse_face
from .errors import InvalidCards, MeldError, _

Face = tuple[int, str]
"""``(rank, suit)``: what a card plays as. Rank 1 is the ace, low or high (its place in a run says which)."""

HIGH_ACE = 14
"""A run position above the king: the ace played high."""


# --- Wild cards and rules ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Wilds:
    """Which cards are wild in a deal.

    Without an indicator, or with an ace as indicator, the jokers are wild. Any other indicator
    (jordanian, egyptian) makes the aces of its suit wild, and the printed jokers become natural
    aces of that suit.
    """

    indicator: Card | None = None

    @property
    def jokers_wild(self) -> bool:
        return self.indicator is None or self.indicator.rank == ACE

    def is_wild(self, card: Card) -> bool:
        if self.jokers_wild:
            return card.rank == JOKER
        assert self.indicator is not None
        return card.rank == ACE and card.suit == self.indicator.suit

    def natural_face(self, card: Card) -> Face:
        """The ``(rank, suit)`` a non-wild card plays as (a natural joker: the indicator suit's ace)."""
        if card.rank == JOKER and not self.jokers_wild:
            assert self.indicator is not None
            return ACE, self.indicator.suit
        return card.rank, card.suit

    def to_json(self) -> dict:
        return {"indicator": self.indicator.id if self.indicator else None}


@dataclass(frozen=True, slots=True)
class MeldRules:
    """The meld limits of a game: wild cards per meld and an ace's value inside a low run."""

    max_wild: int = 1
    ace_in_low_run: int = 1

    @classmethod
    def for_variant(cls, variant, options: Mapping | None = None) -> MeldRules:
        options = options or {}
        return cls(
            max_wild=int(options.get("max_wild_per_meld", 1)),
            ace_in_low_run=variant.ace_in_low_run,
        )


# --- Melds -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Meld:
    """A set or a run on the table.

    ``cards`` of a run go from low to high; a set's cards are in suit order (S H D C) of what they
    play as, a wild standing for "either missing suit" last. ``plays_as`` is parallel to ``cards``.
    """

    kind: Literal["set", "run"]
    cards: tuple[Card, ...]
    plays_as: tuple[Face, ...]

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "cards": [card.id for card in self.cards],
            "plays_as": [[rank, suit] for rank, suit in self.plays_as],
        }

    @classmethod
    def from_json(cls, data: Mapping, cards_by_id: Mapping[int, Card]) -> Meld:
        cards = tuple(cards_by_id[int(card_id)] for card_id in data["cards"])
        plays_as = tuple((int(rank), str(suit)) for rank, suit in data["plays_as"])
        if data["kind"] not in ("set", "run") or len(cards) != len(plays_as):
            raise ValueError("not a stored meld")
        return cls(data["kind"], cards, plays_as)

    @property
    def rank(self) -> int:
        """A set's rank (for a run: the rank of its lowest card)."""
        return self.plays_as[0][0]

    @property
    def suit(self) -> str:
        """A run's suit ("" for a set)."""
        return self.plays_as[0][1] if self.kind == "run" else ""

    def positions(self) -> tuple[int, ...]:
        """A run's ranks from low to high, the high ace as 14; a set's rank for every card."""
        if self.kind == "set":
            return tuple(rank for rank, _suit in self.plays_as)
        low = self.plays_as[0][0]
        return tuple(range(low, low + len(self.cards)))

    def wild_cards(self, wilds: Wilds) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if wilds.is_wild(card))

    def describe(self) -> str:
        """The cards with what each wild stands for, e.g. ``"9S 10S JK(JS)"``."""
        parts = []
        for card, face in zip(self.cards, self.plays_as, strict=True):
            text = card.face
            if (card.rank, card.suit) != face:
                text += f"({face_text(face)})"
            parts.append(text)
        return " ".join(parts)

    def __str__(self) -> str:
        return self.describe()


class AmbiguousWild(MeldError):
    """The cards form a meld in more than one way: the player must say what the wild stands for.

    ``choices`` lists every legal reading.
    """

    def __init__(self, template: str, readings: Iterable[Meld] = (), **params: object) -> None:
        self.choices = list(readings)
        super().__init__(template, **params)


def face_text(face: Face) -> str:
    """What a card plays as, in notation: ``(12, "S")`` -> ``"QS"``; a set wild's ``(5, "")`` -> ``"5"``.
    Public."""
    rank, suit = face
    return RANK_NAMES[ACE if rank == HIGH_ACE else rank] + suit


SUIT_SYMBOLS = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def face_words(face: Face) -> str:
    """A face as players write it in a sentence: ``(7, "S")`` -> ``"7♠"`` (a set wild's ``(5, "")``
    -> ``"5"``). Public."""
    text = face_text(face)
    return text[:-1] + SUIT_SYMBOLS[text[-1]] if text[-1] in SUIT_SYMBOLS else text


def card_value(rank: int) -> int:
    """A card's value by rank: ace 11, K Q J 10, 2-10 face value."""
    if rank in (ACE, HIGH_ACE):
        return 11
    return 10 if rank > 10 else rank


def _position_value(position: int, rules: MeldRules) -> int:
    if position == ACE:
        return rules.ace_in_low_run
    return card_value(position)


def meld_value(meld: Meld, rules: MeldRules) -> int:
    """The meld's value for the opening: every card (wild cards as what they stand for) at card value;
    an ace inside a low run counts ``rules.ace_in_low_run``."""
    if meld.kind == "set":
        return card_value(meld.rank) * len(meld.cards)
    return sum(_position_value(position, rules) for position in meld.positions())


# --- Reading cards as melds --------------------------------------------------------------------


def _order_set(pairs: list[tuple[Card, Face]]) -> tuple[tuple[Card, ...], tuple[Face, ...]]:
    order = {suit: i for i, suit in enumerate(SUITS)}
    pairs = sorted(pairs, key=lambda pair: (order.get(pair[1][1], len(SUITS)), pair[0].id))
    return tuple(card for card, _face in pairs), tuple(face for _card, face in pairs)


def _set_readings(
    naturals: list[tuple[Card, Face]], wild: list[Card], pins: Mapping[int, Face]
) -> list[Meld]:
    rank = naturals[0][1][0]
    suits = [face[1] for _card, face in naturals]
    size = len(naturals) + len(wild)
    if size > 4 or len(set(suits)) != len(suits):
        return []
    missing = [suit for suit in SUITS if suit not in suits]
    pairs = list(naturals)
    for card in wild:
        pin = pins.get(card.id)
        if size == 3:
            if pin is not None and (pin[0] != rank or pin[1] not in missing):
                return []
            pairs.append((card, (rank, "")))
        else:
            suit = missing[0]
            if pin is not None and pin != (rank, suit):
                return []
            pairs.append((card, (rank, suit)))
    cards, plays_as = _order_set(pairs)
    return [Meld("set", cards, plays_as)]


def _run_readings(
    naturals: list[tuple[Card, Face]], wild: list[Card], pins: Mapping[int, Face]
) -> list[Meld]:
    suit = naturals[0][1][1]
    size = len(naturals) + len(wild)
    if size > KING:
        return []
    readings = []
    for low in range(ACE, HIGH_ACE - size + 2):
        high = low + size - 1
        if low == ACE and high == HIGH_ACE:
            continue
        slots: dict[int, Card] = {}
        for card, (rank, _suit) in naturals:
            position = rank
            if rank == ACE:
                position = ACE if low == ACE else HIGH_ACE
            if not low <= position <= high or position in slots:
                break
            slots[position] = card
        else:
            free = [p for p in range(low, high + 1) if p not in slots]
            free_wild = []
            for card in sorted(wild, key=lambda c: c.id):
                pin = pins.get(card.id)
                if pin is None:
                    free_wild.append(card)
                    continue
                rank, pin_suit = pin
                position = rank
                if rank == ACE:
                    position = ACE if low == ACE else HIGH_ACE
                if pin_suit != suit or position not in free:
                    break
                free.remove(position)
                slots[position] = card
            else:
                for position, card in zip(free, free_wild, strict=True):
                    slots[position] = card
                positions = range(low, high + 1)
                readings.append(
                    Meld(
                        "run",
                        tuple(slots[p] for p in positions),
                        tuple((ACE if p == HIGH_ACE else p, suit) for p in positions),
                    )
                )
    return readings


def _split(cards: Sequence[Card], wilds: Wilds) -> tuple[list[tuple[Card, Face]], list[Card]]:
    naturals, wild = [], []
    for card in cards:
        if wilds.is_wild(card):
            wild.append(card)
        else:
            naturals.append((card, wilds.natural_face(card)))
    return naturals, wild


def _readings(cards: Sequence[Card], wilds: Wilds, rules: MeldRules, pins: Mapping[int, Face]) -> list[Meld]:
    if len(cards) < 3 or len({card.id for card in cards}) != len(cards):
        return []
    naturals, wild = _split(cards, wilds)
    if len(wild) > rules.max_wild or len(naturals) <= len(wild):
        return []
    if len({face[0] for _card, face in naturals}) == 1:
        return _set_readings(naturals, wild, pins)
    if len({face[1] for _card, face in naturals}) == 1:
        return _run_readings(naturals, wild, pins)
    return []


def meld_options(cards: Sequence[Card], wilds: Wilds, rules: MeldRules) -> list[Meld]:
    """Every legal reading of ``cards`` as one meld (empty when they form none)."""
    return _readings(list(cards), wilds, rules, {})


def _parse_pins(cards: Sequence[Card], wilds: Wilds, wild_as: Mapping[int, str] | None) -> dict[int, Face]:
    pins: dict[int, Face] = {}
    by_id = {card.id: card for card in cards}
    for card_id, text in (wild_as or {}).items():
        card = by_id.get(card_id)
        if card is None or not wilds.is_wild(card):
            raise MeldError(_("Only a wild card of the meld can stand for another card."))
        try:
            rank, suit = parse_face(text)
        except InvalidCards:
            raise MeldError(
                _("“{text}” is not a card. Write rank then suit, like AS, 10H or JK."), text=text
            ) from None
        if rank == JOKER:
            raise MeldError(_("A wild card cannot stand for a joker."))
        pins[card_id] = (rank, suit)
    return pins


def _refusal(cards: Sequence[Card], wilds: Wilds, rules: MeldRules) -> MeldError:
    """The sentence that says why ``cards`` form no meld at all."""
    if len(cards) < 3:
        return MeldError(_("A meld needs at least three cards."))
    if len({card.id for card in cards}) != len(cards):
        return MeldError(_("A card cannot be used twice in a meld."))
    naturals, wild = _split(cards, wilds)
    if len(wild) > rules.max_wild:
        if rules.max_wild == 1:
            return MeldError(_("A meld may hold at most one wild card."))
        return MeldError(_("A meld may hold at most {max_wild} wild cards."), max_wild=rules.max_wild)
    if len(naturals) <= len(wild):
        return MeldError(_("A meld needs more natural cards than wild cards."))
    ranks = {face[0] for _card, face in naturals}
    suits = [face[1] for _card, face in naturals]
    if len(ranks) == 1:
        if len(cards) > 4:
            return MeldError(_("A set has at most four cards."))
        return MeldError(_("A set needs cards of different suits."))
    if len(set(suits)) == 1:
        if len(cards) > KING:
            return MeldError(_("A run has at most thirteen cards."))
        if ACE in ranks and KING in ranks and 2 in ranks:
            return MeldError(_("An ace is low (A-2-3) or high (Q-K-A) in a run, never in the middle."))
        return MeldError(_("A run needs consecutive cards of one suit."))
    return MeldError(
        _("A meld is a set (one rank, different suits) or a run (consecutive cards of one suit).")
    )


def _ambiguity(readings: list[Meld], wilds: Wilds) -> AmbiguousWild:
    wild_ids = [{i for i, card in enumerate(m.cards) if wilds.is_wild(card)} for m in readings]
    texts = []
    for meld, indexes in zip(readings, wild_ids, strict=True):
        texts.append(" + ".join(face_words(meld.plays_as[i]) for i in sorted(indexes)))
    choices = " or ".join(texts)
    wild = readings[0].wild_cards(wilds)
    if len(wild) > 1:
        template = _("Say which cards the wild cards stand for: {choices}.")
    elif wild[0].rank == JOKER:
        template = _("Say which card the joker stands for: {choices}.")
    else:
        template = _("Say which card the wild card stands for: {choices}.")
    return AmbiguousWild(template, readings, choices=choices)


def make_meld(
    cards: Sequence[Card], wilds: Wilds, rules: MeldRules, wild_as: Mapping[int, str] | None = None
) -> Meld:
    """Read ``cards`` (in any order) as one meld.

    ``wild_as`` maps a wild card's id to the card it stands for (``"JS"``); it is needed where the
    cards can be read in several ways (:class:`AmbiguousWild` then lists them). Raises
    :class:`MeldError` with the reason when the cards form no meld.
    """
    cards = list(cards)
    pins = _parse_pins(cards, wilds, wild_as)
    readings = _readings(cards, wilds, rules, pins)
    if not readings:
        if pins and _readings(cards, wilds, rules, {}):
            card_id, face = next(iter(pins.items()))
            wild = next(card for card in cards if card.id == card_id)
            raise MeldError(
                _("The {wild} cannot stand for {face} in this meld."),
                wild="\U0001f0cf" if wild.rank == JOKER else face_words((wild.rank, wild.suit)),
                face=face_words(face),
            )
        raise _refusal(cards, wilds, rules)
    if len(readings) > 1:
        readings = _distinct_wild_readings(readings, wilds, rules)
    if len(readings) > 1:
        raise _ambiguity(readings, wilds)
    return readings[0]


def _distinct_wild_readings(readings: list[Meld], wilds: Wilds, rules: MeldRules) -> list[Meld]:
    """Readings that differ only in where a natural ace of a 13-card run sits are one choice: the ace
    is taken high (the greater value). Readings where a wild card stands for different cards remain."""
    best: dict[tuple, Meld] = {}
    for meld in readings:
        key = tuple(
            sorted(
                (card.id, face)
                for card, face in zip(meld.cards, meld.plays_as, strict=True)
                if wilds.is_wild(card)
            )
        )
        if key not in best or meld_value(meld, rules) > meld_value(best[key], rules):
            best[key] = meld
    return list(best.values())


def is_valid_meld(meld: Meld, wilds: Wilds, rules: MeldRules) -> bool:
    """Whether ``meld`` (e.g. one read back from storage) is a legal meld with these plays_as."""
    pins = {
        card.id: face
        for card, face in zip(meld.cards, meld.plays_as, strict=True)
        if wilds.is_wild(card) and face[1]
    }
    return any(reading == meld for reading in _readings(list(meld.cards), wilds, rules, pins))


# --- Growing a meld and exchanging wild cards --------------------------------------------------


def lay_off(
    meld: Meld,
    cards: Sequence[Card],
    wilds: Wilds,
    rules: MeldRules,
    wild_as: Mapping[int, str] | None = None,
) -> Meld:
    """``meld`` grown by ``cards`` (one or more). A wild card already in a run keeps standing for the
    same card; ``wild_as`` says what a newly laid-off wild stands for where that is ambiguous."""
    cards = list(cards)
    if not cards:
        raise MeldError(_("Choose at least one card to lay off."))
    in_meld = {card.id for card in meld.cards}
    if any(card.id in in_meld for card in cards):
        raise MeldError(_("A card cannot be used twice in a meld."))
    pins = dict(wild_as or {})
    if meld.kind == "run":
        for card, face in zip(meld.cards, meld.plays_as, strict=True):
            if wilds.is_wild(card):
                pins[card.id] = face_text(face)
    grown = make_meld([*meld.cards, *cards], wilds, rules, pins)
    if grown.kind != meld.kind:
        raise MeldError(_("These cards do not fit on that meld."))
    return grown


def exchange_wild(
    meld: Meld,
    naturals: Sequence[Card],
    wilds: Wilds,
    rules: MeldRules,
    *,
    allow_single_in_three_set: bool = False,
) -> tuple[Meld, Card]:
    """Put natural card(s) in a wild card's place; returns the new meld and the freed wild card.

    In a run or a 4-card set, one natural card identical to what the wild stands for replaces it.
    In a 3-card set the wild stands for either missing suit, so both missing cards must be given
    together (the set becomes 4 natural cards), unless ``allow_single_in_three_set`` (the jordanian
    and egyptian exceptions; the caller decides when they apply).
    """
    naturals = list(naturals)
    wild_in_meld = [i for i, card in enumerate(meld.cards) if wilds.is_wild(card)]
    if not wild_in_meld:
        raise MeldError(_("This meld holds no wild card."))
    if not naturals:
        raise MeldError(_("Choose the natural card that takes the wild card's place."))
    if any(wilds.is_wild(card) for card in naturals):
        raise MeldError(_("Only a natural card can take a wild card's place."))
    in_meld = {card.id for card in meld.cards}
    if any(card.id in in_meld for card in naturals) or len({c.id for c in naturals}) != len(naturals):
        raise MeldError(_("A card cannot be used twice in a meld."))
    faces = [wilds.natural_face(card) for card in naturals]

    three_set = meld.kind == "set" and len(meld.cards) == 3
    if not three_set:
        if len(naturals) != 1:
            raise MeldError(_("One natural card takes a wild card's place."))
        for i in wild_in_meld:
            if meld.plays_as[i] == faces[0]:
                cards = list(meld.cards)
                freed = cards[i]
                cards[i] = naturals[0]
                return Meld(meld.kind, tuple(cards), meld.plays_as), freed
        raise MeldError(_("The {card} is not the card the wild card stands for."), card=face_words(faces[0]))

    # A 3-card set: two naturals and a wild standing for either missing suit.
    index = wild_in_meld[0]
    freed = meld.cards[index]
    rank = meld.rank
    present = {suit for r, suit in meld.plays_as if suit}
    missing = [suit for suit in SUITS if suit not in present]
    if any(face[0] != rank or face[1] not in missing for face in faces) or len(set(faces)) != len(faces):
        raise MeldError(
            _("Only the missing cards of the set ({cards}) can take the wild card's place."),
            cards=" ".join(face_words((rank, suit)) for suit in missing),
        )
    if len(naturals) == 1 and not allow_single_in_three_set:
        raise MeldError(
            _("In a set of three the wild card stands for either missing card: put down both ({cards})."),
            cards=" ".join(face_words((rank, suit)) for suit in missing),
        )
    pairs = [(card, face) for card, face in zip(meld.cards, meld.plays_as, strict=True) if card != freed]
    pairs += list(zip(naturals, faces, strict=True))
    cards, plays_as = _order_set(pairs)
    return Meld("set", cards, plays_as), freed


__all__ = [
    "HIGH_ACE",
    "AmbiguousWild",
    "Meld",
    "MeldRules",
    "Wilds",
    "card_value",
    "exchange_wild",
    "face_text",
    "face_words",
    "is_valid_meld",
    "lay_off",
    "make_meld",
    "meld_options",
    "meld_value",
]
