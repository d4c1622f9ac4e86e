"""The play page's form reads one press of a button into a typed, bounded MoveRequest, and
games.moves turns it into the engine action (and back: the presses that make a bot's action)."""

from urllib.parse import urlencode

import pytest
from django.http import QueryDict

from games import engine, moves
from games.forms import MoveForm


def read(query: str) -> moves.MoveRequest:
    return MoveForm(QueryDict(query)).move_request()


def test_a_discard_is_read_into_a_typed_request():
    request = read("act=discard&cards=17&version=12")
    assert request == moves.MoveRequest(act="discard", version=12, cards=(17,))
    assert request.problem is None


def test_a_button_that_carries_its_meld_is_the_same_request_as_act_and_meld():
    assert read("lay_off=3&cards=4&cards=5&version=1") == read("act=lay_off&meld=3&cards=4&cards=5&version=1")
    assert read("unstage=2") == moves.MoveRequest(act="unstage", option=2)
    assert read("offer=0&version=7") == moves.MoveRequest(act="offer", option=0, version=7)


def test_named_wild_cards_are_read_as_pairs():
    assert read("act=stage&cards=1&cards=104&wild=104:7S").wild_as == ((104, "7S"),)


@pytest.mark.parametrize(
    "query",
    [
        "",
        "act=nonsense",
        "act=discard&cards=x",
        "act=discard&cards=" + "9" * 5000,
        "act=draw&version=" + "9" * 5000,
        "lay_off=" + "1" * 5000,
        "act=meld&cards=1&cards=1",
        "act=stage&cards=1&wild=1:XX",
        "act=stage&cards=1&wild=" + "1" * 50 + ":7S",
        "lay_off=1&offer=2",
        "act=draw&unstage=1",
        "act=meld&" + "&".join(f"cards={n}" for n in range(moves.MAX_CARDS + 1)),
        "act=draw&version=-1",
        "act=draw&version=١٢",  # Arabic-Indic digits are digits to isdigit(), not to us
    ],
)
def test_a_malformed_press_is_a_problem_never_an_exception(query):
    request = read(query)
    assert request.problem
    assert request.act == ""


def test_to_action_and_requests_for_are_inverse_over_a_whole_bot_game():
    """Every action the bot makes in a game of each rule set is made by the page's buttons."""
    seen = set()
    for variant in ("classic", "jordanian", "saudi", "kuwaiti", "egyptian"):
        state = engine.new_game(variant, 2, {}, 11)
        for _ in range(300):
            if state.finished:
                break
            seat = state.current
            action = engine.bot_action(state, seat)
            staged: list[dict] = []
            presses = moves.requests_for(state, seat, action)
            for press in presses[:-1]:
                assert press.is_staging
                staged = moves.stage(state, seat, staged, read(urlencode(press.as_post(), doseq=True)))
            made = moves.to_action(state, seat, read(urlencode(presses[-1].as_post(), doseq=True)), staged)
            before = engine.to_json(state)
            twin = engine.from_json(before)
            engine.apply(state, seat, made)
            engine.apply(twin, seat, action)
            assert engine.to_json(state) == engine.to_json(twin), (action, made)
            seen.add(action["type"])
    assert {"draw", "discard", "meld"} <= seen


def test_reading_a_press_copies_none_of_the_forms_fields(monkeypatch):
    """A Django form deep-copies its fields for each instance (more CPU than reading the press): the
    move form shares its fields, read-only, between requests."""
    import copy

    def no_copy(*args, **kwargs):
        raise AssertionError("a move's form copied its fields")

    monkeypatch.setattr(copy, "deepcopy", no_copy)
    assert read("act=meld&cards=1&cards=2&version=3&wild=2:7S") == moves.MoveRequest(
        act="meld", version=3, cards=(1, 2), wild_as=((2, "7S"),)
    )
    assert read("act=discard&cards=x").problem == "Choose the cards by tapping them."


def test_an_absent_number_and_an_empty_one_read_the_same():
    assert read("act=draw") == moves.MoveRequest(act="draw")
    assert read("act=draw&version=&meld=&option=&lay_off=&offer=&unstage=") == moves.MoveRequest(act="draw")
