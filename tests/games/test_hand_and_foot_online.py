"""Hand and Foot online: game creation offers both rule sets; the play page shows each side's melds and
books (red/black), book counts, hand and foot sizes, the discard pile's size and top, the deal's
opening minimum and what a side still needs to go out; moves through the page's buttons; a move costs
at most 6 queries; the timeout move; the replay of a finished game."""

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import engine, moves, results
from games.models import Game, GameStatus
from games.services import core as game_core
from games.services import leaving, seating
from tests.support import request_queries

HTMX = {"HTTP_HX_REQUEST": "true"}


def _duel(owner, member, start_game, variant="hand-and-foot", seed=5):
    seats = [owner, member] if variant == "hand-and-foot" else [owner, "bot", member, "bot"]
    game = start_game(seats, variant=variant, seed=seed)
    seating.accept_seat(game_id=game.pk, user=member)
    return Game.objects.get(pk=game.pk)


def _clients(game):
    clients = {}
    for seat in game.seats.select_related("user"):
        if seat.user is not None and not seat.bot:
            clients[seat.number] = Client()
            clients[seat.number].force_login(seat.user)
    return clients


def test_game_creation_offers_both_rule_sets_with_their_options(client, owner, member):
    client.force_login(owner)
    url = reverse("games:new", args=["thursday-hand"])
    page = client.get(url).content.decode()
    assert 'value="hand-and-foot"' in page
    assert 'value="hand-and-foot-teams"' in page
    assert 'name="opt_fourth_deal"' in client.get(url, {"variant": "hand-and-foot-teams"}).content.decode()
    response = client.post(
        url,
        {
            "variant": "hand-and-foot-teams",
            "opt_fourth_deal": "on",
            "seat_0": str(owner.pk),
            "seat_1": "bot",
            "seat_2": str(member.pk),
            "seat_3": "bot",
            "move_hours": "24",
            "timeout_rule": "auto_move",
        },
    )
    game = Game.objects.get()
    assert response.status_code == 302
    assert game.variant == "hand-and-foot-teams"
    assert game.options == {"fourth_deal": True}


def test_the_play_page_shows_the_hand_and_foot_table(owner, member, start_game):
    game = _duel(owner, member, start_game)
    state = game_core.load_state(game)
    seat = state.current
    client = _clients(game)[seat]
    page = client.get(game.get_absolute_url()).content.decode()
    assert 'id="side-0"' in page
    assert 'id="side-1"' in page
    assert "To go out you need a red book and a black book." in page
    assert "Needs a red book and a black book to go out." in page
    assert "foot 13 cards" in page
    assert "hand 13 cards" in page
    assert "Deal 1 of 4: an opening needs 50. You have not opened yet." in page
    assert "Draw 2 cards" in page
    # The foot is face down: none of its cards is on the page, its owner's included.
    for foot in state.deal.feet:
        for card in foot:
            assert f'data-card="{card.id}"' not in page


def test_moves_through_the_buttons_draw_meld_lay_off_and_discard(owner, member, start_game):
    game = _duel(owner, member, start_game)
    clients = _clients(game)
    url = reverse("games:move", args=[game.group.slug, game.pk])
    seen = set()
    for _ in range(200):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.deal.number > 0 or game.status != GameStatus.ACTIVE:
            break
        seat = state.current
        action = engine.bot_action(state, seat)
        for press in moves.requests_for(state, seat, action):
            response = clients[seat].post(url, press.as_post(game.version), **HTMX)
            assert response.status_code == 200
        game.refresh_from_db()
        assert game.version == state.version + 1, response.content.decode()[:3000]
        seen.add(action["type"])
    assert {"draw", "meld", "discard"} <= seen


def test_a_refused_move_shows_the_engines_sentence_and_changes_nothing(owner, member, start_game):
    game = _duel(owner, member, start_game)
    state = game_core.load_state(game)
    seat = state.current
    url = reverse("games:move", args=[game.group.slug, game.pk])
    card = state.deal.hands[seat][0].id
    response = _clients(game)[seat].post(
        url, {"act": "discard", "cards": [card], "version": game.version}, **HTMX
    )
    assert "Draw first, or take the discard pile." in response.content.decode()
    assert Game.objects.get(pk=game.pk).version == game.version


def test_a_hand_and_foot_move_needs_at_most_six_queries(owner, member, start_game):
    game = _duel(owner, member, start_game, seed=9)
    clients = _clients(game)
    url = reverse("games:move", args=[game.group.slug, game.pk])
    counted = []
    for _ in range(60):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        seat = state.current
        action = engine.bot_action(state, seat)
        for press in moves.requests_for(state, seat, action):
            with CaptureQueriesContext(connection) as queries:
                clients[seat].post(url, press.as_post(game.version), **HTMX)
            sqls = request_queries(queries.captured_queries)
            counted.append((action["type"], len(sqls)))
    assert {kind for kind, _n in counted} >= {"draw", "discard"}
    assert max(n for _kind, n in counted) <= 6, counted


def test_the_timeout_move_draws_and_discards(owner, member, start_game):
    for variant in ("hand-and-foot", "hand-and-foot-teams"):
        game = _duel(owner, member, start_game, variant=variant)
        state = game_core.load_state(game)
        actions = engine.timeout_actions(state, state.current)
        assert actions[0]["type"] == "draw"
        assert actions[-1]["type"] == "discard"
        work = state.copy()
        for action in actions:
            engine.apply(work, state.current, action)
        assert work.current != state.current


def test_a_finished_game_of_bots_replays(client, owner, start_game):
    for variant in ("hand-and-foot", "hand-and-foot-teams"):
        seats = [owner, "bot"] if variant == "hand-and-foot" else [owner, "bot", "bot", "bot"]
        game = start_game(seats, variant=variant, seed=3)
        leaving.hand_seat_to_bot(game_id=game.pk, number=0)
        game.refresh_from_db()
        assert game.status == GameStatus.FINISHED
        client.force_login(owner)
        page = client.get(game.get_absolute_url()).content.decode()
        assert "Final standings" in page
        url = reverse("games:replay", args=[game.group.slug, game.pk])
        for step in (0, 40, 10_000):
            assert client.get(url, {"step": step}).status_code == 200
        assert results.record_result(game.pk)  # the group's standings take the highest total as best


def test_hand_and_foot_is_offered_online_for_as_many_players_as_its_rules_allow(client, owner, member):
    client.force_login(owner)
    url = reverse("games:new", args=["thursday-hand"])
    page = client.get(url, {"variant": "hand-and-foot"}).content.decode()
    assert 'name="seat_7"' in page  # 2 to 8 players (hand-and-foot.md)
    assert 'name="seat_8"' not in page
    classic = client.get(url, {"variant": "classic"}).content.decode()
    assert 'name="seat_4"' in classic
    assert 'name="seat_5"' not in classic  # the Hand rule sets: at most 5
    seats = {f"seat_{n}": "bot" for n in range(2, 8)}
    response = client.post(
        url,
        {
            "variant": "hand-and-foot",
            "seat_0": str(owner.pk),
            "seat_1": str(member.pk),
            **seats,
            "move_hours": "0",
            "timeout_rule": "nothing",
        },
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert game.players == 8
    seating.accept_seat(game_id=game.pk, user=member)
    game.refresh_from_db()
    state = game_core.load_state(game)
    assert len(state.deal.feet) == 8  # dealt to eight seats; the bots have played since
    # The deal as it came from the game's seed (a bot may already have picked up its foot).
    dealt = engine.new_game("hand-and-foot", 8, game.options, game.seed).deal
    assert [len(hand) for hand in dealt.hands] == [11] * 8  # 11 cards each from 5 players
    assert [len(foot) for foot in dealt.feet] == [11] * 8
    page = _clients(game)[0].get(game.get_absolute_url()).content.decode()
    assert page.count('class="seat') >= 8
    assert page.count('class="meld-group foot-side') == 8


def test_a_sixth_seat_of_a_hand_rule_set_is_not_offered_and_plays_no_part(client, owner, member):
    client.force_login(owner)
    url = reverse("games:new", args=["thursday-hand"])
    data = {f"seat_{n}": "bot" for n in range(1, 6)}
    data.update(
        {
            "variant": "classic",
            "opt_max_wild_per_meld": "1",
            "seat_0": str(owner.pk),
            "move_hours": "0",
            "timeout_rule": "nothing",
        }
    )
    assert client.post(url, data).status_code == 302
    assert Game.objects.get().players == 5
