"""Scoring of one deal of the Hand family (``hand-family.md`` sections 3 and 6).

Scores are pure functions of a deal's *facts* (:class:`HandDealFacts`): who went out and how,
who had opened (kuwaiti: announced), and what every other player still holds — as cards, or as
typed points when a table game is logged. Impossible facts raise a :class:`DomainError` with a
sentence a player understands, so the same code serves online play and the table score sheets.

Every number that makes up a score is a :class:`ScorePart` (an untranslated, ``_``-marked label
template with its parameters and points), so a sheet can show the breakdown of each score.
Positive points are bad in the Hand family.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from .cards import ACE, JOKER, Card, format_cards
from .errors import DomainError, InvalidOptions, _
from .melds import MeldRules, Wilds, make_meld, meld_value
from .variants import HandVariant, check_players, face_limits, resolve_variant
from .variants import sides as seat_sides

FINISHES = ("normal", "hand")
"""Ways of going out in classic, saudi, jordanian and egyptian."""

HAND_NAMES = (
    "announcement",
    "regular",
    "colored",
    "suited",
    "joker",
    "double_joker",
    "joker_colored",
    "joker_suited",
    "double_joker_colored",
    "double_joker_suited",
)
"""The rows of the kuwaiti table (egyptian uses all but ``announcement`` for its special hands)."""


class InvalidFacts(DomainError):
    """Facts of a deal that cannot have happened (two winners, a negative count, a hand no cards make)."""


@dataclass(frozen=True)
class HandRow:
    """One row of the scoring table: what the winner scores and what each opponent scores."""

    name: str
    label: str  # untranslated, ``_``-marked
    winner: int  # the winner's score
    multiplier: int  # an opened (announced) opponent scores this times the value of their hand
    not_opened: int  # an opponent who had not opened (announced)
    irregularity: int  # kuwaiti table-only penalty, keyed by the winner's hand


KUWAITI_TABLE: MappingProxyType[str, HandRow] = MappingProxyType(
    {
        row.name: row
        for row in (
            # hand-family.md section 6, kuwaiti table and irregularity chart, copied as written.
            HandRow("announcement", _("Announcement"), -30, 1, 100, 150),
            HandRow("regular", _("Regular Hand"), -60, 2, 200, 300),
            HandRow("colored", _("Colored Hand"), -120, 4, 400, 600),
            HandRow("suited", _("Suited Hand"), -240, 8, 800, 1200),
            HandRow("joker", _("Joker Hand"), -120, 4, 400, 600),
            HandRow("double_joker", _("Double Joker Hand"), -240, 8, 800, 1200),
            HandRow("joker_colored", _("Joker Colored Hand"), -240, 8, 800, 1200),
            HandRow("joker_suited", _("Joker Suited Hand"), -480, 16, 1200, 1800),
            HandRow("double_joker_colored", _("Double Joker Colored Hand"), -480, 32, 1600, 3200),
            HandRow("double_joker_suited", _("Double Joker Suited Hand"), -720, 64, 3200, 6400),
        )
    }
)

STANDARD_TABLE: MappingProxyType[str, HandRow] = MappingProxyType(
    {
        # classic, saudi, jordanian (and egyptian without a special hand): section 6, first table.
        "normal": HandRow("normal", _("Went out"), -30, 1, 100, 0),
        "hand": HandRow("hand", _("Went out “Hand”"), -60, 2, 200, 0),
    }
)

MAX_HELD_CARDS = 14
"""The most cards a player who did not go out can hold at the end of a deal (14 dealt; every turn
draws one and discards one, and a taken discard must be melded at once)."""


# --- Results -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScorePart:
    """One number of a score, for the breakdown: ``label.format(**params)`` after translation.

    ``seat`` says whose part it is (useful in a team's breakdown); ``None`` for the side as a whole.
    """

    label: str
    params: dict
    points: int
    seat: int | None = None

    def text(self, translate=None) -> str:
        """The label filled in, e.g. ``"Cards left: KS 7H JK = 32"``."""
        template = translate(self.label) if translate else self.label
        return template.format(**self.params) if self.params else template


@dataclass(frozen=True)
class SideScore:
    """The score of one side (a seat, or a team of seats) in one deal; ``points`` = sum of the parts."""

    seats: tuple[int, ...]
    points: int
    parts: tuple[ScorePart, ...] = ()


@dataclass(frozen=True)
class DealScore:
    """The scores of one deal. A ``void`` deal (stock exhausted) scores nothing and does not count.

    ``seat_figures`` is each seat's own figure for the deal (what it would score alone); in teams
    mode the player who went out has the team's figure and their partner 0 (their cards do not
    count). It decides the jordanian/egyptian next dealer. Empty means "same as points_by_seat".
    """

    sides: tuple[SideScore, ...]
    void: bool = False
    seat_figures: tuple[int, ...] = field(default=())

    @property
    def players(self) -> int:
        return sum(len(side.seats) for side in self.sides)

    def points_by_seat(self) -> tuple[int, ...]:
        """A side's points on each of its seats (a team's points on both partners' seats)."""
        points = [0] * self.players
        for side in self.sides:
            for seat in side.seats:
                points[seat] = side.points
        return tuple(points)

    def figures_by_seat(self) -> tuple[int, ...]:
        """Each seat's own figure (see the class docstring)."""
        return self.seat_figures or self.points_by_seat()

    def to_json(self) -> dict:
        """Plain JSON data (labels stay untranslated templates); :meth:`from_json` reads it back."""
        return {
            "void": self.void,
            "seat_figures": list(self.seat_figures),
            "sides": [
                {
                    "seats": list(side.seats),
                    "points": side.points,
                    "parts": [
                        {
                            "label": part.label,
                            "params": dict(part.params),
                            "points": part.points,
                            "seat": part.seat,
                        }
                        for part in side.parts
                    ],
                }
                for side in self.sides
            ],
        }

    @classmethod
    def from_json(cls, data: dict) -> DealScore:
        return cls(
            sides=tuple(
                SideScore(
                    tuple(side["seats"]),
                    side["points"],
                    tuple(
                        ScorePart(part["label"], dict(part["params"]), part["points"], part.get("seat"))
                        for part in side["parts"]
                    ),
                )
                for side in data["sides"]
            ),
            void=data["void"],
            seat_figures=tuple(data.get("seat_figures", ())),
        )


# --- Facts -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandDealFacts:
    """What happened in one Hand-family deal.

    - ``winner``: the seat that went out (kuwaiti: won), or ``None`` for a void deal.
    - ``finish``: ``"normal"`` or ``"hand"`` (:data:`FINISHES`); kuwaiti: a :data:`HAND_NAMES` row
      (``"normal"`` is read as ``"announcement"`` and ``"hand"`` as ``"regular"``); egyptian: also a
      special hand row (``"regular"`` is the same as ``"hand"``).
    - ``opened``: per seat, whether the player had opened (kuwaiti: announced). For the winner it
      means *before the turn in which they went out*: a "Hand" needs ``False``, a kuwaiti
      announcement win needs ``True``.
    - ``held``: per seat, the cards still held, or their typed points, or ``None`` where they do not
      matter (the winner; a player who had not opened; the winner's partner in teams mode).
    - ``irregular``: kuwaiti table games only: the seats marked with an irregularity.
    - ``teams``: partnership mode (4 players, seats 0+2 against 1+3); also on when
      ``options["teams"]`` is.
    - ``indicator``: jordanian/egyptian wild-card indicator; needed when held cards include a joker
      or an ace, because it decides what they are worth.
    """

    players: int
    winner: int | None
    finish: str = "normal"
    opened: tuple[bool, ...] = ()
    held: tuple[tuple[Card, ...] | int | None, ...] = ()
    irregular: tuple[bool, ...] = ()
    teams: bool = False
    indicator: Card | None = None


# --- Card values -------------------------------------------------------------------------------


def _variant(variant) -> HandVariant:
    variant = resolve_variant(variant)
    if not isinstance(variant, HandVariant):
        raise InvalidOptions(_("{name} is not scored as a Hand game."), name=variant.name)
    return variant


def deal_wilds(variant, indicator: Card | None = None) -> Wilds:
    """The wild cards of a deal (``melds.Wilds``); the indicator only counts where the rule set has one."""
    return Wilds(indicator if _variant(variant).indicator else None)


def penalty_value(card: Card, variant, wilds=None) -> int:
    """What a card left in hand costs (``hand-family.md`` section 3, "left in hand").

    Wild card 15 (kuwaiti 20); ace 11; K Q J 10; 2-10 face value. A printed joker that is a natural
    ace (jordanian/egyptian, indicator not an ace) is an ace: 11. ``wilds`` is anything with
    ``is_wild(card)`` (``melds.Wilds``); ``None`` means the jokers are wild.
    """
    variant = _variant(variant)
    if wilds is None:
        wilds = Wilds()
    if wilds.is_wild(card):
        return variant.wild_penalty
    if card.rank in (ACE, JOKER):
        return 11
    return min(card.rank, 10)


def max_held_value(variant) -> int:
    """The most that cards left in one hand can be worth: 14 cards, two of them wild, the rest aces.

    A typed value above this (or below 2, the lowest card) is "a hand value no cards could make".
    """
    variant = _variant(variant)
    return 2 * variant.wild_penalty + (MAX_HELD_CARDS - 2) * 11


# --- Validation helpers ------------------------------------------------------------------------


def _number(seat: int) -> int:
    return seat + 1


def winner_from_flags(went_out: Sequence[bool]) -> int | None:
    """The seat marked as having gone out, ``None`` if nobody is; two or more is refused."""
    seats = [seat for seat, flag in enumerate(went_out) if flag]
    if len(seats) > 1:
        raise InvalidFacts(
            _("Only one player can go out in a deal; players {first} and {second} are both marked."),
            first=_number(seats[0]),
            second=_number(seats[1]),
        )
    return seats[0] if seats else None


def _holds_nothing(held) -> bool:
    if held is None:
        return True
    if isinstance(held, tuple | list):
        return len(held) == 0
    return held == 0 and not isinstance(held, bool)


def _check_seat(seat: object, players: int) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise InvalidFacts(
            _("Player {number} is not in this game (it has {players} players)."),
            number=_number(seat) if isinstance(seat, int) else seat,
            players=players,
        )
    return seat


def _per_seat(values: tuple, players: int, what: str, default=None) -> tuple:
    if not values and default is not None:
        return (default,) * players
    if len(values) != players:
        raise InvalidFacts(
            _("The deal has {players} players but {count} values for “{what}”."),
            players=players,
            count=len(values),
            what=what,
        )
    return tuple(values)


def _resolve_row(variant: HandVariant, finish: str) -> HandRow:
    if variant.scoring == "kuwaiti":
        name = {"normal": "announcement", "hand": "regular"}.get(finish, finish)
        if name in KUWAITI_TABLE:
            return KUWAITI_TABLE[name]
    elif finish in STANDARD_TABLE:
        return STANDARD_TABLE[finish]
    elif variant.scoring == "egyptian":
        if finish == "regular":
            return STANDARD_TABLE["hand"]
        if finish in KUWAITI_TABLE and finish != "announcement":
            return KUWAITI_TABLE[finish]
    if finish in HAND_NAMES:
        raise InvalidFacts(
            _("{hand} is a kuwaiti hand; {name} does not score it."),
            hand=KUWAITI_TABLE[finish].label,
            name=variant.name,
        ).about(fact="finish")
    raise InvalidFacts(
        _("“{finish}” is not a way to go out in {name}."), finish=finish, name=variant.name
    ).about(fact="finish")


def _check_winner_opened(variant: HandVariant, row: HandRow, winner: int, opened: bool) -> None:
    kuwaiti = variant.scoring == "kuwaiti"
    if row.name == "normal":
        return
    if row.name == "announcement":
        if not opened:
            raise InvalidFacts(
                _("Player {number} had not announced, so they cannot win by announcement."),
                number=_number(winner),
            ).about(seat=winner, fact="finish")
        return
    if opened:
        if kuwaiti:
            raise InvalidFacts(
                _("Player {number} had announced, and a player who has announced may not declare a Hand."),
                number=_number(winner),
            ).about(seat=winner, fact="finish")
        raise InvalidFacts(
            _("Player {number} had already opened, so they cannot go out “Hand”."),
            number=_number(winner),
        ).about(seat=winner, fact="finish")


def _held_value(variant: HandVariant, seat: int, held, wilds, indicator: Card | None) -> ScorePart:
    """The breakdown part for what an opened opponent still holds (validated)."""
    if held is None:
        raise InvalidFacts(
            _("Say what player {number} still holds: they had opened, so their cards count."),
            number=_number(seat),
        ).about(seat=seat, fact="held")
    if isinstance(held, bool):
        raise InvalidFacts(
            _("What player {number} holds must be cards or points."), number=_number(seat)
        ).about(seat=seat, fact="held")
    if isinstance(held, int):
        highest = max_held_value(variant)
        if held < 0:
            raise InvalidFacts(
                _("Player {number}'s cards cannot be worth a negative number of points ({points})."),
                number=_number(seat),
                points=held,
            ).about(seat=seat, fact="held")
        if held < 2:
            raise InvalidFacts(
                _(
                    "Player {number} had opened and did not go out, so they hold at least one card, "
                    "worth at least 2; {points} is not possible."
                ),
                number=_number(seat),
                points=held,
            ).about(seat=seat, fact="held")
        if held > highest:
            raise InvalidFacts(
                _("No cards left in one hand are worth {points}; the most is {highest}."),
                number=_number(seat),
                points=held,
                highest=highest,
            ).about(seat=seat, fact="held")
        return ScorePart(_("Cards left: {value}"), {"value": held}, held, seat)
    cards = tuple(held)
    if not cards:
        raise InvalidFacts(
            _("Player {number} did not go out, so they still hold at least one card."),
            number=_number(seat),
        ).about(seat=seat, fact="held")
    if len(cards) > MAX_HELD_CARDS:
        raise InvalidFacts(
            _("Player {number} cannot hold {count} cards at the end of a deal; the most is {most}."),
            number=_number(seat),
            count=len(cards),
            most=MAX_HELD_CARDS,
        ).about(seat=seat, fact="held")
    if variant.indicator and indicator is None and any(c.rank in (ACE, JOKER) for c in cards):
        raise InvalidFacts(
            _("Say which card was the wild-card indicator: it decides what jokers and aces are worth.")
        ).about(seat=seat, fact="indicator")
    value = sum(penalty_value(card, variant, wilds) for card in cards)
    return ScorePart(
        _("Cards left: {cards} = {value}"), {"cards": format_cards(cards), "value": value}, value, seat
    )


def _check_card_counts(variant: HandVariant, players: int, held: tuple, indicator: Card | None) -> None:
    """No face can appear more often than the decks hold it."""
    counts: Counter = Counter()
    for cards in held:
        if isinstance(cards, tuple | list):
            counts.update(card.face for card in cards)
    if indicator is not None:
        counts[indicator.face] += 1
    limits = face_limits(variant, players)
    for face, count in counts.items():
        if count > limits[face]:
            raise InvalidFacts(
                _("The cards of this game hold {most} × {face}, not {count}."),
                most=limits[face],
                face=face,
                count=count,
            )


# --- Scoring -----------------------------------------------------------------------------------


def _seat_figure(
    variant: HandVariant, row: HandRow, seat: int, opened: bool, held, irregular: bool, wilds, indicator
) -> tuple[int, tuple[ScorePart, ...]]:
    """What one opponent of the winner scores alone, with its parts."""
    announce = variant.scoring == "kuwaiti"
    if irregular:
        label = _("Irregularity ({hand})")
        return row.irregularity, (ScorePart(label, {"hand": row.label}, row.irregularity, seat),)
    if not opened:
        if isinstance(held, int) and not isinstance(held, bool) and held < 0:
            raise InvalidFacts(
                _("Player {number}'s cards cannot be worth a negative number of points ({points})."),
                number=_number(seat),
                points=held,
            ).about(seat=seat, fact="held")
        label = _("Not announced") if announce else _("Not opened")
        return row.not_opened, (ScorePart(label, {}, row.not_opened, seat),)
    base = _held_value(variant, seat, held, wilds, indicator)
    parts = [base]
    if row.multiplier != 1:
        extra = base.points * (row.multiplier - 1)
        parts.append(
            ScorePart(
                _("{hand}: ×{multiplier}"), {"hand": row.label, "multiplier": row.multiplier}, extra, seat
            )
        )
    return base.points * row.multiplier, tuple(parts)


def score_hand_deal(variant, options: dict | None, facts: HandDealFacts) -> DealScore:
    """Score one Hand-family deal from its facts (``hand-family.md`` section 6).

    ``variant`` is a :class:`HandVariant` or its slug. Raises :class:`InvalidFacts` (a
    :class:`DomainError`) for facts that cannot have happened and :class:`InvalidOptions` for a
    mode the rule set does not have (teams in kuwaiti, teams with other than 4 players).
    """
    variant = _variant(variant)
    options = options or {}
    players = facts.players
    check_players(variant, players, InvalidFacts)
    teams = bool(facts.teams or options.get("teams"))
    if teams and not variant.teams_allowed:
        raise InvalidOptions(_("{name} has no partnership mode."), name=variant.name)
    if teams and players != 4:
        raise InvalidOptions(_("Partnership play needs exactly 4 players."))
    sides = seat_sides(players, teams)

    if facts.winner is None:
        return DealScore(
            tuple(SideScore(seats, 0) for seats in sides), void=True, seat_figures=(0,) * players
        )

    winner = _check_seat(facts.winner, players)
    row = _resolve_row(variant, facts.finish)
    opened = tuple(bool(flag) for flag in _per_seat(facts.opened, players, _("opened")))
    held = _per_seat(facts.held, players, _("cards held"))
    irregular = _per_seat(facts.irregular, players, _("irregularity"), default=False)
    if any(irregular) and variant.scoring != "kuwaiti":
        raise InvalidFacts(
            _("Irregularity penalties are a kuwaiti rule; {name} has none."), name=variant.name
        )
    if irregular[winner]:
        raise InvalidFacts(
            _("Player {number} won the deal, so they cannot be marked with an irregularity."),
            number=_number(winner),
        ).about(seat=winner, fact="irregular")
    if facts.indicator is not None:
        if not variant.indicator:
            raise InvalidFacts(_("{name} has no wild-card indicator."), name=variant.name)
        if facts.indicator.rank == JOKER:
            raise InvalidFacts(
                _("A joker is never the wild-card indicator; the next card is turned instead.")
            ).about(fact="indicator")
    if not _holds_nothing(held[winner]):
        raise InvalidFacts(
            _("Player {number} went out, so they hold no cards."),
            number=_number(winner),
        ).about(seat=winner, fact="held")
    _check_winner_opened(variant, row, winner, opened[winner])
    _check_card_counts(variant, players, held, facts.indicator)

    wilds = deal_wilds(variant, facts.indicator)
    partner = (winner + 2) % 4 if teams else None
    figures = [0] * players
    parts_by_seat: dict[int, tuple[ScorePart, ...]] = {}
    for seat in range(players):
        if seat == winner:
            figures[seat] = row.winner
            parts_by_seat[seat] = (ScorePart(row.label, {}, row.winner, seat),)
        elif seat == partner:
            figures[seat] = 0
            parts_by_seat[seat] = ()
        else:
            figures[seat], parts_by_seat[seat] = _seat_figure(
                variant, row, seat, opened[seat], held[seat], irregular[seat], wilds, facts.indicator
            )
    side_scores = []
    for seats in sides:
        parts = tuple(part for seat in seats for part in parts_by_seat[seat])
        side_scores.append(SideScore(seats, sum(figures[seat] for seat in seats), parts))
    return DealScore(tuple(side_scores), void=False, seat_figures=tuple(figures))


# --- Counting at the table (the score sheets' card picker) -------------------------------------


def table_held_costs(variant, cards: Sequence[Card], indicator: Card | None) -> tuple[int, ...]:
    """What each card left in hand costs (``penalty_value``). In jordanian/egyptian the indicator
    decides whether jokers or the indicator suit's aces are wild: without it a joker or an ace cannot be
    valued, so it is refused."""
    variant = _variant(variant)
    if variant.indicator and indicator is None and any(c.rank in (ACE, JOKER) for c in cards):
        raise InvalidFacts(
            _("Say which card was the wild-card indicator: it decides what jokers and aces are worth.")
        )
    wilds = deal_wilds(variant, indicator)
    return tuple(penalty_value(card, variant, wilds) for card in cards)


def table_melded_points(variant, cards: Sequence[Card]) -> tuple[int, ...]:
    """Melded card points are no part of a Hand-family score: refused."""
    raise InvalidFacts(_("Melded card points are counted in Hand and Foot only."))


def table_opening(
    variant,
    options: dict,
    groups: Sequence[Sequence[Card]],
    indicator: Card | None,
    wild_as: Sequence[str | None],
    last_opening: int | None,
    deal_index: int,
) -> tuple[tuple[int, ...], int]:
    """Each meld's value of an opening counted at the table, and the minimum now: 51, saudi the most
    recent opening of the deal + 1 (``last_opening``) when that is higher. ``wild_as`` names, per meld,
    the card its wild card stands for where that is ambiguous (``"JS"``)."""
    variant = _variant(variant)
    # Every card gets its own id, so two identical cards of two decks stay distinct.
    next_id = 0
    numbered = []
    for group in groups:
        numbered.append([Card(next_id + i, card.rank, card.suit) for i, card in enumerate(group)])
        next_id += len(group)
    wilds = Wilds(indicator)
    rules = MeldRules.for_variant(variant, options)
    pins = list(wild_as) + [None] * (len(numbered) - len(wild_as))
    values = tuple(
        meld_value(make_meld(group, wilds, rules, _pinned_wild(group, pin, wilds)), rules)
        for group, pin in zip(numbered, pins, strict=False)
    )
    minimum = variant.opening_minimum
    if variant.opening == "escalating" and last_opening is not None:
        minimum = max(minimum, last_opening + 1)
    return values, minimum


def _pinned_wild(cards: Sequence[Card], wild_as: str | None, wilds) -> dict[int, str]:
    if not wild_as:
        return {}
    wild_cards = [card for card in cards if wilds.is_wild(card)]
    return {card.id: wild_as.strip().upper() for card in wild_cards[:1]}


__all__ = [
    "FINISHES",
    "HAND_NAMES",
    "KUWAITI_TABLE",
    "MAX_HELD_CARDS",
    "STANDARD_TABLE",
    "DealScore",
    "HandDealFacts",
    "HandRow",
    "InvalidFacts",
    "ScorePart",
    "SideScore",
    "deal_wilds",
    "max_held_value",
    "penalty_value",
    "score_hand_deal",
    "table_held_costs",
    "table_melded_points",
    "table_opening",
    "winner_from_flags",
]
