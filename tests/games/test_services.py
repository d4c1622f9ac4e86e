import pytest

from games import engine
from games.models import Game, GameStatus, Move, TimeoutRule
from games.services import core as game_core
from games.services import playing, scans, seating


def test_it_deals_when_every_seat_is_filled(owner, member, start_game):
    game = start_game([owner, member, seating.BOT], seed=7)
    assert game.status == GameStatus.WAITING
    assert game.state is None
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert game.state["players"] == 3
    assert game.turn_seat is not None


def test_it_freezes_the_validated_options(owner, start_game):
    game = start_game([owner, seating.BOT], options={"max_wild_per_meld": 2})
    assert game.options == {
        "teams": False,
        "tie_break": True,
        "no_out_first_turn": True,
        "max_wild_per_meld": 2,
    }
    assert game.state["options"] == game.options


def test_it_refuses_bad_options_with_the_engines_sentence(owner, start_game):
    with pytest.raises(game_core.GameError, match="Partnership play needs exactly 4 players"):
        start_game([owner, seating.BOT], options={"teams": True})
    assert not Game.objects.exists()


def test_it_refuses_players_from_outside_the_group(owner, outsider, start_game):
    with pytest.raises(game_core.GameError, match="member of the group"):
        start_game([owner, outsider])


def test_a_declined_seat_can_be_taken_by_another_member(owner, member, admin, start_game):
    game = start_game([owner, member])
    seating.decline_seat(game_id=game.pk, user=member)
    seating.take_seat(game_id=game.pk, user=admin, number=1)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    assert [s.user for s in game.seats.order_by("number")] == [owner, admin]


def test_a_move_saves_state_log_and_version_together(duel, owner, member):
    people = {s.number: s.user for s in duel.seats.all()}
    state = engine.from_json(duel.state)
    seat = state.current
    action = engine.legal_actions(state, seat)[-1]
    result = playing.play(game_id=duel.pk, user=people[seat], version=duel.version, action=action)
    duel.refresh_from_db()
    assert duel.version == 1 == result.state.version
    assert list(Move.objects.filter(game=duel).values_list("seq", "seat", "action")) == [(1, seat, action)]
    assert duel.turn_seat == 1 - seat


def test_a_stale_version_is_refused_and_nothing_changes(duel):
    people = {s.number: s.user for s in duel.seats.all()}
    state = engine.from_json(duel.state)
    seat = state.current
    action = engine.legal_actions(state, seat)[-1]
    playing.play(game_id=duel.pk, user=people[seat], version=0, action=action)
    with pytest.raises(game_core.StaleVersion):
        playing.play(game_id=duel.pk, user=people[seat], version=0, action=action)
    assert Move.objects.filter(game=duel).count() == 1


def test_it_is_not_your_turn_changes_nothing(duel):
    people = {s.number: s.user for s in duel.seats.all()}
    state = engine.from_json(duel.state)
    waiting = 1 - state.current
    with pytest.raises(game_core.MoveRefused, match="It is not your turn"):
        playing.play(game_id=duel.pk, user=people[waiting], version=0, action={"type": "draw"})
    duel.refresh_from_db()
    assert duel.version == 0
    assert not Move.objects.exists()


def test_a_watcher_cannot_move(duel, admin):
    with pytest.raises(game_core.GameError, match="watching"):
        playing.play(game_id=duel.pk, user=admin, version=0, action={"type": "draw"})


def test_an_outsider_finds_no_game(duel, outsider):
    with pytest.raises(game_core.GameNotFound):
        playing.play(game_id=duel.pk, user=outsider, version=0, action={"type": "draw"})


def test_bots_play_their_turns_in_the_same_write(owner, start_game):
    game = start_game([owner, seating.BOT, seating.BOT], seed=99)
    assert game.turn_seat == 0
    assert all(move.seat != 0 and move.kind == "bot" for move in game.moves.all())
    state = engine.from_json(game.state)
    action = engine.bot_action(state, 0)
    result = playing.play(game_id=game.pk, user=owner, version=game.version, action=action)
    game.refresh_from_db()
    assert game.turn_seat == 0 or game.status == GameStatus.FINISHED
    assert {m.seat for m in result.moves[1:]} <= {1, 2}


def test_replaying_the_log_from_the_seed_gives_the_stored_state(owner, start_game):
    game = start_game([owner, seating.BOT, seating.BOT], seed=5)
    for _ in range(60):
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        state = engine.from_json(game.state)
        action = engine.bot_action(state, 0)
        playing.play(game_id=game.pk, user=owner, version=game.version, action=action)
    game.refresh_from_db()
    moves = list(game.moves.order_by("seq").values_list("seat", "action"))
    assert len(moves) == game.version > 60
    replayed = engine.replay(game.variant, game.options, game.players, game.seed, moves)
    assert engine.dumps(replayed) == engine.dumps(engine.from_json(game.state))


def test_the_timeout_move_draws_and_discards_the_drawn_card(owner, member, start_game):
    game = start_game([owner, member], seed=3, move_hours=24, timeout_rule=TimeoutRule.AUTO_MOVE)
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    assert game.deadline_at is not None
    people = {s.number: s.user for s in game.seats.all()}
    state = engine.from_json(game.state)
    first = state.current
    discard = next(a for a in engine.legal_actions(state, first) if a["type"] == "discard")
    playing.play(game_id=game.pk, user=people[first], version=0, action=discard)
    game.refresh_from_db()
    assert scans.timeout_move(game_id=game.pk) is None  # not due yet
    result = scans.timeout_move(game_id=game.pk, now=game.deadline_at)
    drew, discarded = [m.action for m in result.moves]
    assert drew == {"type": "draw"}
    drawn = result.events[0]["secret"]["card"]["id"]
    assert discarded == {"type": "discard", "card": drawn}
    game.refresh_from_db()
    assert game.turn_seat == first
    assert game.deadline_at > result.moves[0].created_at


def test_the_locking_query_brings_the_seats_as_stored(owner, member, admin, start_game):
    from django.db import transaction

    game = start_game([owner, member, seating.BOT, admin], seed=4)
    seating.decline_seat(game_id=game.pk, user=admin)
    with transaction.atomic():
        locked, seats = game_core.locked(game.pk, user=owner)
    stored = game_core.seats_of(game)
    fields = ("pk", "number", "user_id", "bot", "accepted_at", "name", "is_filled", "is_invited")

    def rows(seat_list):
        return [[getattr(seat, name) for name in fields] for seat in seat_list]

    assert rows(seats) == rows(stored)
    assert locked.pk == game.pk


def test_each_seat_change_before_the_deal_bumps_the_revision_until_it_deals(owner, member, admin, start_game):
    game = start_game([owner, member, admin], seed=6)
    revisions = [game.revision]
    for change in (
        lambda: seating.decline_seat(game_id=game.pk, user=admin),
        lambda: seating.accept_seat(game_id=game.pk, user=member),
    ):
        change()
        game.refresh_from_db()
        assert game.status == GameStatus.WAITING
        revisions.append(game.revision)
    seating.fill_seat_with_bot(game_id=game.pk, actor=owner, number=2)
    game.refresh_from_db()
    assert game.status == GameStatus.ACTIVE
    revisions.append(game.revision)
    assert revisions == sorted(set(revisions))


def test_a_game_stores_the_rules_version_it_was_created_with(owner, member, start_game, monkeypatch):
    from games import engine

    game = start_game([owner, member], seed=9)
    assert game.rules_version == engine.RULES_VERSION
    monkeypatch.setattr(engine, "RULES_VERSION", engine.RULES_VERSION + 1)
    later = start_game([owner, seating.BOT], seed=10)
    assert later.rules_version == engine.RULES_VERSION
    game.refresh_from_db()
    assert game.rules_version == later.rules_version - 1  # a game keeps its version


def instance_picture(instance):
    """Everything an instance holds: its dict (the state aside), its state, its cached relations."""
    if instance is None:
        return None
    values = {key: value for key, value in instance.__dict__.items() if key != "_state"}
    state = instance._state
    related = {name: instance_picture(value) for name, value in state.fields_cache.items()}
    return (type(instance), list(values.items()), state.adding, state.db, state.fetch_mode, related)


def orm_seats(game):
    from games.models import Seat

    return list(Seat.objects.filter(game=game).select_related("game__group", "user").order_by("number"))


def test_the_locked_instances_are_the_orms_select_related_ones_field_by_field(
    owner, member, admin, start_game
):
    from django.db import transaction

    game = start_game([owner, member, seating.BOT, admin], seed=4)
    seating.decline_seat(game_id=game.pk, user=admin)  # an empty seat: no player
    for user, slug in ((owner, game.group.slug), (None, None)):
        with transaction.atomic():
            locked, seats = game_core.locked(game.pk, user=user, group_slug=slug)
        expected = orm_seats(game)
        assert [instance_picture(seat) for seat in seats] == [instance_picture(seat) for seat in expected]
        assert all(seat.game is locked for seat in seats)  # one Game shared by the seats
        assert locked.group.slug == game.group.slug
        assert [seat.user for seat in seats][2:] == [None, None]


def test_the_lock_query_sends_the_games_json_columns_on_the_first_seats_row_only(owner, member, start_game):
    """The state (5 to 10 KB) is read and sent once, not once per seat; the game built from the rows is
    still the ORM's, field by field."""
    from django.db import connection, transaction

    from games.models import Game, Seat

    game = start_game([owner, member, seating.BOT, seating.BOT], seed=4)
    seating.accept_seat(game_id=game.pk, user=member)
    from games import movesql

    query = movesql.LockQuery.of(connection, with_user=True, with_slug=True)
    params = {"game": game.pk, "user": owner.pk, "slug": game.group.slug}
    with transaction.atomic():
        locked, seats = game_core.locked(game.pk, user=owner, group_slug=game.group.slug)
        with connection.cursor() as cursor:
            cursor.execute(query.sql, params)
            rows = cursor.fetchall()
    width = len(Seat._meta.concrete_fields)
    names = [f.name for f in Game._meta.concrete_fields]
    json_columns = [width + names.index(name) for name in ("state", "staged", "options")]
    assert len(rows) == 4
    assert all(rows[0][i] is not None for i in json_columns)
    assert all(row[i] is None for row in rows[1:] for i in json_columns)
    assert [instance_picture(seat) for seat in seats] == [instance_picture(seat) for seat in orm_seats(game)]
    assert locked.state is not None


def test_a_game_whose_seats_do_not_start_at_number_0_is_still_locked_with_its_state(
    owner, member, start_game
):
    from django.db import transaction

    from games.models import Seat

    game = start_game([owner, member], seed=1234)
    seating.accept_seat(game_id=game.pk, user=member)
    Seat.objects.filter(game=game, number=0).update(number=5)  # never made so: the query must not care
    with transaction.atomic():
        locked, seats = game_core.locked(game.pk, user=owner)
    assert [seat.number for seat in seats] == [1, 5]
    assert [instance_picture(seat) for seat in seats] == [instance_picture(seat) for seat in orm_seats(game)]
    assert locked.state is not None


def test_the_locked_instances_come_from_the_orms_from_db_while_something_listens_to_their_init(
    owner, member, start_game
):
    from django.db import transaction
    from django.db.models.signals import post_init

    from games.models import Game

    game = start_game([owner, member], seed=5)
    made = []

    def listener(sender, instance, **kwargs):
        made.append(instance)

    post_init.connect(listener, sender=Game)
    try:
        with transaction.atomic():
            locked, seats = game_core.locked(game.pk, user=owner)
    finally:
        post_init.disconnect(listener, sender=Game)
    assert made == [locked]
    assert [instance_picture(seat) for seat in seats] == [instance_picture(seat) for seat in orm_seats(game)]
