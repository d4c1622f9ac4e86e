"""The rule sets, as data, and the validation of a new game's options.

``HAND_VARIANTS`` holds the Hand family (``../shared/rules/hand-family.md``), ``HAND_AND_FOOT_VARIANTS``
the two Hand and Foot rule sets (``hand-and-foot.md``); ``get_variant(slug)`` finds either.
Per-game settings are :class:`Option` entries; ``validate_options`` fills defaults and refuses
bad values with a sentence a player understands.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from .errors import InvalidOptions, _


@dataclass(frozen=True)
class Option:
    """A per-game setting. ``choices`` (when given) lists the allowed values."""

    name: str
    label: str
    default: Any
    kind: Literal["bool", "int"] = "bool"
    choices: tuple = ()
    help: str = ""


# --- The Hand family -------------------------------------------------------------------------

TIE_BREAK_BY_RULE = frozenset({"jordanian", "egyptian"})
"""Rule sets that always play tie-break deals (000); the others follow the ``tie_break`` option."""


@dataclass(frozen=True)
class HandVariant:
    """One rule set of the Hand family. Field comments give the spec section."""

    slug: str
    name: str
    seed: str
    min_players: int
    max_players: int
    scoring_deals: int  # section "Variants"; kuwaiti has the ``deals`` option
    indicator: bool  # 1: jordanian/egyptian turn up a wild-card indicator
    ace_in_low_run: int  # 3: an ace's value inside A-2-3... (1, or 11 for jordanian/egyptian)
    wild_penalty: int  # 3: a wild card left in hand (15, kuwaiti 20)
    opening: Literal["fixed", "escalating", "announcement"]  # 4: opening rule
    discard_take: Literal["new_meld", "meld_this_turn", "kuwaiti"]  # 4: taking the top discard
    layoff: Literal["any", "own"]  # 4: onto any meld, or (kuwaiti) only one's own after announcing
    exchange_needs_opening: bool  # 4: kuwaiti may exchange at any turn
    exchange_three_set: Literal["both", "both_or_exception", "never"]  # 4: 3-card set exchange
    next_dealer: Literal["highest", "rotate"]  # 1
    scoring: Literal["standard", "egyptian", "kuwaiti"]  # 6
    teams_allowed: bool  # README: partnership mode for classic, jordanian, saudi, egyptian
    opening_minimum: int = 51
    announcement_min_turns: int = 0  # kuwaiti: 8 turns each before announcing
    options: tuple[Option, ...] = ()
    family: Literal["hand"] = "hand"
    lower_is_better: ClassVar[bool] = True  # the lowest total wins

    def decks_for(self, players: int) -> int:
        """Number of 52-card decks (jokers are always 2): kuwaiti uses one deck for 2-3 players."""
        if self.slug == "kuwaiti" and players <= 3:
            return 1
        return 2

    def jokers_for(self, players: int) -> int:
        """Jokers in the game's cards: always 2."""
        return 2

    def teams_in(self, options: dict) -> bool:
        """Whether a game with these options is played in partnerships (the ``teams`` option)."""
        return bool(options.get("teams"))

    def deals_in(self, options: dict) -> int:
        """Scoring deals in a game with these options, before tie-breaks (kuwaiti: the ``deals`` option)."""
        return options.get("deals", self.scoring_deals)

    def tie_break_in(self, options: dict) -> bool:
        """Whether a tie for the lowest total is broken by extra deals: always in jordanian and egyptian,
        per the ``tie_break`` option (default on) in the others."""
        return self.slug in TIE_BREAK_BY_RULE or bool(options.get("tie_break", True))

    def deal_opening_minimum(self, deal_number: int) -> int | None:
        """The opening minimum fixed for deal ``deal_number``: none (a Hand opening's minimum depends on
        the play of the deal, see ``actions.opening_minimum_now``)."""
        return None

    def option(self, name: str) -> Option:
        return next(o for o in self.options if o.name == name)


def _hand_options(
    *,
    teams: bool = True,
    tie_break: bool = True,
    max_wild: bool,
    redeal: bool,
    no_out_first_turn: bool,
    deals: tuple = (),
    reshuffle: bool = False,
) -> tuple:
    options = []
    if teams:
        options.append(
            Option(
                "teams",
                _("Partnership (4 players, partners opposite)"),
                False,
                help=_("Two teams of two; partners sit opposite each other and score as one."),
            )
        )
    if tie_break:  # jordanian/egyptian always break ties by rule, so it is no option there
        options.append(
            Option(
                "tie_break",
                _("Play extra deals until one player is lowest alone"),
                True,
                help=_("Off: players tied for the lowest total after the last deal share the win."),
            )
        )
    options += [
        Option(
            "no_out_first_turn",
            _("Nobody may go out in their first turn"),
            no_out_first_turn,
            help=_("Every other player has a turn before anybody may go out."),
        ),
    ]
    if max_wild:
        options.append(
            Option(
                "max_wild_per_meld",
                _("Wild cards allowed in one meld"),
                1,
                "int",
                (1, 2),
                help=_("A meld always holds more natural cards than wild cards, whatever this says."),
            )
        )
    if redeal:
        options.append(
            Option(
                "redeal",
                _("A player may demand a redeal for pairs and jokers"),
                True,
                help=_(
                    "Right after the deal: four pairs of identical cards, three pairs and a joker, or two "
                    "pairs and both jokers."
                ),
            )
        )
    if deals:
        options.append(
            Option(
                "deals",
                _("Number of deals"),
                deals[0],
                "int",
                deals,
                help=_("Scoring deals in the game; a void deal does not count."),
            )
        )
    if reshuffle:
        options.append(
            Option(
                "reshuffle_discards",
                _(
                    "When the stock runs out, shuffle the discard pile (all but its top card) "
                    "into a new stock"
                ),
                True,
                help=_(
                    "On by default: without it, with 3 or 5 players nearly every deal would end void "
                    "before anybody may announce. Off is the rule as written: the deal is void when the "
                    "stock runs low."
                ),
            )
        )
    return tuple(options)


HAND_VARIANTS: MappingProxyType[str, HandVariant] = MappingProxyType(
    {
        v.slug: v
        for v in (
            HandVariant(
                slug="classic",
                name=_("Hand"),
                seed="001",
                min_players=2,
                max_players=5,
                scoring_deals=5,
                indicator=False,
                ace_in_low_run=1,
                wild_penalty=15,
                opening="fixed",
                discard_take="meld_this_turn",
                layoff="any",
                exchange_needs_opening=True,
                exchange_three_set="both",
                next_dealer="rotate",
                scoring="standard",
                teams_allowed=True,
                options=_hand_options(max_wild=True, redeal=False, no_out_first_turn=True),
            ),
            HandVariant(
                slug="jordanian",
                name=_("Jordanian Hand"),
                seed="000",
                min_players=2,
                max_players=4,
                scoring_deals=7,
                indicator=True,
                ace_in_low_run=11,
                wild_penalty=15,
                opening="fixed",
                discard_take="new_meld",
                layoff="any",
                exchange_needs_opening=True,
                exchange_three_set="both_or_exception",
                next_dealer="highest",
                scoring="standard",
                teams_allowed=True,
                options=_hand_options(tie_break=False, max_wild=False, redeal=True, no_out_first_turn=True),
            ),
            HandVariant(
                slug="saudi",
                name=_("Saudi Hand"),
                seed="003",
                min_players=2,
                max_players=5,
                scoring_deals=5,
                indicator=False,
                ace_in_low_run=1,
                wild_penalty=15,
                opening="escalating",
                discard_take="meld_this_turn",
                layoff="any",
                exchange_needs_opening=True,
                exchange_three_set="both",
                next_dealer="rotate",
                scoring="standard",
                teams_allowed=True,
                options=_hand_options(max_wild=True, redeal=False, no_out_first_turn=True),
            ),
            HandVariant(
                slug="kuwaiti",
                name=_("Kuwaiti Hand"),
                seed="000",
                min_players=2,
                max_players=5,
                scoring_deals=7,
                indicator=False,
                ace_in_low_run=1,
                wild_penalty=20,
                opening="announcement",
                discard_take="kuwaiti",
                layoff="own",
                exchange_needs_opening=False,
                exchange_three_set="never",
                next_dealer="rotate",
                scoring="kuwaiti",
                teams_allowed=False,
                announcement_min_turns=8,
                options=_hand_options(
                    teams=False,
                    max_wild=False,
                    redeal=False,
                    no_out_first_turn=False,
                    deals=(7, 9),
                    reshuffle=True,
                ),
            ),
            HandVariant(
                slug="egyptian",
                name=_("Egyptian Hand"),
                seed="000",
                min_players=2,
                max_players=4,
                scoring_deals=7,
                indicator=True,
                ace_in_low_run=11,
                wild_penalty=15,
                opening="fixed",
                discard_take="new_meld",
                layoff="any",
                exchange_needs_opening=True,
                exchange_three_set="both_or_exception",
                next_dealer="highest",
                scoring="egyptian",
                teams_allowed=True,
                options=_hand_options(tie_break=False, max_wild=False, redeal=True, no_out_first_turn=True),
            ),
        )
    }
)


# --- Hand and Foot ---------------------------------------------------------------------------


@dataclass(frozen=True)
class HandAndFootVariant:
    """One Hand and Foot rule set (``hand-and-foot.md``)."""

    slug: str
    name: str
    seed: str
    min_players: int
    max_players: int
    teams: bool  # 004: two teams of two, partners opposite, one set of melds per team
    card_points: MappingProxyType  # rank number (0 = joker) -> points; 3s are absent (never melded)
    red_three_cost: int
    black_three_cost: int
    opening_minimums: tuple[int, ...]  # one per deal
    draw_count: int
    wild_discard_allowed: bool
    going_out_bonus: int = 100
    red_book: int = 500
    black_book: int = 300
    book_size: int = 7
    table_bonus_22: int = 0  # 004's table-only bonus for picking up exactly 22 cards
    options: tuple[Option, ...] = ()
    family: Literal["hand-and-foot"] = "hand-and-foot"
    lower_is_better: ClassVar[bool] = False  # the highest total wins
    next_dealer: ClassVar[str] = "rotate"
    indicator: ClassVar[bool] = False  # no wild-card indicator: 2s and jokers are wild

    def decks_for(self, players: int) -> int:
        """Number of 54-card decks (52 + 2 jokers each)."""
        if self.teams:
            return 4
        return players + 1 if players <= 3 else players

    def hand_size(self, players: int) -> int:
        """Cards in each hand and in each foot."""
        if self.teams:
            return 11
        return 13 if players <= 4 else 11

    def card_value(self, rank: int) -> int:
        """Points of a card of this rank when melded (3s are never melded: 0)."""
        return self.card_points.get(rank, 0)

    def jokers_for(self, players: int) -> int:
        """Jokers in the game's cards: two per 54-card deck."""
        return 2 * self.decks_for(players)

    def teams_in(self, options: dict) -> bool:
        """Whether the game is played in partnerships: fixed by the rule set."""
        return self.teams

    def deals_in(self, options: dict) -> int:
        """Scoring deals: one per opening minimum, and the optional fourth deal."""
        return len(self.opening_minimums) + (1 if options.get("fourth_deal") else 0)

    def tie_break_in(self, options: dict) -> bool:
        """Never: a tie for the highest total is a shared win."""
        return False

    def deal_opening_minimum(self, deal_number: int) -> int:
        """The opening minimum of deal ``deal_number`` (0-based); 150 for an optional 4th."""
        minimums = self.opening_minimums
        return minimums[deal_number] if deal_number < len(minimums) else 150


def _points(table: dict[str, int]) -> MappingProxyType:
    from .cards import RANK_NAMES

    by_rank = {}
    for names, value in table.items():
        for name in names.split():
            by_rank[RANK_NAMES.index(name)] = value
    return MappingProxyType(by_rank)


HAND_AND_FOOT_VARIANTS: MappingProxyType[str, HandAndFootVariant] = MappingProxyType(
    {
        v.slug: v
        for v in (
            HandAndFootVariant(
                slug="hand-and-foot",
                name=_("Hand and Foot"),
                seed="002",
                min_players=2,
                max_players=8,
                teams=False,
                card_points=_points({"JK": 50, "2": 20, "A": 15, "K Q J 10": 10, "4 5 6 7 8 9": 5}),
                red_three_cost=500,
                black_three_cost=50,
                opening_minimums=(50, 90, 120, 150),
                draw_count=2,
                wild_discard_allowed=True,
            ),
            HandAndFootVariant(
                slug="hand-and-foot-teams",
                name=_("Hand and Foot, team rules"),
                seed="004",
                min_players=4,
                max_players=4,
                teams=True,
                card_points=_points({"JK": 50, "2": 20, "A": 20, "K Q J 10 9 8 7 6": 10, "4 5": 5}),
                red_three_cost=500,
                black_three_cost=0,
                opening_minimums=(50, 90, 120),
                draw_count=1,
                wild_discard_allowed=False,
                table_bonus_22=100,
                options=(
                    Option(
                        "fourth_deal",
                        _("Play a fourth deal (opening minimum 150)"),
                        False,
                        help=_("Off: the game ends after three deals."),
                    ),
                ),
            ),
        )
    }
)

VARIANTS = MappingProxyType({**HAND_VARIANTS, **HAND_AND_FOOT_VARIANTS})


def get_variant(slug: str) -> HandVariant | HandAndFootVariant:
    """The rule set called ``slug``; :class:`InvalidOptions` for an unknown one."""
    try:
        return VARIANTS[slug]
    except KeyError:
        raise InvalidOptions(_("There is no rule set called “{slug}”."), slug=slug) from None


def resolve_variant(variant) -> HandVariant | HandAndFootVariant:
    """A rule set given as its slug or as the rule-set object itself."""
    return get_variant(variant) if isinstance(variant, str) else variant


def face_limits(variant, players: int) -> dict[str, int]:
    """How many of each face (``"7H"``, ``"JK"``) the decks of a game hold: one per deck; jokers 2
    (Hand) or 2 per deck (Hand and Foot, whose decks are 54 cards each)."""
    from .cards import RANK_NAMES, SUITS

    variant = resolve_variant(variant)
    decks = variant.decks_for(players)
    limits = {rank + suit: decks for suit in SUITS for rank in RANK_NAMES[1:]}
    limits["JK"] = variant.jokers_for(players)
    return limits


def validate_options(slug: str, players: int, options: dict | None = None) -> dict:
    """Check a new game's options against the rule set and fill in the defaults.

    Returns the complete, frozen-to-be option dict. Raises :class:`InvalidOptions` with a clear
    sentence for an unknown option, a wrong type or value, or a player count the rules do not allow.
    """
    variant = get_variant(slug)
    given = dict(options or {})
    known = {o.name: o for o in variant.options}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise InvalidOptions(
            _("{name} has no option called “{option}”."), name=variant.name, option=unknown[0]
        )
    result = {}
    for name, option in known.items():
        value = given.get(name, option.default)
        if option.kind == "bool" and not isinstance(value, bool):
            raise InvalidOptions(_("“{label}” must be on or off."), label=option.label)
        if option.kind == "int" and (isinstance(value, bool) or not isinstance(value, int)):
            raise InvalidOptions(_("“{label}” must be a whole number."), label=option.label)
        if option.choices and value not in option.choices:
            raise InvalidOptions(
                _("“{label}” must be one of {choices}."),
                label=option.label,
                choices=", ".join(str(c) for c in option.choices),
            )
        result[name] = value
    check_players(variant, players)
    if result.get("teams") and players != 4:
        raise InvalidOptions(_("Partnership play needs exactly 4 players."))
    return result


def check_players(variant: HandVariant | HandAndFootVariant, players: object, error=InvalidOptions) -> None:
    """Refuse a player count the rule set does not allow: "{name} is played by {low} to {high} players,
    not {players}." (or "must be a whole number"), raised as ``error`` (a :class:`DomainError` class:
    :class:`InvalidOptions` for a new game, scoring's ``InvalidFacts`` for a deal's facts). Public."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise error(_("The number of players must be a whole number."))
    if not variant.min_players <= players <= variant.max_players:
        raise error(
            _("{name} is played by {low} to {high} players, not {players}."),
            name=variant.name,
            low=variant.min_players,
            high=variant.max_players,
            players=players,
        )


def sides(players: int, teams: bool) -> tuple[tuple[int, ...], ...]:
    """The scoring sides in seat order. With teams (4 players; the caller has checked that) partners sit
    opposite: ``((0, 2), (1, 3))``; otherwise every seat is a side of its own. Public."""
    if teams:
        return ((0, 2), (1, 3))
    return tuple((seat,) for seat in range(players))


def players_text(low: int, high: int) -> str:
    """How many players a rule set takes, as people write it: "4" when low == high, else "2–5"."""
    return str(low) if low == high else f"{low}–{high}"


def scoring_deals(variant: HandVariant | HandAndFootVariant, options: dict) -> int:
    """How many scoring deals a game of this rule set and options has (before tie-breaks)."""
    return variant.deals_in(options)


def opening_minimum(variant: HandAndFootVariant, deal_number: int) -> int:
    """Hand and Foot: the opening minimum of deal ``deal_number`` (0-based); 150 for an optional 4th."""
    return variant.deal_opening_minimum(deal_number)


__all__ = [
    "HAND_AND_FOOT_VARIANTS",
    "HAND_VARIANTS",
    "TIE_BREAK_BY_RULE",
    "VARIANTS",
    "HandAndFootVariant",
    "HandVariant",
    "Option",
    "check_players",
    "face_limits",
    "get_variant",
    "opening_minimum",
    "resolve_variant",
    "scoring_deals",
    "sides",
    "validate_options",
]
