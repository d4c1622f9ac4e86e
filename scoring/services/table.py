"""Helpers for the table while a deal is played: what picked cards are worth, and whether an opening
reaches the minimum."""

from __future__ import annotations

from collections.abc import Sequence

from games.engine.errors import DomainError
from games.engine.picker import OpeningCheck, held_value, melded_value, opening_check
from scoring.models import Sheet
from scoring.services.errors import SheetError, error_sentence
from scoring.services.state import sheet_state


def count_cards(
    sheet: Sheet, text: str, *, kind: str = "held", indicator: str | None = None, players: int | None = None
):
    """What picked cards are worth on this sheet (``kind`` "held" or, Hand and Foot, "melded"), with
    the rule set's values. Raises SheetError with the engine's sentence. ``players``: the sheet's player
    count when the caller knows it (saves a query per call)."""
    if players is None:
        players = sheet.players.count()
    try:
        if kind == "melded":
            return melded_value(sheet.rule_set, players, text)
        return held_value(sheet.rule_set, players, text, indicator)
    except DomainError as error:
        raise SheetError(error_sentence(error)) from None


def check_opening(
    sheet: Sheet,
    melds: Sequence[str],
    *,
    indicator: str | None = None,
    wild_as: Sequence[str | None] = (),
    last_opening: int | None = None,
) -> OpeningCheck:
    """Count an opening laid down at the table and compare it with the minimum now: 51 (saudi: the last
    opening of the deal + 1), Hand and Foot the minimum of the sheet's next deal."""
    status = sheet_state(sheet).status
    deal_index = status.scoring_deals_played if status else 0
    try:
        return opening_check(
            sheet.rule_set,
            sheet.options,
            melds,
            indicator=indicator,
            wild_as=wild_as,
            last_opening=last_opening,
            deal_index=deal_index,
        )
    except DomainError as error:
        raise SheetError(error_sentence(error)) from None
