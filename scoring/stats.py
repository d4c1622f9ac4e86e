"""A player's statistics in a group, read from compact rows that the scoring services write
with the games they come from: one DealFact per seat and scoring deal, one PlayerGame per player and
finished game. Online games and sheets record the same facts (:func:`seat_facts` reads them from the
deal's score, which both compute with the engine), so the figures do not care where a game was played.

Every figure is a fixed number of queries, aggregated in SQL over one player's indexed rows (the
streaks read one column of the player's games): the page costs the same whatever the group's history.
Practice games (a bot played) are left out, as from the standings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Exists, F, Max, Min, OuterRef, Q, Subquery, Sum
from django.utils.translation import gettext as _

from games.engine.scoring import KUWAITI_TABLE, STANDARD_TABLE, DealScore
from games.engine.variants import VARIANTS, get_variant
from scoring.models import DealFact, PlayerGame, RatedGame, Rating, rating_number

NOT_OPENED_LABELS = frozenset({"Not opened", "Not announced"})
"""The engine's part labels of an opponent who had not opened (kuwaiti: announced)."""
GOING_OUT_LABEL = "Went out"
"""Hand and Foot: the part of the side that went out."""


@dataclass(frozen=True)
class SeatFact:
    """One seat's facts of one scoring deal."""

    seat: int
    went_out: bool
    won: bool  # the seat's side went out (its partner went out, in teams)
    finish: str  # the winner's way out ("normal", "hand", a kuwaiti hand); "" for the others
    opened: bool | None  # had opened (kuwaiti: announced); None where the score does not say
    points: int  # the side's points of the deal


def _finish_rows(variant) -> dict[str, str]:
    """The winner's part label -> the finish it stands for, in this rule set."""
    if variant.scoring == "kuwaiti":
        rows = list(KUWAITI_TABLE.values())
    else:
        rows = list(STANDARD_TABLE.values())
        if variant.scoring == "egyptian":
            rows += [row for row in KUWAITI_TABLE.values() if row.name != "announcement"]
    return {row.label: row.name for row in rows}


def _foot_seat_facts(variant, score: DealScore) -> list[SeatFact]:
    points = score.points_by_seat()
    facts = []
    for side in score.sides:
        out = any(part.label == GOING_OUT_LABEL for part in side.parts)
        facts += [SeatFact(seat, out, out, "", None, points[seat]) for seat in side.seats]
    return facts


def _hand_seat_facts(variant, score: DealScore) -> list[SeatFact]:
    points = score.points_by_seat()
    facts = []
    finishes = _finish_rows(variant)
    winner, finish = None, ""
    for side in score.sides:
        for part in side.parts:
            if part.seat is not None and part.label in finishes and not part.params:
                winner, finish = part.seat, finishes[part.label]
    for side in score.sides:
        for seat in side.seats:
            parts = [part for part in side.parts if part.seat == seat]
            if seat == winner or not parts:
                opened = None  # the winner (their own way out says it), or the winner's partner
            elif any(part.label in NOT_OPENED_LABELS for part in parts):
                opened = False
            elif any(part.label.startswith("Cards left") for part in parts):
                opened = True
            else:
                opened = None  # an irregularity: the score does not say
            facts.append(
                SeatFact(
                    seat,
                    seat == winner,
                    winner in side.seats,
                    finish if seat == winner else "",
                    opened,
                    points[seat],
                )
            )
    return facts


SEAT_FACTS = {"hand": _hand_seat_facts, "hand-and-foot": _foot_seat_facts}
"""How each family's scored deal says who went out, how, and who had opened."""


def seat_facts(rule_set: str, score: DealScore) -> list[SeatFact]:
    """Who went out and how, who had opened, each seat's points: read from a scored deal (a sheet's
    row or an online deal's record, both the engine's DealScore). Empty for a void deal."""
    if score.void:
        return []
    variant = get_variant(rule_set)
    return sorted(SEAT_FACTS[variant.family](variant, score), key=lambda fact: fact.seat)


def lower_is_better(family: str) -> bool:
    """Whether the lowest total wins in the rule sets of ``family`` (its rule sets all agree)."""
    return next(variant.lower_is_better for variant in VARIANTS.values() if variant.family == family)


# --- Reading a player's figures --------------------------------------------------------------------


PLAIN_FINISHES = ("normal", "announcement")
"""Ways out that are not a "Hand" (or a kuwaiti named hand)."""


def finish_label(rule_set_family: str, finish: str) -> str:
    row = STANDARD_TABLE.get(finish) or KUWAITI_TABLE.get(finish)
    return _(row.label) if row else finish


@dataclass
class DealFigure:
    """A best or worst deal: its points and where it was played."""

    points: int
    source: str
    source_id: int
    number: int


@dataclass
class HeadToHead:
    key: str
    name: str
    games: int
    ahead: int  # games the player finished ahead of this opponent
    behind: int  # games this opponent finished ahead

    @property
    def even(self) -> int:
        return self.games - self.ahead - self.behind


@dataclass
class PlayerStats:
    family: str
    deals: int = 0
    went_out: int = 0
    hand_finishes: int = 0
    finishes: list[tuple[str, int]] = field(default_factory=list)  # (label, count), named hands only
    lost_deals: int = 0  # deals the player's side did not go out
    not_opened: int = 0  # of those, deals the player had not opened
    penalty_points: int = 0  # points of the deals the side did not go out
    points: int = 0
    best: DealFigure | None = None
    worst: DealFigure | None = None
    games: int = 0
    wins: int = 0
    longest_win_streak: int = 0
    longest_losing_streak: int = 0
    current_streak: int = 0  # > 0: wins in a row now; < 0: games without a win in a row
    head_to_head: list[HeadToHead] = field(default_factory=list)
    nemesis: HeadToHead | None = None
    rating: Rating | None = None
    rating_history: list[tuple[object, int]] = field(default_factory=list)  # (finished_at, rating)

    @staticmethod
    def _percent(part: int, whole: int) -> int | None:
        return int(100 * part / whole + 0.5) if whole else None  # half up: 12.5 % reads 13 %

    @property
    def going_out_rate(self) -> int | None:
        return self._percent(self.went_out, self.deals)

    @property
    def never_opened_rate(self) -> int | None:
        """Of the deals lost, the percent in which the player had not opened (Hand family)."""
        return self._percent(self.not_opened, self.lost_deals)

    @property
    def average_penalty(self) -> float | None:
        """Points per deal lost (Hand family: what a lost deal costs on average)."""
        return round(self.penalty_points / self.lost_deals, 1) if self.lost_deals else None

    @property
    def average(self) -> float | None:
        return round(self.points / self.deals, 1) if self.deals else None

    @property
    def win_rate(self) -> int | None:
        return self._percent(self.wins, self.games)


def _streaks(results: list[bool]) -> tuple[int, int, int]:
    """(longest run of wins, longest run without a win, the current run: + wins / - no wins)."""
    best = worst = run = 0
    for won in results:
        if won:
            run = run + 1 if run > 0 else 1
            best = max(best, run)
        else:
            run = run - 1 if run < 0 else -1
            worst = max(worst, -run)
    return best, worst, run


def counted_games(group, family: str, key: str):
    """The player's games that count: rated games (finished, not marked "do not count", no bot)."""
    return PlayerGame.objects.filter(group=group, family=family, player_key=key, practice=False)


def counted_facts(group, family: str, key: str):
    """The player's deals that count: those of the games :func:`counted_games` counts (a game that counts
    has its rated row), so points per deal and going out are over the same games as games and wins. An
    online game's deals are recorded as they end: they count once the game has finished."""
    rated = RatedGame.objects.filter(
        group=group, practice=False, source=OuterRef("source"), source_id=OuterRef("source_id")
    )
    return DealFact.objects.filter(group=group, family=family, player_key=key, practice=False).filter(
        Exists(rated)
    )


def player_stats(group, family: str, key: str) -> PlayerStats:
    """Every figure of one player (``key``: ``user:<id>`` or ``guest:<name>``) in one family of the
    group's counted games: seven queries whatever the history."""
    stats = PlayerStats(family)
    lower_better = lower_is_better(family)
    facts = counted_facts(group, family, key)
    named = Q(went_out=True) & ~Q(finish__in=PLAIN_FINISHES) & ~Q(finish="")
    figures = facts.aggregate(
        n_deals=Count("id"),
        n_out=Count("id", filter=Q(went_out=True)),
        hand_finishes=Count("id", filter=named),
        lost=Count("id", filter=Q(won=False)),
        not_opened=Count("id", filter=Q(won=False, opened=False)),
        penalty=Sum("points", filter=Q(won=False)),
        n_points=Sum("points"),
        low=Min("points"),
        high=Max("points"),
    )
    stats.deals = figures["n_deals"]
    stats.went_out = figures["n_out"]
    stats.hand_finishes = figures["hand_finishes"]
    stats.lost_deals = figures["lost"]
    stats.not_opened = figures["not_opened"]
    stats.penalty_points = figures["penalty"] or 0
    stats.points = figures["n_points"] or 0
    if stats.deals:
        by_finish = (
            facts.filter(named).values("finish").annotate(count=Count("id")).order_by("-count", "finish")
        )
        stats.finishes = [(finish_label(family, row["finish"]), row["count"]) for row in by_finish]
        best, worst = ("low", "high") if lower_better else ("high", "low")
        order = ("played_at", "source", "source_id", "number")
        for name, target in (("best", best), ("worst", worst)):
            row = (
                facts.filter(points=figures[target])
                .order_by(*order)
                .values("points", "source", "source_id", "number")
                .first()
            )
            setattr(stats, name, DealFigure(**row))
    games = counted_games(group, family, key)
    results = list(
        games.order_by("finished_at", "game_id").values_list("won", "finished_at", "game__ratings")
    )
    stats.games = len(results)
    stats.wins = sum(1 for won, _when, _ratings in results if won)
    stats.longest_win_streak, stats.longest_losing_streak, stats.current_streak = _streaks(
        [won for won, _when, _ratings in results]
    )
    for _won, when, ratings in results:
        if key in (ratings or {}):
            stats.rating_history.append((when, rating_number(ratings[key][2])))
    meetings = _meetings(group, family, key)
    ratings = {
        rating.player_key: rating
        for rating in Rating.objects.filter(group=group, family=family, player_key__in=[key, *meetings])
    }
    stats.rating = ratings.get(key)
    stats.head_to_head = sorted(
        (
            HeadToHead(other, ratings[other].name if other in ratings else other, *counts)
            for other, counts in meetings.items()
        ),
        key=lambda row: (-row.games, row.name.casefold()),
    )
    losses = [row for row in stats.head_to_head if row.behind]
    if losses:
        # The opponent ahead most often; then the worst balance; then the most games; then by name.
        stats.nemesis = min(
            losses, key=lambda row: (-row.behind, row.ahead - row.behind, -row.games, row.name.casefold())
        )
    return stats


def _meetings(group, family: str, key: str) -> dict[str, tuple[int, int, int]]:
    """Against each opponent the player met (partners are not opponents): (games together, games the
    player finished ahead, games the opponent did), in one aggregate query over the player's games."""
    games = counted_games(group, family, key)
    mine = games.filter(game_id=OuterRef("game_id"))
    rows = (
        PlayerGame.objects.filter(game_id__in=games.values("game_id"))
        .exclude(player_key=key)
        .annotate(my_rank=Subquery(mine.values("rank")[:1]), my_side=Subquery(mine.values("side")[:1]))
        .exclude(side=F("my_side"))
        .values("player_key")
        .annotate(
            games=Count("id"),
            ahead=Count("id", filter=Q(rank__gt=F("my_rank"))),
            behind=Count("id", filter=Q(rank__lt=F("my_rank"))),
        )
        .order_by()
    )
    return {row["player_key"]: (row["games"], row["ahead"], row["behind"]) for row in rows}
