"""Hand and Foot played online: the game, its deal as a state machine, and every move.

Both rule sets of ``../shared/rules/hand-and-foot.md``: ``hand-and-foot`` (002, each player a side)
and ``hand-and-foot-teams`` (004, partners opposite, one set of melds per team). The public API is
:mod:`.family`'s (``games.engine.new_game``, ``apply``, ``view`` ...), which hands a Hand and Foot
game to this module and :mod:`.handfoot_play`. The deal is scored by
:func:`.handfoot.score_handfoot_deal`, the same function the score sheets use, and the game by
:func:`.match.match_status`.

Phases: ``"draw"`` (draw 2 (002) or 1 (004) from the draw pile, or take the discard pile),
``"play"`` (meld, lay off, then discard; 002 may end a turn in which it ran to the foot without a
discard), ``"deal_over"`` and ``"game_over"``.

Actions (JSON-able dicts):

=====================  ============================================================================
``draw``               ``{"type": "draw"}``
``take_pile``          ``{"type": "take_pile", "cards": [ids], "melds": [MELD, ...]}``: the natural
                       cards of the top card's rank that go with it, and (002, not yet opened) the
                       other melds of the opening
``meld``               ``{"type": "meld", "melds": [MELD, ...]}``: new melds, each of a rank the
                       side has not melded; before the side has opened, the whole opening
``lay_off``            ``{"type": "lay_off", "meld": 3, "cards": [ids]}``: onto the side's own meld
``discard``            ``{"type": "discard", "card": 17}``: ends the turn
``end_turn``           ``{"type": "end_turn"}``: 002, a turn in which the player ran to the foot
=====================  ============================================================================

``MELD`` is a list of card ids or ``{"cards": [ids]}``. Every refusal is a :class:`DomainError`
with a sentence; :func:`.family.apply` runs it on a copy, so a refused move changes nothing. A foot is face
down: it is never in anybody's view (its owner's included) until it is picked up.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .actions import cards_in_hand, int_list, turn_seat
from .cards import JOKER, RANK_NAMES, Card, new_seed, shuffled
from .deal import DEAL_OVER, DRAW, GAME_OVER, PLAY, Event, card_json, deck_for, derive_seed
from .errors import DomainError, IllegalAction, InvalidCards, InvalidOptions, MeldError, _
from .handfoot import (
    HandFootSideFacts,
    handfoot_card_points,
    handfoot_meld_check,
    score_handfoot_deal,
)
from .match import DealRecord, MatchStatus, copy_game, match_status
from .meldspec import MeldSpec
from .scoring import DealScore
from .variants import HAND_AND_FOOT_VARIANTS, HandAndFootVariant, opening_minimum, sides, validate_options

WILD_RANKS = frozenset({JOKER, 2})
THREE = 3
PILE_MINIMUM = 6
FORMAT_VERSION = 1

ACTION_TYPES = ("draw", "take_pile", "meld", "lay_off", "discard", "end_turn")
"""The Hand and Foot moves (see the module's table)."""


def is_wild(card: Card) -> bool:
    """2s and jokers are wild in both rule sets."""
    return card.rank in WILD_RANKS


def rank_name(rank: int) -> str:
    """A rank as notation: ``"7"``, ``"K"``, ``"A"``."""
    return RANK_NAMES[rank]


# --- State -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class FootMeld:
    """A meld (or, at 7+ cards, a book) of one rank on the table, belonging to a side."""

    id: int
    side: int  # the seat (002) or the team: 0 = seats 0+2, 1 = seats 1+3 (004)
    rank: int
    cards: tuple[Card, ...]

    @property
    def wilds(self) -> int:
        return sum(1 for card in self.cards if is_wild(card))

    @property
    def naturals(self) -> int:
        return len(self.cards) - self.wilds

    @property
    def is_book(self) -> bool:
        return len(self.cards) >= 7

    @property
    def colour(self) -> str | None:
        """``"red"`` (a clean book, no wild card), ``"black"`` (a dirty book) or ``None`` (not a book)."""
        if not self.is_book:
            return None
        return "black" if self.wilds else "red"

    def to_json(self) -> dict:
        return {"id": self.id, "side": self.side, "rank": self.rank, "cards": [c.id for c in self.cards]}


@dataclass
class FootTurn:
    """Bookkeeping for the turn in progress."""

    seat: int
    number: int  # this seat's turn count in the deal, this turn included
    drew: str | None = None  # "stock" or "pile"
    ran_to_foot: bool = False  # picked up the foot in this turn by melding the whole hand

    def to_json(self) -> dict:
        return {"seat": self.seat, "number": self.number, "drew": self.drew, "ran_to_foot": self.ran_to_foot}


@dataclass
class FootDeal:
    """Everything about one Hand and Foot deal. Mutated only through :func:`.family.apply`."""

    number: int  # 0-based deal number (Hand and Foot deals are never void)
    dealer: int  # the seat before the first player
    players: int
    seed: int
    hands: list[list[Card]]  # what each seat holds: the hand, or the foot once picked up
    feet: list[list[Card]]  # face down; emptied when picked up
    picked_up: list[bool]
    stock: list[Card]  # the draw pile; its top is the END of the list
    discard: list[Card]  # the top is the END of the list
    melds: list[FootMeld]
    next_meld_id: int
    opened: list[bool]  # per side
    opening_totals: list[int | None]  # per side
    minimum: int  # this deal's opening minimum
    turns: list[int]
    current: int
    phase: str
    turn: FootTurn
    events: list[Event]
    result: dict | None = None

    @property
    def first(self) -> int:
        return (self.dealer + 1) % self.players

    @property
    def attempt(self) -> int:
        """Hand and Foot has no redeal: always 0 (the Hand deal's field, for code that reads both)."""
        return 0

    def copy(self) -> FootDeal:
        return FootDeal(
            number=self.number,
            dealer=self.dealer,
            players=self.players,
            seed=self.seed,
            hands=[list(hand) for hand in self.hands],
            feet=[list(foot) for foot in self.feet],
            picked_up=list(self.picked_up),
            stock=list(self.stock),
            discard=list(self.discard),
            melds=list(self.melds),
            next_meld_id=self.next_meld_id,
            opened=list(self.opened),
            opening_totals=list(self.opening_totals),
            minimum=self.minimum,
            turns=list(self.turns),
            current=self.current,
            phase=self.phase,
            turn=FootTurn(**self.turn.to_json()),
            events=list(self.events),
            result=dict(self.result) if self.result is not None else None,
        )

    def meld_by_id(self, meld_id: object) -> FootMeld | None:
        return next((m for m in self.melds if m.id == meld_id), None)

    def all_card_ids(self) -> list[int]:
        """Every card id in the deal (hands, feet, draw pile, discard pile, melds), with repeats if any."""
        ids = [card.id for hand in self.hands for card in hand]
        ids += [card.id for foot in self.feet for card in foot]
        ids += [card.id for card in self.stock]
        ids += [card.id for card in self.discard]
        ids += [card.id for meld in self.melds for card in meld.cards]
        return ids


@dataclass
class FootGame:
    """A whole Hand and Foot game. Change it only through :func:`.family.apply`."""

    variant: str
    options: dict
    players: int
    seed: int
    first_dealer: int
    deal: FootDeal
    records: list[DealRecord] = field(default_factory=list)
    version: int = 0
    finished: bool = False
    winners: list[int] = field(default_factory=list)
    last_deal: dict | None = None
    family: str = "hand-and-foot"

    @property
    def phase(self) -> str:
        return GAME_OVER if self.finished else self.deal.phase

    @property
    def teams(self) -> bool:
        return self.rules.teams

    @property
    def rules(self) -> HandAndFootVariant:
        return HAND_AND_FOOT_VARIANTS[self.variant]

    @property
    def current(self) -> int | None:
        return None if self.finished else self.deal.current

    def side_of(self, seat: int) -> int:
        """The side a seat plays for: its team (004) or itself (002)."""
        return seat % 2 if self.teams else seat

    def side_seats(self, side: int) -> tuple[int, ...]:
        return sides(self.players, self.teams)[side]

    def side_melds(self, side: int) -> list[FootMeld]:
        return [meld for meld in self.deal.melds if meld.side == side]

    def copy(self) -> FootGame:
        return copy_game(self)

    def status(self) -> MatchStatus:
        """The game's standing (totals, deals played, winners) from ``match.match_status``."""
        return match_status(self.rules, self.options, self.players, self.first_dealer, self.records)


# --- Dealing -----------------------------------------------------------------------------------


def start_deal(
    game_variant: HandAndFootVariant, players: int, seed: int, number: int, dealer: int
) -> FootDeal:
    """Shuffle the decks and deal each player a hand and a foot; no card is turned up (decision 8)."""
    deal_seed = derive_seed(seed, "deal", number, 0)
    deck = shuffled(list(deck_for(game_variant.slug, players)), deal_seed)
    size = game_variant.hand_size(players)
    first = (dealer + 1) % players
    hands: list[list[Card]] = [[] for _ in range(players)]
    feet: list[list[Card]] = [[] for _ in range(players)]
    for pile in (hands, feet):
        for _round in range(size):
            for offset in range(players):
                pile[(first + offset) % players].append(deck.pop())
    side_count = 2 if game_variant.teams else players
    turns = [0] * players
    turns[first] = 1
    minimum = opening_minimum(game_variant, number)
    return FootDeal(
        number=number,
        dealer=dealer,
        players=players,
        seed=deal_seed,
        hands=hands,
        feet=feet,
        picked_up=[False] * players,
        stock=deck,
        discard=[],
        melds=[],
        next_meld_id=1,
        opened=[False] * side_count,
        opening_totals=[None] * side_count,
        minimum=minimum,
        turns=turns,
        current=first,
        phase=DRAW,
        turn=FootTurn(seat=first, number=1),
        events=[
            {
                "type": "deal_started",
                "deal": number,
                "attempt": 0,
                "dealer": dealer,
                "first": first,
                "minimum": minimum,
            }
        ],
    )


def new_game(variant: str, players: int, options: dict | None = None, seed: int | None = None) -> FootGame:
    """Start a Hand and Foot game: validate the options, draw the first player from the seed
    (decision 13) and deal."""
    if variant not in HAND_AND_FOOT_VARIANTS:
        raise InvalidOptions(_("There is no Hand and Foot rule set called “{slug}”."), slug=variant)
    options = validate_options(variant, players, options)
    if seed is None:
        seed = new_seed()
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise InvalidOptions(_("A game's seed is a whole number of 0 or more."))
    first_dealer = derive_seed(seed, "first-dealer") % players
    deal = start_deal(HAND_AND_FOOT_VARIANTS[variant], players, seed, 0, first_dealer)
    game = FootGame(variant, options, players, seed, first_dealer, deal)
    return game


# --- Checks shared by the moves ----------------------------------------------------------------


def _my_turn(game: FootGame, seat: object, phase: str) -> int:
    seat = turn_seat(game, seat)
    if phase == DRAW and game.deal.phase == PLAY:
        raise IllegalAction(_("You have already drawn this turn."))
    if phase == PLAY and game.deal.phase == DRAW:
        raise IllegalAction(_("Draw first, or take the discard pile."))
    return seat


def _meld_ids(spec: object) -> list[int]:
    return list(MeldSpec.from_json(spec).cards)  # the one meld-spec codec (a list of ids, or a dict)


def _remove(hand: list[Card], cards: list[Card]) -> None:
    gone = {card.id for card in cards}
    hand[:] = [card for card in hand if card.id not in gone]


def meld_rank(cards: list[Card] | tuple[Card, ...]) -> int:
    """The rank of a (checked) meld: that of its natural cards."""
    return next(card.rank for card in cards if not is_wild(card))


def books_missing(game: FootGame, side: int) -> list[str]:
    """What the side still lacks to go out: ``["red"]``, ``["black"]``, both or ``[]``."""
    colours = {meld.colour for meld in game.side_melds(side)}
    return [colour for colour in ("red", "black") if colour not in colours]


def _books_refusal(game: FootGame, side: int) -> IllegalAction:
    missing = books_missing(game, side)
    if game.teams:
        if missing == ["red"]:
            return IllegalAction(_("To go out your team needs a red book."))
        if missing == ["black"]:
            return IllegalAction(_("To go out your team needs a black book."))
        return IllegalAction(_("To go out your team needs a red book and a black book."))
    if missing == ["red"]:
        return IllegalAction(_("To go out you need a red book."))
    if missing == ["black"]:
        return IllegalAction(_("To go out you need a black book."))
    return IllegalAction(_("To go out you need a red book and a black book."))


def check_lay_off(meld: FootMeld, cards: list[Card]) -> tuple[Card, ...]:
    """The meld's cards after adding ``cards``; :class:`MeldError` with the reason when not allowed."""
    for card in cards:
        if card.rank == THREE:
            raise MeldError(_("3s are never melded; they can only be discarded."))
        if not is_wild(card) and card.rank != meld.rank:
            raise MeldError(
                _("Only {rank}s or wild cards go on this meld of {rank}s."), rank=rank_name(meld.rank)
            )
    if meld.colour == "red" and any(is_wild(card) for card in cards):
        raise MeldError(_("A wild card can never go on a red book."))
    combined = meld.cards + tuple(cards)
    wilds = sum(1 for card in combined if is_wild(card))
    if wilds >= len(combined) - wilds:
        raise MeldError(
            _(
                "Natural cards must outnumber wild cards: this meld would have {naturals} natural "
                "and {wilds} wild."
            ),
            naturals=len(combined) - wilds,
            wilds=wilds,
        )
    return combined


def _meld_event(meld: FootMeld, seat: int, kind: str = "melded", added: list[Card] | None = None) -> Event:
    event: Event = {
        "type": kind,
        "seat": seat,
        "meld": {
            "id": meld.id,
            "side": meld.side,
            "rank": rank_name(meld.rank),
            "cards": [card_json(card) for card in meld.cards],
        },
    }
    if added is not None:
        event["cards"] = [card_json(card) for card in added]
    return event


def _new_melds(
    game: FootGame, seat: int, cards_by_meld: list[list[Card]], reserved: set[int]
) -> list[FootMeld]:
    """Check new melds (one rank each, not already on the side's table, ranks in ``reserved`` taken)."""
    side = game.side_of(seat)
    taken = {meld.rank for meld in game.side_melds(side)} | reserved
    melds = []
    for cards in cards_by_meld:
        handfoot_meld_check(cards, game.rules)
        rank = meld_rank(cards)
        if rank in taken:
            if game.teams:
                raise MeldError(
                    _("Your team already has a meld of {rank}s: add the cards to it."), rank=rank_name(rank)
                )
            raise MeldError(
                _("You already have a meld of {rank}s: add the cards to it."), rank=rank_name(rank)
            )
        taken.add(rank)
        melds.append(FootMeld(0, side, rank, tuple(cards)))
    return melds


def _place(game: FootGame, meld: FootMeld) -> FootMeld:
    deal = game.deal
    placed = FootMeld(deal.next_meld_id, meld.side, meld.rank, meld.cards)
    deal.next_meld_id += 1
    deal.melds.append(placed)
    return placed


def _open(game: FootGame, seat: int, total: int) -> Event:
    deal = game.deal
    side = game.side_of(seat)
    if total < deal.minimum:
        raise IllegalAction(
            _("Your opening melds total {total}; you need {minimum}."), total=total, minimum=deal.minimum
        )
    deal.opened[side] = True
    deal.opening_totals[side] = total
    return {"type": "opened", "seat": seat, "total": total, "minimum": deal.minimum}


def _after_play(game: FootGame, seat: int) -> list[Event]:
    """After cards left the hand for the table: an empty hand picks up the foot (the player goes on
    playing from it); an empty foot goes out (002, with the books) or is refused."""
    deal = game.deal
    side = game.side_of(seat)
    if len(deal.hands[seat]) == 1 and deal.picked_up[seat] and books_missing(game, side):
        raise IllegalAction(
            _(
                "Keep two cards: your last card can be discarded only to go out, which needs a red "
                "and a black book."
            )
        )
    if deal.hands[seat]:
        return []
    if not deal.picked_up[seat]:
        deal.turn.ran_to_foot = True
        return _pick_up_foot(game, seat, at_once=True)
    if game.teams:
        raise IllegalAction(_("Keep a card: you go out by discarding your last card."))
    if books_missing(game, side):
        raise _books_refusal(game, side)
    return _go_out(game, seat)


def _pick_up_foot(game: FootGame, seat: int, *, at_once: bool) -> list[Event]:
    deal = game.deal
    foot = deal.feet[seat]
    deal.hands[seat] = list(foot)
    deal.feet[seat] = []
    deal.picked_up[seat] = True
    return [
        {
            "type": "picked_up_foot",
            "seat": seat,
            "count": len(foot),
            "at_once": at_once,
            "secret": {"cards": [card_json(card) for card in foot]},
        }
    ]


def _go_out(game: FootGame, seat: int) -> list[Event]:
    deal = game.deal
    deal.phase = DEAL_OVER
    deal.result = {"went_out": seat, "reason": "out"}
    return [{"type": "went_out", "seat": seat}]


def _end_turn(game: FootGame, seat: int) -> list[Event]:
    """Pass the turn; the next player must be able to draw, or take the pile (decision 7)."""
    deal = game.deal
    nxt = (seat + 1) % game.players
    deal.current = nxt
    deal.turns[nxt] += 1
    deal.turn = FootTurn(seat=nxt, number=deal.turns[nxt])
    deal.phase = DRAW
    if len(deal.stock) < game.rules.draw_count and not pile_takes(game, nxt):
        deal.phase = DEAL_OVER
        deal.result = {"went_out": None, "reason": "stock"}
        return [{"type": "draw_pile_empty", "seat": nxt, "stock": len(deal.stock)}]
    return [{"type": "turn_started", "seat": nxt}]


# --- The moves ---------------------------------------------------------------------------------


def _draw(game: FootGame, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, DRAW)
    deal = game.deal
    count = game.rules.draw_count
    if len(deal.stock) < count:
        raise IllegalAction(
            _("The draw pile holds only {count}, too few to draw: take the discard pile."),
            count=len(deal.stock),
        )
    drawn = [deal.stock.pop() for _ in range(count)]
    deal.hands[seat].extend(drawn)
    deal.phase = PLAY
    deal.turn.drew = "stock"
    return [
        {
            "type": "drew_cards",
            "seat": seat,
            "count": count,
            "secret": {"cards": [card_json(card) for card in drawn]},
        }
    ]


def _take_pile(game: FootGame, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, DRAW)
    deal, rules = game.deal, game.rules
    side = game.side_of(seat)
    if len(deal.discard) < PILE_MINIMUM:
        raise IllegalAction(
            _("The discard pile can be taken only when it holds at least {minimum} cards; it holds {count}."),
            minimum=PILE_MINIMUM,
            count=len(deal.discard),
        )
    top = deal.discard[-1]
    if is_wild(top) or top.rank == THREE:
        raise IllegalAction(_("A discard pile with a wild card or a 3 on top cannot be taken."))
    if rules.teams and not deal.opened[side]:
        raise IllegalAction(_("Your team must open before taking the discard pile."))
    hand = deal.hands[seat]
    partners = cards_in_hand(hand, int_list(action.get("cards", [])))
    if any(is_wild(card) for card in partners):
        raise MeldError(_("No wild card may be used to take the discard pile."))
    if any(card.rank != top.rank for card in partners):
        raise MeldError(_("Only natural {rank}s go with the top card."), rank=rank_name(top.rank))
    existing = next((m for m in game.side_melds(side) if m.rank == top.rank), None)
    needed = 1 if existing is not None and not rules.teams else 2
    if len(partners) < needed:
        if needed == 1:
            raise MeldError(
                _("Take the pile with a natural {rank} from your hand."), rank=rank_name(top.rank)
            )
        raise MeldError(
            _("Taking the pile needs two natural {rank}s from your hand."), rank=rank_name(top.rank)
        )
    specs = action.get("melds") or []
    if not isinstance(specs, list):
        raise IllegalAction(_("Choose the cards of at least one meld."))
    if specs and deal.opened[side]:
        raise IllegalAction(_("You have opened: lay down further melds after taking the pile."))
    extra_ids = [card_id for spec in specs for card_id in _meld_ids(spec)]
    extra_cards = cards_in_hand(hand, extra_ids)
    if {c.id for c in extra_cards} & {c.id for c in partners}:
        raise InvalidCards(_("You chose the same card twice."))
    by_id = {card.id: card for card in extra_cards}
    extra = _new_melds(game, seat, [[by_id[i] for i in _meld_ids(spec)] for spec in specs], {top.rank})
    events: list[Event] = []
    count = 5 if rules.teams else 4
    taken = deal.discard[-1 - count : -1]
    del deal.discard[-1 - count :]
    _remove(hand, partners + extra_cards)
    events.append(
        {
            "type": "took_pile",
            "seat": seat,
            "card": card_json(top),
            "count": len(taken),
            "secret": {"cards": [card_json(card) for card in taken]},
        }
    )
    opening = not deal.opened[side]
    if existing is not None:
        combined = check_lay_off(existing, [top, *partners])
        placed = FootMeld(existing.id, side, existing.rank, combined)
        deal.melds[deal.melds.index(existing)] = placed
        events.append(_meld_event(placed, seat, "laid_off", [top, *partners]))
    else:
        new = [top, *partners]
        handfoot_meld_check(new, rules)
        placed = _place(game, FootMeld(0, side, top.rank, tuple(new)))
        events.append(_meld_event(placed, seat))
    for meld in extra:
        events.append(_meld_event(_place(game, meld), seat))
    if opening:
        total = handfoot_card_points([top, *partners, *extra_cards], rules)
        events.append(_open(game, seat, total))
    hand.extend(taken)
    deal.phase = PLAY
    deal.turn.drew = "pile"
    return events


def _meld(game: FootGame, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    deal = game.deal
    specs = action.get("melds")
    if not isinstance(specs, list) or not specs:
        raise IllegalAction(_("Choose the cards of at least one meld."))
    hand = deal.hands[seat]
    cards = cards_in_hand(hand, [card_id for spec in specs for card_id in _meld_ids(spec)])
    by_id = {card.id: card for card in cards}
    melds = _new_melds(game, seat, [[by_id[i] for i in _meld_ids(spec)] for spec in specs], set())
    side = game.side_of(seat)
    events: list[Event] = []
    opening = not deal.opened[side]
    opened_event = _open(game, seat, handfoot_card_points(cards, game.rules)) if opening else None
    _remove(hand, cards)
    for meld in melds:
        events.append(_meld_event(_place(game, meld), seat))
    if opened_event is not None:
        events.append(opened_event)
    return events + _after_play(game, seat)


def _lay_off(game: FootGame, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    deal = game.deal
    meld = deal.meld_by_id(action.get("meld"))
    side = game.side_of(seat)
    if meld is None:
        raise IllegalAction(_("There is no such meld on the table."))
    if meld.side != side:
        if game.teams:
            raise IllegalAction(_("You can add cards only to your team's melds."))
        raise IllegalAction(_("You can add cards only to your own melds."))
    cards = cards_in_hand(deal.hands[seat], int_list(action.get("cards")))
    if not cards:
        raise IllegalAction(_("Select the cards to lay off first."))
    combined = check_lay_off(meld, cards)
    placed = FootMeld(meld.id, meld.side, meld.rank, combined)
    deal.melds[deal.melds.index(meld)] = placed
    _remove(deal.hands[seat], cards)
    return [_meld_event(placed, seat, "laid_off", cards), *_after_play(game, seat)]


def only_wilds_stuck(game: FootGame, seat: int) -> bool:
    """Decision 6 (004): the player holds nothing but wild cards and can lay none of them off."""
    hand = game.deal.hands[seat]
    if not hand or not all(is_wild(card) for card in hand):
        return False
    return not any(
        can(game, seat, {"type": "lay_off", "meld": meld.id, "cards": [card.id]})
        for meld in game.side_melds(game.side_of(seat))
        for card in hand
    )


def _discard(game: FootGame, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    deal, rules = game.deal, game.rules
    card_id = action.get("card")
    if isinstance(card_id, bool) or not isinstance(card_id, int):
        raise IllegalAction(_("Select exactly one card to discard."))
    hand = deal.hands[seat]
    (card,) = cards_in_hand(hand, [card_id])
    if is_wild(card) and not rules.wild_discard_allowed and not only_wilds_stuck(game, seat):
        raise IllegalAction(_("2s and jokers can never be discarded."))
    side = game.side_of(seat)
    last = len(hand) == 1
    if last and deal.picked_up[seat] and books_missing(game, side):
        raise _books_refusal(game, side)
    hand.remove(card)
    deal.discard.append(card)
    events: list[Event] = [{"type": "discarded", "seat": seat, "card": card_json(card)}]
    if last:
        if deal.picked_up[seat]:
            return events + _go_out(game, seat)
        events += _pick_up_foot(game, seat, at_once=False)
    return events + _end_turn(game, seat)


def _end_turn_action(game: FootGame, seat: object, action: dict) -> list[Event]:
    seat = _my_turn(game, seat, PLAY)
    if game.rules.teams or not game.deal.turn.ran_to_foot:
        raise IllegalAction(_("End your turn with a discard."))
    return [{"type": "turn_ended", "seat": seat}, *_end_turn(game, seat)]


HANDLERS = {
    "draw": _draw,
    "take_pile": _take_pile,
    "meld": _meld,
    "lay_off": _lay_off,
    "discard": _discard,
    "end_turn": _end_turn_action,
}


def perform(game: FootGame, seat: object, action: object) -> list[Event]:
    """Run one action on ``game`` (a working copy: it may be left half-changed when this raises)."""
    if not isinstance(action, dict) or action.get("type") not in HANDLERS:
        raise IllegalAction(_("That is not a move."))
    return HANDLERS[action["type"]](game, seat, action)


# --- The game around the deal ------------------------------------------------------------------


def can(state: FootGame, seat: int | None, action: dict) -> bool:
    """Whether :func:`.family.apply` would accept the action now (tried on a copy)."""
    try:
        perform(state.copy(), seat, action)
    except DomainError:
        return False
    return True


def side_facts(game: FootGame) -> list[HandFootSideFacts]:
    """The finished deal's facts per side, for ``score_handfoot_deal`` (as a score sheet gives them)."""
    deal = game.deal
    out = (deal.result or {}).get("went_out")
    facts = []
    for side, seats in enumerate(sides(game.players, game.teams)):
        melds = game.side_melds(side)
        held = tuple(card for seat in seats for card in (*deal.hands[seat], *deal.feet[seat]))
        facts.append(
            HandFootSideFacts(
                red_books=sum(1 for m in melds if m.colour == "red"),
                black_books=sum(1 for m in melds if m.colour == "black"),
                melded=tuple(card for m in melds for card in m.cards),
                held=held,
                went_out=out is not None and out in seats,
            )
        )
    return facts


def score_deal(game: FootGame) -> DealScore:
    """The finished deal's score, by the score sheets' own function."""
    return score_handfoot_deal(game.rules, game.options, side_facts(game))


def next_deal(work: FootGame) -> list[Event]:
    """Score the finished deal and deal the next one (or end the game)."""
    deal = work.deal
    result = deal.result or {}
    score = score_deal(work)
    work.records.append(DealRecord(deal.dealer, score))
    status = work.status()
    ended: Event = {
        "type": "deal_ended",
        "deal": deal.number,
        "winner": result.get("went_out"),
        "finish": result.get("reason"),
        "void": False,
        "points": list(score.points_by_seat()),
        "totals": list(status.totals_by_seat()),
        "hands": [[card_json(card) for card in deal.hands[s] + deal.feet[s]] for s in range(work.players)],
        "score": score.to_json(),
    }
    deal.events.append(ended)
    work.last_deal = {k: v for k, v in ended.items() if k != "type"}
    events = [ended]
    if status.finished:
        work.finished = True
        work.winners = sorted(seat for side in status.winners for seat in side)
        over: Event = {"type": "game_over", "winners": list(work.winners), "totals": ended["totals"]}
        deal.events.append(over)
        return [*events, over]
    work.deal = start_deal(work.rules, work.players, work.seed, len(work.records), status.next_dealer)
    return events + list(work.deal.events)


# --- Which ways to take the pile exist ---------------------------------------------------------


def _best_extra_melds(
    hand: list[Card], excluded: set[int], taken_ranks: set[int]
) -> tuple[list[list[Card]], int]:
    """Melds from ``hand`` (cards in ``excluded`` left out) of ranks not in ``taken_ranks``: every rank
    with 3+ naturals, or 2 naturals and a spare wild card. Returns the melds and their card count."""
    by_rank: dict[int, list[Card]] = {}
    wilds = [c for c in hand if is_wild(c) and c.id not in excluded]
    for card in hand:
        if card.id in excluded or is_wild(card) or card.rank == THREE or card.rank in taken_ranks:
            continue
        by_rank.setdefault(card.rank, []).append(card)
    melds = []
    for _rank, cards in sorted(by_rank.items(), key=lambda item: -len(item[1])):
        if len(cards) >= 3:
            melds.append(list(cards))
        elif len(cards) == 2 and wilds:
            melds.append([*cards, wilds.pop()])
    return melds, sum(len(m) for m in melds)


def pile_takes(game: FootGame, seat: int) -> list[dict]:
    """Ways ``seat`` may take the discard pile now (not every way; ``[]`` when none is allowed):
    the top card with every natural of its rank from the hand, plus (002, not yet opened) melds from
    the hand that make the opening reach the minimum."""
    deal, rules = game.deal, game.rules
    if len(deal.discard) < PILE_MINIMUM:
        return []
    top = deal.discard[-1]
    if is_wild(top) or top.rank == THREE:
        return []
    side = game.side_of(seat)
    if rules.teams and not deal.opened[side]:
        return []
    hand = deal.hands[seat]
    naturals = [c for c in hand if c.rank == top.rank]
    existing = any(m.rank == top.rank for m in game.side_melds(side))
    needed = 1 if existing and not rules.teams else 2
    if len(naturals) < needed:
        return []
    action: dict[str, Any] = {"type": "take_pile", "cards": [c.id for c in naturals]}
    if not deal.opened[side]:
        total = rules.card_value(top.rank) * (1 + len(naturals))
        if total < deal.minimum:
            melds, _count = _best_extra_melds(hand, {c.id for c in naturals}, {top.rank})
            chosen = []
            for meld in sorted(melds, key=lambda m: -handfoot_card_points(m, rules)):
                if total >= deal.minimum:
                    break
                chosen.append(meld)
                total += handfoot_card_points(meld, rules)
            if total < deal.minimum:
                return []
            action["melds"] = [[c.id for c in meld] for meld in chosen]
    return [action]


# --- Persistence -------------------------------------------------------------------------------


def to_json(state: FootGame) -> dict[str, Any]:
    """The whole state as JSON-able data (hidden cards and the seed: server only)."""
    deal = state.deal
    return {
        "format_version": FORMAT_VERSION,
        "family": "hand-and-foot",
        "variant": state.variant,
        "options": dict(state.options),
        "players": state.players,
        "seed": state.seed,
        "first_dealer": state.first_dealer,
        "version": state.version,
        "finished": state.finished,
        "winners": list(state.winners),
        "records": [{"dealer": r.dealer, "score": r.score.to_json()} for r in state.records],
        "last_deal": state.last_deal,
        "deal": {
            "number": deal.number,
            "dealer": deal.dealer,
            "players": deal.players,
            "seed": deal.seed,
            "hands": [[c.id for c in hand] for hand in deal.hands],
            "feet": [[c.id for c in foot] for foot in deal.feet],
            "picked_up": list(deal.picked_up),
            "stock": [c.id for c in deal.stock],
            "discard": [c.id for c in deal.discard],
            "melds": [meld.to_json() for meld in deal.melds],
            "next_meld_id": deal.next_meld_id,
            "opened": list(deal.opened),
            "opening_totals": list(deal.opening_totals),
            "minimum": deal.minimum,
            "turns": list(deal.turns),
            "current": deal.current,
            "phase": deal.phase,
            "turn": deal.turn.to_json(),
            "events": deal.events,
            "result": deal.result,
        },
    }


def from_json(data: dict[str, Any]) -> FootGame:
    """Rebuild a state stored by :func:`to_json`."""
    deck = deck_for(data["variant"], data["players"])
    d = data["deal"]

    def cards(ids):
        return [deck[i] for i in ids]

    deal = FootDeal(
        number=d["number"],
        dealer=d["dealer"],
        players=d["players"],
        seed=d["seed"],
        hands=[cards(hand) for hand in d["hands"]],
        feet=[cards(foot) for foot in d["feet"]],
        picked_up=list(d["picked_up"]),
        stock=cards(d["stock"]),
        discard=cards(d["discard"]),
        melds=[FootMeld(m["id"], m["side"], m["rank"], tuple(cards(m["cards"]))) for m in d["melds"]],
        next_meld_id=d["next_meld_id"],
        opened=list(d["opened"]),
        opening_totals=list(d["opening_totals"]),
        minimum=d["minimum"],
        turns=list(d["turns"]),
        current=d["current"],
        phase=d["phase"],
        turn=FootTurn(**d["turn"]),
        events=list(d["events"]),
        result=d["result"],
    )
    return FootGame(
        variant=data["variant"],
        options=dict(data["options"]),
        players=data["players"],
        seed=data["seed"],
        first_dealer=data["first_dealer"],
        deal=deal,
        records=[DealRecord(r["dealer"], DealScore.from_json(r["score"])) for r in data["records"]],
        version=data["version"],
        finished=data["finished"],
        winners=list(data["winners"]),
        last_deal=data["last_deal"],
    )
