"""Hidden cards never leave the server: a whole game played through the views, every response checked."""

import json
from html import escape

import pytest
from django.test import Client
from django.urls import reverse

from games import board, engine, rules
from games.models import Game, GameStatus
from games.moves import requests_for
from games.services import seating
from games.views import poll_token
from tests.factories import MembershipFactory
from tests.games import leaks

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_checker_catches_a_hidden_card():
    state = engine.new_game("classic", 2, {}, 1)
    other = state.deal.hands[1][0]
    allowed = leaks.visible_ids(state, 0)
    assert other.id not in allowed
    planted = (
        f'<span class="pcard suit-{other.suit}" data-card="{other.id}" role="img" aria-label="X">'
        '<span class="rank">X</span></span>'
    )
    with pytest.raises(AssertionError):
        leaks.check(planted, allowed)
    with pytest.raises(AssertionError):
        leaks.check("<p>5♥</p>", allowed)
    with pytest.raises(AssertionError):
        leaks.check("<p>You drew 10H.</p>", allowed)
    with pytest.raises(AssertionError):
        leaks.check(f'<input name="cards" value="{other.id}">', allowed)


def test_the_checker_does_not_trust_the_engines_own_filter():
    """A stock draw's card belongs to the drawer alone, however the engine's filter treats it."""
    state = engine.new_game("classic", 2, {}, 1)
    while not any("secret" in event for event in state.deal.events):
        engine.apply(state, state.current, engine.bot_action(state, state.current))
    draw = next(event for event in state.deal.events if "secret" in event)
    drawer, drawn = draw["seat"], draw["secret"]["card"]
    if drawn["id"] not in {card.id for card in state.deal.hands[drawer]}:
        pytest.skip("the drawn card left the hand at once")
    assert drawn["id"] in leaks.visible_ids(state, drawer)
    assert drawn["id"] not in leaks.visible_ids(state, 1 - drawer)
    assert drawn["id"] not in leaks.visible_ids(state, None)


def test_the_checker_reads_every_attribute_json_and_header():
    state = engine.new_game("classic", 2, {}, 1)
    hidden = state.deal.hands[1][0]
    mine = state.deal.hands[0][0]
    allowed = leaks.visible_ids(state, 0)
    faces = leaks.faces_by_id(state)
    leaking = [
        f"<button hx-vals='{{\"cards\": [{hidden.id}]}}'>Go</button>",
        f'<div data-card-id="{hidden.id}"></div>',
        f'<input type="checkbox" name="card" value="{hidden.id}">',
        f'<input name="preset" value="{escape(json.dumps({"type": "meld", "melds": [[hidden.id]]}))}">',
        f'<span data-x="{escape(json.dumps({"card": {"id": hidden.id, "face": "X"}}))}"></span>',
        f'<p title="{hidden.face}">?</p>',
        json.dumps({"log": [{"card": {"id": hidden.id, "face": hidden.face}}]}),
    ]
    for text in leaking:
        with pytest.raises(AssertionError):
            leaks.check(text, allowed, faces=faces)
    # a visible id drawn with a hidden card's face
    face = hidden.face if hidden.face != mine.face else state.deal.hands[1][1].face
    rank, suit = face[:-1], {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[face[-1]]
    disguised = (
        f'<span class="pcard suit-{suit}" data-card="{mine.id}" role="img" aria-label="{mine.face}">'
        f'<span class="rank">{rank}</span><span class="suit">{suit}</span></span>'
    )
    with pytest.raises(AssertionError):
        leaks.check(disguised, allowed, faces=faces)
    # a visible card's face named in words as a hidden card (what a screen reader reads)
    named = str(board.card_html({"id": mine.id, "face": mine.face})).replace(
        f'aria-label="{board.card_words(mine.face)}"', f'aria-label="{board.card_words(face)}"'
    )
    assert named != str(board.card_html({"id": mine.id, "face": mine.face}))
    with pytest.raises(AssertionError):
        leaks.check(named, allowed, faces=faces)
    with pytest.raises(AssertionError):
        leaks.check("", allowed, headers={"HX-Trigger": json.dumps({"drew": {"card": hidden.id}})})
    # and what the viewer may see passes
    assert leaks.check(str(board.card_html({"id": mine.id, "face": mine.face})), allowed, faces=faces) == 1
    assert leaks.check(f'<input name="cards" value="{mine.id}"> <p>Move 12, seat 1</p>', allowed) == 0


def _indicator_deal(variant: str = "jordanian") -> engine.GameState:
    """A fresh deal whose indicator is not an ace (so an ace of its suit is wild)."""
    for seed in range(1, 200):
        state = engine.new_game(variant, 2, {}, seed)
        if state.deal.indicator.face[:-1] != "A":
            return state
    raise AssertionError("no deal with a non-ace indicator in 200 seeds")


def test_a_rule_sentence_may_name_the_deals_wild_cards_and_nothing_else():
    """The rule-state line "Wild this deal: the two A♥" names a face outside a card element; the checker
    lets it through only when the face is one of the deal's public wild/indicator cards, taken from the
    raw state's indicator, never from the page."""
    state = _indicator_deal()
    indicator = state.deal.indicator
    wild = "A" + indicator.suit
    public = leaks.public_faces(state)
    assert public == {indicator.face, wild}
    allowed = leaks.visible_ids(state, 0)
    faces = leaks.faces_by_id(state)
    names = {0: "Omar", 1: "Layla"}
    lines = rules.rule_state_lines(engine.view(state, 0), names)
    sentence = "".join(f"<li>{line}</li>" for line in lines)
    assert board.face_words(wild) in sentence  # the real page's sentence is what is checked
    leaks.check(sentence, allowed, faces=faces, public=public)
    # without the deal's public faces, the same sentence is a leak: nothing is waved through
    with pytest.raises(AssertionError, match="public wild cards"):
        leaks.check(sentence, allowed, faces=faces)
    # a hidden card printed in a face element is caught, whatever the sentence around it says
    hidden = next(
        card for card in state.deal.hands[1] if card.face not in public and not card.face.startswith("JK")
    )
    planted = sentence.replace(str(rules._face_html(wild)), str(rules._face_html(hidden.face)))
    assert planted != sentence
    with pytest.raises(AssertionError, match="public wild cards"):
        leaks.check(planted, allowed, faces=faces, public=public)
    # a face element whose suit class disagrees with its text is no disguise either
    disguised = f'<p>Wild: <bdi class="face suit-{indicator.suit}">{board.face_words(hidden.face)}</bdi></p>'
    with pytest.raises(AssertionError):
        leaks.check(disguised, allowed, faces=faces, public=public)
    # and a bare face next to an allowed one is still a face outside a card element
    with pytest.raises(AssertionError, match="outside card elements"):
        leaks.check(sentence + f"<p>{board.face_words(hidden.face)}</p>", allowed, faces=faces, public=public)


def _check(response, state, seat) -> int:
    headers = {name: value for name, value in response.headers.items() if name.lower().startswith("hx-")}
    return leaks.check(
        response.content.decode(),
        leaks.visible_ids(state, seat),
        faces=leaks.faces_by_id(state),
        headers=headers,
        public=leaks.public_faces(state),
    )


def _play_through_the_views(game, people: dict, deals: int | None = None) -> tuple[int, int]:
    """Play ``game`` through the views to its end, or until ``deals`` deals have ended; people: seat
    (None: a watcher) -> user. Returns (moves, card elements checked)."""
    clients, users = {}, {}
    for seat, user in people.items():
        users[seat] = user
        clients[seat] = Client()
        clients[seat].force_login(user)
    play_url = reverse("games:play", args=[game.group.slug, game.pk])
    move_url = reverse("games:move", args=[game.group.slug, game.pk])
    poll_url = reverse("games:poll", args=[game.group.slug, game.pk])
    seen = 0
    moves = 0
    while True:
        game.refresh_from_db()
        state = engine.from_json(game.state)
        for seat, client in clients.items():
            seen += _check(client.get(play_url), state, seat)
            if moves:
                token = poll_token(game.pk, users[seat].pk)
                poll = client.get(poll_url, {"r": game.revision - 1, "u": users[seat].pk, "t": token})
                seen += _check(poll, state, seat)
        if game.status != GameStatus.ACTIVE or (deals is not None and len(state.records) >= deals):
            break
        seat = state.current
        action = engine.bot_action(state, seat)
        for press in requests_for(state, seat, action):  # as the page's buttons make it
            response = clients[seat].post(move_url, press.as_post(game.version), **HTMX)
            after = engine.from_json(Game.objects.get(pk=game.pk).state)
            seen += _check(response, after, seat)
        assert after.version >= state.version + 1, response.content.decode()[:2000]  # bots may follow
        moves += 1
        assert moves < 3000
    if deals is not None and game.status == GameStatus.ACTIVE:
        return moves, seen
    assert game.status == GameStatus.FINISHED
    replay_url = reverse("games:replay", args=[game.group.slug, game.pk])
    for step in (0, moves // 2, moves):
        response = clients[None].get(replay_url, {"step": step})
        assert response.status_code == 200
    return moves, seen


@pytest.mark.slow
def test_a_whole_game_through_the_views_never_shows_a_hidden_card(owner, member, admin, start_game):
    game = start_game([owner, member], seed=2024)
    seating.accept_seat(game_id=game.pk, user=member)
    moves, seen = _play_through_the_views(game, {0: owner, 1: member, None: admin})
    assert seen > moves * 10  # the checker really looked at cards


@pytest.mark.slow
@pytest.mark.parametrize(
    ("variant", "teams"),
    [
        *[(variant, False) for variant in engine.HAND_VARIANTS if variant != "classic"],
        *[(variant, True) for variant, data in engine.HAND_VARIANTS.items() if data.teams_allowed][:1],
    ],
)
def test_every_rule_set_and_the_teams_mode_show_no_hidden_card_through_a_deal(
    variant, teams, group, owner, member, admin, start_game
):
    """The first deal to its end (the hands shown at the count included) and into the next, through the
    views, for every other Hand rule set and for teams (the whole classic game is played above)."""
    people = [owner, member]
    if teams:
        people = [owner, member, admin, MembershipFactory(group=group, user__display_name="Tariq").user]
    options = {"teams": True} if teams else {}
    game = start_game(people, variant=variant, options=options, seed=2025)
    for user in people[1:]:
        seating.accept_seat(game_id=game.pk, user=user)
    watcher = admin if not teams else MembershipFactory(group=group).user
    moves, seen = _play_through_the_views(game, {**dict(enumerate(people)), None: watcher}, deals=1)
    game.refresh_from_db()
    assert engine.from_json(game.state).deal.number >= 1 or game.status == GameStatus.FINISHED
    assert seen > moves * 5


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["hand-and-foot", "hand-and-foot-teams"])
def test_a_whole_hand_and_foot_game_through_the_views_never_shows_a_hidden_card(
    variant, owner, member, admin, start_game
):
    """Feet are face down: the checker allows a foot's cards to nobody, its owner included, until it is
    picked up (it is then the hand). One whole deal (a whole game takes minutes through the views;
    tests/games/test_hand_and_foot_online.py replays a whole game of bots)."""
    seats = [owner, member] if variant == "hand-and-foot" else [owner, "bot", member, "bot"]
    game = start_game(seats, variant=variant, seed=77)
    seating.accept_seat(game_id=game.pk, user=member)
    people = {0: owner, (1 if variant == "hand-and-foot" else 2): member, None: admin}
    moves, seen = _play_through_the_views(game, people, deals=1)
    assert seen > moves * 10
