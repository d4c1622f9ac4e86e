"""The deal's end on the table for every seated player: both players of a duel see the result right
after the deal; only the one who starts the next deal gets "Next deal"; each keeps it until their own
first move of the new deal."""

from games import engine, table_end
from games.models import Game
from games.services import playing


def _to_the_next_deal(game):
    """Plays deal 1 out with the engine (the bots' choices for both seats) and stores the new deal."""
    state = engine.from_json(game.state)
    while not state.records:
        engine.apply(state, state.current, engine.bot_action(state, state.current))
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_json(state),
        version=state.version,
        turn_seat=state.current,
        revision=game.revision + 1,
    )
    game.refresh_from_db()
    return state


def test_both_players_see_the_deal_result_and_only_the_starter_gets_next_deal(client, duel):
    state = _to_the_next_deal(duel)
    people = {seat.number: seat.user for seat in duel.seats.all()}
    starter, other = people[state.current], people[1 - state.current]
    client.force_login(starter)
    page = client.get(duel.get_absolute_url()).content.decode()
    assert 'id="deal-end"' in page
    assert 'id="next-deal"' in page
    client.force_login(other)
    page = client.get(duel.get_absolute_url()).content.decode()
    assert 'id="deal-end"' in page
    assert 'id="next-deal"' not in page
    assert "Deal 1 is over" in page

    action = engine.bot_action(state, state.current)
    playing.play(game_id=duel.pk, user=starter, version=duel.version, action=action)
    client.force_login(starter)
    assert 'id="deal-end"' not in client.get(duel.get_absolute_url()).content.decode()
    client.force_login(other)
    assert 'id="deal-end"' in client.get(duel.get_absolute_url()).content.decode()  # not moved yet


def test_a_move_carried_over_from_a_redeal_is_not_a_move_in_the_new_deal():
    events = [
        {"type": "redeal_demanded", "seat": 0, "previous_deal": True},
        {"type": "deal_started", "dealer": 1, "first": 0},
        {"type": "turn_started", "seat": 0},
    ]
    assert not table_end.moved_in_deal(events, 0)
    assert table_end.moved_in_deal([*events, {"type": "discarded", "seat": 0}], 0)
