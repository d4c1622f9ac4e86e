"""The games' sections of handsite's pages (registered in ``GamesConfig.ready``, see handsite.sections):
the group page's "Games" and the home page's "My games". A few queries each, however many games: the
games' state and staged melds (the large columns) are never loaded to list them."""

from __future__ import annotations

from django.db.models import Case, F, IntegerField, Value, When

from games.models import GameStatus, Seat

LARGE = ("state", "staged")
"""Game columns a list never needs."""


def group_section(request, group, membership) -> dict:
    """The group's games: active and waiting first (newest first), then the last finished ones; 3 queries
    (games, seats, their people)."""
    user = request.user
    games = list(
        group.games.exclude(status=GameStatus.CANCELLED)  # through the group: game.group needs no query
        .defer(*LARGE)
        .annotate(
            rank=Case(
                When(status=GameStatus.ACTIVE, then=Value(0)),
                When(status=GameStatus.WAITING, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            )
        )
        .order_by("rank", "-created_at")
        .prefetch_related("seats__user")[:20]
    )
    for game in games:
        game.seat_list = list(game.seats.all())
        game.my_seat = next((s for s in game.seat_list if s.user_id == user.pk), None)
        game.your_turn = (
            game.my_seat is not None
            and not game.my_seat.bot  # a seat handed to a bot at its timeout is no longer the person's turn
            and game.is_active
            and game.turn_seat == game.my_seat.number
        )
    return {"games": games}


def home_section(request) -> dict:
    """The person's waiting and active games: where it is their turn first (soonest deadline first), then
    invitations, then the rest; each with who plays in it, whose turn it is and since when. 2 queries
    (the person's seats with their games, then every seat of those games)."""
    seats = list(
        Seat.objects.filter(user=request.user, game__status__in=[GameStatus.ACTIVE, GameStatus.WAITING])
        .select_related("game", "game__group")
        .defer(*(f"game__{column}" for column in LARGE))
        .annotate(
            rank=Case(
                When(game__status=GameStatus.ACTIVE, game__turn_seat=F("number"), bot=False, then=Value(0)),
                When(game__status=GameStatus.WAITING, accepted_at__isnull=True, then=Value(1)),
                default=Value(2),
                output_field=IntegerField(),
            )
        )
        .order_by("rank", F("game__deadline_at").asc(nulls_last=True), "-game__created_at")[:50]
    )
    players: dict[int, list[Seat]] = {}
    for other in (
        Seat.objects.filter(game_id__in=[seat.game_id for seat in seats])
        .select_related("user")
        .order_by("game_id", "number")
    ):
        players.setdefault(other.game_id, []).append(other)
    for seat in seats:
        seat.your_turn = seat.rank == 0
        seat.players = [other.name for other in players.get(seat.game_id, ())]
        seat.turn_name = next(
            (
                other.name
                for other in players.get(seat.game_id, ())
                if seat.game.status == GameStatus.ACTIVE and other.number == seat.game.turn_seat
            ),
            None,
        )
    return {"seats": seats}
