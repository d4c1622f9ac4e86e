"""The rules of a Hand-family deal's moves: what each action checks and what it does (the advice, which
moves to offer, is :mod:`.advice`).

An action is a small JSON-able dict with a ``"type"``:

========================  ======================================================================
``{"type": "draw"}``      draw the top card of the stock
``take_discard``          take the top discard *and* put it on the table in the same move:
                          ``{"type": "take_discard", "melds": [MELD, ...], "lay_off": LAYOFF}``
                          (either or both), or ``{"type": "take_discard", "declare_hand": true}``
                          (kuwaiti)
``meld``                  ``{"type": "meld", "melds": [MELD, ...]}`` — new melds; before opening,
                          all opening melds in this one move
``announce``              kuwaiti: ``{"type": "announce", "melds": [MELD, ...]}`` (the opening)
``lay_off``               ``{"type": "lay_off", "meld": 3, "cards": [ids], "wild_as": {...}}``
``exchange``              ``{"type": "exchange", "meld": 3, "cards": [ids of natural cards]}``
``discard``               ``{"type": "discard", "card": 17}`` — ends the turn; the last card goes out
``declare_hand``          kuwaiti: ``{"type": "declare_hand"}`` — the best named Hand, ends the deal
``redeal``                jordanian/egyptian: ``{"type": "redeal"}`` — before anybody has played
========================  ======================================================================

``MELD`` is ``{"cards": [ids], "wild_as": {"<wild id>": "JS"}}`` (one codec: :mod:`.meldspec`, which
also reads a bare list of ids, as stored move logs may hold); ``LAYOFF`` is ``{"meld": meld_id,
"cards": [ids], "wild_as": {...}}``.

Each handler verifies as it goes and raises a :class:`DomainError` with a sentence for the player;
``game.apply`` runs it on a copy of the state, so a refused action changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .cards import ACE, JOKER, SUITS, Card, shuffled
from .deal import (
    DEAL_OVER,
    DRAW,
    PLAY,
    Event,
    TableMeld,
    Turn,
    card_json,
    derive_seed,
    redeal_holding,
)
from .errors import IllegalAction, InvalidCards, MeldError, _
from .melds import AmbiguousWild, MeldRules, Wilds, exchange_wild, lay_off, make_meld, meld_value
from .meldspec import MeldSpec, read_ids, read_wild_as
from .variants import HAND_VARIANTS, HandVariant

if TYPE_CHECKING:  # pragma: no cover
    from .game import GameState
    from .melds import Meld

MAX_RESHUFFLES = 10
"""Option ``reshuffle_discards``: how often the stock may be rebuilt from the discard pile in one deal."""

ACTION_TYPES = (
    "draw",
    "take_discard",
    "meld",
    "announce",
    "lay_off",
    "exchange",
    "discard",
    "declare_hand",
    "redeal",
)


# --- Context helpers ---------------------------------------------------------------------------


def variant_of(game: GameState) -> HandVariant:
    """The rule set the game is played by."""
    return HAND_VARIANTS[game.variant]


def wilds_of(game: GameState) -> Wilds:
    """Which cards are wild in the current deal (from its indicator, if any). Public."""
    return Wilds(game.deal.indicator)


def rules_of(game: GameState) -> MeldRules:
    """The meld rules of the game (wild cards per meld, an ace's value in a low run). Public."""
    return MeldRules.for_variant(variant_of(game), game.options)


def opening_minimum_now(game: GameState) -> int:
    """What an opening (kuwaiti: announcement) must total now: 51, or saudi's last opening + 1."""
    variant = variant_of(game)
    last = game.deal.last_opening
    if variant.opening == "escalating" and last is not None:
        return last + 1
    return variant.opening_minimum


def may_go_out(game: GameState, seat: int) -> bool:
    """Option ``no_out_first_turn``: nobody goes out (or declares a Hand) in their own first turn."""
    if not game.options.get("no_out_first_turn", False):
        return True
    return game.deal.turns[seat] >= 2


def may_announce(game: GameState) -> bool:
    """kuwaiti: every player has had at least 8 turns in this deal (the current turn counts)."""
    return min(game.deal.turns) >= variant_of(game).announcement_min_turns


def _check_seat(game: GameState, seat: object) -> int:
    if game.finished:
        raise IllegalAction(_("The game is over."))
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise IllegalAction(_("There is no such seat at this table."))
    return seat


def turn_seat(game: GameState, seat: object) -> int:
    """``seat``, when it is that seat's move in a deal in progress; an :class:`IllegalAction` saying why
    not otherwise. Shared by both families (a Hand ``GameState`` or a Hand and Foot ``FootGame``)."""
    seat = _check_seat(game, seat)
    deal = game.deal
    if deal.phase not in (DRAW, PLAY):
        raise IllegalAction(_("This deal is over."))
    if seat != deal.current:
        raise IllegalAction(_("It is not your turn."))
    return seat


def _my_turn(game: GameState, seat: object, phase: str) -> int:
    seat = turn_seat(game, seat)
    deal = game.deal
    if phase == DRAW and deal.phase == PLAY:
        if deal.turn.drew == "dealt":
            raise IllegalAction(_("You were dealt 15 cards, so you do not draw in your first turn."))
        raise IllegalAction(_("You have already drawn this turn."))
    if phase == PLAY and deal.phase == DRAW:
        raise IllegalAction(_("Draw a card first."))
    return seat


int_list = read_ids
"""Card ids as sent (a list of whole numbers); an :class:`IllegalAction` for anything else."""


def cards_in_hand(hand: list[Card], ids: list[int]) -> list[Card]:
    """The cards of ``hand`` with these ids, in the given order (never naming a card not held)."""
    if len(set(ids)) != len(ids):
        raise InvalidCards(_("You chose the same card twice."))
    by_id = {card.id: card for card in hand}
    try:
        return [by_id[card_id] for card_id in ids]
    except KeyError:
        raise InvalidCards(_("You do not hold one of those cards.")) from None


def _check_keep(game: GameState, seat: int, remaining: int) -> None:
    """A player can never meld their last card; in a turn where they may not go out, not the last two."""
    if remaining < 1:
        raise IllegalAction(_("You must keep one card to discard."))
    if remaining < 2 and not may_go_out(game, seat):
        raise IllegalAction(_("You may not go out in your first turn, so keep at least two cards."))


def meld_json(table_meld: TableMeld) -> dict:
    """A table meld as JSON: id, owner, kind, cards (id + face) and what each card plays as."""
    meld = table_meld.meld
    return {
        "id": table_meld.id,
        "owner": table_meld.owner,
        "kind": meld.kind,
        "cards": [card_json(card) for card in meld.cards],
        "plays_as": [[rank, suit] for rank, suit in meld.plays_as],
    }


def _add_meld(game: GameState, seat: int, meld: Meld) -> TableMeld:
    deal = game.deal
    table_meld = TableMeld(deal.next_meld_id, seat, meld)
    deal.next_meld_id += 1
    deal.melds.append(table_meld)
    return table_meld


def _replace_meld(
    game: GameState, seat: int, table_meld: TableMeld, meld: Meld, cards: list[Card]
) -> TableMeld:
    """The end of a lay-off or an exchange: ``meld`` takes ``table_meld``'s place (same id and owner),
    ``cards`` move from ``seat``'s hand to the table, and touching another player's meld is noted
    (it rules out going out "Hand")."""
    deal = game.deal
    new = TableMeld(table_meld.id, table_meld.owner, meld)
    deal.melds[deal.melds.index(table_meld)] = new
    _remove_from_hand(deal.hands[seat], cards)
    deal.turn.played.extend(card.id for card in cards)
    if table_meld.owner != seat:
        deal.turn.touched_others = True
    return new


def _remove_from_hand(hand: list[Card], cards: list[Card]) -> None:
    gone = {card.id for card in cards}
    hand[:] = [card for card in hand if card.id not in gone]


# --- Building melds ----------------------------------------------------------------------------


def _build_meld(
    game: GameState, cards: list[Card], wild_as: dict[int, str], natural_ace: Card | None
) -> Meld:
    """Read cards as a meld; ``natural_ace`` is a wild card taken from the discard pile (jordanian,
    egyptian), which may only play as a natural ace (a wild ace as itself, a joker as any ace)."""
    wilds, rules = wilds_of(game), rules_of(game)
    if natural_ace is None or not wilds.is_wild(natural_ace):
        return make_meld(cards, wilds, rules, wild_as or None)
    if natural_ace.rank == ACE:
        tries = [{**wild_as, natural_ace.id: natural_ace.face}]
    elif natural_ace.id in wild_as:
        tries = [wild_as]
    else:
        tries = [{**wild_as, natural_ace.id: "A" + suit} for suit in SUITS]
    for pins in tries:
        try:
            meld = make_meld(cards, wilds, rules, pins)
        except MeldError:
            continue
        face = dict(zip((c.id for c in meld.cards), meld.plays_as, strict=True))[natural_ace.id]
        if face[0] == ACE and (natural_ace.rank == JOKER or face[1] in ("", natural_ace.suit)):
            return meld
    natural_only = MeldError(_("A wild card taken from the discard pile counts only as a natural ace."))
    try:
        make_meld(cards, wilds, rules, wild_as or None)
    except AmbiguousWild:
        raise natural_only from None
    # Either the cards form no meld at all (that reason is raised) or only with the wild card
    # standing for something else than an ace.
    raise natural_only


def _lay_down(game: GameState, seat: int, specs: object, *, natural_ace: Card | None = None) -> list[Event]:
    """New melds from hand; when the player has not opened, they are the opening (all of it)."""
    deal, variant = game.deal, variant_of(game)
    if not isinstance(specs, list) or not specs:
        raise IllegalAction(_("Choose the cards of at least one meld."))
    hand = deal.hands[seat]
    parsed = [(list(spec.cards), spec.pins) for spec in map(MeldSpec.from_json, specs)]
    all_ids = [card_id for ids, _wild in parsed for card_id in ids]
    cards = cards_in_hand(hand, all_ids)
    by_id = {card.id: card for card in cards}
    melds = [
        _build_meld(
            game,
            [by_id[i] for i in ids],
            wild_as,
            natural_ace if natural_ace is not None and natural_ace.id in ids else None,
        )
        for ids, wild_as in parsed
    ]
    rules = rules_of(game)
    events: list[Event] = []
    opening = not deal.opened[seat]
    if opening:
        announcement = variant.opening == "announcement"
        if announcement and not may_announce(game):
            raise IllegalAction(
                _("You may announce only after every player has had {turns} turns in this deal."),
                turns=variant.announcement_min_turns,
            )
        total = sum(meld_value(meld, rules) for meld in melds)
        minimum = opening_minimum_now(game)
        if total < minimum:
            if announcement:
                raise IllegalAction(
                    _("Your announcement totals {total}; you need {minimum}."), total=total, minimum=minimum
                )
            raise IllegalAction(
                _("Your opening melds total {total}; you need {minimum}."), total=total, minimum=minimum
            )
    _check_keep(game, seat, len(hand) - len(cards))
    _remove_from_hand(hand, cards)
    for meld in melds:
        table_meld = _add_meld(game, seat, meld)
        deal.turn.played.extend(card.id for card in meld.cards)
        events.append(
            {
                "type": "melded",
                "seat": seat,
                "meld": meld_json(table_meld),
                "value": meld_value(meld, rules),
            }
        )
    if opening:
        deal.opened[seat] = True
        deal.opening_totals[seat] = total
        deal.last_opening = total
        events.append(
            {
                "type": "announced" if variant.opening == "announcement" else "opened",
                "seat": seat,
                "total": total,
                "minimum": minimum,
            }
        )
    return events


def _lay_off_cards(game: GameState, seat: int, spec: object) -> list[Event]:
    deal, variant = game.deal, variant_of(game)
    if not isinstance(spec, dict):
        raise IllegalAction(_("Choose a meld on the table and the cards to lay off."))
    if not deal.opened[seat]:
        if variant.opening == "announcement":
            raise IllegalAction(_("You must announce before you lay off cards."))
        raise IllegalAction(_("You must open before you lay off cards."))
    table_meld = deal.meld_by_id(spec.get("meld"))
    if table_meld is None:
        raise IllegalAction(_("There is no such meld on the table."))
    if variant.layoff == "own" and table_meld.owner != seat:
        raise IllegalAction(_("You may lay off only onto your own melds."))
    hand = deal.hands[seat]
    cards = cards_in_hand(hand, int_list(spec.get("cards")))
    if not cards:
        raise IllegalAction(_("Choose at least one card to lay off."))
    _check_keep(game, seat, len(hand) - len(cards))
    grown = lay_off(
        table_meld.meld, cards, wilds_of(game), rules_of(game), read_wild_as(spec.get("wild_as")) or None
    )
    new = _replace_meld(game, seat, table_meld, grown, cards)
    return [
        {
            "type": "laid_off",
            "seat": seat,
            "cards": [card_json(card) for card in cards],
            "meld": meld_json(new),
        }
    ]


# --- The handlers ------------------------------------------------------------------------------


def _draw(game: GameState, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, DRAW)
    deal = game.deal
    card = deal.stock.pop()
    deal.hands[seat].append(card)
    deal.turn.drew = "stock"
    deal.phase = PLAY
    return [{"type": "drew", "seat": seat, "source": "stock", "secret": {"card": card_json(card)}}]


def _take_discard(game: GameState, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, DRAW)
    deal, variant = game.deal, variant_of(game)
    if not deal.discard:
        raise IllegalAction(_("The discard pile is empty."))
    top = deal.discard.pop()
    deal.hands[seat].append(top)
    deal.turn.drew = "discard"
    deal.turn.taken = top.id
    deal.phase = PLAY
    events: list[Event] = [{"type": "took_discard", "seat": seat, "card": card_json(top)}]
    if action.get("declare_hand"):
        if variant.scoring != "kuwaiti":
            raise IllegalAction(_("Only Kuwaiti Hand has Hand declarations."))
        return events + _declare(game, seat)
    specs = action.get("melds") or []
    layoff = action.get("lay_off")
    if not specs and not layoff:
        raise IllegalAction(_("Say which meld the card from the discard pile goes into."))
    natural_ace = None
    if variant.discard_take == "new_meld":
        if layoff:
            raise IllegalAction(
                _("The card from the discard pile must go into a new meld, not onto one on the table.")
            )
        natural_ace = top
    elif variant.discard_take == "kuwaiti" and not deal.opened[seat] and not specs:
        raise IllegalAction(
            _("You may take the discard only in a turn in which you announce or declare a Hand.")
        )
    if specs:
        events += _lay_down(game, seat, specs, natural_ace=natural_ace)
    if layoff:
        events += _lay_off_cards(game, seat, layoff)
    if top.id not in deal.turn.played:
        raise IllegalAction(_("The card you take from the discard pile must go on the table in this move."))
    return events


def _meld(game: GameState, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    variant = variant_of(game)
    if variant.opening == "announcement" and not game.deal.opened[seat]:
        raise IllegalAction(
            _("Announce your melds first (at least {minimum})."), minimum=opening_minimum_now(game)
        )
    return _lay_down(game, seat, action.get("melds"))


def _announce(game: GameState, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    if variant_of(game).opening != "announcement":
        raise IllegalAction(_("Announcing is a Kuwaiti Hand rule; lay down your melds instead."))
    if game.deal.opened[seat]:
        raise IllegalAction(_("You have already announced in this deal."))
    return _lay_down(game, seat, action.get("melds"))


def _lay_off(game: GameState, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    return _lay_off_cards(game, seat, action)


def _exchange(game: GameState, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    deal, variant = game.deal, variant_of(game)
    if variant.exchange_needs_opening and not deal.opened[seat]:
        raise IllegalAction(_("You must open before you exchange a wild card."))
    table_meld = deal.meld_by_id(action.get("meld"))
    if table_meld is None:
        raise IllegalAction(_("There is no such meld on the table."))
    hand = deal.hands[seat]
    naturals = cards_in_hand(hand, int_list(action.get("cards")))
    meld = table_meld.meld
    three_set = meld.kind == "set" and len(meld.cards) == 3
    allow_single = provisional = False
    if three_set and any(wilds_of(game).is_wild(card) for card in meld.cards):
        if variant.exchange_three_set == "never":
            raise IllegalAction(_("A wild card in a set of three cannot be exchanged in this game."))
        if len(naturals) == 1 and variant.exchange_three_set == "both_or_exception":
            allow_single = True
            others = (len(h) for s, h in enumerate(deal.hands) if s != seat)
            provisional = not any(count == 1 for count in others)
    new_meld, wild = exchange_wild(
        meld, naturals, wilds_of(game), rules_of(game), allow_single_in_three_set=allow_single
    )
    if wild.id == deal.turn.taken:
        raise IllegalAction(_("The card you took from the discard pile must stay on the table."))
    _check_keep(game, seat, len(hand) - len(naturals) + 1)
    new = _replace_meld(game, seat, table_meld, new_meld, naturals)
    hand.append(wild)
    deal.turn.provisional_exchange = deal.turn.provisional_exchange or provisional
    return [
        {
            "type": "exchanged",
            "seat": seat,
            "cards": [card_json(card) for card in naturals],
            "wild": card_json(wild),
            "meld": meld_json(new),
        }
    ]


def _discard(game: GameState, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    deal = game.deal
    card_id = action.get("card")
    if isinstance(card_id, bool) or not isinstance(card_id, int):
        raise IllegalAction(_("Choose the card to discard."))
    hand = deal.hands[seat]
    (card,) = cards_in_hand(hand, [card_id])
    remaining = len(hand) - 1
    if remaining == 0 and not may_go_out(game, seat):
        raise IllegalAction(_("You may not go out in your first turn."))
    if deal.turn.provisional_exchange and remaining > 1:
        others = [len(h) for s, h in enumerate(deal.hands) if s != seat]
        if 1 not in others:
            raise IllegalAction(
                _(
                    "You took a wild card from a set of three with one card, so you must go out "
                    "this turn or end it holding one card."
                )
            )
    _remove_from_hand(hand, [card])
    deal.discard.append(card)
    events: list[Event] = [{"type": "discarded", "seat": seat, "card": card_json(card)}]
    if remaining == 0:
        return events + _went_out(game, seat)
    return events + _end_turn(game, seat)


def _went_out(game: GameState, seat: int) -> list[Event]:
    deal, variant = game.deal, variant_of(game)
    turn = deal.turn
    if variant.scoring == "kuwaiti":
        finish = "announcement"
    elif not turn.opened_before and not turn.touched_others:
        finish = "hand"
        if variant.scoring == "egyptian":
            finish = _egyptian_hand(game, seat) or finish
    else:
        finish = "normal"
    deal.phase = DEAL_OVER
    deal.result = {"winner": seat, "finish": finish, "void": False, "redeal": False}
    return [{"type": "went_out", "seat": seat, "finish": finish}]


def _egyptian_hand(game: GameState, seat: int) -> str | None:
    """egyptian: the kuwaiti row the winner's 15 cards of this turn qualify for (None: plain "hand")."""
    from .solver import kuwaiti_hand

    deal = game.deal
    cards = [card for tm in deal.melds if tm.owner == seat for card in tm.meld.cards]
    cards.append(deal.discard[-1])
    if len(cards) != 15:
        return None
    hand = kuwaiti_hand(cards, wilds_of(game), rules_of(game))
    if hand is None or hand.name in ("regular", "announcement"):
        return None
    return hand.name


def _end_turn(game: GameState, seat: int) -> list[Event]:
    deal = game.deal
    events: list[Event] = []
    if len(deal.stock) <= deal.players and game.options.get("reshuffle_discards", False):
        events += _reshuffle_discards(game)
    if len(deal.stock) <= deal.players:
        deal.phase = DEAL_OVER
        deal.result = {"winner": None, "finish": None, "void": True, "redeal": False}
        return [*events, {"type": "stock_exhausted", "stock": len(deal.stock)}]
    following = (seat + 1) % deal.players
    deal.turns[following] += 1
    deal.current = following
    deal.turn = Turn(seat=following, number=deal.turns[following], opened_before=deal.opened[following])
    deal.phase = DRAW
    return [*events, {"type": "turn_started", "seat": following, "turn": deal.turns[following]}]


def _reshuffle_discards(game: GameState) -> list[Event]:
    """Option ``reshuffle_discards`` (kuwaiti): the discard pile but its top card, shuffled, goes under
    what is left of the stock. The shuffle's seed is derived from the deal's seed and the number of
    earlier reshuffles, so a replay shuffles the same way (a recorded random event, like the deal).

    Nothing happens, and the deal is then void as the spec says, when that would still leave no more
    cards in the stock than there are players, or when the stock was already rebuilt
    ``MAX_RESHUFFLES`` times in this deal (a deal in which nobody can finish would never end)."""
    deal = game.deal
    pile = deal.discard[:-1]
    done = sum(1 for event in deal.events if event["type"] == "stock_reshuffled")
    if done >= MAX_RESHUFFLES or len(deal.stock) + len(pile) <= deal.players:
        return []
    seed = derive_seed(deal.seed, "reshuffle", done)
    deal.stock[:0] = shuffled(pile, seed)
    deal.discard[:] = deal.discard[-1:]
    return [{"type": "stock_reshuffled", "number": done + 1, "count": len(pile), "stock": len(deal.stock)}]


def _declare_hand(game: GameState, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    if variant_of(game).scoring != "kuwaiti":
        raise IllegalAction(_("Only Kuwaiti Hand has Hand declarations."))
    return _declare(game, seat)


def _declare(game: GameState, seat: int) -> list[Event]:
    from .solver import kuwaiti_hand

    deal = game.deal
    if deal.opened[seat]:
        raise IllegalAction(_("You have announced, so you may not declare a Hand in this deal."))
    if not may_go_out(game, seat):
        raise IllegalAction(_("You may not go out in your first turn."))
    hand = deal.hands[seat]
    named = kuwaiti_hand(list(hand), wilds_of(game), rules_of(game))
    if named is None:
        raise IllegalAction(_("Your cards do not make a Hand."))
    used = sorted([card.id for meld in named.melds for card in meld.cards] + [c.id for c in named.discards])
    if used != sorted(card.id for card in hand):  # pragma: no cover - a solver bug, never a player's
        raise RuntimeError("kuwaiti_hand did not use exactly the player's cards")
    melds = [_add_meld(game, seat, meld) for meld in named.melds]
    deal.turn.played.extend(used)
    deal.discard.extend(named.discards)
    hand.clear()
    deal.phase = DEAL_OVER
    deal.result = {"winner": seat, "finish": named.name, "void": False, "redeal": False}
    return [
        {
            "type": "hand_declared",
            "seat": seat,
            "name": named.name,
            "melds": [meld_json(tm) for tm in melds],
            "discards": [card_json(card) for card in named.discards],
        }
    ]


def _redeal(game: GameState, seat: object, action: dict) -> list[Event]:
    seat = _check_seat(game, seat)
    deal = game.deal
    if not game.options.get("redeal", False):
        raise IllegalAction(_("This game has no redeals."))
    if not deal.fresh or deal.phase not in (DRAW, PLAY):
        raise IllegalAction(_("A redeal may be demanded only before the first move of the deal."))
    holding = redeal_holding(deal.hands[seat])
    if holding is None:
        raise IllegalAction(
            _(
                "Your cards do not allow a redeal: you need four pairs, or three pairs and a joker, "
                "or two pairs and both jokers."
            )
        )
    deal.phase = DEAL_OVER
    deal.result = {"winner": None, "finish": None, "void": False, "redeal": True}
    return [{"type": "redeal_demanded", "seat": seat, "cards": [card_json(c) for c in holding[0]]}]


HANDLERS: dict[str, Callable[[GameState, Any, dict], list[Event]]] = {
    "draw": _draw,
    "take_discard": _take_discard,
    "meld": _meld,
    "announce": _announce,
    "lay_off": _lay_off,
    "exchange": _exchange,
    "discard": _discard,
    "declare_hand": _declare_hand,
    "redeal": _redeal,
}


def perform(game: GameState, seat: object, action: object) -> list[Event]:
    """Run one action on ``game`` (a working copy: it may be left half-changed when this raises)."""
    if not isinstance(action, dict) or not isinstance(action.get("type"), str):
        raise IllegalAction(_("That is not a move."))
    handler = HANDLERS.get(action["type"])
    if handler is None:
        raise IllegalAction(_("There is no move called “{name}”."), name=action["type"])
    events = handler(game, seat, action)
    if action["type"] != "redeal":
        game.deal.fresh = False
    deal = game.deal
    if deal.phase == PLAY and deal.turn.provisional_exchange and not provisional_feasible(game, deal.current):
        raise IllegalAction(
            _(
                "You took a wild card from a set of three with one card, so you must still be able to "
                "go out this turn or end it holding one card."
            )
        )
    return events


def provisional_feasible(game: GameState, seat: int) -> bool:
    """jordanian/egyptian single-card exchange: can ``seat`` still go out this turn, or end it holding
    one card, with new melds only? (Checked after every action of such a turn, so nobody gets stuck.)"""
    deal = game.deal
    if any(len(hand) == 1 for s, hand in enumerate(deal.hands) if s != seat):
        return True
    hand = deal.hands[seat]
    if len(hand) == 2 or (len(hand) == 1 and may_go_out(game, seat)):
        return True
    return provisional_melds(game, seat) is not None


def provisional_melds(game: GameState, seat: int) -> list[Meld] | None:
    """New melds that take ``seat``'s hand down to going out (all but the discard) or to two cards,
    or None when there are none (the check behind :func:`provisional_feasible`; the bot plays them)."""
    from itertools import combinations

    from .solver import going_out_melds, meld_partition

    hand = list(game.deal.hands[seat])
    wilds, rules = wilds_of(game), rules_of(game)
    if may_go_out(game, seat):
        found = going_out_melds(hand, wilds, rules)
        if found is not None:
            return found[0]
    for pair in combinations(range(len(hand)), 2):
        melds = meld_partition([card for i, card in enumerate(hand) if i not in pair], wilds, rules)
        if melds:
            return melds
    return None
