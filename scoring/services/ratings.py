"""The group's ratings (openskill Plackett-Luce, one per player and family of rule sets).

Every finished game that counts (a sheet not marked "do not count", an online game) has one RatedGame
row: its sides, ranks and each player's skill before and after it. A game that finishes after every
other of its group is rated at once from the players' current ratings (incremental, in the same
transaction); anything else (an edit or deletion of a finished game, a sheet counted again, a guest
linked) marks the group's ratings stale from that game's finish and queues the replay from there
(the task ``scoring.tasks.refresh_group_ratings``, queued by name on commit, idempotent). Games with a
bot seat are practice.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from celery import current_app
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone

from games.engine.variants import get_variant
from scoring.models import (
    Deal,
    OnlineResult,
    PlayerGame,
    RatedGame,
    Rating,
    RatingsQueue,
    Sheet,
    SheetPlayer,
    rating_number,
)
from scoring.services.state import SheetState, compute_state

REFRESH_TASK = "scoring.tasks.refresh_group_ratings"
"""The task that replays a group's ratings from the oldest changed game (queued by name: the tasks
call this module, never the reverse)."""


@dataclass(frozen=True)
class Outcome:
    """A finished game as the ratings see it."""

    family: str
    rule_set: str
    finished_at: object
    sides: list
    names: dict
    ranks: list
    winners: list
    totals: dict
    deals: int
    practice: bool = False


def side_ranks(totals: Sequence[int], lower_is_better: bool) -> list[int]:
    """1 for the best side; equal totals share a rank."""
    ordered = sorted(set(totals), reverse=not lower_is_better)
    return [ordered.index(total) + 1 for total in totals]


def played_at(sheet: Sheet):
    """A moment of the sheet (its finish, a deal's entry) moved to the day the sheet was played, keeping
    the time of day: histories, streaks and the ratings' order follow the date played, and sheets of one
    day keep the order they were played in. Unchanged when the sheet was entered on the day it was played."""

    def on_played_day(moment):
        if moment is None or sheet.played_on is None:
            return moment
        local = timezone.localtime(moment)
        return local.replace(year=sheet.played_on.year, month=sheet.played_on.month, day=sheet.played_on.day)

    return on_played_day


def sheet_outcome(sheet: Sheet, state: SheetState) -> Outcome | None:
    """The sheet as the history counts it: None unless it is finished and not marked "do not count" (one
    rule for games, wins, ratings and the per-deal statistics)."""
    status = state.status
    if sheet.do_not_count or sheet.deleted_at is not None:
        return None
    if not status or not status.finished or sheet.finished_at is None:
        return None
    return Outcome(
        family=sheet.family,
        rule_set=sheet.rule_set,
        finished_at=played_at(sheet)(sheet.finished_at),
        sides=[[state.players[seat].player_key for seat in side] for side in state.sides],
        names={player.player_key: player.display_name for player in state.players},
        ranks=side_ranks(status.totals, status.lower_is_better),
        winners=sorted({state.players[seat].player_key for side in status.winners for seat in side}),
        totals={
            state.players[seat].player_key: total
            for side, total in zip(state.sides, status.totals, strict=True)
            for seat in side
        },
        deals=status.scoring_deals_played,
    )


def online_outcome(result: OnlineResult) -> Outcome | None:
    if not result.finished:
        return None
    people = {person.get("seat"): person for person in result.players}

    def key(seat):
        return online_key(people.get(seat, {}), seat)

    sides = [[key(seat) for seat in side] for side in result.sides]
    return Outcome(
        family=get_variant(result.rule_set).family,
        rule_set=result.rule_set,
        finished_at=result.finished_at or result.updated_at,
        sides=sides,
        names={key(seat): (people.get(seat, {}).get("name") or "") for side in result.sides for seat in side},
        ranks=side_ranks(result.totals, result.lower_is_better),
        winners=sorted({key(seat) for seat in result.winner_seats}),
        totals={
            key(seat): total
            for side, total in zip(result.sides, result.totals, strict=False)
            for seat in side
        },
        deals=result.deals,
        # Online seats are members or bots: a seat without a member is a bot, so the game is practice.
        practice=any(k.startswith("bot:") for side in sides for k in side),
    )


def _ratings_queue(group_id: int) -> RatingsQueue:
    """The group's ratings queue row, locked (created on first use)."""
    queue = RatingsQueue.objects.select_for_update().filter(group_id=group_id).first()
    if queue is None:
        try:
            with transaction.atomic():
                RatingsQueue.objects.create(group_id=group_id)
        except IntegrityError:
            pass  # created meanwhile by another request
        queue = RatingsQueue.objects.select_for_update().get(group_id=group_id)
    return queue


def _mark_stale(queue: RatingsQueue, since) -> None:
    if queue.stale_from is None or since < queue.stale_from:
        queue.stale_from = since
        queue.save(update_fields=["stale_from"])
    replay = current_app.signature(REFRESH_TASK, args=(queue.group_id,))
    transaction.on_commit(replay.delay)


def _model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def _rate(model, sides, ranks, current: dict) -> dict:
    """{key: [mu_before, sigma_before, mu_after, sigma_after]} for one game; ``current``: key ->
    (mu, sigma) of the players rated before (new players start at openskill's defaults)."""
    teams = [
        [model.rating(*current[key]) if key in current else model.rating() for key in side] for side in sides
    ]
    rated = model.rate(teams, ranks=list(ranks))
    return {
        key: [before.mu, before.sigma, after.mu, after.sigma]
        for side, old, new in zip(sides, teams, rated, strict=True)
        for key, before, after in zip(side, old, new, strict=True)
    }


def _rating_row(group_id, family, key, name, mu, sigma, games, wins, last_change, now) -> Rating:
    from openskill.models import PlackettLuceRating

    return Rating(
        group_id=group_id,
        family=family,
        player_key=key,
        name=(name or key)[:80],
        games=games,
        wins=wins,
        mu=mu,
        sigma=sigma,
        ordinal=PlackettLuceRating(mu, sigma).ordinal(),
        rating=rating_number(mu),
        last_change=last_change,
        updated_at=now,
    )


def _append(group_id: int, row: RatedGame) -> None:
    """Rate a game that finished after every other of its group from the current ratings."""
    keys = [key for side in row.sides for key in side]
    existing = {
        rating.player_key: rating
        for rating in Rating.objects.filter(group_id=group_id, family=row.family, player_key__in=keys)
    }
    current = {key: (rating.mu, rating.sigma) for key, rating in existing.items()}
    row.ratings = _rate(_model(), row.sides, row.ranks, current) if len(row.sides) >= 2 else {}
    row.save()
    now = timezone.now()
    changed = []
    for key, (mu_before, _sigma_before, mu, sigma) in row.ratings.items():
        old = existing.get(key)
        changed.append(
            _rating_row(
                group_id,
                row.family,
                key,
                row.names.get(key) or (old.name if old else key),
                mu,
                sigma,
                (old.games if old else 0) + 1,
                (old.wins if old else 0) + (key in row.winners),
                rating_number(mu) - rating_number(mu_before),
                now,
            )
        )
        if old is not None:
            changed[-1].pk = old.pk
    Rating.objects.bulk_create(
        changed,
        update_conflicts=True,
        unique_fields=["group", "family", "player_key"],
        update_fields=[
            "name",
            "games",
            "wins",
            "mu",
            "sigma",
            "ordinal",
            "rating",
            "last_change",
            "updated_at",
        ],
    )


_OUTCOME_FIELDS = (
    "family",
    "rule_set",
    "finished_at",
    "sides",
    "names",
    "ranks",
    "winners",
    "totals",
    "deals",
    "practice",
)


_RATED_FIELDS = ("family", "rule_set", "finished_at", "sides", "ranks", "winners", "practice")
"""What the ratings depend on (the rest of a RatedGame row is for the leaderboard)."""


def _player_rows(game: RatedGame) -> list[PlayerGame]:
    """The statistics rows of a saved RatedGame: one per player."""
    return [
        PlayerGame(
            game_id=game.pk,
            group_id=game.group_id,
            family=game.family,
            player_key=key,
            finished_at=game.finished_at,
            side=index,
            rank=game.ranks[index] if index < len(game.ranks) else 0,
            won=key in game.winners,
            total=game.totals.get(key, 0),
            practice=game.practice,
        )
        for index, side in enumerate(game.sides)
        for key in side
    ]


def _write_player_rows(game: RatedGame) -> None:
    PlayerGame.objects.filter(game_id=game.pk).delete()
    PlayerGame.objects.bulk_create(_player_rows(game))


def sync_rated_game(group_id: int, source: str, source_id: int, outcome: Outcome | None) -> None:
    """Bring the game's RatedGame row in line with its outcome and update the ratings: at once when the
    game is the group's latest and nothing is pending, else by a replay queued on commit."""
    queue = _ratings_queue(group_id)
    row = RatedGame.objects.filter(source=source, source_id=source_id).first()
    if outcome is None:
        if row is not None:
            row.delete()
            if not row.practice:
                _mark_stale(queue, row.finished_at)
        return
    values = {name: getattr(outcome, name) for name in _OUTCOME_FIELDS}
    if row is not None and all(getattr(row, name) == values[name] for name in _RATED_FIELDS):
        # The ratings see nothing new (the totals or names may have changed: kept for the leaderboard).
        changed = [name for name in ("totals", "deals", "names") if getattr(row, name) != values[name]]
        for name in changed:
            setattr(row, name, values[name])
        if changed:
            row.save(update_fields=changed)
            _write_player_rows(row)
        return
    old_finish = row.finished_at if row is not None and not row.practice else None
    if row is None:
        row = RatedGame(group_id=group_id, source=source, source_id=source_id)
    for name, value in values.items():
        setattr(row, name, value)
    row.ratings = {}
    if outcome.practice:
        row.save()
        _write_player_rows(row)
        if old_finish is not None:
            _mark_stale(queue, old_finish)
        return
    latest = (
        RatedGame.objects.filter(group_id=group_id, family=outcome.family, practice=False)
        .exclude(source=source, source_id=source_id)
        .order_by("-finished_at", "-source", "-source_id")
        .first()
    )
    if (
        queue.stale_from is None
        and old_finish is None
        and (latest is None or latest.order_key < row.order_key)
    ):
        _append(group_id, row)
        _write_player_rows(row)
        return
    row.save()
    _write_player_rows(row)
    _mark_stale(queue, min(old_finish, row.finished_at) if old_finish is not None else row.finished_at)


def _replay(group_id: int, since=None) -> list[Rating]:
    """Rate the group's games again from ``since`` (None: from the first), in the order they finished,
    starting from the stored ratings before that point; rewrite the Rating rows."""
    model = _model()
    families: dict[str, dict] = {}
    changed = []
    rows = RatedGame.objects.filter(group_id=group_id, practice=False).order_by(
        "finished_at", "source", "source_id"
    )
    for row in rows:
        family = families.setdefault(
            row.family,
            {
                "current": {},
                "games": Counter(),
                "wins": Counter(),
                "names": {},
                "last": {},
                "replaying": False,
            },
        )
        if since is None or row.finished_at >= since or (not row.ratings and len(row.sides) >= 2):
            family["replaying"] = True
        if family["replaying"]:
            ratings = _rate(model, row.sides, row.ranks, family["current"]) if len(row.sides) >= 2 else {}
            if ratings != row.ratings:
                row.ratings = ratings
                changed.append(row)
        for key, (mu_before, _sigma_before, mu, sigma) in row.ratings.items():
            family["current"][key] = (mu, sigma)
            family["last"][key] = rating_number(mu) - rating_number(mu_before)
        for key in (key for side in row.sides for key in side):
            family["games"][key] += 1
            family["wins"][key] += key in row.winners
            family["names"][key] = row.names.get(key) or family["names"].get(key, key)
    RatedGame.objects.bulk_update(changed, ["ratings"], batch_size=500)
    now = timezone.now()
    fresh = [
        _rating_row(
            group_id,
            name,
            key,
            family["names"][key],
            mu,
            sigma,
            family["games"][key],
            family["wins"][key],
            family["last"].get(key, 0),
            now,
        )
        for name, family in families.items()
        for key, (mu, sigma) in family["current"].items()
    ]
    Rating.objects.filter(group_id=group_id).delete()
    return Rating.objects.bulk_create(fresh)


@transaction.atomic
def refresh_ratings(group_id: int) -> int:
    """The queued work: replay the group's ratings from the oldest changed game. Idempotent: with
    nothing pending it does nothing. Returns the number of games replayed from (0: nothing to do)."""
    queue = _ratings_queue(group_id)
    if queue.stale_from is None:
        return 0
    replayed = RatedGame.objects.filter(group_id=group_id, finished_at__gte=queue.stale_from).count()
    _replay(group_id, queue.stale_from)
    queue.stale_from = None
    queue.save(update_fields=["stale_from"])
    return replayed


def ratings_updating(group) -> bool:
    """True while a queued replay of the group's ratings has not run yet (pages say "updating")."""
    return RatingsQueue.objects.filter(group=group, stale_from__isnull=False).exists()


def _outcomes(group_id: int) -> dict[tuple[str, int], Outcome]:
    """Every finished game of the group derived again from the stored facts (counted sheets in three
    queries, online results in one)."""
    outcomes = {}
    sheets = Sheet.objects.filter(group_id=group_id, finished=True, do_not_count=False).prefetch_related(
        Prefetch("players", SheetPlayer.objects.select_related("user").order_by("seat"), to_attr="seated"),
        Prefetch("deals", Deal.objects.filter(deleted_at__isnull=True).order_by("position"), to_attr="live"),
    )
    for sheet in sheets:
        outcome = sheet_outcome(sheet, compute_state(sheet, sheet.seated, sheet.live))
        if outcome is not None:
            outcomes[(RatedGame.Source.SHEET.value, sheet.pk)] = outcome
    for result in OnlineResult.objects.filter(group_id=group_id, finished=True):
        outcome = online_outcome(result)
        if outcome is not None:
            outcomes[(RatedGame.Source.ONLINE.value, result.game_id)] = outcome
    return outcomes


@transaction.atomic
def recompute_ratings(group_id: int, *, rederive: bool = True) -> list[Rating]:
    """The group's ratings from scratch, every game rated again in the order they finished.
    ``rederive`` (the default) first derives every finished game's outcome again from its stored
    facts (after a corrected rule re-scores history); without it the stored outcomes are replayed.
    Idempotent."""
    queue = _ratings_queue(group_id)
    if rederive:
        RatedGame.objects.filter(group_id=group_id).delete()
        games = RatedGame.objects.bulk_create(
            (
                RatedGame(
                    group_id=group_id,
                    source=source,
                    source_id=source_id,
                    **{name: getattr(outcome, name) for name in _OUTCOME_FIELDS},
                )
                for (source, source_id), outcome in _outcomes(group_id).items()
            ),
            batch_size=500,
        )
        PlayerGame.objects.bulk_create((row for game in games for row in _player_rows(game)), batch_size=1000)
    ratings = _replay(group_id)
    queue.stale_from = None
    queue.save(update_fields=["stale_from"])
    return ratings


def online_key(person: dict, seat: int) -> str:
    if person.get("user_id"):
        return f"user:{person['user_id']}"
    return f"bot:{(person.get('name') or str(seat)).strip().casefold()}"
