"""Engine test helpers: hypothesis profiles and ``rig``, a deal set up with chosen cards.

Profiles: ``default`` keeps the suite fast; ``HYPOTHESIS_PROFILE=thorough`` runs thousands of
random playouts (2000 per mode, or ``HYPOTHESIS_EXAMPLES``; for CI or a long bench run).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from games.engine.cards import parse_face
from games.engine.deal import DRAW, PLAY, TableMeld, Turn, deck_for
from games.engine.game import GameState, new_game
from games.engine.melds import MeldRules, Wilds, make_meld
from games.engine.variants import HAND_VARIANTS

settings.register_profile(
    "default", max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough",
    max_examples=int(os.environ.get("HYPOTHESIS_EXAMPLES", "2000")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


class Rig:
    """Builds a game whose current deal holds exactly the cards a test names."""

    def __call__(
        self,
        variant: str = "classic",
        players: int = 3,
        hands: tuple[str, ...] = (),
        *,
        current: int = 0,
        phase: str = DRAW,
        discard: str = "",
        indicator: str | None = None,
        melds: tuple[tuple[int, str], ...] = (),
        opened: tuple[bool, ...] = (),
        turns: tuple[int, ...] = (),
        stock: str | None = None,
        options: dict | None = None,
        dealer: int | None = None,
    ) -> GameState:
        game = new_game(variant, players, options, seed=1)
        deal = game.deal
        deck = list(deck_for(variant, players))
        used: set[int] = set()

        def take(text: str):
            result = []
            for token in text.split():
                rank, suit = parse_face(token)
                card = next(c for c in deck if c.rank == rank and c.suit == suit and c.id not in used)
                used.add(card.id)
                result.append(card)
            return result

        deal.indicator = take(indicator)[0] if indicator else None
        deal.hands = [take(hands[s]) if s < len(hands) else [] for s in range(players)]
        deal.discard = take(discard)
        wilds = Wilds(deal.indicator)
        rules = MeldRules.for_variant(HAND_VARIANTS[variant], game.options)
        deal.melds = []
        for number, (owner, text) in enumerate(melds, start=1):
            # "9S 10S JK:JS" — a wild card may say what it stands for.
            cards = take(" ".join(token.split(":")[0] for token in text.split()))
            pins = {
                card.id: token.split(":")[1]
                for card, token in zip(cards, text.split(), strict=True)
                if ":" in token
            }
            deal.melds.append(TableMeld(number, owner, make_meld(cards, wilds, rules, pins or None)))
        deal.next_meld_id = len(melds) + 1
        rest = [c for c in deck if c.id not in used]
        # Hands of unnamed seats come from the unused cards, so every card stays accounted for.
        for seat in range(len(hands), players):
            deal.hands[seat], rest = rest[:14], rest[14:]
        deal.stock = take(stock) if stock is not None else rest
        deal.opened = list(opened) if opened else [False] * players
        deal.turns = list(turns) if turns else [2] * players
        deal.current = current
        if dealer is not None:
            deal.dealer = dealer
        deal.phase = phase
        deal.turn = Turn(
            seat=current,
            number=deal.turns[current],
            drew=None if phase == DRAW else "stock",
            opened_before=deal.opened[current],
        )
        deal.fresh = False
        deal.events = []
        return game


@pytest.fixture
def rig() -> Rig:
    return Rig()


__all__ = ["DRAW", "PLAY", "Rig"]
