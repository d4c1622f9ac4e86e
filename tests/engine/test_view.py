"""Per-seat views: exactly what one seat may see."""

from __future__ import annotations

import json

from games.engine import apply, bot_action, new_game, view, visible_events
from tests.engine.conftest import Rig


def _ids_in(data) -> set[int]:
    """Every card id inside a view (any dict with "id" and "face")."""
    found: set[int] = set()

    def walk(node):
        if isinstance(node, dict):
            if "face" in node and "id" in node:
                found.add(node["id"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(data)
    return found


def test_a_seat_sees_its_own_hand_and_only_the_card_counts_of_the_others():
    game = new_game("classic", 3, seed=987654321987)
    picture = view(game, 1)
    assert [c["id"] for c in picture["hand"]] == [c.id for c in game.deal.hands[1]]
    assert [s["cards"] for s in picture["seats"]] == [len(h) for h in game.deal.hands]
    hidden = {c.id for s in (0, 2) for c in game.deal.hands[s]} | {c.id for c in game.deal.stock}
    assert not (_ids_in({k: v for k, v in picture.items() if k != "hand"}) & hidden)
    text = json.dumps(picture)
    assert str(game.seed) not in text
    assert str(game.deal.seed) not in text
    assert "stock" in picture
    assert picture["stock"] == {"count": len(game.deal.stock)}


def test_another_players_draw_from_the_stock_shows_no_card():
    game = new_game("classic", 3, seed=8)
    first = game.deal.first
    apply(game, first, {"type": "discard", "card": game.deal.hands[first][0].id})
    drawer = game.deal.current
    apply(game, drawer, {"type": "draw"})
    drawn = game.deal.hands[drawer][-1]
    mine = view(game, drawer)["log"][-1]
    theirs = view(game, (drawer + 1) % 3)["log"][-1]
    assert mine["type"] == theirs["type"] == "drew"
    assert mine["card"]["id"] == drawn.id
    assert "card" not in theirs
    assert "secret" not in theirs


def test_a_spectator_sees_no_hand():
    game = new_game("jordanian", 4, seed=2)
    picture = view(game, None)
    assert picture["hand"] is None
    assert picture["indicator"]["id"] == game.deal.indicator.id
    hidden = {c.id for h in game.deal.hands for c in h} | {c.id for c in game.deal.stock}
    assert not (_ids_in(picture) & hidden)


def test_the_view_shows_melds_by_owner_and_team_and_the_discard_top(rig: Rig):
    game = rig(
        "classic", 4, ("2S 5D 9C",), melds=((1, "7S 8S 9S"),), discard="4H 6C", options={"teams": True}
    )
    picture = view(game, 0)
    assert picture["melds"][0]["owner"] == 1
    assert picture["melds"][0]["team"] == 1
    assert picture["discard"] == {"top": {"id": game.deal.discard[-1].id, "face": "6C"}, "count": 2}
    assert [s["team"] for s in picture["seats"]] == [0, 1, 0, 1]
    assert picture["your_turn"] is True
    assert picture["phase"] == "draw"


def test_visible_events_keep_a_secret_for_its_seat_only():
    events = [{"type": "drew", "seat": 2, "source": "stock", "secret": {"card": {"id": 5, "face": "6S"}}}]
    assert visible_events(events, 2)[0]["card"]["face"] == "6S"
    assert "card" not in visible_events(events, 1)[0]
    assert "card" not in visible_events(events, None)[0]
    assert visible_events(events, None, reveal=True)[0]["card"]["face"] == "6S"


def test_visible_events_copy_the_events_without_a_secret_and_drop_an_empty_secret():
    events = [
        {"type": "discard", "seat": 1, "card": {"rank": "7", "suit": "H"}},
        {"type": "draw", "seat": 0, "secret": None},
    ]
    shown = visible_events(events, 0)
    assert shown == [events[0], {"type": "draw", "seat": 0}]
    assert shown[0] is not events[0]
    shown[0]["seat"] = 3
    assert events[0]["seat"] == 1


def test_after_the_game_every_hand_is_shown():
    game = new_game("classic", 2, seed=3)
    while not game.finished:
        seat = game.deal.current
        apply(game, seat, bot_action(game, seat))
    picture = view(game, None)
    assert picture["finished"] is True
    assert picture["winners"] == game.winners
    assert [[c["id"] for c in hand] for hand in picture["hands"]] == [
        [c.id for c in h] for h in game.deal.hands
    ]


def test_every_visible_event_reads_as_a_sentence():
    from games.engine import describe

    game = new_game("jordanian", 3, seed=4)
    for _ in range(40):
        seat = game.deal.current
        apply(game, seat, bot_action(game, seat))
    names = ["Ann", "Bob", "Cy"]
    lines = []
    for event in view(game, 0)["log"]:
        template, params = describe(event, names)
        lines.append(template.format(**params))
    assert (
        lines[0]
        == f"Deal 1 begins: {names[game.deal.dealer]} deals and {names[game.deal.first]} plays first."
    )
    others_draws = [line for line in lines if line.startswith(("Bob draws", "Cy draws"))]
    assert others_draws
    assert all(line.endswith("draws from the stock.") for line in others_draws)
