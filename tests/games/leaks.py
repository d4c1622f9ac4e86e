"""Checks that a response shows no card its viewer may not see.

What a seat may see is worked out here from the raw state and its raw events, on purpose without the
engine's own filter (``engine.visible_events``/``engine.view``): the pages are built with those, so a
check built on them would pass whatever they leaked. A seat may see its own hand, the cards on the
table, the discard pile, the indicator, every card named in an event's public fields (a discard, a
taken discard, a meld laid down, the cards shown for a redeal...), the ``secret`` part only of its
own events (the card it drew), the hands counted at the end of the last deal, and, once the game is
over, everything.

:func:`check` then reads the whole response, not only the places cards are meant to be:
1. every tag attribute: ``data-card*`` ids, ``value`` of card inputs, and any attribute whose value is
   JSON (offered moves, ``hx-vals``...) is walked for card ids (``card``, ``cards``, ``melds``, dicts
   with ``id`` and ``face``, ``wild_as`` keys); the response headers likewise; a JSON response whole;
2. every card element (``board.card_html``) must show the face of the card its id names, and name it so
   in words (its ``aria-label``, read in English), so a visible id cannot carry a hidden card's face;
3. a card named in a rule-state sentence ("Wild this deal: the two A♥", ``games.rules._face_html``: a
   ``<bdi class="face suit-H">``) is allowed only when it is one of the deal's public wild or indicator
   faces, worked out here from the raw state's indicator (:func:`public_faces`), not from the page;
   any other face there is a leak;
4. with the card elements, those sentence faces and "plays as" labels removed, no suit symbol, joker
   symbol or card notation (``10H``, ``QS``) may be left anywhere in the text or the attributes.
"""

from __future__ import annotations

import html
import json
import re
from html.parser import HTMLParser

from games import engine

CARD_ELEMENT = re.compile(
    r'<span class="pcard[^"]*" data-card="(\d+)" role="img" aria-label="([^"]*)">'
    r'((?:\s*<span class="[^"]*">[^<]*</span>)+)</span>'
)
INNER = re.compile(r'<span class="(rank|suit)">([^<]*)</span>')
DATA_CARD = re.compile(r'data-card="(\d+)"')
FACE_ELEMENT = re.compile(r'<bdi class="face suit-([^"]*)">([^<]*)</bdi>')
PLAYS_AS = re.compile(r'<span class="plays-as">[^<]*</span>')
SYMBOLS = re.compile(r"[♠♥♦♣🃏]")
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
NOTATION = re.compile(r"(?<![\w#])(?:10|[2-9AJQK])[SHDC](?!\w)")
ATTRIBUTE = re.compile(r'="([^"]*)"')
CARD_INPUTS = {"cards", "card"}
CARD_KEYS = {"card", "cards"}


def visible_ids(state: engine.GameState, seat: int | None) -> set[int]:
    """Card ids ``seat`` may see now (None: a watcher), from the raw state and events."""
    deal = state.deal
    ids = {card.id for card in deal.discard}
    ids |= {card.id for tm in deal.melds for card in _meld_cards(tm)}
    if getattr(deal, "indicator", None) is not None:
        ids.add(deal.indicator.id)
    if seat is not None:
        ids |= {card.id for card in deal.hands[seat]}  # Hand and Foot: a foot only once picked up
    if state.last_deal:
        ids |= {card["id"] for hand in state.last_deal["hands"] for card in hand}
    if state.finished:
        ids |= {card.id for hand in deal.hands for card in hand}
        ids |= {card.id for foot in getattr(deal, "feet", ()) for card in foot}
    for event in deal.events:
        _collect({key: value for key, value in event.items() if key != "secret"}, ids)
        if "secret" in event and (state.finished or (seat is not None and event.get("seat") == seat)):
            _collect(event["secret"], ids)
    return ids


def public_faces(state: engine.GameState) -> set[str]:
    """The faces a rule-state sentence may name, in notation ("AH"), from the raw state: the indicator
    turned up for the deal (jordanian, egyptian), and the aces of its suit when they are the wild cards
    (an indicator that is not an ace; an ace indicator leaves the jokers wild). Nothing else."""
    indicator = getattr(state.deal, "indicator", None)
    if indicator is None or state.finished:
        return set()
    faces = {indicator.face}
    if indicator.face[:-1] != "A":
        faces.add("A" + indicator.suit)
    return faces


def faces_by_id(state: engine.GameState) -> dict[int, str]:
    """Every card of the deck by id (the deck is the same physical cards in every deal)."""
    deal = state.deal
    cards = [*deal.stock, *deal.discard, *(c for h in deal.hands for c in h)]
    cards += [c for foot in getattr(deal, "feet", ()) for c in foot]
    cards += [c for tm in deal.melds for c in _meld_cards(tm)]
    if getattr(deal, "indicator", None) is not None:
        cards.append(deal.indicator)
    return {card.id: card.face for card in cards}


def _meld_cards(table_meld):
    """A Hand table meld's cards, or a Hand and Foot meld's (which holds them itself)."""
    return table_meld.meld.cards if hasattr(table_meld, "meld") else table_meld.cards


def _collect(value, ids: set[int]) -> None:
    if isinstance(value, dict):
        if "face" in value and isinstance(value.get("id"), int):
            ids.add(value["id"])
        for item in value.values():
            _collect(item, ids)
    elif isinstance(value, list):
        for item in value:
            _collect(item, ids)


def json_card_ids(value, under_card_key: bool = False) -> set[int]:
    """Card ids anywhere in a JSON value: ints in lists or values under ``card``/``cards``/``melds``
    (not inside a nested object: its own keys decide), ``{"id", "face"}`` dicts and ``wild_as`` keys."""
    found: set[int] = set()
    if isinstance(value, bool):
        return found
    if isinstance(value, int):
        if under_card_key:
            found.add(value)
    elif isinstance(value, list):
        for item in value:
            found |= json_card_ids(item, under_card_key)
    elif isinstance(value, dict):
        if "face" in value and isinstance(value.get("id"), int):
            found.add(value["id"])
        for key, item in value.items():
            if key == "wild_as" and isinstance(item, dict):
                found |= {int(k) for k in item if str(k).isdigit()}
                continue
            found |= json_card_ids(item, key in CARD_KEYS or key == "melds")
    return found


RANK_WORDS = {"ace": "A", "king": "K", "queen": "Q", "jack": "J"}
SUIT_WORDS = {"spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"}


def _label_card(label: str) -> str | None:
    """The card an English card name says, in notation ("queen of spades, standing for 8 of hearts" ->
    "QS"; "joker" -> "JK"), or None for a label in another language."""
    first = label.split(",")[0].strip()
    if first == "joker":
        return "JK"
    rank, _, suit = first.partition(" of ")
    if suit not in SUIT_WORDS:
        return None
    return RANK_WORDS.get(rank, rank) + SUIT_WORDS[suit]


def _notation(shown: str) -> str:
    """ "A♥" -> "AH"; anything else is returned as it is (and so matches no public face)."""
    letters = {symbol: letter for letter, symbol in SUIT_SYMBOLS.items()}
    if len(shown) >= 2 and shown[-1] in letters:
        return shown[:-1] + letters[shown[-1]]
    return shown


def _maybe_json(text: str):
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return None
    try:
        return json.loads(stripped)
    except ValueError:
        return None


class _Attributes(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: list[tuple[int, str]] = []
        self.values: list[str] = []

    def handle_starttag(self, tag, attrs):
        named = dict(attrs)
        for name, value in attrs:
            if value is None:
                continue
            if name.startswith("data-card"):
                self.ids += [(int(x), f"{tag}[{name}]") for x in re.findall(r"\d+", value)]
                continue  # its face is checked on the card element
            if name == "value" and named.get("name") in CARD_INPUTS:
                self.ids += [(int(x), f"{tag}[name={named['name']}]") for x in re.findall(r"\d+", value)]
            loaded = _maybe_json(value)
            if loaded is not None:
                self.ids += [(card_id, f"{tag}[{name}] JSON") for card_id in json_card_ids(loaded)]
            self.values.append(value)

    handle_startendtag = handle_starttag


def check(
    text: str,
    allowed: set[int],
    *,
    faces: dict[int, str] | None = None,
    headers: dict | None = None,
    public: set[str] = frozenset(),
) -> int:
    """Raise AssertionError on a leak; return how many card elements were seen (so callers can make
    sure the check had something to look at). ``faces``: every card's face by id (see
    :func:`faces_by_id`), to check each card element shows its own card. ``public``: the faces a
    rule-state sentence may name (see :func:`public_faces`); none by default."""
    loaded = _maybe_json(text)
    if loaded is not None:
        leaked = json_card_ids(loaded) - allowed
        assert not leaked, f"hidden card ids in JSON: {sorted(leaked)}"
    for name, value in (headers or {}).items():
        loaded = _maybe_json(str(value))
        if loaded is not None:
            leaked = json_card_ids(loaded) - allowed
            assert not leaked, f"hidden card ids in the {name} header: {sorted(leaked)}"
        assert not SYMBOLS.search(str(value)), f"a card face in the {name} header"
        assert not NOTATION.search(str(value)), f"card notation in the {name} header"
    for card_id, label, face_html in CARD_ELEMENT.findall(text):
        if faces is not None and int(card_id) in faces:
            parts = dict(INNER.findall(face_html))
            face = faces[int(card_id)]
            shown = "JK" if parts.get("rank") == "🃏" else parts.get("rank", "") + parts.get("suit", "")
            expected = "JK" if face.startswith("JK") else face[:-1] + SUIT_SYMBOLS[face[-1]]
            assert shown == expected, f"card {card_id} drawn as {shown}, it is {expected}"
            named = _label_card(html.unescape(label))
            if named is not None:  # English words: they name the same card as the face
                assert named == face, f"card {card_id} is named {label!r}, it is {face}"
    for suit, shown in FACE_ELEMENT.findall(text):
        named = _notation(html.unescape(shown).strip())
        assert named in public, f"a sentence names {shown}, not one of this deal's public wild cards {public}"
        assert named[-1:] == suit, f"a sentence's face {shown} is classed suit-{suit}"
    stripped = PLAYS_AS.sub("", FACE_ELEMENT.sub("", CARD_ELEMENT.sub("", text)))
    parser = _Attributes()
    parser.feed(text)
    parser.close()
    leaked = sorted({(card_id, where) for card_id, where in parser.ids if card_id not in allowed})
    assert not leaked, f"hidden card ids in attributes: {leaked[:5]}"
    assert not DATA_CARD.search(stripped), "a card element the checker could not parse"
    # JSON attribute values (offered moves) were read for card ids above; a wild's face in them is no card
    stripped = ATTRIBUTE.sub(
        lambda m: '=""' if _maybe_json(html.unescape(m.group(1))) is not None else m.group(0), stripped
    )
    symbols = SYMBOLS.findall(stripped)
    assert not symbols, f"card faces outside card elements: {symbols[:5]}"
    notation = NOTATION.findall(stripped)
    assert not notation, f"card notation outside card elements: {notation[:5]}"
    return len(CARD_ELEMENT.findall(text))
