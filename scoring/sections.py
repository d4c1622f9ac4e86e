"""The score sheets' section of the group page (registered in ``ScoringConfig.ready``, see
handsite.sections): the group's latest sheets, 3 queries (sheets, their players, the players' people)."""

from __future__ import annotations

LATEST = 6


def group_section(request, group, membership) -> dict:
    sheets = list(group.score_sheets.prefetch_related("players__user")[:LATEST])
    return {"sheets": sheets}
