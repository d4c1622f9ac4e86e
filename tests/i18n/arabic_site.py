"""An Arabic reader's site for the i18n tests: the demo group and sheet, a game with melds on the table,
a finished game to replay, and the text a person sees on a page (for "no English word" checks)."""

from __future__ import annotations

import io
import re
import zoneinfo
from dataclasses import dataclass, field
from html.parser import HTMLParser

from django.core.management import call_command
from django.urls import reverse

from games import engine
from games.models import Game, GameStatus
from handsite.catalogue import FSI, PDI
from handsite.models import PlayerGroup, User
from scoring.models import Sheet
from tests.rigging import Deck

# The first player's 15 cards: Q♠ K♠ A♠ (31) and three 10s (30) open with 61.
OPENING_HAND = "QS KS AS 10H 10D 10C 2C 5D 7S 9C 4H 6D 8H 3C JD"
OTHER_HAND = "2S 3S 4S 5H 6H 7H 8C 9D JC QC KD AH 3D 4C"
# Latin letters a person may see on an Arabic page: card ranks and what players type ("AS 10H JK",
# "QH KH AH"), file formats, e-mail addresses, "English" in the language switch (each language is
# named in itself), links, and the time zones' identifiers (Asia/Amman), which are names of places.
ALLOWED = re.compile(
    r"[\w.+-]+@[\w.-]+"  # e-mail addresses
    r"|(?:10|[2-9AJQK])[♠♥♦♣]|\b(?:10|[2-9AJQK])[SHDC]\b"  # cards as shown and as typed
    r"|\b(?:JK|[AKQJ])\b|[A-Z]-[0-9A-Z](?:-[0-9A-Z])*"  # ranks alone, runs written "Q-K-A"
    r"|(?<![\w-])(?:10|[2-9AJQK])+(?![\w-])"  # a picker's row of ranks
    r"|\b(?:CSV|JSON|UTC|English)\b|https?://\S+"
)
LINKS = re.compile(r"https?://\S+|[\w.+-]+@[\w.-]+")
ZONES = sorted(zoneinfo.available_timezones(), key=len, reverse=True)
VISIBLE_ATTRIBUTES = ("placeholder", "aria-label", "title", "alt")
INLINE = frozenset(
    [
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "code",
        "em",
        "i",
        "kbd",
        "label",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
    ]
)


@dataclass
class ArabicSite:
    reader: User
    other: User
    group: PlayerGroup
    game: Game  # in play, melds on the table, the reader to move next
    finished: Game
    sheet: Sheet
    names: list[str] = field(default_factory=list)

    def urls(self) -> dict[str, str]:
        g = self.group.slug
        return {
            "home": reverse("home"),
            "group": reverse("group_detail", args=[g]),
            "new game": reverse("games:new", args=[g]),
            "play": reverse("games:play", args=[g, self.game.pk]),
            "replay": reverse("games:replay", args=[g, self.finished.pk]) + "?step=4",
            "rules": reverse("games:rules", args=["classic"]),
            "rules kuwaiti": reverse("games:rules", args=["kuwaiti"]),
            "rules hand and foot": reverse("games:rules", args=["hand-and-foot"]),
            "score sheets": reverse("scoring:sheet_list", args=[g]),
            "score sheet": reverse("scoring:sheet", args=[g, self.sheet.pk]),
            "deal form": reverse("scoring:deal_new", args=[g, self.sheet.pk]),
            "notifications": reverse("notification_list"),
            "reminders": reverse("notification_settings"),
            "profile": reverse("profile"),
        }


def build() -> ArabicSite:
    """The demo data (group, users, a sheet with deals), the demo game finished for its replay, and a
    classic game between Amira and Omar in which Omar opened with two melds."""
    call_command("demo_data", stdout=io.StringIO())
    reader = User.objects.get(email="amira@example.com")
    other = User.objects.get(email="omar@example.com")
    User.objects.filter(pk=reader.pk).update(language="ar")
    reader.refresh_from_db()
    group = reader.memberships.first().group
    finished = Game.objects.filter(group=group).order_by("pk").first()
    Game.objects.filter(pk=finished.pk).update(status=GameStatus.FINISHED)
    game = _game_with_melds(group, reader, other)
    sheet = Sheet.objects.filter(group=group).first()
    names = sorted(
        {u.name for u in User.objects.all()}
        | {u.display_name for u in User.objects.all() if u.display_name}
        | {group.name, group.description, sheet.title, "Yusuf", "Thursday"},
        key=len,
        reverse=True,
    )
    return ArabicSite(reader, other, group, game, finished, sheet, [n for n in names if n])


def _game_with_melds(group, reader, other) -> Game:
    from games.services import seating

    game = seating.create_game(
        group=group, created_by=reader, variant="classic", options={}, seats=[other, reader], seed=7
    )
    seating.accept_seat(game_id=game.pk, user=other)
    game.refresh_from_db()
    state = engine.from_json(game.state)
    first = state.deal.current
    deck = Deck(state.variant)
    state.deal.hands[first] = deck.pick(OPENING_HAND)
    state.deal.hands[1 - first] = deck.pick(OTHER_HAND)
    state.deal.discard = deck.pick("9H")
    state.deal.stock = deck.rest()[:40]
    hand = {c.face: c.id for c in state.deal.hands[first]}
    melds = [[hand["QS"], hand["KS"], hand["AS"]], [hand["10H"], hand["10D"], hand["10C"]]]
    engine.apply(state, first, {"type": "meld", "melds": melds})
    engine.apply(state, first, {"type": "discard", "card": hand["JD"]})
    Game.objects.filter(pk=game.pk).update(
        state=engine.to_json(state), version=state.version, revision=game.revision + 1
    )
    game.refresh_from_db()
    return game


class _Visible(HTMLParser):
    """The text of a page a person sees or hears: text outside <script>/<style>, the title, and the
    visible attributes (placeholder, aria-label, title, alt, a button's value)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        # A <datalist> holds the zone database's place names (suggestions, like people's names: not
        # translated), never text of the page itself.
        if tag in ("script", "style", "template", "datalist"):
            self.skip += 1
        if tag not in INLINE:
            self.parts.append(" ")
        values = dict(attrs)
        if values.get("type") == "hidden":
            return
        self.parts += [f" {values[name] or ''} " for name in VISIBLE_ATTRIBUTES if name in values]
        if tag == "input" and values.get("type") in ("submit", "button"):
            self.parts.append(f" {values.get('value') or ''} ")

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template", "datalist") and self.skip:
            self.skip -= 1
        if tag not in INLINE:
            self.parts.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def visible_text(html: str) -> str:
    parser = _Visible()
    parser.feed(html)
    return " ".join("".join(parser.parts).replace(FSI, "").replace(PDI, "").split())


def english_words(html: str, names: list[str]) -> list[str]:
    """Words in Latin letters a person sees, leaving out names (of people, the group, a sheet) and
    card notation."""
    text = LINKS.sub(" ", visible_text(html))  # first: a name inside a link's random token would split it
    for name in [*ZONES, *names]:
        text = text.replace(name, " ")
    text = ALLOWED.sub(" ", text)
    return sorted(set(re.findall(r"[A-Za-z][A-Za-z']+", text)))
