"""Hand and Foot: melds, openings and the score of a deal (``hand-and-foot.md``).

Both rule sets: ``hand-and-foot`` (002, each player a side) and ``hand-and-foot-teams`` (004, two
teams of two, seats 0+2 and 1+3). Highest total wins, so here positive points are good.

A side's facts (:class:`HandFootSideFacts`) may give cards or typed points, so table score sheets
and online play use the same functions. Facts no game could produce raise :class:`InvalidFacts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import JOKER, Card, format_cards
from .errors import DomainError, IllegalAction, InvalidOptions, MeldError, _
from .scoring import DealScore, InvalidFacts, ScorePart, SideScore
from .variants import HandAndFootVariant, check_players, opening_minimum, resolve_variant
from .variants import sides as seat_sides

WILD_RANKS = frozenset({JOKER, 2})
THREE = 3
MIN_MELD = 3


@dataclass(frozen=True)
class HandFootSideFacts:
    """What one side (a player in 002, a team in 004) ended a deal with.

    - ``red_books`` / ``black_books``: books of 7+ cards without / with a wild card.
    - ``melded_points`` (typed) or ``melded`` (cards): card points of *every* melded card, books
      included. Give one of them; when both are given they must agree.
    - ``held``: the cards still in the side's hands and feet (a foot never picked up counts too), or
      their typed cost. In team rules the side that went out does not count held cards at all, so a
      sheet may give the partner's cards or leave them out: they are shown and ignored.
    - ``went_out``: this side went out (+100). At most one side per deal.
    - ``picked_22``: team rules, table games only: players on this side who picked up exactly 22
      cards when splitting the deck (0-2), 100 each.
    """

    red_books: int
    black_books: int
    melded_points: int | None = None
    melded: tuple[Card, ...] = ()
    held: tuple[Card, ...] | int = ()
    went_out: bool = False
    picked_22: int = 0


def _variant(variant) -> HandAndFootVariant:
    variant = resolve_variant(variant)
    if not isinstance(variant, HandAndFootVariant):
        raise InvalidOptions(_("{name} is not scored as Hand and Foot."), name=variant.name)
    return variant


def _is_wild(card: Card) -> bool:
    return card.rank in WILD_RANKS


# --- Card points -------------------------------------------------------------------------------


def handfoot_card_points(cards: Sequence[Card], variant) -> int:
    """The card points of melded cards (books included). A 3 can never be melded: :class:`MeldError`."""
    variant = _variant(variant)
    if any(card.rank == THREE for card in cards):
        raise MeldError(_("3s are never melded; they can only be discarded."))
    return sum(variant.card_value(card.rank) for card in cards)


def handfoot_held_cost(cards: Sequence[Card], variant) -> int:
    """What cards still in hand and foot cost: card points; a red 3 500, a black 3 50 (002) or 0 (004)."""
    variant = _variant(variant)
    total = 0
    for card in cards:
        if card.rank == THREE:
            total += variant.red_three_cost if card.colour == "red" else variant.black_three_cost
        else:
            total += variant.card_value(card.rank)
    return total


# --- Melds and openings ------------------------------------------------------------------------


def handfoot_meld_check(cards: Sequence[Card], variant) -> None:
    """Raise :class:`MeldError` unless ``cards`` are one legal meld.

    3+ cards of one rank from 4 to A (3s never), 2s and jokers wild, naturals outnumbering wild
    cards (so never wild cards alone).
    """
    _variant(variant)
    cards = tuple(cards)
    if len(cards) < MIN_MELD:
        raise MeldError(_("A meld needs at least 3 cards."))
    if any(card.rank == THREE for card in cards):
        raise MeldError(_("3s are never melded; they can only be discarded."))
    naturals = [card for card in cards if not _is_wild(card)]
    wilds = len(cards) - len(naturals)
    if not naturals:
        raise MeldError(_("A meld can never be wild cards alone."))
    if len({card.rank for card in naturals}) > 1:
        raise MeldError(_("All natural cards of a meld must be of one rank."))
    if wilds >= len(naturals):
        raise MeldError(
            _("Natural cards must outnumber wild cards: this meld has {naturals} natural and {wilds} wild."),
            naturals=len(naturals),
            wilds=wilds,
        )


def handfoot_opening_value(melds: Sequence[Sequence[Card]], variant) -> int:
    """The card points of the melds of an opening, each checked with :func:`handfoot_meld_check`."""
    total = 0
    for meld in melds:
        handfoot_meld_check(meld, variant)
        total += handfoot_card_points(meld, variant)
    return total


def handfoot_opening_check(melds: Sequence[Sequence[Card]], variant, deal_number: int) -> int:
    """Check an opening against deal ``deal_number``'s minimum (0-based); return its total.

    Raises :class:`MeldError` for a meld that is not legal and :class:`IllegalAction` when the
    total is below the minimum.
    """
    variant = _variant(variant)
    total = handfoot_opening_value(melds, variant)
    minimum = opening_minimum(variant, deal_number)
    if total < minimum:
        raise IllegalAction(
            _("Your opening melds total {total}; you need {minimum}."), total=total, minimum=minimum
        )
    return total


# --- Scoring a deal ----------------------------------------------------------------------------


def _count(value: object, what: str, side: int, fact: str, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidFacts(_("“{what}” must be a whole number."), what=what, side=side + 1).about(
            side=side, fact=fact
        )
    if value < 0:
        raise InvalidFacts(
            _("“{what}” cannot be negative ({value})."), what=what, value=value, side=side + 1
        ).about(side=side, fact=fact)
    if high is not None and value > high:
        raise InvalidFacts(
            _("“{what}” can be at most {high}, not {value}."), what=what, high=high, value=value
        ).about(side=side, fact=fact)
    return value


def _melded_part(variant: HandAndFootVariant, facts: HandFootSideFacts, index: int) -> ScorePart:
    books = facts.red_books + facts.black_books
    if facts.melded:
        cards = tuple(facts.melded)
        if len(cards) < books * variant.book_size:
            raise InvalidFacts(
                _("{books} books need at least {cards} melded cards, not {count}."),
                books=books,
                cards=books * variant.book_size,
                count=len(cards),
            ).about(side=index, fact="melded")
        try:
            points = handfoot_card_points(cards, variant)
        except MeldError as error:
            raise InvalidFacts(error.template, **error.params).about(side=index, fact="melded") from None
        if facts.melded_points is not None and facts.melded_points != points:
            raise InvalidFacts(
                _("The melded cards are worth {points}, not the {typed} typed."),
                points=points,
                typed=facts.melded_points,
            ).about(side=index, fact="melded_points")
        return ScorePart(_("Melded cards: {value}"), {"value": points, "count": len(cards)}, points)
    points = (
        0
        if facts.melded_points is None
        else _count(facts.melded_points, _("Melded points"), index, "melded_points")
    )
    # The cheapest books: a red book of seven 5-point cards (35); a black book of six 5-point
    # naturals and a 2 (50). All card points come in fives.
    lowest_natural = min(variant.card_value(rank) for rank in range(4, 14))
    lowest = books * variant.book_size * lowest_natural + facts.black_books * (
        variant.card_value(2) - lowest_natural
    )
    if points < lowest:
        raise InvalidFacts(
            _("{books} books are worth at least {lowest} in card points; {points} is not possible."),
            books=books,
            lowest=lowest,
            points=points,
        ).about(side=index, fact="melded_points")
    if points % 5:
        raise InvalidFacts(
            _("Card points always come in fives; {points} is not possible."), points=points
        ).about(side=index, fact="melded_points")
    return ScorePart(_("Melded cards: {value}"), {"value": points}, points)


def _held_part(
    variant: HandAndFootVariant, facts: HandFootSideFacts, index: int, counts: bool
) -> ScorePart | None:
    held = facts.held
    if isinstance(held, bool):
        raise InvalidFacts(_("Cards held must be cards or points.")).about(side=index, fact="held")
    if isinstance(held, int):
        cost = _count(held, _("Cards held"), index, "held")
        if cost % 5:
            raise InvalidFacts(
                _("Card points always come in fives; {points} is not possible."), points=cost
            ).about(side=index, fact="held")
        text, params = _("Cards held: {value}"), {"value": cost}
    else:
        cards = tuple(held)
        cost = handfoot_held_cost(cards, variant)
        text, params = _("Cards held: {cards} = {value}"), {"cards": format_cards(cards), "value": cost}
        if not cards:
            return None
    if not counts:
        return ScorePart(_("Partner's cards do not count: {value}"), {"value": cost}, 0)
    return ScorePart(text, params, -cost)


def score_handfoot_deal(variant, options: dict | None, sides: Sequence[HandFootSideFacts]) -> DealScore:
    """Score one Hand and Foot deal: per side 500 per red book + 300 per black book + card points of
    all melded cards - what held cards cost + 100 for going out (+ 100 per 22-card pick-up, team
    rules at the table).

    ``sides`` is one entry per player (002, seat order) or two entries, team 0+2 then team 1+3 (004).
    A deal where nobody went out (draw pile ran out) is scored the same way without the +100.
    """
    variant = _variant(variant)
    sides = list(sides)
    if variant.teams:
        if len(sides) != 2:
            raise InvalidFacts(_("Team rules have two teams, not {count}."), count=len(sides))
        seats = seat_sides(4, True)
    else:
        check_players(variant, len(sides), InvalidFacts)
        seats = seat_sides(len(sides), False)
    out = [index for index, facts in enumerate(sides) if facts.went_out]
    if len(out) > 1:
        raise InvalidFacts(_("Only one player can go out in a deal."))

    results = []
    for index, facts in enumerate(sides):
        red = _count(facts.red_books, _("Red books"), index, "red_books")
        black = _count(facts.black_books, _("Black books"), index, "black_books")
        picked = _count(
            facts.picked_22, _("Players who picked up exactly 22 cards"), index, "picked_22", high=2
        )
        if picked and not variant.table_bonus_22:
            raise InvalidFacts(_("The 22-card bonus belongs to the team rules."))
        if facts.went_out and not (red and black):
            raise InvalidFacts(_("Going out needs at least one red book and one black book.")).about(
                side=index, fact="red_books" if not red else "black_books"
            )
        held_counts = not (facts.went_out and variant.teams)
        if (
            facts.went_out
            and not variant.teams
            and (isinstance(facts.held, int) or len(facts.held))
            and facts.held != 0
        ):
            raise InvalidFacts(_("A player who went out holds no cards.")).about(side=index, fact="held")
        parts = []
        if red:
            parts.append(
                ScorePart(
                    _("Red books: {count} × {each}"),
                    {"count": red, "each": variant.red_book},
                    red * variant.red_book,
                )
            )
        if black:
            parts.append(
                ScorePart(
                    _("Black books: {count} × {each}"),
                    {"count": black, "each": variant.black_book},
                    black * variant.black_book,
                )
            )
        parts.append(_melded_part(variant, facts, index))
        held = _held_part(variant, facts, index, held_counts)
        if held is not None:
            parts.append(held)
        if facts.went_out:
            parts.append(ScorePart(_("Went out"), {}, variant.going_out_bonus))
        if picked:
            parts.append(
                ScorePart(
                    _("Picked up exactly 22 cards: {count} × {each}"),
                    {"count": picked, "each": variant.table_bonus_22},
                    picked * variant.table_bonus_22,
                )
            )
        results.append(SideScore(seats[index], sum(part.points for part in parts), tuple(parts)))
    return DealScore(tuple(results), void=False)


# --- Counting at the table (the score sheets' card picker) -------------------------------------


def table_held_costs(variant, cards: Sequence[Card], indicator: Card | None = None) -> tuple[int, ...]:
    """What each card still in hand and foot costs (:func:`handfoot_held_cost`); there is no indicator."""
    variant = _variant(variant)
    return tuple(handfoot_held_cost((card,), variant) for card in cards)


def table_melded_points(variant, cards: Sequence[Card]) -> tuple[int, ...]:
    """Each melded card's points; a 3 is refused (it is never melded)."""
    variant = _variant(variant)
    try:
        handfoot_card_points(cards, variant)
    except DomainError as error:
        raise InvalidFacts(error.template, **error.params) from None
    return tuple(variant.card_value(card.rank) for card in cards)


def table_opening(
    variant,
    options: dict,
    groups: Sequence[Sequence[Card]],
    indicator: Card | None,
    wild_as: Sequence[str | None],
    last_opening: int | None,
    deal_index: int,
) -> tuple[tuple[int, ...], int]:
    """Each meld's card points of an opening counted at the table, and deal ``deal_index``'s minimum
    (0-based); wild cards never need naming here."""
    variant = _variant(variant)
    values = tuple(handfoot_opening_value([group], variant) for group in groups)
    return values, opening_minimum(variant, deal_index)


__all__ = [
    "HandFootSideFacts",
    "handfoot_card_points",
    "handfoot_held_cost",
    "handfoot_meld_check",
    "handfoot_opening_check",
    "handfoot_opening_value",
    "score_handfoot_deal",
    "table_held_costs",
    "table_melded_points",
    "table_opening",
]
