"""The advice for a Hand-family deal: which moves a seat has now (:func:`legal_actions`, for buttons
and the bot) and the melds, lay-offs, exchanges and ways to take the discard the solver finds for it.

Nothing here decides what is allowed: every offer is checked by :func:`.actions.perform` (on a copy)
before it is made, so an offer is always a move the rules accept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import (
    may_announce,
    may_go_out,
    opening_minimum_now,
    perform,
    rules_of,
    variant_of,
    wilds_of,
)
from .cards import ACE, Card
from .deal import DRAW, PLAY, redeal_holding
from .errors import DomainError, MeldError
from .melds import MeldRules, Wilds, lay_off, meld_value
from .meldspec import MeldSpec
from .solver import best_melds, can_meld_all, going_out_melds, kuwaiti_hand

if TYPE_CHECKING:  # pragma: no cover
    from .game import GameState
    from .melds import Meld


def meld_spec(meld: Meld, wilds: Wilds) -> dict:
    """An action's MELD for a solver meld, pinning what each wild stands for (where it says). Public;
    the format is :mod:`.meldspec`'s."""
    return MeldSpec.from_meld(meld, wilds).to_json()


def keep_needed(game: GameState, seat: int) -> int:
    return 1 if may_go_out(game, seat) else 2


def trim_melds(melds: list[Meld], hand_size: int, keep: int, minimum: int, rules: MeldRules) -> list[Meld]:
    """Drop the least valuable melds until ``keep`` cards stay in hand, keeping the total >= ``minimum``."""
    melds = sorted(melds, key=lambda meld: meld_value(meld, rules), reverse=True)
    while melds and hand_size - sum(len(m.cards) for m in melds) < keep:
        melds.pop()
    if sum(meld_value(m, rules) for m in melds) < minimum:
        return []
    return melds


def opening_suggestion(game: GameState, seat: int, cards: list[Card] | None = None) -> list[Meld]:
    """Melds (from the solver) with which ``seat`` can open now, or ``[]``."""
    deal = game.deal
    hand = list(deal.hands[seat]) if cards is None else cards
    minimum = opening_minimum_now(game)
    melds = best_melds(hand, wilds_of(game), rules_of(game), minimum_total=minimum)
    return trim_melds(melds, len(hand), keep_needed(game, seat), minimum, rules_of(game))


def lonely_cards(cards: list[Card], wilds: Wilds) -> int:
    """How many natural cards can be in no meld at all (a cheap bound used before the solver).

    Without wild cards a card needs a complete meld around it (three suits of its rank, or three
    in a row in its suit); with wild cards it needs at least a partner (another suit of its rank,
    or a card within two ranks in its suit).
    """
    wild = sum(1 for c in cards if wilds.is_wild(c))
    faces = [wilds.natural_face(c) for c in cards if not wilds.is_wild(c)]
    suits_of: dict[int, set[str]] = {}
    ranks_in: dict[str, set[int]] = {}
    for rank, suit in faces:
        suits_of.setdefault(rank, set()).add(suit)
        positions = ranks_in.setdefault(suit, set())
        positions.add(rank)
        if rank == ACE:
            positions.add(14)
    need = 2 if wild else 3
    lonely = 0
    for rank, suit in set(faces):
        if len(suits_of[rank]) >= need:
            continue
        present = ranks_in[suit]
        own = (rank, 14) if rank == ACE else (rank,)
        if wild:
            fits = any(0 < abs(p - r) <= 2 for r in own for p in present)
        else:
            fits = any(
                all(q in present for q in range(low, low + 3)) for r in own for low in (r - 2, r - 1, r)
            )
        if not fits:
            lonely += sum(1 for face in faces if face == (rank, suit))
    return lonely


def named_hand(game: GameState, cards: list[Card]):
    """``solver.kuwaiti_hand`` for these 15 cards, skipping the search when two cards can never meld."""
    wilds, rules = wilds_of(game), rules_of(game)
    if len(cards) != 15 or lonely_cards(cards, wilds) > 1:
        return None
    # Every named hand melds all but one card, or all but two wild cards: check that first (cheaper).
    if going_out_melds(cards, wilds, rules) is None:
        wild = [c for c in cards if wilds.is_wild(c)]
        if len(wild) < 2 or not can_meld_all([c for c in cards if c not in wild[:2]], wilds, rules):
            return None
    return kuwaiti_hand(cards, wilds, rules)


def take_discard_options(game: GameState, seat: int) -> list[dict]:
    """Concrete ways (found by the solver; not every way) to take the top discard now."""
    deal, variant = game.deal, variant_of(game)
    if not deal.discard:
        return []
    top = deal.discard[-1]
    hand = deal.hands[seat]
    cards = [*hand, top]
    wilds, rules = wilds_of(game), rules_of(game)
    opened = deal.opened[seat]
    candidates: list[dict] = []
    if variant.discard_take == "kuwaiti" and not opened:
        if may_go_out(game, seat) and named_hand(game, cards) is not None:
            candidates.append({"type": "take_discard", "declare_hand": True})
        if not may_announce(game):
            return [c for c in candidates if can_apply(game, seat, c)]
    if opened:
        melds = [m for m in best_melds(cards, wilds, rules) if any(c.id == top.id for c in m.cards)]
        melds = trim_melds(melds, len(cards), keep_needed(game, seat), 0, rules)
    else:
        melds = opening_suggestion(game, seat, cards)
        if not any(c.id == top.id for m in melds for c in m.cards):
            melds = []
    if melds:
        candidates.append({"type": "take_discard", "melds": [meld_spec(m, wilds) for m in melds]})
    if opened and variant.discard_take != "new_meld" and len(hand) >= keep_needed(game, seat):
        for table_meld in deal.melds:
            if variant.layoff == "own" and table_meld.owner != seat:
                continue
            if not might_fit(table_meld.meld, top, wilds):
                continue
            try:
                lay_off(table_meld.meld, [top], wilds, rules)
            except MeldError:
                continue
            candidates.append({"type": "take_discard", "lay_off": {"meld": table_meld.id, "cards": [top.id]}})
            break
    return [c for c in candidates if can_apply(game, seat, c)]


def can_apply(game: GameState, seat: int, action: dict) -> bool:
    """Whether ``action`` would be accepted (tried on a copy)."""
    try:
        perform(game.copy(), seat, action)
    except DomainError:
        return False
    return True


def might_fit(meld: Meld, card: Card, wilds: Wilds) -> bool:
    """A cheap test before ``lay_off``: False when ``card`` surely cannot be laid off onto ``meld``."""
    if wilds.is_wild(card):
        return True
    rank, suit = wilds.natural_face(card)
    if meld.kind == "set":
        return rank == meld.rank and len(meld.cards) < 4
    if suit != meld.suit:
        return False
    positions = meld.positions()
    ends = {positions[0] - 1, positions[-1] + 1}
    return rank in ends or (rank == ACE and 14 in ends)


def lay_off_targets(game: GameState, seat: int) -> list[dict]:
    """``[{"meld": id, "cards": [ids that fit one by one]}]`` for the melds ``seat`` may lay off onto."""
    deal, variant = game.deal, variant_of(game)
    hand = deal.hands[seat]
    if not deal.opened[seat] or len(hand) <= keep_needed(game, seat):
        return []
    wilds, rules = wilds_of(game), rules_of(game)
    targets = []
    for table_meld in deal.melds:
        if variant.layoff == "own" and table_meld.owner != seat:
            continue
        fits = []
        for card in hand:
            if not might_fit(table_meld.meld, card, wilds):
                continue
            try:
                lay_off(table_meld.meld, [card], wilds, rules)
            except MeldError:
                continue
            fits.append(card.id)
        if fits:
            targets.append({"meld": table_meld.id, "cards": fits})
    return targets


def exchange_options(game: GameState, seat: int) -> list[dict]:
    """Concrete wild exchanges ``seat`` can make now."""
    deal, variant = game.deal, variant_of(game)
    if variant.exchange_needs_opening and not deal.opened[seat]:
        return []
    wilds = wilds_of(game)
    hand = deal.hands[seat]
    options = []
    for table_meld in deal.melds:
        meld = table_meld.meld
        for card, face in zip(meld.cards, meld.plays_as, strict=True):
            if not wilds.is_wild(card):
                continue
            if face[1]:
                naturals = [c for c in hand if not wilds.is_wild(c) and wilds.natural_face(c) == face]
                choices = [[c.id] for c in naturals[:1]]
            else:  # a 3-card set: both missing suits (or one, under the jordanian exceptions)
                suits = {s for _r, s in meld.plays_as if s}
                missing = [
                    c
                    for c in hand
                    if not wilds.is_wild(c)
                    and wilds.natural_face(c)[0] == face[0]
                    and wilds.natural_face(c)[1] not in suits
                ]
                by_suit = {wilds.natural_face(c)[1]: c for c in missing}
                choices = [[c.id for c in by_suit.values()]] if len(by_suit) == 2 else []
                choices += [[c.id] for c in by_suit.values()]
            for ids in choices:
                action = {"type": "exchange", "meld": table_meld.id, "cards": ids}
                if can_apply(game, seat, action):
                    options.append(action)
                    break
    return options


def legal_actions(game: GameState, seat: int | None) -> list[dict]:
    """What ``seat`` may do now.

    Concrete actions for ``draw``, ``take_discard`` (solver-found ways; others may be legal too),
    ``discard`` (one per card), ``declare_hand``, ``redeal``, and ``meld`` / ``announce`` (a
    suggested set of melds in ``"melds"``, with ``"minimum"`` before opening). ``lay_off`` lists
    ``"targets"`` (meld ids with the cards that fit) and ``exchange`` the concrete exchanges in
    ``"options"``. Empty when it is not ``seat``'s move (except a redeal demand).
    """
    if game.finished or seat is None or not (isinstance(seat, int) and 0 <= seat < game.players):
        return []
    deal, variant = game.deal, variant_of(game)
    moves: list[dict] = []
    if game.options.get("redeal") and deal.fresh and redeal_holding(deal.hands[seat]) is not None:
        moves.append({"type": "redeal"})
    if seat != deal.current or deal.phase not in (DRAW, PLAY):
        return moves
    if deal.phase == DRAW:
        moves.append({"type": "draw"})
        return moves + take_discard_options(game, seat)
    wilds, rules = wilds_of(game), rules_of(game)
    hand = deal.hands[seat]
    opened = deal.opened[seat]
    if variant.opening == "announcement" and not opened:
        if may_go_out(game, seat) and named_hand(game, list(hand)) is not None:
            moves.append({"type": "declare_hand"})
        if may_announce(game):
            melds = opening_suggestion(game, seat)
            if melds:
                moves.append(
                    {
                        "type": "announce",
                        "minimum": opening_minimum_now(game),
                        "melds": [meld_spec(m, wilds) for m in melds],
                    }
                )
    elif not opened:
        melds = opening_suggestion(game, seat)
        if melds:
            moves.append(
                {
                    "type": "meld",
                    "minimum": opening_minimum_now(game),
                    "melds": [meld_spec(m, wilds) for m in melds],
                }
            )
    else:
        melds = trim_melds(best_melds(hand, wilds, rules), len(hand), keep_needed(game, seat), 0, rules)
        if melds:
            moves.append({"type": "meld", "melds": [meld_spec(m, wilds) for m in melds]})
    targets = lay_off_targets(game, seat)
    if targets:
        moves.append({"type": "lay_off", "targets": targets})
    exchanges = exchange_options(game, seat)
    if exchanges:
        moves.append({"type": "exchange", "options": exchanges})
    if deal.turn.provisional_exchange:
        moves = [m for m in moves if m["type"] not in ("meld", "lay_off") or _provisional_ok(game, seat, m)]
    for card in hand:
        action = {"type": "discard", "card": card.id}
        if (len(hand) > 2 and not deal.turn.provisional_exchange) or can_apply(game, seat, action):
            moves.append(action)
    return moves


def _provisional_ok(game: GameState, seat: int, move: dict) -> bool:
    """Under a provisional exchange, keep only the meld / lay-off entries that stay possible."""
    if move["type"] == "meld":
        return can_apply(game, seat, {"type": "meld", "melds": move["melds"]})
    targets = []
    for target in move["targets"]:
        fits = [
            c
            for c in target["cards"]
            if can_apply(game, seat, {"type": "lay_off", "meld": target["meld"], "cards": [c]})
        ]
        if fits:
            targets.append({"meld": target["meld"], "cards": fits})
    move["targets"] = targets
    return bool(targets)
