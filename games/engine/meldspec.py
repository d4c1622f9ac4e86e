"""The one codec of a meld spec (the cards of a meld a player names, with what each wild card stands
for) and of a wild card's choice. Every layer uses it: the engine's actions, games/moves.py, the move
form, the templates (through the view), the staged melds and the move log.

- In an action, a staged meld or a logged move a meld spec is JSON:
  ``{"cards": [ids], "wild_as": {"<wild card id>": "7S"}}`` (``wild_as`` left out when empty).
- A wild card's choice in a form (a button's value) is ``"<wild card id>:<face>"``: ``"12:7S"``.
- Read, never written (stored move logs hold them, and must replay): a meld spec as a bare list of ids,
  and ``wild_as`` keys that are numbers (``{12: "7S"}``).

A face is rank + suit in notation (``7S``, ``10H``, ``QD``), or a rank alone (``5``) for a wild card in
a set. No Django import.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .errors import IllegalAction, _

FACE = re.compile(r"^(?:10|[2-9AJQK])[SHDC]?$")
"""What a wild card may stand for, in notation."""

MAX_WILD_CHOICES = 8
"""More wild cards than any meld holds."""


def _bad_wild() -> IllegalAction:
    return IllegalAction(_("Say which card each wild card stands for, like JS."))


@dataclass(frozen=True)
class MeldSpec:
    """A meld as the player names it: its cards (in the given order) and the pinned wild cards."""

    cards: tuple[int, ...]
    wild_as: tuple[tuple[int, str], ...] = ()  # (wild card id, face), by id

    def __post_init__(self):
        object.__setattr__(self, "wild_as", tuple(sorted(dict(self.wild_as).items())))

    @property
    def pins(self) -> dict[int, str]:
        """``{wild card id: face}`` as :func:`games.engine.melds.make_meld` reads it."""
        return dict(self.wild_as)

    def to_json(self) -> dict:
        data: dict = {"cards": list(self.cards)}
        if self.wild_as:
            data["wild_as"] = {str(card_id): face for card_id, face in self.wild_as}
        return data

    @classmethod
    def from_json(cls, value: object) -> MeldSpec:
        """Read a meld spec (or a bare list of ids, which stored move logs may hold). Raises IllegalAction
        with a sentence."""
        if isinstance(value, Mapping):
            pins = read_wild_as(value.get("wild_as"))
            return cls(cards=tuple(read_ids(value.get("cards"))), wild_as=tuple(pins.items()))
        return cls(cards=tuple(read_ids(value)))

    @classmethod
    def of(
        cls, cards: Iterable[int], wild_as: Mapping[int, str] | Iterable[tuple[int, str]] = ()
    ) -> MeldSpec:
        """A spec from ids and pins (only the pins of its own cards are kept)."""
        ids = tuple(cards)
        pairs = wild_as.items() if isinstance(wild_as, Mapping) else wild_as
        return cls(cards=ids, wild_as=tuple((int(i), face) for i, face in pairs if int(i) in ids))

    @classmethod
    def from_meld(cls, meld, wilds) -> MeldSpec:
        """The spec of a read meld (a solver's or the engine's), pinning each wild card that stands for
        a card (a wild card in a set stands for a rank only: nothing to pin)."""
        from .melds import face_text

        pins = [
            (card.id, face_text(face))
            for card, face in zip(meld.cards, meld.plays_as, strict=True)
            if wilds.is_wild(card) and face[1]
        ]
        return cls(cards=tuple(card.id for card in meld.cards), wild_as=tuple(pins))


def read_ids(value: object) -> list[int]:
    """A list of card ids (whole numbers, not booleans)."""
    if not isinstance(value, list | tuple) or not all(
        isinstance(item, int) and not isinstance(item, bool) for item in value
    ):
        raise IllegalAction(_("Choose the cards by tapping them."))
    return list(value)


def read_wild_as(value: object) -> dict[int, str]:
    """``wild_as`` of a spec: ``{"<id>": face}`` (stored logs may hold ``{<id>: face}``) -> ``{id: face}``."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise _bad_wild()
    result = {}
    for key, face in value.items():
        if isinstance(key, bool) or not isinstance(face, str):
            raise _bad_wild()
        try:
            card_id = int(key)
        except (TypeError, ValueError):
            raise _bad_wild() from None
        result[card_id] = face
    return result


def choice_text(card_id: int, face: str) -> str:
    """A wild card's choice as a form value: ``"12:7S"``."""
    return f"{card_id}:{face}"


def parse_choice(text: object, *, max_digits: int = 4) -> tuple[int, str] | None:
    """``"12:7S"`` -> ``(12, "7S")``; None when it is not a choice (bounded: ``max_digits``)."""
    card_id, _sep, face = str(text).partition(":")
    if not (0 < len(card_id) <= max_digits and card_id.isascii() and card_id.isdigit() and FACE.match(face)):
        return None
    return int(card_id), face


__all__ = [
    "FACE",
    "MAX_WILD_CHOICES",
    "MeldSpec",
    "choice_text",
    "parse_choice",
    "read_ids",
    "read_wild_as",
]
