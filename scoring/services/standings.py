"""A group's history read back: its counted sheets and standings, the leaderboard of a family of rule
sets, the names of its players and guests."""

from __future__ import annotations

from dataclasses import dataclass

from handsite.models import Membership
from scoring.models import RatedGame, Rating, Sheet, SheetPlayer
from scoring.stats import lower_is_better


@dataclass
class Standing:
    key: str
    name: str
    sheets: int = 0
    wins: int = 0
    guest: bool = False


def counted_sheets(group):
    """Finished sheets that count in the group's history."""
    return (
        Sheet.objects.filter(group=group, finished=True, do_not_count=False)
        .prefetch_related("players__user")
        .order_by("-played_on", "-finished_at", "-pk")
    )


def group_standings(group) -> list[Standing]:
    """Per player (a member, or a guest by name; a linked guest counts as the member): finished sheets
    played and won (a shared win counts as a win), most wins first."""
    table: dict[str, Standing] = {}
    for sheet in counted_sheets(group):
        for player in sheet.players.all():
            entry = table.setdefault(
                player.player_key, Standing(player.player_key, player.display_name, guest=player.is_guest)
            )
            entry.sheets += 1
            if player.seat in sheet.winner_seats:
                entry.wins += 1
    return sorted(table.values(), key=lambda s: (-s.wins, s.sheets, s.name.casefold()))


@dataclass
class LeaderRow:
    """One player on a group's leaderboard of a rule-set family (rated games only: no practice)."""

    key: str
    name: str
    games: int = 0
    wins: int = 0
    points: int = 0
    deals: int = 0
    rating: int | None = None
    provisional: bool = True
    last_change: int = 0

    @property
    def guest(self) -> bool:
        return self.key.startswith("guest:")

    @property
    def win_rate(self) -> int:
        """Percent of games won, whole."""
        return round(100 * self.wins / self.games) if self.games else 0

    @property
    def average(self) -> float:
        """Points per scoring deal (one decimal)."""
        return round(self.points / self.deals, 1) if self.deals else 0.0


LEADERBOARD_SORTS = ("rating", "games", "wins", "win_rate", "average", "name")


def leaderboard(group, family: str, *, since=None, sort: str = "rating") -> list[LeaderRow]:
    """Per player of ``group`` in ``family`` ("hand" or "hand-and-foot"): games, wins, win rate, points
    per deal over the rated games finished from ``since`` (None: all time), and the current rating.
    Two queries whatever the history. ``sort``: one of LEADERBOARD_SORTS, best first (points per deal:
    lower is better in Hand, higher in Hand and Foot)."""
    games = RatedGame.objects.filter(group=group, family=family, practice=False)
    if since is not None:
        games = games.filter(finished_at__gte=since)
    table: dict[str, LeaderRow] = {}
    for sides, names, winners, totals, deals in games.values_list(
        "sides", "names", "winners", "totals", "deals"
    ):
        for key in (key for side in sides for key in side):
            row = table.get(key)
            if row is None:
                row = table[key] = LeaderRow(key, names.get(key) or key)
            row.name = names.get(key) or row.name
            row.games += 1
            row.wins += key in winners
            row.points += totals.get(key, 0)
            row.deals += deals
    for rating in Rating.objects.filter(group=group, family=family, player_key__in=list(table)):
        row = table[rating.player_key]
        row.rating, row.provisional, row.last_change = rating.rating, rating.provisional, rating.last_change
        row.name = rating.name
    lower_better = lower_is_better(family)
    keys = {
        "rating": lambda r: (-(r.rating or 0), r.name.casefold()),
        "games": lambda r: (-r.games, r.name.casefold()),
        "wins": lambda r: (-r.wins, -r.win_rate, r.name.casefold()),
        "win_rate": lambda r: (-r.win_rate, -r.games, r.name.casefold()),
        "average": lambda r: ((r.average if lower_better else -r.average), r.name.casefold()),
        "name": lambda r: (r.name.casefold(),),
    }
    return sorted(table.values(), key=keys.get(sort, keys["rating"]))


def player_name(group, key: str) -> str | None:
    """The name of a player of the group's history (``user:<id>``: a member; ``guest:<name>``: a guest
    who played on its sheets); None when the group has no such player."""
    kind, _sep, rest = key.partition(":")
    if kind == "user" and rest.isdigit() and len(rest) < 19:
        member = Membership.objects.filter(group=group, user_id=int(rest)).select_related("user").first()
        if member is not None:
            return member.user.name
        rating = Rating.objects.filter(group=group, player_key=key).only("name").first()
        return rating.name if rating else None
    if kind == "guest" and rest:
        seat = SheetPlayer.objects.filter(sheet__group=group, user__isnull=True, name__iexact=rest).first()
        return seat.name if seat else None
    return None


def guest_names(group) -> list[str]:
    """Names of guests (not linked to a member) who have played in the group's sheets."""
    names = SheetPlayer.objects.filter(sheet__group=group, user__isnull=True).values_list("name", flat=True)
    by_key = {}
    for name in names:
        by_key.setdefault(name.strip().casefold(), name.strip())
    return sorted(by_key.values(), key=str.casefold)
