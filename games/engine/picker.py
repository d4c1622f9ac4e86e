"""Card-picker arithmetic for table score sheets: which cards a rule set's decks hold, what a picked
hand is worth, and the value of an opening laid down at the table.

A score sheet lets a player tap the cards still in their hand instead of adding them up. These
functions read card notation (``"KS 7H JK"``), check that the decks hold that many of each card
(with two decks a card can be held twice), and count with the rule set's own values — the same
``penalty_value`` / ``handfoot_held_cost`` the deal scoring uses (each family's ``table_*``
functions, found by :func:`.family.family_of`), so the picker and the score never
disagree. Pure Python, no Django.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import JOKER, SUITS, Card, parse_cards
from .errors import DomainError, InvalidCards, _
from .family import family_of
from .scoring import InvalidFacts
from .variants import face_limits, resolve_variant

PICKER_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""The rank buttons of the picker, in the order players sort their hands."""


@dataclass(frozen=True)
class PickerFace:
    """One button of the picker: a card face and how many of it the game's decks hold."""

    face: str
    rank: str
    suit: str
    most: int


def picker_faces(variant, players: int) -> tuple[PickerFace, ...]:
    """Every face the picker offers (suit by suit, then the joker), with its count limit."""
    limits = face_limits(variant, players)
    faces = [
        PickerFace(rank + suit, rank, suit, limits[rank + suit]) for suit in SUITS for rank in PICKER_RANKS
    ]
    faces.append(PickerFace("JK", "JK", "", limits["JK"]))
    return tuple(faces)


def read_cards(text: str | Sequence[str], variant=None, players: int | None = None) -> tuple[Card, ...]:
    """Cards from notation (``"KS 7H JK"`` or ``["KS", "7H", "JK"]``); refuses what is not a card
    and, given the rule set and player count, more of a face than the decks hold."""
    if not isinstance(text, str):
        text = " ".join(text)
    cards = tuple(parse_cards(text.replace(",", " ")))
    if variant is not None and players is not None:
        limits = face_limits(variant, players)
        for face, count in Counter(card.face for card in cards).items():
            if count > limits[face]:
                raise InvalidFacts(
                    _("The cards of this game hold {most} × {face}, not {count}."),
                    most=limits[face],
                    face=face,
                    count=count,
                )
    return cards


@dataclass(frozen=True)
class PickedValue:
    """What picked cards are worth: the total and each card's own value (for the picker's chips)."""

    cards: tuple[Card, ...]
    values: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.values)


def held_value(variant, players: int, text, indicator: str | None = None) -> PickedValue:
    """What cards left in hand cost with this rule set's values.

    Hand family: ``penalty_value`` (wild card 15, kuwaiti 20; jordanian/egyptian: the indicator
    decides whether jokers or the indicator suit's aces are wild — without an indicator a joker or
    an ace cannot be valued, so it is refused with the engine's sentence). Hand and Foot:
    ``handfoot_held_cost`` (red 3 500, black 3 50 or 0).
    """
    variant = resolve_variant(variant)
    cards = read_cards(text, variant, players)
    costs = family_of(variant.slug).held_costs(variant, cards, read_indicator(variant, indicator))
    return PickedValue(cards, costs)


def melded_value(variant, players: int, text) -> PickedValue:
    """Hand and Foot: the card points of melded cards (a 3 is refused: it is never melded)."""
    variant = resolve_variant(variant)
    cards = read_cards(text, variant, players)
    return PickedValue(cards, family_of(variant.slug).melded_points(variant, cards))


def read_indicator(variant, text: str | None) -> Card | None:
    """The jordanian/egyptian wild-card indicator from notation; ``None`` when not given or when the
    rule set has none. A joker is never the indicator."""
    variant = resolve_variant(variant)
    if not text or not str(text).strip() or not variant.indicator:
        return None
    try:
        (card,) = parse_cards(str(text).strip()) or (None,)
    except DomainError as error:
        raise error.about(fact="indicator") from None
    if card is None:
        return None
    if card.rank == JOKER:
        raise InvalidFacts(
            _("A joker is never the wild-card indicator; the next card is turned instead.")
        ).about(fact="indicator")
    return card


@dataclass(frozen=True)
class OpeningCheck:
    """An opening counted at the table: each meld's value, the total, the minimum and the verdict."""

    values: tuple[int, ...]
    total: int
    minimum: int

    @property
    def enough(self) -> bool:
        return self.total >= self.minimum


def opening_check(
    variant,
    options: dict | None,
    melds: Sequence[str],
    *,
    indicator: str | None = None,
    wild_as: Sequence[str | None] = (),
    last_opening: int | None = None,
    deal_index: int = 0,
) -> OpeningCheck:
    """Count an opening the way the rule set does and compare it with the minimum now.

    ``melds`` is one notation string per meld; ``wild_as`` optionally names, per meld, the card its
    wild card stands for where that is ambiguous (``"JS"``). Hand family: 51, saudi: the most recent
    opening of the deal + 1 (``last_opening``) when that is higher; jordanian/egyptian values with the
    ``indicator``. Hand and Foot: the opening minimum of deal ``deal_index`` (0-based). Raises
    :class:`~games.engine.errors.MeldError` (or ``InvalidCards``) for cards that are not a meld.
    """
    variant = resolve_variant(variant)
    options = options or {}
    groups = [parse_cards(text.replace(",", " ")) for text in melds if text and text.strip()]
    if not groups:
        raise InvalidCards(_("Give the cards of at least one meld."))
    values, minimum = family_of(variant.slug).opening(
        variant, options, groups, read_indicator(variant, indicator), wild_as, last_opening, deal_index
    )
    return OpeningCheck(values, sum(values), minimum)


__all__ = [
    "PICKER_RANKS",
    "OpeningCheck",
    "PickedValue",
    "PickerFace",
    "face_limits",
    "held_value",
    "melded_value",
    "opening_check",
    "picker_faces",
    "read_cards",
    "read_indicator",
]
