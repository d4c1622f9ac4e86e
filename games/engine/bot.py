"""A greedy bot for the Hand family: ``bot_action(state, seat)`` gives its next action, one step at a time.

It demands a redeal when it may; takes the top discard when the solver finds a way that opens (or,
once opened, a new meld or a lay-off with it), else draws; declares a kuwaiti Hand when it has
one; goes out when it can; opens as soon as it reaches the threshold; then lays down melds and lays
off what fits; finally discards its worst card (the highest penalty among the cards that help the
fewest others, never a wild card while it has another choice).
"""

from __future__ import annotations

from .actions import (
    may_announce,
    may_go_out,
    opening_minimum_now,
    provisional_melds,
    rules_of,
    variant_of,
    wilds_of,
)
from .advice import (
    can_apply,
    keep_needed,
    lay_off_targets,
    meld_spec,
    named_hand,
    opening_suggestion,
    take_discard_options,
    trim_melds,
)
from .cards import Card
from .deal import DRAW, PLAY, redeal_holding
from .game import GameState
from .melds import meld_value
from .scoring import penalty_value
from .solver import best_melds, going_out_melds


def worst_card(game: GameState, seat: int) -> Card:
    """The card the bot throws away: the highest penalty among the cards that help the fewest others
    (usefulness counts 4 penalty points per helping card), the lowest id among equals. Public: the
    online-play app uses it for the timeout move."""
    hand = game.deal.hands[seat]
    wilds = wilds_of(game)
    variant = variant_of(game)
    faces = [None if wilds.is_wild(c) else wilds.natural_face(c) for c in hand]
    naturals = [(c.id, face) for c, face in zip(hand, faces, strict=True) if face is not None]

    def useful(card: Card, face) -> int:
        if face is None:
            return 10
        rank, suit = face
        return sum(
            1
            for other_id, (other_rank, other_suit) in naturals
            if other_id != card.id
            and (
                (other_rank == rank and other_suit != suit)
                or (other_suit == suit and 0 < abs(other_rank - rank) <= 2)
            )
        )

    scored = [
        ((-useful(c, face) * 4 + penalty_value(c, variant, wilds), -c.id), c)
        for c, face in zip(hand, faces, strict=True)
    ]
    return max(scored, key=lambda item: item[0])[1]


def bot_action(state: GameState, seat: int) -> dict | None:
    """The bot's next action for ``seat``, or ``None`` when ``seat`` has nothing to do now."""
    game = state
    if game.finished:
        return None
    deal = game.deal
    if game.options.get("redeal") and deal.fresh and redeal_holding(deal.hands[seat]) is not None:
        return {"type": "redeal"}
    if seat != deal.current or deal.phase not in (DRAW, PLAY):
        return None
    if deal.phase == DRAW:
        takes = take_discard_options(game, seat)
        if takes:
            return takes[0]
        return {"type": "draw"}
    return _play(game, seat)


def _play(game: GameState, seat: int) -> dict:
    deal, variant = game.deal, variant_of(game)
    hand = deal.hands[seat]
    wilds, rules = wilds_of(game), rules_of(game)
    opened = deal.opened[seat]
    kuwaiti = variant.opening == "announcement"
    out_ok = may_go_out(game, seat)
    if kuwaiti and not opened and out_ok and named_hand(game, list(hand)) is not None:
        return {"type": "declare_hand"}
    if len(hand) == 1 and out_ok:
        return {"type": "discard", "card": hand[0].id}
    if deal.turn.provisional_exchange:
        planned = _provisional_plan(game, seat)
        if planned is not None:
            return planned
    meld_type = "announce" if kuwaiti and not opened else "meld"
    may_meld = opened or not kuwaiti or may_announce(game)
    if out_ok and may_meld and len(hand) >= 4:
        found = going_out_melds(list(hand), wilds, rules)
        if found is not None:
            melds, _thrown = found
            total = sum(meld_value(m, rules) for m in melds)
            if opened or total >= opening_minimum_now(game):
                action = {"type": meld_type, "melds": [meld_spec(m, wilds) for m in melds]}
                if can_apply(game, seat, action):
                    return action
    if not opened:
        if may_meld:
            melds = opening_suggestion(game, seat)
            if melds:
                action = {"type": meld_type, "melds": [meld_spec(m, wilds) for m in melds]}
                if can_apply(game, seat, action):
                    return action
    else:
        melds = trim_melds(best_melds(list(hand), wilds, rules), len(hand), keep_needed(game, seat), 0, rules)
        if melds:
            action = {"type": "meld", "melds": [meld_spec(m, wilds) for m in melds]}
            if can_apply(game, seat, action):
                return action
        for target in lay_off_targets(game, seat):
            for card_id in target["cards"]:
                if wilds.is_wild(next(c for c in hand if c.id == card_id)) and len(hand) > 2:
                    continue  # keep wild cards for new melds
                action = {"type": "lay_off", "meld": target["meld"], "cards": [card_id]}
                if can_apply(game, seat, action):
                    return action
    return _discard(game, seat)


def _discard(game: GameState, seat: int) -> dict:
    hand = game.deal.hands[seat]
    first = worst_card(game, seat)
    for card in [first, *sorted(hand, key=lambda c: c.id)]:
        action = {"type": "discard", "card": card.id}
        if can_apply(game, seat, action):
            return action
    return {"type": "discard", "card": first.id}  # refused: apply will say why


def _provisional_plan(game: GameState, seat: int) -> dict | None:
    """After a single-card exchange from a set of three: meld down to one card (go out) or two."""
    if len(game.deal.hands[seat]) <= 2:
        return None
    melds = provisional_melds(game, seat)
    if melds is None:
        return None
    wilds = wilds_of(game)
    return {"type": "meld", "melds": [meld_spec(m, wilds) for m in melds]}
