"""A deal's raw facts as the score sheets store them, read into the engine's facts, checked against the
cards of the game, and scored by the engine. Nothing here reads or writes the database.

Raw facts (stored in ``Deal.facts``, JSON), one shape per family of rule sets:

Hand (classic, jordanian, saudi, kuwaiti, egyptian)::

    {"winner": 0 | null,              # null: a void deal (stock ran out), scores nothing
     "finish": "normal",              # "normal", "hand", kuwaiti/egyptian hand names
     "opened": [true, ...],           # per seat (kuwaiti: announced)
     "held": [null, 32, "KS 7H JK"],  # per seat: nothing, typed points, or cards
     "irregular": [false, ...],       # kuwaiti only
     "indicator": "7H" | null}        # jordanian/egyptian wild-card indicator

Hand and Foot (one entry per side: a player, or a team 0+2 / 1+3)::

    {"sides": [{"red_books": 1, "black_books": 1,
                "melded_points": 1030 | null, "melded": "KS KH ...",
                "held": [null | 85 | "3H 7C", ...],   # one entry per seat of the side
                "went_out": true, "picked_22": 0}],
     "pile_ran_out": true}                   # only when no side went out (the draw pile ran out)

:func:`sheet_family` gives the functions of a rule set's family once; the rest of the app calls them
without asking which family it is.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.engine.errors import DomainError
from games.engine.family import family_of
from games.engine.handfoot import HandFootSideFacts, handfoot_held_cost, score_handfoot_deal
from games.engine.picker import held_value, read_cards, read_indicator
from games.engine.scoring import DealScore, HandDealFacts, score_hand_deal
from games.engine.variants import face_limits, get_variant
from games.engine.variants import sides as seat_sides
from scoring.models import SheetPlayer
from scoring.services.errors import SheetError


def _cards_or_points(value, variant, players: int):
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise SheetError(_("What a player holds must be cards or points."))
    if isinstance(value, int):
        return value
    return read_cards(str(value), variant, players)


def hand_facts(variant, options: dict, players: int, raw: dict) -> HandDealFacts:
    """The engine's facts of a Hand-family deal from the raw JSON."""
    held = tuple(_cards_or_points(value, variant, players) for value in raw.get("held") or ())
    return HandDealFacts(
        players=players,
        winner=raw.get("winner"),
        finish=raw.get("finish") or "normal",
        opened=tuple(bool(flag) for flag in raw.get("opened") or ()),
        held=held,
        irregular=tuple(bool(flag) for flag in raw.get("irregular") or ()),
        teams=bool(options.get("teams")),
        indicator=read_indicator(variant, raw.get("indicator")),
    )


def _side_held(variant, players: int, entries: Sequence):
    values = [_cards_or_points(entry, variant, players) for entry in entries or ()]
    values = [value for value in values if value is not None]
    if not values:
        return ()
    if all(isinstance(value, tuple) for value in values):
        return tuple(card for value in values for card in value)
    # One player's figure no cards make (negative, not in fives) is the engine's to refuse on its own:
    # in a sum with the partner's it could pass.
    for value in values:
        if isinstance(value, int) and (value < 0 or value % 5):
            return value
    if all(isinstance(value, int) for value in values):
        return sum(values)
    # Cards for one player and a typed number for the other: the side's cost in points.
    return sum(value if isinstance(value, int) else handfoot_held_cost(value, variant) for value in values)


def handfoot_sides(variant, players: int, raw: dict) -> list[HandFootSideFacts]:
    sides = []
    for side in raw.get("sides") or ():
        melded = side.get("melded") or ""
        sides.append(
            HandFootSideFacts(
                red_books=side.get("red_books", 0),
                black_books=side.get("black_books", 0),
                melded_points=side.get("melded_points"),
                melded=read_cards(melded, variant, players) if melded else (),
                held=_side_held(variant, players, side.get("held")),
                went_out=bool(side.get("went_out")),
                picked_22=side.get("picked_22", 0) or 0,
            )
        )
    return sides


def _tally(counts: Counter, limits: dict, text, variant, players: int, field: str, who: str) -> None:
    """Add the cards of one field to the deal's count; refuse the field that goes past the decks."""
    if not isinstance(text, str) or not text.strip():
        return
    try:
        cards = read_cards(text, variant, players)
    except DomainError:
        return  # the engine refuses the field with its own sentence
    counts.update(card.face for card in cards)
    for face in sorted({card.face for card in cards}):
        if counts[face] > limits[face]:
            raise SheetError(
                _(
                    "With %(name)s's cards this deal lists %(count)s × %(face)s, "
                    "but the cards of this game hold only %(most)s."
                )
                % {"name": who, "count": counts[face], "face": face, "most": limits[face]},
                field=field,
            )


@dataclass(frozen=True)
class FigureLimits:
    """The most a deal's figures can be with the cards of a game (its decks for its player count)."""

    held: int  # points one player can still hold
    melded: int  # Hand and Foot: melded card points of one side
    books: int  # Hand and Foot: books of one side


def _hand_limits(variant, players: int, cards, everything: str) -> FigureLimits:
    indicators = ("2S", "AS") if variant.indicator else (None,)
    held = max(held_value(variant, players, everything, indicator).total for indicator in indicators)
    return FigureLimits(held=held, melded=0, books=0)


def _foot_limits(variant, players: int, cards, everything: str) -> FigureLimits:
    meldable = [card for card in cards if card.rank != 3]
    return FigureLimits(
        held=handfoot_held_cost(cards, variant),
        melded=sum(variant.card_value(card.rank) for card in meldable),
        books=len(meldable) // variant.book_size,
    )


@functools.cache
def figure_limits(rule_set: str, players: int) -> FigureLimits:
    variant = get_variant(rule_set)
    faces = face_limits(variant, players)
    everything = " ".join(face for face, most in faces.items() for _copy in range(most))
    cards = read_cards(everything, variant, players)
    return sheet_family(rule_set).limits(variant, players, cards, everything)


def _typed(value) -> bool:
    return value is not None and value != ""


def _check_points(value, most: int, name: str, field: str) -> None:
    if isinstance(value, int) and not isinstance(value, bool) and value > most:
        raise SheetError(
            _("%(name)s cannot hold %(value)s points: all the cards of this game are worth %(most)s.")
            % {"name": name, "value": value, "most": most},
            field=field,
        )


def _check_handfoot(variant, options: dict, players: Sequence[SheetPlayer], raw: dict) -> None:
    count = len(players)
    counts: Counter = Counter()
    faces = face_limits(variant, count)
    most = figure_limits(variant.slug, count)
    sides = seat_sides(count, variant.teams)
    raw_sides = list(raw.get("sides") or ())
    nobody_out = not any(side.get("went_out") for side in raw_sides)
    for index, seats in enumerate(sides):
        side = raw_sides[index] if index < len(raw_sides) else {}
        name = " & ".join(players[seat].display_name for seat in seats)
        melded_points = side.get("melded_points")
        if isinstance(melded_points, int) and melded_points > most.melded:
            raise SheetError(
                _(
                    "%(name)s cannot have melded %(value)s points: "
                    "all the cards of this game are worth %(most)s."
                )
                % {"name": name, "value": melded_points, "most": most.melded},
                field=f"melded_points_{index}",
            )
        books = (side.get("red_books") or 0) + (side.get("black_books") or 0)
        if isinstance(books, int) and books > most.books:
            raise SheetError(
                _("%(name)s cannot have %(count)s books: the cards of this game make at most %(most)s.")
                % {"name": name, "count": books, "most": most.books},
                field=f"red_books_{index}",
            )
        picked = side.get("picked_22") or 0
        if isinstance(picked, int) and picked > len(seats):
            raise SheetError(
                _("%(name)s: at most %(most)s players of this side can pick up exactly 22 cards.")
                % {"name": name, "most": len(seats)},
                field=f"picked_22_{index}",
            )
        _tally(counts, faces, side.get("melded"), variant, count, f"melded_cards_{index}", name)
        held = list(side.get("held") or ())
        for position, seat in enumerate(seats):
            value = held[position] if position < len(held) else None
            player = players[seat].display_name
            _tally(counts, faces, value, variant, count, f"held_cards_{seat}", player)
            _check_points(value, most.held, player, f"held_points_{seat}")
            if side.get("went_out") and not variant.teams and _typed(value) and value != 0:
                raise SheetError(
                    _("%(name)s's side went out, so nothing left in their hand and foot counts: clear it.")
                    % {"name": player},
                    field=f"held_points_{seat}",
                )
            if (nobody_out or not side.get("went_out")) and not _typed(value):
                raise SheetError(
                    _("Say what %(name)s still holds in hand and foot (type 0 if nothing).")
                    % {"name": player},
                    field=f"held_points_{seat}",
                )


def _check_hand(variant, options: dict, players: Sequence[SheetPlayer], raw: dict) -> None:
    count = len(players)
    counts: Counter = Counter()
    faces = face_limits(variant, count)
    most = figure_limits(variant.slug, count)
    held = list(raw.get("held") or ())
    opened = list(raw.get("opened") or ())
    irregular = list(raw.get("irregular") or ())
    winner = raw.get("winner")
    kuwaiti = variant.scoring == "kuwaiti"
    # The engine leaves out the cards of the winner's partner (teams): the form does not send them.
    partners: tuple[int, ...] = ()
    if isinstance(winner, int) and options.get("teams"):
        partners = next((seats for seats in seat_sides(count, True) if winner in seats), ())
    for seat in range(count):
        value = held[seat] if seat < len(held) else None
        name = players[seat].display_name
        field = f"held_points_{seat}"
        _tally(counts, faces, value, variant, count, f"held_cards_{seat}", name)
        _check_points(value, most.held, name, field)
        if winner is None or seat == winner:
            continue
        is_irregular = seat < len(irregular) and bool(irregular[seat])
        is_open = seat < len(opened) and bool(opened[seat])
        if not _typed(value) and is_open and not is_irregular and seat not in partners:
            raise SheetError(
                (
                    _("Say what %(name)s still holds: they had announced, so their cards count.")
                    if kuwaiti
                    else _("Say what %(name)s still holds: they had opened, so their cards count.")
                )
                % {"name": name},
                field=field,
            )


def check_deal(variant, options: dict, players: Sequence[SheetPlayer], raw: dict) -> None:
    """The rules of a deal as a whole, for every path that saves one (the form, the API, a test):
    a deal holds no more cards than were dealt (every field together) and no figure more than the
    cards of the game are worth; every player who did not go out and whose cards count says what they
    still hold. Refusals name the player and the field."""
    sheet_family(variant.slug).check(variant, options, players, raw)


def _score_hand(variant, options: dict, players: int, raw: dict) -> DealScore:
    return score_hand_deal(variant, options, hand_facts(variant, options, players, raw))


def _score_foot(variant, options: dict, players: int, raw: dict) -> DealScore:
    return score_handfoot_deal(variant, options, handfoot_sides(variant, players, raw))


def score_facts(rule_set: str, options: dict, players: int, raw: dict) -> DealScore:
    """Score one deal's raw facts with the engine. Raises DomainError / SheetError."""
    return sheet_family(rule_set).score(get_variant(rule_set), options, players, raw)


# --- What differs by family ------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetFamily:
    """How the score sheets read, check and score the deals of one family of rule sets."""

    name: str
    by_sides: bool  # a deal is entered side by side (books, melds, then what each seat holds)
    score: Callable[[object, dict, int, dict], DealScore]
    check: Callable[[object, dict, Sequence[SheetPlayer], dict], None]
    limits: Callable[[object, int, tuple, str], FigureLimits]


SHEET_FAMILIES = {
    family.name: family
    for family in (
        SheetFamily("hand", by_sides=False, score=_score_hand, check=_check_hand, limits=_hand_limits),
        SheetFamily(
            "hand-and-foot", by_sides=True, score=_score_foot, check=_check_handfoot, limits=_foot_limits
        ),
    )
}


def sheet_family(rule_set: str) -> SheetFamily:
    """The sheet functions of the family that plays ``rule_set`` (the engine's family of it)."""
    return SHEET_FAMILIES[family_of(rule_set).name]
