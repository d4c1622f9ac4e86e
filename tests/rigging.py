"""Rigged deals for tests: hand out chosen cards of a rule set's deck, each physical card once."""

from games.engine import deck_for


class Deck:
    """The unshuffled deck of ``variant`` for ``players``; ``pick("AS 2S JK")`` hands out cards by face
    (a face held twice comes from both decks), ``rest()`` is what was not picked, in deck order."""

    def __init__(self, variant: str, players: int = 2):
        self.cards = list(deck_for(variant, players))
        self.taken: set[int] = set()

    def pick(self, faces: str) -> list:
        cards = []
        for face in faces.split():
            card = next(c for c in self.cards if c.face == face and c.id not in self.taken)
            self.taken.add(card.id)
            cards.append(card)
        return cards

    def rest(self) -> list:
        return [c for c in self.cards if c.id not in self.taken]
