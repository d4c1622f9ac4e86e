"""``foot_rig``: a Hand and Foot game whose current deal holds exactly the cards a test names."""

from __future__ import annotations

from games.engine import new_game
from games.engine.cards import parse_face
from games.engine.deal import DRAW, deck_for
from games.engine.handfoot_deal import FootGame, FootMeld, FootTurn, meld_rank
from games.engine.variants import opening_minimum

SOLO, TEAMS = "hand-and-foot", "hand-and-foot-teams"


def foot_rig(
    variant: str = SOLO,
    players: int = 2,
    hands: tuple[str, ...] = (),
    feet: tuple[str | None, ...] = (),
    *,
    current: int = 0,
    phase: str = DRAW,
    discard: str = "",
    stock: str | None = None,
    melds: tuple[tuple[int, str], ...] = (),
    opened: tuple[bool, ...] = (),
    options: dict | None = None,
    deal_number: int = 0,
) -> FootGame:
    """``hands[s]`` / ``feet[s]`` are notation; a foot given as ``None`` has been picked up (the hand is
    then the foot). ``melds`` are ``(side, "7S 7H 7D")``. ``stock=None`` keeps the rest of the deck as
    the draw pile; otherwise the named cards (the top is the last) and the rest goes nowhere, so
    the every-card-once check is for real deals only."""
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

    deal.hands = [take(hands[s]) if s < len(hands) else [] for s in range(players)]
    deal.feet = []
    deal.picked_up = []
    for s in range(players):
        foot = feet[s] if s < len(feet) else ""
        deal.picked_up.append(foot is None)
        deal.feet.append([] if foot is None else take(foot))
    deal.discard = take(discard)
    deal.melds = []
    for number, (side, text) in enumerate(melds, start=1):
        cards = tuple(take(text))
        deal.melds.append(FootMeld(number, side, meld_rank(cards), cards))
    deal.next_meld_id = len(melds) + 1
    sides = len(deal.opened)
    deal.opened = [bool(opened[s]) if s < len(opened) else False for s in range(sides)]
    deal.stock = take(stock) if stock is not None else [c for c in deck if c.id not in used]
    deal.current = current
    deal.phase = phase
    deal.turns = [1] * players
    deal.turn = FootTurn(seat=current, number=1, drew="stock" if phase != DRAW else None)
    deal.number = deal_number
    deal.minimum = opening_minimum(game.rules, deal_number)
    deal.events = []
    return game


def ids(game: FootGame, seat: int, text: str) -> list[int]:
    """Ids of the named cards in ``seat``'s hand (each physical card once)."""
    found, used = [], set()
    for token in text.split():
        card = next(c for c in game.deal.hands[seat] if c.face == token and c.id not in used)
        used.add(card.id)
        found.append(card.id)
    return found
