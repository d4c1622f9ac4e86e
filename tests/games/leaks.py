"""Checks that a response shows no card its viewer may not see.

Every card face on our pages is rendered by games.board.card_html as
``<span class="pcard ..." data-card="ID">...</span>``; the checks below
1. collect every ``data-card`` id, every hand checkbox value and every card id inside an offered
   move's JSON, and require each to be one the viewer may see now;
2. remove those card elements (and "plays as" labels) and require that no suit symbol, joker symbol or
   card notation (``10H``, ``QS``) is left anywhere else in the response.
"""

from __future__ import annotations

import html
import json
import re

from games import engine

CARD_ELEMENT = re.compile(
    r'<span class="pcard[^"]*" data-card="(\d+)">(?:\s*<span class="[^"]*">[^<]*</span>)+</span>'
)
DATA_CARD = re.compile(r'data-card="(\d+)"')
CHECKBOX = re.compile(r'name="cards" value="(\d+)"')
PRESET = re.compile(r'name="preset" value="([^"]*)"')
PLAYS_AS = re.compile(r'<span class="plays-as">[^<]*</span>')
SYMBOLS = re.compile(r"[♠♥♦♣🃏]")
NOTATION = re.compile(r"(?<![\w#])(?:10|[2-9AJQK])[SHDC](?!\w)")


def visible_ids(state: engine.GameState, seat: int | None) -> set[int]:
    """Card ids ``seat`` may see now (None: a watcher)."""
    deal = state.deal
    ids = {card.id for card in deal.discard}
    ids |= {card.id for tm in deal.melds for card in tm.meld.cards}
    if deal.indicator is not None:
        ids.add(deal.indicator.id)
    if seat is not None:
        ids |= {card.id for card in deal.hands[seat]}
    if state.last_deal:
        ids |= {card["id"] for hand in state.last_deal["hands"] for card in hand}
    if state.finished:
        ids |= {card.id for hand in deal.hands for card in hand}
    for event in engine.visible_events(deal.events, seat, reveal=state.finished):
        _collect(event, ids)
    return ids


def _collect(value, ids: set[int]) -> None:
    if isinstance(value, dict):
        if "face" in value and isinstance(value.get("id"), int):
            ids.add(value["id"])
        for item in value.values():
            _collect(item, ids)
    elif isinstance(value, list):
        for item in value:
            _collect(item, ids)


def preset_ids(action: dict) -> set[int]:
    found: set[int] = set()
    if "card" in action:
        found.add(action["card"])
    found |= set(action.get("cards") or [])
    for spec in action.get("melds") or []:
        found |= set(spec["cards"] if isinstance(spec, dict) else spec)
    if action.get("lay_off"):
        found |= set(action["lay_off"]["cards"])
    return found


def check(text: str, allowed: set[int]) -> int:
    """Raise AssertionError on a leak; return how many card elements were seen (so callers can make
    sure the check had something to look at)."""
    shown = {int(x) for x in DATA_CARD.findall(text)}
    leaked = shown - allowed
    assert not leaked, f"hidden card ids rendered: {sorted(leaked)}"
    boxes = {int(x) for x in CHECKBOX.findall(text)}
    assert boxes <= allowed, f"hidden card ids as hand values: {sorted(boxes - allowed)}"
    for raw in PRESET.findall(text):
        ids = preset_ids(json.loads(html.unescape(raw)))
        assert ids <= allowed, f"hidden card ids in an offered move: {sorted(ids - allowed)}"
    stripped = PLAYS_AS.sub("", CARD_ELEMENT.sub("", text))
    stripped = PRESET.sub("", stripped)
    assert not DATA_CARD.search(stripped), "a card element the checker could not parse"
    symbols = SYMBOLS.findall(stripped)
    assert not symbols, f"card faces outside card elements: {symbols[:5]}"
    notation = NOTATION.findall(stripped)
    assert not notation, f"card notation outside card elements: {notation[:5]}"
    return len(CARD_ELEMENT.findall(text))
