"""The shareable result card: a finished game's result as a public page, reached only by a signed link
(the link names the game and carries a signature no one can make without the site's secret key): the
players' names, the totals, the winner, the rule set and the date. Nothing else: no group, no cards, no
ids of people."""

from __future__ import annotations

from dataclasses import dataclass

from django.core import signing

from scoring.models import OnlineResult, Sheet
from scoring.services.ratings import side_ranks
from scoring.services.state import sheet_state

RESULT_CARD_SALT = "scoring.result-card"


@dataclass
class ResultCard:
    rule_set: str
    finished_at: object
    deals: int
    lower_is_better: bool
    rows: list[tuple[int, str, int]]  # (rank, the side's names, total), best first
    winners: list[str]
    title: str = ""
    language: str = ""  # the card's words and picture: its sheet creator's language ("": the reader's)


def result_card_token(*, sheet: Sheet | None = None, game_id: int | None = None) -> str:
    """The signed part of a result card's link: for a sheet, or for an online game (by its id)."""

    value = {"s": sheet.pk} if sheet is not None else {"o": int(game_id)}
    return signing.Signer(salt=RESULT_CARD_SALT).sign_object(value, compress=False)


def result_card(token: str) -> ResultCard | None:
    """The result card a signed link stands for; None for a link not signed by the site, or a game that
    is not finished (or no longer exists)."""

    try:
        value = signing.Signer(salt=RESULT_CARD_SALT).unsign_object(token[:200])
    except (signing.BadSignature, ValueError, UnicodeDecodeError):
        return None
    if not isinstance(value, dict):
        return None
    if isinstance(value.get("s"), int):
        sheet = Sheet.objects.select_related("created_by").filter(pk=value["s"], finished=True).first()
        if sheet is None:
            return None
        state = sheet_state(sheet)
        if not state.status or not state.status.finished:
            return None
        names, totals = state.side_names, list(state.status.totals)
        winners = state.winner_names
        card = ResultCard(
            sheet.rule_set,
            sheet.finished_at,
            state.status.scoring_deals_played,
            state.status.lower_is_better,
            [],
            winners,
            sheet.title,
            sheet.created_by.language if sheet.created_by else "",
        )
    elif isinstance(value.get("o"), int):
        result = OnlineResult.objects.filter(game_id=value["o"], finished=True).first()
        if result is None:
            return None
        people = {person.get("seat"): person.get("name") or "" for person in result.players}
        names = [" & ".join(people.get(seat, "") for seat in side) for side in result.sides]
        totals = list(result.totals)
        winners = [
            name
            for name, side in zip(names, result.sides, strict=False)
            if set(side) & set(result.winner_seats)
        ]
        card = ResultCard(
            result.rule_set, result.finished_at, result.deals, result.lower_is_better, [], winners
        )
    else:
        return None
    ranks = side_ranks(totals, card.lower_is_better)
    card.rows = sorted(zip(ranks, names, totals, strict=False), key=lambda row: (row[0], row[1].casefold()))
    return card
