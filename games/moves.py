"""A move from the play page, as a typed request, and how it becomes an engine action.

Pure functions of the engine state (of Django, only ``gettext_noop`` marks the sentences):
``games/forms.py`` reads the POST into a :class:`MoveRequest` once (every number bounded);
:func:`to_action` turns it into the engine action; games.services.playing locks, applies and saves.
Staged melds (put aside before laying down) are kept per seat on the server as a list of meld
specs; :func:`stage` and :func:`read_staged` check them against the state here.

Refusals are engine ``DomainError``\\ s with a sentence for the player (never naming a card they may
not see).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop

from games import engine
from games.engine import actions as engine_actions
from games.engine.handfoot_deal import is_wild as foot_wild
from games.engine.melds import face_text
from games.engine.meldspec import MeldSpec, choice_text, read_wild_as

# The buttons of the play page (``act``).
PLAY_ACTS = (
    "draw",
    "discard",
    "meld",  # the selected cards as one meld (or split into several), or an announcement
    "take",  # the top discard with the selected cards, as new melds
    "take_lay_off",  # the top discard (with the selected cards) laid off onto ``meld``
    "take_declare",  # kuwaiti: take the discard and declare a Hand
    "lay_off",  # the selected cards onto ``meld``
    "exchange",  # the selected natural card(s) for the wild card in ``meld``
    "offer",  # one of the ways the engine suggests (``option``: its index in :func:`offers`)
    "lay_down",  # every staged meld in one action
    "declare_hand",
    "redeal",
    "end_turn",  # Hand and Foot (002): end a turn in which the player ran to the foot, without a discard
)
STAGING_ACTS = ("stage", "stage_take", "unstage")  # put aside / with the discard / take back ``option``
ARRANGE_ACTS = (
    "group",  # the selected cards side by side in the hand, where the first of them is
    "arrange",  # the hand in the order ``order`` (a card dragged to another place)
)
ACTS = PLAY_ACTS + STAGING_ACTS + ARRANGE_ACTS

MAX_CARDS = 60  # more card ids than any hand holds
MAX_CARD_ID = 9999
MAX_VERSION = 10**9
MAX_OPTION = 99


@dataclass(frozen=True)
class MoveRequest:
    """One press of a button on the play page. ``problem`` is set (a sentence) when the POST did not
    make a move; it is shown only after the membership check."""

    act: str = ""
    version: int | None = None
    cards: tuple[int, ...] = ()
    meld: int | None = None
    option: int | None = None
    wild_as: tuple[tuple[int, str], ...] = ()
    order: tuple[int, ...] = ()
    sort: str = ""
    problem: str | None = None

    @property
    def is_staging(self) -> bool:
        return self.act in STAGING_ACTS

    @property
    def is_arranging(self) -> bool:
        return self.act in ARRANGE_ACTS

    def as_post(self, version: int | None = None) -> dict:
        """The POST fields of this press (the inverse of games.forms.MoveForm), for tests and benches."""
        data: dict = {"act": self.act}
        if version is not None or self.version is not None:
            data["version"] = self.version if version is None else version
        if self.cards:
            data["cards"] = list(self.cards)
        if self.meld is not None:
            data["meld"] = self.meld
        if self.option is not None:
            data["option"] = self.option
        if self.wild_as:
            data["wild"] = [choice_text(card_id, face) for card_id, face in self.wild_as]
        if self.order:
            data["order"] = list(self.order)
        if self.sort:
            data["sort"] = self.sort
        return data

    def spec(self, cards) -> dict:
        """The meld spec of ``cards`` with the wild cards named among them (games.engine.meldspec)."""
        return MeldSpec.of(cards, self.wild_as).to_json()


@dataclass
class StagedMeld:
    """A meld put aside before laying down, as the page shows it."""

    spec: dict  # a meld spec as JSON (games.engine.meldspec.MeldSpec.to_json)
    cards: list[dict]  # [{"id", "face", "plays_as"}] in the meld's order
    value: int | None  # its value for the opening (None: the engine decides when it is laid down)
    with_discard: bool


def offers(legal: list[dict]) -> list[dict]:
    """The complete moves the page offers as buttons (ways to take the discard, wild exchanges), from
    the engine's legal actions, in a fixed order: ``act=offer&option=N`` names the Nth."""
    result = [action for action in legal if action["type"] in ("take_discard", "take_pile")]
    for action in legal:
        if action["type"] == "exchange":
            result.extend(action["options"])
    return result


def meld_kind(state: engine.GameState, seat: int, kind: str = "meld") -> str:
    """Laying down melds is an announcement for a kuwaiti player who has not announced yet."""
    variant = engine.HAND_VARIANTS[state.variant]
    if variant.opening == "announcement" and not state.deal.opened[seat]:
        return "announce"
    return kind


def _need_cards(request: MoveRequest, sentence: str) -> list[int]:
    if not request.cards:
        raise engine.IllegalAction(sentence)
    return list(request.cards)


def _need_meld(request: MoveRequest) -> int:
    if request.meld is None:
        raise engine.IllegalAction(gettext_noop("Choose a meld on the table."))
    return request.meld


def _top(state: engine.GameState):
    if not state.deal.discard:
        raise engine.IllegalAction(gettext_noop("The discard pile is empty."))
    return state.deal.discard[-1]


def hand_action(state: engine.GameState, seat: int, request: MoveRequest, staged: list[dict]) -> dict:
    """A Hand-family press as the engine action (the melds from the selection, the staged melds laid
    down, a named wild card...)."""
    act = request.act
    if act in ("draw", "declare_hand", "redeal"):
        return {"type": act}
    if act == "discard":
        if len(request.cards) != 1:
            raise engine.IllegalAction(gettext_noop("Select exactly one card to discard."))
        return {"type": "discard", "card": request.cards[0]}
    if act == "meld":
        cards = _need_cards(request, gettext_noop("Select the cards to meld first."))
        melds = melds_from_selection(state, seat, cards, request.wild_as)
        return {"type": meld_kind(state, seat), "melds": melds}
    if act == "take":
        top = _top(state)
        cards = _need_cards(
            request, gettext_noop("Select the cards from your hand that go with the discard.")
        )
        melds = melds_from_selection(state, seat, cards, request.wild_as, extra=top)
        return {"type": "take_discard", "melds": melds}
    if act == "take_lay_off":
        top = _top(state)
        layoff = {"meld": _need_meld(request), **request.spec([top.id, *request.cards])}
        return {"type": "take_discard", "lay_off": layoff}
    if act == "take_declare":
        return {"type": "take_discard", "declare_hand": True}
    if act == "lay_off":
        meld = _need_meld(request)
        cards = _need_cards(request, gettext_noop("Select the cards to lay off first."))
        return {"type": "lay_off", "meld": meld, **request.spec(cards)}
    if act == "exchange":
        meld = _need_meld(request)
        cards = _need_cards(request, gettext_noop("Select the card that takes the wild card's place."))
        return {"type": "exchange", "meld": meld, "cards": cards}
    if act == "offer":
        offered = offers(engine.legal_actions(state, seat))
        if request.option is None or request.option >= len(offered):
            raise engine.IllegalAction(gettext_noop("That move is no longer possible."))
        return offered[request.option]
    if act == "lay_down":
        return lay_down_action(state, seat, staged)
    raise engine.IllegalAction(gettext_noop("That is not a move."))


def group_by_rank(cards) -> list[list]:
    """Hand and Foot: selected cards as melds of one rank each. Natural cards are grouped by rank; a
    wild card goes first to a group of two naturals (which needs one to be a meld), then to the
    largest group that still has more naturals than wild cards. The engine checks the result."""
    groups: dict[int, list] = {}
    wilds = []
    for card in cards:
        if foot_wild(card):
            wilds.append(card)
        else:
            groups.setdefault(card.rank, []).append(card)
    melds = sorted(groups.values(), key=lambda g: -len(g))
    extra = {id(g): 0 for g in melds}
    for wild in wilds:
        needy = [g for g in melds if len(g) == 2 and extra[id(g)] == 0]
        room = [g for g in melds if len(g) - extra[id(g)] > extra[id(g)] + 1]
        target = (needy or room or melds or [None])[0]
        if target is None:
            melds.append([wild])  # wild cards alone: the engine says why that is no meld
            extra[id(melds[-1])] = 1
            continue
        target.append(wild)
        extra[id(target)] += 1
    return melds


def foot_action(state, seat: int, request: MoveRequest, staged: list[dict] = ()) -> dict:
    """A Hand and Foot press as the engine action: draw, take the pile (the selected cards of the top
    card's rank go with it; the others, 002 before opening, are the rest of the opening), meld (the
    selected cards grouped by rank, in one action), lay off, discard, end the turn, or an offer.
    Nothing is staged in Hand and Foot (``staged`` is unused)."""
    act = request.act
    hand = {card.id: card for card in state.deal.hands[seat]}
    if act in ("draw", "end_turn"):
        return {"type": act}
    if act == "discard":
        if len(request.cards) != 1:
            raise engine.IllegalAction(gettext_noop("Select exactly one card to discard."))
        return {"type": "discard", "card": request.cards[0]}
    if act in ("meld", "take"):
        cards = list(request.cards)
        if any(card_id not in hand for card_id in cards):
            raise engine.InvalidCards(gettext_noop("You do not hold one of those cards."))
        if act == "meld":
            if not cards:
                raise engine.IllegalAction(gettext_noop("Select the cards to meld first."))
            return {
                "type": "meld",
                "melds": [[c.id for c in m] for m in group_by_rank([hand[i] for i in cards])],
            }
        top = _top(state)
        with_top = [i for i in cards if hand[i].rank == top.rank]
        rest = [hand[i] for i in cards if hand[i].rank != top.rank]
        action: dict = {"type": "take_pile", "cards": with_top}
        if rest:
            action["melds"] = [[c.id for c in m] for m in group_by_rank(rest)]
        return action
    if act == "lay_off":
        meld = _need_meld(request)
        cards = _need_cards(request, gettext_noop("Select the cards to lay off first."))
        return {"type": "lay_off", "meld": meld, "cards": cards}
    if act == "offer":
        offered = offers(engine.legal_actions(state, seat))
        if request.option is None or request.option >= len(offered):
            raise engine.IllegalAction(gettext_noop("That move is no longer possible."))
        return offered[request.option]
    raise engine.IllegalAction(gettext_noop("That is not a move."))


def melds_from_selection(
    state: engine.GameState, seat: int, ids: list[int], wild_as=(), extra=None
) -> list[dict]:
    """The selected cards (plus ``extra``, the top discard) as one meld, or else split into several
    melds (the solver's way). ``wild_as``: (wild card id, face) the player named."""
    hand = {card.id: card for card in state.deal.hands[seat]}
    if len(set(ids)) != len(ids) or any(card_id not in hand for card_id in ids):
        raise engine.InvalidCards(gettext_noop("You do not hold one of those cards."))
    cards = [hand[card_id] for card_id in ids] + ([extra] if extra is not None else [])
    named = MeldSpec.of([card.id for card in cards], wild_as)
    wilds, rules = engine_actions.wilds_of(state), engine_actions.rules_of(state)
    if extra is not None and wilds.is_wild(extra):
        # A wild card taken from the discard pile plays as a natural ace: the engine reads it itself.
        return [named.to_json()]
    try:
        meld = engine.make_meld(cards, wilds, rules, named.pins or None)
    except engine.AmbiguousWild:
        raise
    except engine.MeldError:
        split = engine.meld_partition(cards, wilds, rules) if len(cards) >= 6 else None
        if split:
            return [MeldSpec.from_meld(m, wilds).to_json() for m in split]
        raise
    return [MeldSpec.from_meld(meld, wilds).to_json()]


def lay_down_action(state: engine.GameState, seat: int, staged: list[dict]) -> dict:
    """Every staged meld as ONE engine action: ``take_discard`` when a meld holds the top discard,
    else ``announce`` (kuwaiti, not announced yet) or ``meld``."""
    if not staged:
        raise engine.IllegalAction(gettext_noop("Add at least one meld before laying down."))
    top = state.deal.discard[-1].id if state.deal.discard else None
    if top is not None and any(top in MeldSpec.from_json(spec).cards for spec in staged):
        return {"type": "take_discard", "melds": staged}
    return {"type": meld_kind(state, seat), "melds": staged}


def _read_one(
    state: engine.GameState, seat: int, spec: dict, taken: set[int], discard_used: bool
) -> StagedMeld:
    hand = {card.id: card for card in state.deal.hands[seat]}
    top = state.deal.discard[-1] if state.deal.discard else None
    wilds, rules = engine_actions.wilds_of(state), engine_actions.rules_of(state)
    named = MeldSpec.from_json(spec)
    ids = list(named.cards)
    with_discard = top is not None and top.id in ids
    if with_discard and (state.deal.phase != engine.DRAW or state.deal.current != seat):
        raise engine.IllegalAction(gettext_noop("You can take the discard only instead of drawing."))
    if with_discard and discard_used:
        raise engine.IllegalAction(gettext_noop("The discard goes into one meld only."))
    if taken & set(ids) or len(set(ids)) != len(ids):
        raise engine.InvalidCards(gettext_noop("A card can be in one meld only."))
    if any(card_id not in hand and not (with_discard and card_id == top.id) for card_id in ids):
        raise engine.InvalidCards(gettext_noop("You do not hold one of those cards."))
    cards = [hand.get(card_id) or top for card_id in ids]
    try:
        meld = engine.make_meld(cards, wilds, rules, named.pins or None)
    except engine.AmbiguousWild:
        raise
    except engine.MeldError:
        if not (with_discard and wilds.is_wild(top)):
            raise
        # A wild card from the discard pile plays only as a natural ace: the engine reads it.
        shown = [{"id": c.id, "face": c.face, "plays_as": ""} for c in cards]
        return StagedMeld(
            spec=named.to_json(),
            cards=shown,
            value=None,
            with_discard=True,
        )
    shown = [
        {"id": card.id, "face": card.face, "plays_as": face_text(face) if wilds.is_wild(card) else ""}
        for card, face in zip(meld.cards, meld.plays_as, strict=True)
    ]
    return StagedMeld(
        spec=MeldSpec.from_meld(meld, wilds).to_json(),
        cards=shown,
        value=engine.meld_value(meld, rules),
        with_discard=with_discard,
    )


def hand_staged(state: engine.GameState, seat: int, specs: list[dict]) -> list[StagedMeld]:
    """The staged melds that still hold in this state (a card discarded since, a discard staged before
    drawing...: that meld is dropped, the others stay)."""
    result: list[StagedMeld] = []
    taken: set[int] = set()
    for spec in specs:
        try:
            meld = _read_one(state, seat, spec, taken, any(m.with_discard for m in result))
        except engine.DomainError:
            continue
        taken |= set(MeldSpec.from_json(meld.spec).cards)
        result.append(meld)
    return result


def hand_stage(state: engine.GameState, seat: int, staged: list[dict], request: MoveRequest) -> list[dict]:
    """The staged melds after ``request`` (stage / stage_take / unstage). Raises DomainError (an
    AmbiguousWild when a wild card must be named)."""
    current = hand_staged(state, seat, staged)
    specs = [meld.spec for meld in current]
    if request.act == "unstage":
        if request.option is not None and request.option < len(specs):
            del specs[request.option]
        return specs
    cards = _need_cards(request, gettext_noop("Select the cards to meld first."))
    if request.act == "stage_take":
        cards = [*cards, _top(state).id]
    taken = {card_id for meld in current for card_id in MeldSpec.from_json(meld.spec).cards}
    added = _read_one(state, seat, request.spec(cards), taken, any(m.with_discard for m in current))
    return [*specs, added.spec]


def wild_choices(state: engine.GameState, error: engine.AmbiguousWild) -> list[tuple[int, str]]:
    """[(wild card id, face)] the player may name, from the engine's readings."""
    wilds = engine_actions.wilds_of(state)
    choices: list[tuple[int, str]] = []
    for meld in error.choices:
        for card, face in zip(meld.cards, meld.plays_as, strict=True):
            if wilds.is_wild(card) and face[1]:
                choice = (card.id, face_text(face))
                if choice not in choices:
                    choices.append(choice)
    return choices


def _common_requests(state, seat: int, action: dict) -> list[MoveRequest] | None:
    """The presses that make ``action`` the same way in both families, or None."""
    kind = action["type"]
    if kind in ("draw", "declare_hand", "redeal", "end_turn"):
        return [MoveRequest(act=kind)]
    if kind == "discard":
        return [MoveRequest(act="discard", cards=(action["card"],))]
    if kind in ("lay_off", "exchange"):
        pins = tuple(read_wild_as(action.get("wild_as")).items())
        return [MoveRequest(act=kind, meld=action["meld"], cards=tuple(action["cards"]), wild_as=pins)]
    offered = offers(engine.legal_actions(state, seat))
    if action in offered:
        return [MoveRequest(act="offer", option=offered.index(action))]
    return None


def hand_requests(state: engine.GameState, seat: int, action: dict) -> list[MoveRequest]:
    """The presses that make a Hand-family ``action`` (staging first where it lays down several melds)."""
    common = _common_requests(state, seat, action)
    if common is not None:
        return common
    kind = action["type"]
    if kind == "take_discard" and action.get("declare_hand"):
        return [MoveRequest(act="take_declare")]
    if kind == "take_discard" and action.get("lay_off") and not action.get("melds"):
        layoff = action["lay_off"]
        top = state.deal.discard[-1].id
        pins = tuple(read_wild_as(layoff.get("wild_as")).items())
        rest = tuple(i for i in layoff["cards"] if i != top)
        return [MoveRequest(act="take_lay_off", meld=layoff["meld"], cards=rest, wild_as=pins)]
    if kind in ("meld", "announce", "take_discard") and action.get("melds") and not action.get("lay_off"):
        top = state.deal.discard[-1].id if kind == "take_discard" else None
        presses: list[MoveRequest] = []
        for spec in map(MeldSpec.from_json, action["melds"]):
            if top is not None and top in spec.cards:
                rest = tuple(i for i in spec.cards if i != top)
                presses.append(MoveRequest(act="stage_take", cards=rest, wild_as=spec.wild_as))
            else:
                presses.append(MoveRequest(act="stage", cards=spec.cards, wild_as=spec.wild_as))
        return [*presses, MoveRequest(act="lay_down")]
    raise ValueError(f"no button makes {action!r}")


def foot_requests(state, seat: int, action: dict) -> list[MoveRequest]:
    """The presses that make a Hand and Foot ``action``: its melds are one press of their cards."""
    kind = action["type"]
    if kind == "meld":
        return [MoveRequest(act="meld", cards=tuple(i for spec in action["melds"] for i in spec))]
    if kind == "take_pile" and action not in offers(engine.legal_actions(state, seat)):
        extra = tuple(i for spec in action.get("melds") or [] for i in spec)
        return [MoveRequest(act="take", cards=(*action["cards"], *extra))]
    common = _common_requests(state, seat, action)
    if common is not None:
        return common
    raise ValueError(f"no button makes {action!r}")


# --- The order of a hand -------------------------------------------------------------------------

SORTS = ("suit", "rank", "own")
"""How the hand is shown: by suit, by rank, or in the player's own order (kept per seat)."""
SUIT_ORDER = {"S": 0, "H": 1, "C": 2, "D": 3, "": 4}
RANK_ORDER = {"A": 1, "J": 11, "Q": 12, "K": 13, "JK": 20}
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def split_face(face: str) -> tuple[str, str]:
    if face == "JK":
        return "JK", ""
    return face[:-1], face[-1]


def sort_key(card: dict, sort: str):
    rank, suit = split_face(card["face"])
    rank_number = RANK_ORDER.get(rank) or int(rank)
    if sort == "rank":
        return (rank_number, SUIT_ORDER[suit], card["id"])
    return (SUIT_ORDER[suit], rank_number, card["id"])


def own_order(stored, state) -> list[int]:
    """The card ids of a seat's own order (``Seat.hand_order``) when it was made in this deal, else []."""
    if (
        not isinstance(stored, dict)
        or state is None
        or stored.get("deal") != [state.deal.number, state.deal.attempt]
    ):
        return []
    cards = stored.get("cards")
    return [i for i in cards if isinstance(i, int)] if isinstance(cards, list) else []


def effective_sort(sort: str, own: list[int]) -> str:
    """The asked sort; without one, the player's own order when they have one, else by suit."""
    if sort in SORTS and (sort != "own" or own):
        return sort
    return "own" if own else "suit"


def ordered_hand(cards: list[dict], sort: str, own: list[int]) -> list[dict]:
    """The hand's cards (``{"id", "face"}``) as shown: sorted, or in the own order (cards not in it, a
    card drawn since, come last, by suit)."""
    if sort != "own":
        return sorted(cards, key=lambda c: sort_key(c, sort))
    position = {card_id: index for index, card_id in enumerate(own)}
    known = sorted((c for c in cards if c["id"] in position), key=lambda c: position[c["id"]])
    new = sorted((c for c in cards if c["id"] not in position), key=lambda c: sort_key(c, "suit"))
    return known + new


def arranged(shown: list[int], request: MoveRequest) -> list[int]:
    """The hand's new own order after ``group`` or ``arrange`` (``shown``: the ids as the page showed
    them). Raises IllegalAction with a sentence when the request names a card not in the hand."""
    held = set(shown)
    if request.act == "group":
        chosen = [i for i in request.cards if i in held]
        if not chosen or len(chosen) != len(request.cards):
            raise engine.IllegalAction(gettext_noop("Select the cards to put side by side first."))
        picked = set(chosen)
        first = min(shown.index(i) for i in chosen)
        before = [i for i in shown[:first] if i not in picked]
        after = [i for i in shown[first:] if i not in picked]
        return before + [i for i in shown if i in picked] + after
    order = list(request.order)
    if not order or len(set(order)) != len(order) or not set(order) <= held:
        raise engine.IllegalAction(gettext_noop("Your hand has changed; try again."))
    return order + [i for i in shown if i not in set(order)]


# --- A refusal names the cards ------------------------------------------------------------------


def card_words(face: str) -> str:
    """A card as players write it: "7♣", "10♥", "🃏"."""
    rank, suit = split_face(face)
    return "🃏" if rank == "JK" else rank + SUIT_SYMBOLS[suit]


TRIED = {
    "lay_off": gettext_noop("{cards} onto meld {meld}"),
    "exchange": gettext_noop("{cards} for the wild card in meld {meld}"),
    "take_lay_off": gettext_noop("{card} from the discard pile onto meld {meld}"),
    "take_lay_off+cards": gettext_noop("{card} from the discard pile and {cards} onto meld {meld}"),
    "take": gettext_noop("{card} from the discard pile with {cards}"),
    "take_declare": gettext_noop("{card} from the discard pile and a Hand"),
    "meld": gettext_noop("{cards} as melds"),
}
"""What the player tried, in words, to name the cards in a refusal ("7♣ 8♣ onto meld 3: ...")."""


def hand_tried(state: engine.GameState, seat: int, request: MoveRequest) -> tuple[str, dict] | None:
    """(template, params) of what a Hand-family ``request`` tried, naming its cards, or None (a move
    that names no cards, or a card the player does not hold: a refusal never names a card the player
    may not see)."""
    if request.act not in {key.split("+")[0] for key in TRIED}:
        return None
    hand = {card.id: card for card in state.deal.hands[seat]}
    if any(card_id not in hand for card_id in request.cards):
        return None
    # (an Arabic catalogue isolates each placeholder: handsite/catalogue.py)
    params: dict = {"cards": " ".join(card_words(hand[i].face) for i in request.cards), "meld": request.meld}
    key = request.act
    if key in ("take_lay_off", "take", "take_declare"):
        if not state.deal.discard:
            return None
        params["card"] = card_words(state.deal.discard[-1].face)
        if key == "take_lay_off" and request.cards:
            key = "take_lay_off+cards"
    if "{cards}" in TRIED[key] and not request.cards:
        return None
    if "{meld}" in TRIED[key] and request.meld is None:
        return None
    return TRIED[key], params


# --- Each family's presses ---------------------------------------------------------------------


def _nothing_staged(state, seat: int, specs: list[dict]) -> list[StagedMeld]:
    return []


def _no_staging(state, seat: int, staged: list[dict], request: MoveRequest) -> list[dict]:
    raise engine.IllegalAction(gettext_noop("That is not a move."))


def _names_nothing(state, seat: int, request: MoveRequest) -> None:
    return None


@dataclass(frozen=True)
class FamilyMoves:
    """How the play page's presses work in one family of rule sets: the engine action of a press
    (``to_action``), the melds put aside (``read_staged``, ``stage``), the presses that make an action
    (``requests_for``) and what a refused press tried, in words (``tried``); whether a player puts melds
    aside before laying them down (``stages``) and keeps their own order of the hand (``arranges``).
    Hand and Foot stages nothing, keeps no order of its own and names no card in a refusal."""

    name: str
    to_action: Callable[[Any, int, MoveRequest, list[dict]], dict]
    read_staged: Callable[[Any, int, list[dict]], list[StagedMeld]]
    stage: Callable[[Any, int, list[dict], MoveRequest], list[dict]]
    requests_for: Callable[[Any, int, dict], list[MoveRequest]]
    tried: Callable[[Any, int, MoveRequest], tuple[str, dict] | None]
    stages: bool = True
    arranges: bool = True


FAMILY_MOVES = {
    moves.name: moves
    for moves in (
        FamilyMoves("hand", hand_action, hand_staged, hand_stage, hand_requests, hand_tried),
        FamilyMoves(
            "hand-and-foot",
            foot_action,
            _nothing_staged,
            _no_staging,
            foot_requests,
            _names_nothing,
            stages=False,
            arranges=False,
        ),
    )
}


def moves_of(state) -> FamilyMoves:
    """The presses of the game's family (found from its rule set)."""
    return FAMILY_MOVES[engine.family_of(state.variant).name]


def to_action(state, seat: int, request: MoveRequest, staged: list[dict]) -> dict:
    """The engine action for a (non-staging) request; the engine then checks everything."""
    return moves_of(state).to_action(state, seat, request, staged)


def read_staged(state, seat: int, specs: list[dict]) -> list[StagedMeld]:
    """The staged melds that still hold in this state (none in Hand and Foot)."""
    return moves_of(state).read_staged(state, seat, specs)


def stage(state, seat: int, staged: list[dict], request: MoveRequest) -> list[dict]:
    """The staged melds after ``request`` (stage / stage_take / unstage); a DomainError when refused
    (an AmbiguousWild when a wild card must be named)."""
    return moves_of(state).stage(state, seat, staged, request)


def requests_for(state, seat: int, action: dict) -> list[MoveRequest]:
    """The presses of the page's buttons that make the engine ``action`` (the inverse of
    :func:`to_action`). For tests, benches and bots driving the views."""
    return moves_of(state).requests_for(state, seat, action)


def tried(state, seat: int, request: MoveRequest) -> tuple[str, dict] | None:
    """(template, params) of what ``request`` tried, naming its cards, or None."""
    return moves_of(state).tried(state, seat, request)
