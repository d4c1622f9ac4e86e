"""Online games' results as games/ reports them: the standing of each game, its rated game once it
finishes, and the per-deal statistics rows of its deals."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from games.engine.match import MatchStatus
from games.engine.scoring import DealScore
from games.engine.variants import get_variant
from scoring import stats
from scoring.models import DealFact, OnlineResult, RatedGame
from scoring.services.ratings import online_key, online_outcome, sync_rated_game


@transaction.atomic
def record_online_game(
    *,
    group_id: int,
    game_id: int,
    rule_set: str,
    players: list[dict],
    status: MatchStatus,
    finished_at=None,
    deals: Sequence[DealScore] = (),
) -> OnlineResult:
    """Store (or rewrite) an online game's standing as games/ reports it: ``players`` in seat order
    ({"seat", "user_id", "name"}; no user_id: a bot), ``status`` the engine's match status; a finished
    game is rated (practice when a bot played). ``deals``: the scores of the deals played so far, in
    order (the engine's records); each deal not recorded yet adds the same per-deal facts a sheet's deal
    does, for the statistics. Idempotent."""
    winners = sorted(seat for seats in status.winners for seat in seats) if status.finished else []
    result, _created = OnlineResult.objects.update_or_create(
        game_id=game_id,
        defaults={
            "group_id": group_id,
            "rule_set": rule_set,
            "players": players,
            "sides": [list(side) for side in status.sides],
            "totals": list(status.totals),
            "lower_is_better": status.lower_is_better,
            "deals": status.scoring_deals_played,
            "finished": status.finished,
            "finished_at": finished_at if status.finished else None,
            "winner_seats": winners,
            "updated_at": timezone.now(),
        },
    )
    sync_rated_game(group_id, RatedGame.Source.ONLINE.value, game_id, online_outcome(result))
    if deals:
        _write_online_facts(result, deals)
    return result


def _write_online_facts(result: OnlineResult, deals: Sequence[DealScore]) -> None:
    """Add the statistics rows of the online game's deals not recorded yet (one query when none is new)."""
    source = RatedGame.Source.ONLINE.value
    known = set(
        DealFact.objects.filter(source=source, source_id=result.game_id).values_list("number", flat=True)
    )
    people = {person.get("seat"): person for person in result.players}
    keys = {seat: online_key(people.get(seat, {}), seat) for seat in people}
    practice = any(key.startswith("bot:") for key in keys.values())
    family = get_variant(result.rule_set).family
    now = timezone.now()
    rows, number = [], 0
    for score in deals:
        if score.void:
            continue
        number += 1
        if number in known:
            continue
        for fact in stats.seat_facts(result.rule_set, score):
            rows.append(
                DealFact(
                    group_id=result.group_id,
                    source=source,
                    source_id=result.game_id,
                    family=family,
                    rule_set=result.rule_set,
                    number=number,
                    seat=fact.seat,
                    player_key=keys.get(fact.seat, f"bot:{fact.seat}"),
                    went_out=fact.went_out,
                    won=fact.won,
                    finish=fact.finish,
                    opened=fact.opened,
                    points=fact.points,
                    practice=practice,
                    played_at=now,
                )
            )
    DealFact.objects.bulk_create(rows, ignore_conflicts=True)
