"""One codec for a meld spec and a wild card's choice (games/engine/meldspec.py): every layer writes
``{"cards": [ids], "wild_as": {"<id>": face}}`` and ``"<id>:<face>"``; games logged in the older forms
(a bare list of ids, number keys) still read and replay."""

import json
from pathlib import Path

import pytest

from games import engine
from games.engine.meldspec import MeldSpec, choice_text, parse_choice, read_wild_as
from tests.rigging import Deck

GOLDEN = sorted((Path(__file__).resolve().parents[1] / "golden").glob("*.json"))


def test_a_spec_round_trips_through_json_with_its_wild_cards_by_id():
    spec = MeldSpec(cards=(4, 9, 52), wild_as=((52, "7S"),))
    assert spec.to_json() == {"cards": [4, 9, 52], "wild_as": {"52": "7S"}}
    assert MeldSpec.from_json(spec.to_json()) == spec
    assert MeldSpec.from_json({"cards": [4, 9]}).to_json() == {"cards": [4, 9]}  # no empty wild_as


def test_the_older_forms_still_read():
    assert MeldSpec.from_json([4, 9, 52]) == MeldSpec(cards=(4, 9, 52))
    assert MeldSpec.from_json({"cards": [4, 9, 52], "wild_as": {52: "7S"}}).pins == {52: "7S"}


@pytest.mark.parametrize(
    "bad",
    [
        {"cards": [1, True]},
        {"cards": "1,2"},
        {"cards": [1], "wild_as": ["7S"]},
        {"cards": [1], "wild_as": {"x": "7S"}},
    ],
)
def test_a_malformed_spec_is_a_sentence(bad):
    with pytest.raises(engine.IllegalAction) as refused:
        MeldSpec.from_json(bad)
    assert refused.value.sentence().endswith(".")


def test_of_keeps_only_the_wild_cards_of_its_own_cards():
    assert MeldSpec.of([1, 2, 3], {3: "4H", 9: "5H"}).to_json() == {
        "cards": [1, 2, 3],
        "wild_as": {"3": "4H"},
    }


def test_a_choice_is_id_colon_face_and_nothing_else():
    assert choice_text(12, "7S") == "12:7S"
    assert parse_choice("12:7S") == (12, "7S")
    assert parse_choice("12:10H") == (12, "10H")
    assert parse_choice("12:5") == (12, "5")  # a wild card in a set stands for a rank
    for bad in ("12", "12:7X", "x:7S", "123456:7S", "12:JK", "²:7S", ""):
        assert parse_choice(bad) is None, bad


def test_the_engine_writes_its_suggested_melds_in_the_codec():
    state = engine.new_game("classic", 2, {}, seed=3)
    deck = Deck("classic")
    state.deal.hands[state.deal.current] = deck.pick("5S 6S JK 7H 8H 9H 10H KS KH KD 2C 4D 6C 8D QS")
    wilds, rules = engine.wilds_of(state), engine.rules_of(state)
    meld = engine.make_meld(
        deck.cards[:0] + state.deal.hands[state.deal.current][:3],
        wilds,
        rules,
        {state.deal.hands[state.deal.current][2].id: "7S"},
    )
    assert engine.meld_spec(meld, wilds) == MeldSpec.from_meld(meld, wilds).to_json()
    assert engine.meld_spec(meld, wilds)["wild_as"] == {str(state.deal.hands[state.deal.current][2].id): "7S"}


def test_an_action_with_a_bare_list_of_ids_is_still_applied():
    state = engine.new_game("classic", 2, {"no_out_first_turn": False}, seed=3)
    seat = state.deal.current
    deck = Deck("classic")
    state.deal.hands[seat] = deck.pick("7H 8H 9H 10H JH QH KS KH KD KC 2C 4D 6C 8D QS")
    state.deal.hands[1 - seat] = deck.pick("2S 4S 6S 8C 10C QC 3D 5H 7D 9C JC AD AS 3S")
    run = [c.id for c in state.deal.hands[seat][:6]]
    kings = [c.id for c in state.deal.hands[seat][6:10]]
    engine.apply(state, seat, {"type": "meld", "melds": [run, {"cards": kings}]})
    assert len(state.deal.melds) == 2


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_every_logged_meld_of_a_golden_game_reads_through_the_codec(path):
    record = json.loads(path.read_text())
    for _seat, action in record["moves"]:
        for spec in action.get("melds") or []:
            read = MeldSpec.from_json(spec)
            assert read.cards
            if isinstance(spec, dict):
                assert read.pins == read_wild_as(spec.get("wild_as"))
