"""The engine's refusals of a deal's figures, worded for the sheet: a refusal about one player's
figures names that player (the sheet's name for them, never "Player 2") and says which field of the
deal form it belongs beside; any other refusal stays a sentence for the whole form."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.engine.errors import DomainError
from games.engine.variants import sides as seat_sides
from scoring.services.deal_facts import sheet_family

# Engine sentence (its untranslated template) -> the same sentence naming the player; the names of its
# parameters are the engine's, ``name`` is the player's (or a side's) name. Only the sentences a sheet
# can meet: the rest (a figure that is not a number, what the sheet's own checks refuse first) fall
# back on ABOUT.
NAMED = {
    # Hand family: one seat.
    "Player {number} had not announced, so they cannot win by announcement.": gettext_lazy(
        "%(name)s had not announced, so cannot win by announcement: choose how %(name)s went out."
    ),
    "Player {number} had announced, and a player who has announced may not declare a Hand.": gettext_lazy(
        "%(name)s had announced, and a player who has announced may not declare a Hand."
    ),
    "Player {number} had already opened, so they cannot go out “Hand”.": gettext_lazy(
        "%(name)s had already opened, so cannot go out “Hand”."
    ),
    "Player {number}'s cards cannot be worth a negative number of points ({points}).": gettext_lazy(
        "%(name)s cannot hold a negative number of points (%(points)s)."
    ),
    (
        "Player {number} had opened and did not go out, so they hold at least one card, "
        "worth at least 2; {points} is not possible."
    ): gettext_lazy(
        "%(name)s had opened and did not go out, so holds at least one card, worth at least 2; "
        "%(points)s is not possible."
    ),
    "No cards left in one hand are worth {points}; the most is {highest}.": gettext_lazy(
        "%(name)s cannot hold %(points)s points: the cards left in one hand are worth at most %(highest)s."
    ),
    "Player {number} did not go out, so they still hold at least one card.": gettext_lazy(
        "%(name)s did not go out, so still holds at least one card."
    ),
    "Player {number} cannot hold {count} cards at the end of a deal; the most is {most}.": gettext_lazy(
        "%(name)s cannot hold %(count)s cards at the end of a deal; the most is %(most)s."
    ),
    "Say which card was the wild-card indicator: it decides what jokers and aces are worth.": gettext_lazy(
        "Say which card was the wild-card indicator: it decides what the jokers and aces %(name)s holds "
        "are worth."
    ),
    "Player {number} won the deal, so they cannot be marked with an irregularity.": gettext_lazy(
        "%(name)s won the deal, so cannot be marked with an irregularity: untick it."
    ),
    "Player {number} went out, so they hold no cards.": gettext_lazy(
        "%(name)s holds no cards: they went out. Clear what was typed for them."
    ),
    # Hand and Foot: one side (a player, or a team of two).
    "“{what}” must be a whole number.": gettext_lazy("%(name)s: “%(what)s” must be a whole number."),
    "“{what}” cannot be negative ({value}).": gettext_lazy(
        "%(name)s: “%(what)s” cannot be negative (%(value)s)."
    ),
    "Going out needs at least one red book and one black book.": gettext_lazy(
        "%(name)s went out, so needs at least one red book and one black book."
    ),
    "{books} books need at least {cards} melded cards, not {count}.": gettext_lazy(
        "%(name)s has %(books)s books, which need at least %(cards)s melded cards, not %(count)s."
    ),
    "The melded cards are worth {points}, not the {typed} typed.": gettext_lazy(
        "The cards %(name)s melded are worth %(points)s, not the %(typed)s typed."
    ),
    "{books} books are worth at least {lowest} in card points; {points} is not possible.": gettext_lazy(
        "%(name)s has %(books)s books, worth at least %(lowest)s in card points; %(points)s is not possible."
    ),
}

# The same engine sentence about a different figure.
NAMED_BY_FACT = {
    ("Card points always come in fives; {points} is not possible.", "melded_points"): gettext_lazy(
        "Card points always come in fives: %(name)s cannot have melded %(points)s."
    ),
    ("Card points always come in fives; {points} is not possible.", "held"): gettext_lazy(
        "Card points always come in fives: %(name)s cannot hold %(points)s."
    ),
}

# Any other sentence about one player's figures (a meld the rules do not allow, say): the player's
# name, then the engine's sentence.
ABOUT = gettext_lazy("%(name)s: %(sentence)s")

# Fact -> the deal form's field: a Hand-family seat's, a Hand and Foot side's.
SEAT_FIELDS = {"finish": "finish", "indicator": "indicator", "irregular": "irregular_{seat}"}
SIDE_FIELDS = {
    "red_books": "red_books_{side}",
    "black_books": "black_books_{side}",
    "melded_points": "melded_points_{side}",
    "melded": "melded_cards_{side}",
    "picked_22": "picked_22_{side}",
}


def _is_cards(value) -> bool:
    return isinstance(value, str) and bool(value.strip())


def _held_field(seat: int, value) -> str:
    return f"held_cards_{seat}" if _is_cards(value) else f"held_points_{seat}"


def _bad_held(values: Sequence, went_out: bool) -> int:
    """Which of a side's held figures the engine refused: its sum is what it saw."""
    for position, value in enumerate(values):
        if isinstance(value, bool):
            return position
        if isinstance(value, int) and (value < 0 or value % 5 or (went_out and value)):
            return position
    return next((position for position, value in enumerate(values) if _is_cards(value)), 0)


def _where(
    error: DomainError, variant, players: Sequence, facts: dict
) -> tuple[str | None, str | None, dict]:
    """(field, name, figures) of the player (or side) and figure an engine refusal is about; figures:
    the engine's parameters to say instead (one player's own figure where the engine saw the side's
    sum)."""
    names = [player.display_name for player in players]
    if error.side is not None and sheet_family(variant.slug).by_sides:
        sides = seat_sides(len(players), variant.teams)
        if not 0 <= error.side < len(sides):
            return None, None, {}
        seats = sides[error.side]
        side = (facts.get("sides") or [{}] * len(sides))[error.side] if facts.get("sides") else {}
        if error.fact == "held":
            held = list(side.get("held") or ())
            position = _bad_held(held, bool(side.get("went_out")))
            seat = seats[min(position, len(seats) - 1)]
            value = held[position] if position < len(held) else None
            own = {"points": value, "value": value} if isinstance(value, int) and len(seats) > 1 else {}
            return _held_field(seat, value), names[seat], own
        template = SIDE_FIELDS.get(error.fact or "")
        field = template.format(side=error.side) if template else None
        return field, " & ".join(names[seat] for seat in seats), {}
    seat = error.seat
    name = names[seat] if seat is not None and 0 <= seat < len(names) else None
    if error.fact == "held" and name is not None:
        held = list(facts.get("held") or ())
        return _held_field(seat, held[seat] if seat < len(held) else None), name, {}
    template = SEAT_FIELDS.get(error.fact or "")
    if template is None or (name is None and "{seat}" in template):
        return None, name, {}
    return template.format(seat=seat), name, {}


def _params(error: DomainError) -> dict:
    # Parameters that are labels ("Red books") are translated; numbers and cards pass unchanged.
    return {
        key: _(value) if isinstance(value, str) and value else value for key, value in error.params.items()
    }


def worded(error: DomainError, variant, players: Sequence, facts: dict) -> tuple[str | None, str]:
    """(field, sentence): an engine refusal of a deal's facts as the deal form shows it. ``players``:
    the sheet's players in seat order; ``facts``: the deal's raw facts as the form sent them."""
    field, name, own = _where(error, variant, players, facts)
    params = {**_params(error), **{key: value for key, value in own.items() if key in error.params}}
    translated = _(error.template)
    sentence = translated.format(**params) if error.params else translated
    if name is None:
        return field, sentence
    named = NAMED_BY_FACT.get((error.template, error.fact)) or NAMED.get(error.template)
    if named is None:
        return field, str(ABOUT) % {"name": name, "sentence": sentence}
    return field, str(named) % {**params, "name": name}
