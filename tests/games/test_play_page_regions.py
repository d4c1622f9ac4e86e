"""What the play page shows each person, read from the page as a browser gets it: which regions and buttons
a seat sees in each phase of its turn (and a watcher, a seat between turns, an ended game), in English and
Arabic, for the classic table and Hand and Foot; no card of another hand in any of it; and names people
chose (markup, quotes, ampersands, bidi controls) shown as text everywhere they appear."""

from __future__ import annotations

from html import escape
from html.parser import HTMLParser

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from games import engine, moves
from games.models import Game
from games.services import leaving, seating

HTMX = {"HTTP_HX_REQUEST": "true"}
REGIONS = ["game-head", "table", "seat-list", "centre", "rule-state", "melds", "panels", "log", "chat-form"]
PANELS = ["panel-log", "panel-chat", "panel-scores"]


class Page(HTMLParser):
    """The elements of an answer: every id, every button (its name, value and the ids around it), every
    card shown (data-card) and every tick box of the hand."""

    def __init__(self, html: str):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.buttons: list[tuple[str, str, tuple[str, ...]]] = []
        self.cards: set[int] = set()
        self.picks: list[int] = []
        self._open: list[tuple[str, str | None]] = []
        self.feed(html)

    VOID = {"input", "br", "img", "meta", "link", "hr"}

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if "data-card" in attrs:
            self.cards.add(int(attrs["data-card"]))
        if tag == "input" and attrs.get("name") == "cards":
            self.picks.append(int(attrs["value"]))
        if tag == "button":
            around = tuple(ident for _tag, ident in self._open if ident)
            self.buttons.append((attrs.get("name", ""), attrs.get("value", ""), around))
        if tag not in self.VOID:
            self._open.append((tag, attrs.get("id")))

    def handle_endtag(self, tag):
        for index in range(len(self._open) - 1, -1, -1):
            if self._open[index][0] == tag:
                del self._open[index:]
                break

    def acts(self) -> set[str]:
        """The values of the action bar's ``act`` buttons."""
        return {value for name, value, around in self.buttons if name == "act" and "actions" in around}


def _client(user, language: str) -> Client:
    user.language = language
    user.save(update_fields=["language"])
    client = Client()
    client.force_login(user)
    return client


def _url(game, name="play"):
    return reverse(f"games:{name}", args=[game.group.slug, game.pk])


def _press_on(client, game) -> None:
    """The seat to move presses the buttons of the bot's next move (through the views)."""
    game.refresh_from_db()
    state = engine.from_json(game.state)
    for press in moves.requests_for(state, state.current, engine.bot_action(state, state.current)):
        game.refresh_from_db()
        assert client.post(_url(game, "move"), press.as_post(game.version), **HTMX).status_code == 200


def _check_positions(game, clients: dict, watcher: Client, language: str, presses: int) -> set[str]:
    """Over ``presses`` moves: every seat's and the watcher's page shows what its seat may do now, and
    no card of another hand. Returns the phases seen by the seat to move."""
    phases = set()
    for _ in range(presses):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        if state.finished:
            break
        foot = engine.family_of(state.variant) is engine.family.HAND_AND_FOOT
        for seat, client in [*clients.items(), (None, watcher)]:
            html = client.get(_url(game), **HTMX).content.decode()
            page = Page(html)
            assert set(REGIONS) <= page.ids, set(REGIONS) - page.ids
            assert set(PANELS) <= page.ids
            assert "poll" in page.ids
            assert ("discard-pile" in page.ids) == foot
            for other in range(state.players):
                if other != seat:
                    hidden = {card.id for card in state.deal.hands[other]}
                    if foot:
                        hidden |= {card.id for card in state.deal.feet[other]}
                    assert not hidden & page.cards, "another seat's card is on the page"
            if seat is None:
                assert {"dock", "hand", "actions"}.isdisjoint(page.ids)
                assert not page.picks
                with translation.override(language):
                    assert escape(gettext("You are watching this game.")) in html
                continue
            assert {"dock", "actions", "hand"} <= page.ids
            assert sorted(page.picks) == sorted(card.id for card in state.deal.hands[seat])
            acts = page.acts()
            if seat != state.current:
                assert not acts & {"draw", "discard", "meld", "take"}
                assert "waiting-turn" in html
                continue
            phase = state.deal.phase
            phases.add(phase)
            with translation.override(language):
                assert escape(gettext("Your turn.")) in html
            assert ("draw" in acts) == (phase == engine.DRAW)
            assert ("discard" in acts) == (phase == engine.PLAY)
            assert ("meld" in acts) == (phase == engine.PLAY)
        _press_on(clients[state.current], game)
    return phases


@pytest.mark.parametrize("language", ["en", "ar"])
def test_each_seat_sees_the_buttons_of_its_phase_and_a_watcher_sees_no_hand_classic(
    owner, member, admin, start_game, language
):
    game = start_game([owner, member], seed=1234)
    seating.accept_seat(game_id=game.pk, user=member)
    clients = {0: _client(owner, language), 1: _client(member, language)}
    phases = _check_positions(game, clients, _client(admin, language), language, presses=12)
    assert phases == {engine.DRAW, engine.PLAY}


@pytest.mark.parametrize("language", ["en", "ar"])
def test_each_seat_sees_the_buttons_of_its_phase_and_a_watcher_sees_no_hand_hand_and_foot(
    owner, member, admin, start_game, language
):
    game = start_game([owner, member], variant="hand-and-foot", seed=5)
    seating.accept_seat(game_id=game.pk, user=member)
    clients = {0: _client(owner, language), 1: _client(member, language)}
    phases = _check_positions(game, clients, _client(admin, language), language, presses=12)
    assert phases == {engine.DRAW, engine.PLAY}
    html = clients[0].get(_url(game), **HTMX).content.decode()
    assert {"side-0", "side-1"} <= Page(html).ids


def test_an_ended_game_shows_who_ended_it_and_offers_no_move(cast, duel):
    leaving.end_game(game_id=duel.pk, actor=cast["owner"])
    html = _client(cast["member"], "en").get(_url(duel), **HTMX).content.decode()
    page = Page(html)
    assert "Olivia Owner ended the game early." in html
    assert "This game was ended early; it is not scored." in html
    assert {"dock", "hand", "actions", "poll"}.isdisjoint(page.ids)
    assert "data-can-leave" not in html
    assert {"table", "panels", "rule-state"} <= page.ids


def test_a_move_answer_keeps_the_chat_panel_and_the_chat_form_a_page_draws_them(duel, owner, member):
    state = engine.from_json(duel.state)
    client = _client(owner if state.current == 0 else member, "en")
    page = client.get(_url(duel)).content.decode()
    assert '<div id="chat" class="chat">' in page
    assert 'id="chat-form" class="chat-form" method="post"' in page
    press = moves.requests_for(state, state.current, engine.bot_action(state, state.current))[0]
    answer = client.post(_url(duel, "move"), press.as_post(duel.version), **HTMX).content.decode()
    assert '<div id="chat" class="chat" hx-preserve="true"></div>' in answer
    assert '<form id="chat-form" class="chat-form" hx-preserve="true"></form>' in answer


HOSTILE = {
    "group": "Thursday <i>Hand</i> & \"friends\" 'n' co",
    "owner": "<b>Hala</b> & 'Sons'",
    "member": 'Fadi "the" <script>x</script>',
    "admin": "\u202eRana\u202c",
}


def _hostile_game(cast, start_game, variant):
    owner, member, admin = cast["owner"], cast["member"], cast["admin"]
    group = owner.memberships.first().group
    group.name = HOSTILE["group"]
    group.save(update_fields=["name"])
    for role in ("owner", "member", "admin"):
        cast[role].display_name = HOSTILE[role]
        cast[role].save(update_fields=["display_name"])
    game = start_game([owner, member, admin], variant=variant, options={}, seed=9, move_hours=24)
    seating.accept_seat(game_id=game.pk, user=member)
    seating.accept_seat(game_id=game.pk, user=admin)
    return Game.objects.get(pk=game.pk)


def _assert_names_are_text(html: str) -> None:
    """Each name is on the page, escaped; none of its markup or quotes is; a bidi control only inside the
    name it came with (nothing of the page itself is reversed by it)."""
    for role, name in HOSTILE.items():
        assert escape(name) in html, role
    for raw in ("<b>", "<i>", "<script>", '"the"', "'Sons'", "& 'Sons'", ' & "friends"'):
        assert raw not in html
    rana = escape(HOSTILE["admin"])
    assert html.count("\u202e") == html.count(rana)
    assert html.count("\u202c") == html.count(rana)


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("variant", ["classic", "hand-and-foot"])
def test_names_people_chose_are_shown_as_text_in_every_answer(cast, start_game, variant, language):
    game = _hostile_game(cast, start_game, variant)
    clients = {
        n: _client(user, language) for n, user in enumerate([cast["owner"], cast["member"], cast["admin"]])
    }
    for _ in range(9):
        game.refresh_from_db()
        state = engine.from_json(game.state)
        client = clients[state.current]
        for press in moves.requests_for(state, state.current, engine.bot_action(state, state.current)):
            game.refresh_from_db()
            answer = client.post(_url(game, "move"), press.as_post(game.version), **HTMX).content.decode()
            _assert_names_are_text(answer)
    game.refresh_from_db()
    for client in clients.values():
        for html in (
            client.get(_url(game)).content.decode(),
            client.get(_url(game), **HTMX).content.decode(),
            client.get(_url(game, "log")).content.decode(),
        ):
            _assert_names_are_text(html)
            if language == "ar":  # a name inside an Arabic sentence is an isolate: its controls end with it
                for role in ("owner", "member", "admin"):
                    assert "\u2068" + escape(HOSTILE[role]) + "\u2069" in html, role
