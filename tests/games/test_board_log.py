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


def test_the_page_shows_the_newest_lines_of_the_deal_newest_first_without_bookkeeping():
    names = {0: "Amira", 1: "Omar"}
    state = engine.new_game("classic", 2, {}, seed=3)
    for _step in range(30):
        engine.apply(state, state.current, engine.bot_action(state, state.current))
    events = engine.view(state, 0)["log"]
    described = [str(board.describe(e, names)) for e in events if e["type"] not in BOOKKEEPING]
    assert [str(line) for line in board.last_lines(events, names, 5)] == described[::-1][:5]
    assert len(board.last_lines(events, names)) == len(described)


def _after_a_draw_from_the_stock(seed):
    state = engine.new_game("classic", 2, {}, seed=seed)
    while True:
        seat = state.current
        action = engine.bot_action(state, seat)
        engine.apply(state, seat, action)
        if action["type"] == "draw":
            return state, seat


def test_a_drawn_card_is_named_to_the_seat_that_drew_it_and_to_no_other_seat():
    state, seat = _after_a_draw_from_the_stock(11)
    names = {0: "Amira", 1: "Omar"}
    mine = board.last_lines(engine.view(state, seat)["log"], names, 5)
    theirs = board.last_lines(engine.view(state, 1 - seat)["log"], names, 5)
    drawn = state.deal.hands[seat][-1]
    assert f'data-card="{drawn.id}"' in str(mine[0])
    assert "data-card" not in str(theirs[0])
