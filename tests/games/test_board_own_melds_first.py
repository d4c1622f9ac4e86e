"""The table's melds read from the viewer's own: their meld group (Hand) or side (Hand and Foot) comes first,
nearest the piles, and is marked as theirs; a watcher sees them in seat order."""

from types import SimpleNamespace

from games import board, engine

SEATS = [
    SimpleNamespace(number=0, name="Amira", bot=False),
    SimpleNamespace(number=1, name="Omar", bot=False),
]


def _both_melded(state, variant: str) -> bool:
    picture = engine.view(state, None)
    if variant == "classic":
        return {meld["owner"] for meld in picture["melds"]} == {0, 1}
    return all(side["melds"] for side in picture["sides"])


def _played(variant: str, seed: int = 3):
    """A two-player game played by bots until both seats have melds on the table."""
    state = engine.new_game(variant, 2, {}, seed=seed)
    for _step in range(400):
        seat = state.current
        engine.apply(state, seat, engine.bot_action(state, seat))
        if _both_melded(state, variant):
            return state
    raise AssertionError("the bots laid down no melds on both sides")


def test_the_viewers_own_meld_group_comes_first_in_a_hand_game():
    state = _played("classic")
    for viewer in (0, 1):
        groups = board.build(state, SEATS, viewer=viewer)["meld_groups"]
        assert groups[0]["title"] == SEATS[viewer].name
        assert [group["yours"] for group in groups] == [True, False]
    watched = board.build(state, SEATS, viewer=None)["meld_groups"]
    assert [group["title"] for group in watched] == ["Amira", "Omar"]
    assert not any(group["yours"] for group in watched)


def test_the_viewers_own_side_comes_first_in_a_hand_and_foot_game():
    state = _played("hand-and-foot")
    for viewer in (0, 1):
        sides = board.build(state, SEATS, viewer=viewer)["sides"]
        assert sides[0]["side"] == viewer
        assert [side["yours"] for side in sides] == [True, False]
