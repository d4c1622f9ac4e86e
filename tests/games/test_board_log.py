"""The move log in words: every event the engine records for players has a sentence on the page."""

from games import board, engine

BOOKKEEPING = {"turn_started"}  # events the page shows through the seat list, not the log


def _events_of_bot_games(variant, players, options, seeds):
    for seed in seeds:
        state = engine.new_game(variant, players, options, seed=seed)
        for _step in range(3000):
            if state.finished:
                break
            seat = state.current
            action = engine.bot_action(state, seat)
            yield from engine.apply(state, seat, action)


def test_an_egyptian_special_hand_is_named_in_the_log():
    event = {"type": "went_out", "seat": 1, "finish": "suited"}
    assert str(board.describe(event, {0: "Amira", 1: "Omar"})) == "Omar goes out: Suited Hand!"


def test_a_plain_hand_is_called_a_hand():
    event = {"type": "went_out", "seat": 0, "finish": "hand"}
    assert str(board.describe(event, {0: "Amira", 1: "Omar"})) == "Amira goes out “Hand”!"


def test_cards_in_the_log_are_drawn_as_cards():
    event = {"type": "discarded", "seat": 0, "card": {"id": 7, "face": "10H"}}
    line = str(board.describe(event, {0: "Amira"}))
    assert line.startswith("Amira discards ")
    assert "10" in line
    assert "♥" in line


def test_turn_changes_are_not_log_lines():
    assert board.describe({"type": "turn_started", "seat": 0, "turn": 3}, {0: "Amira"}) is None


def test_a_reshuffled_stock_is_told_in_words():
    options = {"reshuffle_discards": True, "deals": 7}
    names = {0: "Amira", 1: "Omar", 2: "Layla"}
    seen = set()
    for event in _events_of_bot_games("kuwaiti", 3, options, seeds=range(6)):
        seen.add(event["type"])
        if event["type"] not in BOOKKEEPING:
            assert board.describe(event, names), event["type"]
        if "stock_reshuffled" in seen:
            break
    assert "stock_reshuffled" in seen


def test_a_kept_log_line_follows_the_readers_language_and_the_names():
    """board.describe keeps the lines it made (issue 17): the same event reads in the reader's language
    and with the names given, whatever was described before."""
    from django.utils import translation

    event = {"type": "discarded", "seat": 0, "card": {"id": 7, "face": "10H"}}
    english = str(board.describe(event, {0: "Amira"}))
    with translation.override("ar"):
        arabic = str(board.describe(event, {0: "Amira"}))
    assert arabic != english
    assert "Amira" in arabic
    assert str(board.describe(event, {0: "Omar"})).startswith("Omar discards ")
    assert str(board.describe(event, {0: "Amira"})) == english


def _fresh_lines(events, names, limit):
    lines = [board._describe(e, names) for e in reversed(events) if e["type"] not in BOOKKEEPING]
    return [str(line) for line in lines[:limit]]


def test_the_kept_lines_of_a_board_are_the_lines_described_afresh_for_every_viewer_at_every_move():
    """last_lines keeps each board's lines (issue 17) and reuses a line only for an equal event at the same
    place: over whole bot games (a redeal, new deals, the end), every viewer's page has exactly the lines
    described afresh, seat 0's slot given seat 1's log included (a kept drawn card is never shown)."""
    names = {0: "Amira", 1: "Omar", 2: "Layla", 3: "Fadi"}
    for variant, players, options, seed in (
        ("classic", 2, {}, 3),
        ("kuwaiti", 3, {}, 5),
        ("hand-and-foot", 2, {}, 7),
    ):
        state = engine.new_game(variant, players, options, seed=seed)
        shown = {n: names[n] for n in range(players)}
        for _step in range(400):
            if state.finished:
                break
            for viewer in (*range(players), None):
                events = engine.view(state, viewer)["log"]
                for slot in ((variant, seed, viewer), ("shared",)):
                    lines = board.last_lines(events, shown, board.LOG_LINES, slot=slot)
                    assert [str(line) for line in lines] == _fresh_lines(events, shown, board.LOG_LINES)
            seat = state.current
            engine.apply(state, seat, engine.bot_action(state, seat))


def _after_a_draw_from_the_stock(seed):
    state = engine.new_game("classic", 2, {}, seed=seed)
    while True:
        seat = state.current
        action = engine.bot_action(state, seat)
        engine.apply(state, seat, action)
        if action["type"] == "draw":
            return state, seat


def test_a_drawn_card_kept_for_the_seat_that_drew_it_is_never_shown_to_another_seat():
    state, seat = _after_a_draw_from_the_stock(11)
    names = {0: "Amira", 1: "Omar"}
    mine = board.last_lines(engine.view(state, seat)["log"], names, 5, slot=("same",))
    theirs = board.last_lines(engine.view(state, 1 - seat)["log"], names, 5, slot=("same",))
    drawn = state.deal.hands[seat][-1]
    assert f'data-card="{drawn.id}"' in str(mine[0])
    assert "data-card" not in str(theirs[0])
    assert theirs == _fresh_lines(engine.view(state, 1 - seat)["log"], names, 5)


def test_a_kept_board_reads_in_the_readers_language_and_again_after_the_catalogues_are_reloaded():
    from django.utils import translation
    from django.utils.translation import trans_real

    state, _seat = _after_a_draw_from_the_stock(12)
    events = engine.view(state, None)["log"]
    names = {0: "Amira", 1: "Omar"}
    with translation.override("en"):
        english = board.last_lines(events, names, 5, slot=("board",))
    with translation.override("ar"):
        arabic = board.last_lines(events, names, 5, slot=("board",))
        assert arabic == _fresh_lines(events, names, 5)
    assert arabic != english
    with translation.override("en"):
        board._log_slots("en")[(("board",), tuple(names.items()))] = {
            index: (event, "stale") for index, event in enumerate(events)
        }
        assert "stale" in board.last_lines(events, names, 5, slot=("board",))  # what is kept is used
        trans_real._translations = dict(trans_real._translations)  # as Django's reload does: new catalogues
        assert board.last_lines(events, names, 5, slot=("board",)) == english


def test_the_kept_boards_are_bounded(monkeypatch):
    monkeypatch.setattr(board, "LOG_SLOTS", 3)
    state = engine.new_game("classic", 2, {}, seed=13)
    events = engine.view(state, None)["log"]
    for number in range(10):
        board.last_lines(events, {0: "Amira", 1: "Omar"}, 5, slot=("game", number))
    kept = board._log_slots(board.get_language())
    assert len(kept) == 3
    assert [key[0] for key in kept] == [("game", 7), ("game", 8), ("game", 9)]
