"""The whole game's log, a page at a time (newest first, only that page's rows read), and the
"since your last move" line on the play page."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from games import engine, movelog
from games.models import Game, Move, MoveKind
from games.services import playing, seating


def url(game, name="log"):
    return reverse(f"games:{name}", args=[game.group.slug, game.pk])


def play_moves(game, owner, count):
    """``count`` moves of the owner (bot's choices) against the bot; the bot answers in each write."""
    for _ in range(count):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.finished:
            break
        action = engine.bot_action(state, state.current)
        playing.play(game_id=game.pk, user=owner, version=game.version, action=action)
    game.refresh_from_db()


@pytest.fixture
def long_game(owner, start_game):
    game = start_game([owner, seating.BOT], seed=77)
    play_moves(game, owner, 60)
    return game


def lines(html):
    return re.findall(r'<li value="(\d+)">', html)


def test_every_move_is_in_the_log_newest_first_a_page_at_a_time(client, owner, long_game):
    client.force_login(owner)
    total = Move.objects.filter(game=long_game).count()
    assert total > 2 * movelog.PAGE_SIZE
    first = lines(client.get(url(long_game)).content.decode())
    assert first == [str(seq) for seq in range(total, total - movelog.PAGE_SIZE, -1)]
    pages = -(-total // movelog.PAGE_SIZE)
    seen = []
    for number in range(1, pages + 1):
        seen += lines(client.get(url(long_game), {"page": number}).content.decode())
    assert seen == [str(seq) for seq in range(total, 0, -1)]
    last = client.get(url(long_game), {"page": "999999"}).content.decode()  # past the end: the last page
    assert lines(last)[-1] == "1"
    hostile = client.get(url(long_game), {"page": "9" * 5000})  # never int() on it: the first page
    assert lines(hostile.content.decode())[0] == str(total)


def test_a_page_costs_the_same_queries_at_the_start_and_the_end_of_the_log(client, owner, long_game):
    client.force_login(owner)
    client.get(url(long_game))  # the session's first read
    counts = []
    for number in (1, 3):
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url(long_game), {"page": number}).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_draw_from_the_stock_names_no_card(client, owner, long_game):
    client.force_login(owner)
    html = client.get(url(long_game)).content.decode()
    drew = re.findall(r"<span>([^<]*drew from the stock\.)</span>", html)
    assert drew
    assert all("data-card" not in line for line in drew)


def test_the_log_is_for_members_only(client, outsider, long_game):
    client.force_login(outsider)
    assert client.get(url(long_game)).status_code == 404
    client.logout()
    assert client.get(url(long_game)).status_code == 302


def test_the_play_page_says_what_happened_since_your_last_move(client, owner, start_game):
    game = start_game([owner, seating.BOT], seed=77)
    play_moves(game, owner, 1)
    state = engine.from_json(game.state)
    mine = Move.objects.filter(game=game, seat=0, kind="player").order_by("seq").last()
    after = list(Move.objects.filter(game=game, seq__gt=mine.seq, deal=state.deal.number))
    client.force_login(owner)
    html = client.get(url(game, "play")).content.decode()
    if not after:
        assert 'id="since"' not in html
        pytest.skip("the bot did not move after the owner's first move with this seed")
    since = re.search(r'<p class="since small" id="since">(.*?)</p>', html, re.S).group(1)
    assert "Since your last move:" in since
    assert "Bot 2" in since
    discards = [m.action["card"] for m in after if m.action["type"] == "discard"]
    for card_id in discards:
        assert f'data-card="{card_id}"' in since


def test_the_seats_that_moved_since_your_last_move_are_marked_at_the_table(client, owner, start_game):
    game = start_game([owner, seating.BOT], seed=77)
    play_moves(game, owner, 1)
    mine = Move.objects.filter(game=game, seat=0, kind="player").order_by("seq").last()
    assert Move.objects.filter(game=game, seq__gt=mine.seq, seat=1).exists()  # the bot answered
    client.force_login(owner)
    html = client.get(url(game, "play")).content.decode()
    seats = re.findall(r'<li class="seat([^"]*)">\s*<span class="seat-name">([^<]*?) ?<', html)
    assert [(name, "seat-moved" in classes) for classes, name in seats] == [
        (owner.name, False),
        ("Bot 2", True),
    ]


def test_after_my_own_move_the_line_tells_only_what_the_bot_did(client, owner, start_game):
    game = start_game([owner, seating.BOT], seed=77)
    game.refresh_from_db()
    state = engine.from_json(game.state)
    if state.current != 0:
        pytest.skip("the bot plays first with this seed")
    action = engine.bot_action(state, 0)
    client.force_login(owner)
    from games.moves import requests_for

    for press in requests_for(state, 0, action):
        response = client.post(url(game, "move"), press.as_post(game.version), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    game.refresh_from_db()
    bot_moves = Move.objects.filter(game=game, seat=1).count()
    assert ('id="since"' in html) == (bot_moves > 0)
    if bot_moves:
        assert "Amira" not in html.split('id="since"')[1].split("</p>")[0]
        assert Game.objects.get(pk=game.pk).turn_seat == 0


def test_in_arabic_the_since_line_joins_the_moves_with_the_arabic_comma(owner, start_game):
    game = start_game([owner, seating.BOT], seed=77)
    moves = [Move(seq=seq, seat=1, kind=MoveKind.PLAYER, deal=0, action={"type": "draw"}) for seq in (1, 2)]
    with translation.override("ar"):
        line = str(movelog.since(game, {1: "Omar"}, 0, 0, moves=moves).line)
    with translation.override("en"):
        english = str(movelog.since(game, {1: "Omar"}, 0, 0, moves=moves).line)
    assert "، " in line
    assert ", " not in line
    assert english.count(", ") == 1


def test_the_since_rows_are_read_once_per_game_version_and_viewer(owner, start_game):
    """movelog keeps the rows after a viewer's last move per (game, version, viewer, deal) (issue 17): the
    same line again without a query at the same version; each viewer their own rows; a new move, a new
    query. The line is the one read from the database (the rows up to the game's version only)."""
    game = start_game([owner, seating.BOT], seed=77)
    play_moves(game, owner, 3)
    state = engine.from_json(game.state)
    names = {0: "Amira", 1: "Bot 2"}
    movelog._kept_rows.clear()
    with CaptureQueriesContext(connection) as queries:
        first = movelog.since(game, names, 0, state.deal.number)
    assert len(queries) == 1
    with CaptureQueriesContext(connection) as queries:
        again = movelog.since(game, names, 0, state.deal.number)
    assert len(queries) == 0
    assert (str(again.line), again.card_ids, again.seats) == (str(first.line), first.card_ids, first.seats)
    theirs = movelog.since(game, names, 1, state.deal.number)
    assert theirs.seats != first.seats or theirs.line != first.line
    assert 1 not in theirs.seats
    # A row past the version read is not part of that version's rows.
    Move.objects.create(
        game=game, seq=game.version + 1, seat=1, deal=state.deal.number, action={"type": "draw"}
    )
    movelog._kept_rows.clear()
    assert str(movelog.since(game, names, 0, state.deal.number).line) == str(first.line)
    game.version += 1
    with CaptureQueriesContext(connection) as queries:
        later = movelog.since(game, names, 0, state.deal.number)
    assert len(queries) == 1
    assert str(later.line) != str(first.line)


def test_a_moves_answer_keeps_the_rows_the_database_gives_for_its_version(client, owner, start_game):
    """After each move (the bot answering in the same write, deals ending), the rows a move's answer kept for
    the mover are those the query reads for that version, so a press that writes nothing (a meld put aside)
    shows the same line without the query."""
    from games.moves import requests_for

    game = start_game([owner, seating.BOT], seed=78)
    client.force_login(owner)
    checked = deals = 0
    for _ in range(120):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.finished or state.current != 0:
            break
        action = engine.bot_action(state, 0)
        for press in requests_for(state, 0, action):
            client.post(url(game, "move"), press.as_post(game.version), HTTP_HX_REQUEST="true")
        game.refresh_from_db()
        state = engine.from_json(game.state)
        key = (game.pk, game.created_at, game.version, 0, state.deal.number)
        if key in movelog._kept_rows:
            assert movelog._kept_rows[key] == movelog._rows_since(game.pk, game.version, 0, state.deal.number)
            checked += 1
            deals = max(deals, state.deal.number)
    assert checked >= 40
    assert deals >= 1  # across a deal's end
