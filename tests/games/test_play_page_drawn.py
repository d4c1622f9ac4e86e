"""The play page's #game element of a dealt game, drawn in Python (games/page.py), is byte for byte what its
templates drew, kept here as they were (the partial of templates/games/play.html and the templates it
included): over seeded games played through the views (a classic duel, Kuwaiti's partnership, Hand and
Foot), every move's htmx answer (melds put aside, a refused press), each seat's and a watcher's htmx
board, whole pages and a changed poll, in English and Arabic; and an ended game's page.
(bench/render_capture.py compares whole answers through the views before and after such a change.)"""

import copy
import re
from types import SimpleNamespace

import pytest
from django.template import Engine, RequestContext, engines
from django.test import Client
from django.test.utils import ContextList
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe

from games import board, engine, page, rules, services
from games.models import Game, GameStatus
from games.moves import requests_for
from games.views import poll_token
from tests.factories import MembershipFactory

OLD = {
    "old/game.html": (
        "{% load i18n l10n static times %}{% localize off %}\n"
        '<div id="game" class="game{% if board %} game-table{% endif %}" data-version="{{ game.ve'
        'rsion }}" data-status="{{ game.status }}"{% if game.status == "active" and my_seat and m'
        "y_seat.is_filled and not my_seat.bot %} data-can-leave{% endif %}>\n"
        '  {% include "games/_head.html" %}\n'
        "  {% if not board %}\n"
        '    {% include "games/_waiting.html" %}\n'
        "  {% else %}\n"
        "  {% with b=board v=board.view %}\n"
        '  <form id="play-form" class="play" data-picked="{{ selected_ids|length }}" method="post'
        '" action="{{ move_url }}" hx-post="{{ move_url }}" hx-target="#game" hx-swap="outerHTML"'
        ">\n"
        '    {% if move_answer %}<input type="hidden" name="csrfmiddlewaretoken" id="play-csrf" h'
        'x-preserve="true">{% else %}<input type="hidden" name="csrfmiddlewaretoken" value="{{ cs'
        'rf_token }}" id="play-csrf">{% endif %}{# a move\'s answer keeps the page\'s token (no new'
        " one to mask) #}\n"
        '    <input type="hidden" name="version" value="{{ game.version }}">\n'
        '    <input type="hidden" name="sort" value="{{ b.sort }}">\n'
        '    <div class="play-main">\n'
        "      {% include table_template %}\n"
        '      {% include "games/_panels.html" %}\n'
        "    </div>\n"
        '    {% include "games/_dock.html" %}\n'
        "  </form>\n"
        '  {% include "games/_chat_form.html" %}\n'
        "  {% endwith %}\n"
        "  {% endif %}\n"
        '  {% if game.status == "active" or game.status == "waiting" %}\n'
        '    <div id="poll" hx-get="{{ poll_url }}" hx-trigger="every 4s, visibilitychange from:d'
        'ocument" hx-target="#game" hx-swap="outerHTML"></div>\n'
        "  {% endif %}\n"
        "</div>\n"
        "{% endlocalize %}"
    ),
    "games/_head.html": (
        "{% load i18n translate_now %}{% get_current_language_bidi as bidi %}{# The game's bar: r"
        "ule set, deal, whose turn, time left; what happened since your last move (the deal and t"
        "he lines under the title: drawn by games.board.head_html). #}\n"
        '<header class="game-head" id="game-head">\n'
        '  <p class="game-title">\n'
        '    <a href="{{ urls.group }}" class="muted" dir="auto">{{ group.name }}</a>\n'
        '    <span aria-hidden="true" class="muted crumb">{% if bidi %}‹{% else %}›{% endif %}</s'
        "pan>\n"
        "    <strong>{{ game.get_variant_display }}</strong>\n"
        "    {% if board %}{{ head.deal }}{% endif %}\n"
        '    {% if game.options.teams %}<span class="muted">· {% translate "Partnership" %}</span'
        ">{% endif %}\n"
        "  </p>\n"
        "  {% if board %}{{ head.turn }}{% endif %}\n"
        '  {% if error and not board %}<p class="message message-error" role="alert">{{ error }}<'
        "/p>{% endif %}\n"
        "</header>\n"
    ),
    "games/_table.html": (
        "{% load i18n translate_now %}{# The table: the seats around it, stock / discard / indica"
        "tor (and the rule state), the melds by player or team. Hand and Foot swaps this region ("
        "context: table_template). #}\n"
        '<section class="felt" id="table" aria-label="{% translate \'Table\' %}">\n'
        '  <ul class="seats" id="seat-list">\n'
        "    {# drawn by games.board.seat_list_html #}\n"
        "    {{ seat_list }}\n"
        "  </ul>\n"
        '  <div class="centre" id="centre">\n'
        "    {# the stock, the discard pile and the indicator: drawn by games.board.piles_html #}"
        "{{ b.piles_html }}\n"
        "    {# the live rule state of the deal and the link to the rules: drawn by games.rules.r"
        "ule_state_html #}{{ rule_state_html }}\n"
        "  </div>\n"
        '  <div class="meld-groups" id="melds">\n'
        "    {% if b.meld_groups %}\n"
        "    {# drawn by games.board._melds_html #}\n"
        "    {{ b.melds_html }}\n"
        "    {% else %}\n"
        '      <p class="muted small empty-table">{% translate "No melds on the table yet." %}</p'
        ">\n"
        "    {% endif %}\n"
        "  </div>\n"
        "</section>\n"
    ),
    "games/_foot_table.html": (
        "{% load i18n translate_now %}{# Hand and Foot's table region (swapped in for games/_tabl"
        "e.html): the seats with hand and foot sizes, the draw and discard piles, the rule state "
        "(the deal's opening minimum, going out, taking the pile), and each side's melds and book"
        "s (red/black), book counts and what it still needs to go out. #}\n"
        '<section class="felt" id="table" aria-label="{% translate \'Table\' %}">\n'
        '  <ul class="seats" id="seat-list">\n'
        "    {{ seat_list }}\n"
        "  </ul>\n"
        '  <div class="centre" id="centre">\n'
        '    <div class="pile pile-stock"><span class="pile-label">{% translate "Draw pile" %}</s'
        'pan><span class="stock-back" aria-hidden="true"></span><span class="count">{{ v.stock.co'
        "unt }}</span></div>\n"
        '    <div class="pile pile-discard{% if b.discard_fresh %} fresh{% endif %}" id="discard-'
        'pile"><span class="pile-label">{% translate "Discard pile" %}</span>{% if b.discard_top '
        '%}{{ b.discard_top }}{% else %}<span class="muted">—</span>{% endif %}<span class="muted'
        ' small">{% blocktranslate count cards=v.discard.count %}{{ cards }} card{% plural %}{{ c'
        "ards }} cards{% endblocktranslate %}</span></div>\n"
        "    {# the live rule state of the deal and the link to the rules: drawn by games.rules.r"
        "ule_state_html #}{{ rule_state_html }}\n"
        "  </div>\n"
        '  <div class="meld-groups" id="melds">\n'
        "    {# drawn by games.board._sides_html #}\n"
        "    {{ b.sides_html }}\n"
        "  </div>\n"
        "</section>\n"
    ),
    "games/_panels.html": (
        "{% load i18n translate_now %}{# Panels that open on demand (beside the table on a wide s"
        "creen): one <details> per entry of ``panels`` (games.views.PANELS: id, title, template),"
        " so another panel (chat) slots in with one line. #}\n"
        '<aside class="panels" id="panels" aria-label="{% translate \'Game panels\' %}">\n'
        "  {% for panel in panels %}\n"
        '    <details class="panel" id="panel-{{ panel.id }}" data-panel="{{ panel.id }}"{% if pa'
        "nel.open %} open{% endif %}>\n"
        "      <summary>{{ panel.title }}</summary>\n"
        '      <div class="panel-body">{% include panel.template %}</div>\n'
        "    </details>\n"
        "  {% endfor %}\n"
        "</aside>\n"
    ),
    "games/_panel_log.html": (
        "{% load i18n translate_now %}{# This deal's moves, newest first (the last ones only; the"
        " whole game's log is paged on its own page). #}\n"
        '<ol class="log" id="log" reversed>{{ b.log_html }}</ol>{# one <li> a line (games.board.l'
        "og_html) #}\n"
        '<p class="small"><a href="{{ urls.log }}">{% translate "The whole game\'s log" %}</a>{% i'
        'f game.status == "finished" %} · <a href="{{ urls.replay }}">{% translate "Replay the ga'
        'me" %}</a>{% endif %}</p>\n'
    ),
    "games/_dock.html": (
        "{% load i18n translate_now %}{# Docked at the bottom of the screen: the refusal, the wil"
        "d-card question, the staged melds, the action bar and the hand. #}\n"
        '{% if v.hand is not None and not v.finished and game.status == "active" and not my_seat.'
        "bot %}\n"
        '<section class="dock" id="dock" aria-label="{% translate \'Your hand\' %}">\n'
        '  {% if error %}<p class="message message-error" role="alert" id="move-error">{{ error }'
        "}</p>{% endif %}\n"
        "  {% if wild_choices %}\n"
        '    <div class="wild-choices" id="wild-choices">\n'
        '      <p>{% translate "What does the wild card stand for?" %}</p>\n'
        '      {% for choice in wild_choices %}<button type="submit" name="wild" value="{{ choice'
        '.value }}" class="button-quiet"><span class="plays-as">{{ choice.words }}</span></button'
        ">{% endfor %}\n"
        '      {% for name, value in repeat %}<input type="hidden" name="{{ name }}" value="{{ va'
        'lue }}">{% endfor %}\n'
        "    </div>\n"
        "  {% endif %}\n"
        "  {% if staged %}\n"
        '    <div class="pending" id="pending">\n'
        '      <ul class="melds staged">\n'
        "        {% for p in staged %}\n"
        '          <li class="meld">\n'
        '            <span class="meld-cards">{{ p.cards }}</span>\n'
        '            <span class="muted small">{% if p.value is not None %}{% blocktranslate coun'
        "t value=p.value %}{{ value }} point{% plural %}{{ value }} points{% endblocktranslate %}"
        '{% else %}{% translate "checked when laid down" %}{% endif %}{% if p.with_discard %} · {'
        '% translate "with the discard" %}{% endif %}</span>\n'
        '            <button type="submit" name="unstage" value="{{ forloop.counter0 }}" class="b'
        'utton-quiet mini" aria-label="{% translate \'Remove\' %}">{% translate "Remove" %}</button'
        ">\n"
        "          </li>\n"
        "        {% endfor %}\n"
        "      </ul>\n"
        '      <p class="small pending-total" id="pending-total">\n'
        "        {% if staged_opening %}{% blocktranslate with total=staged_total minimum=v.openi"
        "ng_minimum %}Total {{ total }} of the {{ minimum }} needed to open.{% endblocktranslate "
        "%}\n"
        "        {% else %}{% blocktranslate with total=staged_total %}Total {{ total }}.{% endbl"
        "ocktranslate %}{% endif %}\n"
        '        <button type="submit" name="act" value="lay_down" class="mini">{% translate "Lay'
        ' down these melds" %}</button>\n'
        "      </p>\n"
        "    </div>\n"
        "  {% endif %}\n"
        "  {# the action bar and the hand bar under it: drawn by games.board.actions_html #}{{ ac"
        "tions_html }}\n"
        '  <ul class="hand" id="hand"{% if not b.foot %} data-arrange{% endif %} aria-label="{% t'
        "ranslate 'Your hand' %}\">\n"
        "    {{ b.hand_html }}\n"
        "  </ul>\n"
        "</section>\n"
        "{% elif not v.finished %}\n"
        '  {% if error %}<p class="message message-error" role="alert">{{ error }}</p>{% endif %}'
        "\n"
        '  {% if game.status == "abandoned" %}<p class="muted watching">{% translate "This game w'
        'as ended early; it is not scored." %}</p>\n'
        '  {% elif my_seat.bot and my_seat.user_id %}<p class="muted watching">{% translate "A bo'
        't plays your seat now; you are watching." %}</p>\n'
        '  {% else %}<p class="muted watching">{% translate "You are watching this game." %}</p>{'
        "% endif %}\n"
        "{% endif %}\n"
    ),
    "games/_chat_form.html": (
        "{# The chat's form element: outside the play form (forms do not nest); the chat panel's "
        'field and buttons belong to it by form="chat-form". A move\'s answer (``move_answer``) ke'
        "eps the page's, as it keeps the chat panel. #}\n"
        '{% if move_answer %}<form id="chat-form" class="chat-form" hx-preserve="true"></form>{% '
        'else %}<form id="chat-form" class="chat-form" method="post" action="{{ chat_url }}" hx-p'
        'ost="{{ chat_url }}" hx-target="#chat" hx-swap="outerHTML">{% csrf_token %}</form>{% end'
        "if %}\n"
    ),
    "games/_chat.html": (
        "{% load i18n translate_now %}{# Table talk (the chat panel): the newest messages, oldest"
        " first, and the line to write one. Its field and buttons belong to #chat-form (templates"
        "/games/_chat_form.html). ``move_answer``: a move's answer, the page keeps its whole chat"
        " panel as it is (hx-preserve: its messages, what is being typed); the next poll that bri"
        "ngs a change renders it anew. #}\n"
        '{% if move_answer %}<div id="chat" class="chat" hx-preserve="true"></div>{% else %}\n'
        '<div id="chat" class="chat">\n'
        '  <ol id="chat-log" class="chat-log" data-newest="{{ chat.newest_from_others }}">\n'
        "    {% for m in chat.messages %}\n"
        '      <li class="chat-message{% if m.author_id == user.pk %} chat-mine{% endif %}" id="c'
        'hat-{{ m.pk }}">\n'
        '        <span class="chat-meta small"><span class="chat-who">{% if m.author %}{{ m.autho'
        'r.name }}{% else %}{% translate "A former player" %}{% endif %}</span> <time class="mute'
        'd" datetime="{{ m.created_at|date:\'c\' }}">{{ m.created_at|time:"H:i" }}</time></span>\n'
        "        {% if m.deleted_at %}\n"
        '          <span class="chat-deleted muted">{% if m.deleted_by_id and m.deleted_by_id != '
        'm.author_id %}{% translate "Removed by a group admin." %}{% else %}{% translate "Message'
        ' deleted." %}{% endif %}</span>\n'
        "        {% else %}\n"
        '          <span class="chat-text" dir="auto">{{ m.text }}</span>\n'
        '          {% if m.author_id == user.pk or chat.can_moderate %}<button type="submit" form'
        '="chat-form" name="delete" value="{{ m.pk }}" formnovalidate class="button-quiet mini ch'
        'at-delete">{% translate "Delete" %}</button>{% endif %}\n'
        "        {% endif %}\n"
        "      </li>\n"
        "    {% empty %}\n"
        '      <li class="muted small chat-empty">{% translate "No table talk yet." %}</li>\n'
        "    {% endfor %}\n"
        "  </ol>\n"
        '  {% if chat_error %}<p class="message message-error chat-error" role="alert">{{ chat_er'
        "ror }}</p>{% endif %}\n"
        "  {% if chat.can_write %}\n"
        '    <div class="chat-compose">\n'
        '      <label for="chat-text" class="visually-hidden">{% translate "Your message" %}</lab'
        "el>\n"
        '      <input type="text" id="chat-text" name="text" form="chat-form" maxlength="500" dir'
        '="auto" autocomplete="off" enterkeyhint="send" placeholder="{% translate \'Say something '
        "to the table' %}\" value=\"{{ chat_text|default:'' }}\">\n"
        '      <button type="submit" form="chat-form" class="mini">{% translate "Send" %}</button'
        ">\n"
        "    </div>\n"
        "  {% else %}\n"
        '    <p class="muted small">{% translate "Only the players at this table can write here."'
        " %}</p>\n"
        "  {% endif %}\n"
        "</div>\n"
        "{% endif %}\n"
    ),
    "games/_panel_scores.html": (
        "{% load i18n translate_now %}{# Standings (at the end), the last deal's result and the s"
        "core sheet of the game. ``scores_keep``: a move's answer in which no deal ended, the pag"
        "e keeps its sheet as it is (hx-preserve): the answer stays the same size however long th"
        "e game. #}\n"
        '{% if scores_keep %}<div id="score-sheet" hx-preserve="true"></div>{% else %}<div id="sc'
        'ore-sheet">\n'
        "{% if v.finished %}\n"
        '  <h3 class="small">{% translate "Final standings" %}</h3>\n'
        '  <ol class="standings">\n'
        "    {% for row in b.standings %}\n"
        '      <li{% if row.winner %} class="winner"{% endif %}>{{ row.name }} — <bdi>{{ row.tota'
        'l }}</bdi>{% if row.winner %} <span class="badge badge-owner">{% translate "winner" %}</'
        "span>{% endif %}</li>\n"
        "    {% endfor %}\n"
        "  </ol>\n"
        "  {% if b.final_hands %}\n"
        '    <h3 class="small">{% translate "Hands at the end" %}</h3>\n'
        '    <ul class="list" id="final-hands">{% for row in b.final_hands %}<li><span class="mem'
        'ber-name">{{ row.name }}</span> <span class="cards-line">{{ row.cards }}</span></li>{% e'
        "ndfor %}</ul>\n"
        "  {% endif %}\n"
        "{% endif %}\n"
        "{% if b.last_deal %}\n"
        '  <div id="last-deal">\n'
        '    <h3 class="small">{% blocktranslate with number=b.last_deal.number %}Deal {{ number '
        "}} result{% endblocktranslate %}</h3>\n"
        '    {% if b.last_deal.void %}<p>{% translate "Nobody went out; the deal does not count."'
        " %}</p>\n"
        '    {% elif b.last_deal.stock_out %}<p>{% translate "The draw pile has run out: the deal'
        ' ends with nobody going out." %}</p>\n'
        "    {% elif b.last_deal.hand %}<p>{% blocktranslate with name=b.last_deal.winner %}{{ na"
        "me }} went out with a Hand!{% endblocktranslate %}</p>\n"
        "    {% else %}<p>{% blocktranslate with name=b.last_deal.winner %}{{ name }} went out.{%"
        " endblocktranslate %}</p>{% endif %}\n"
        '    <ul class="list">{% for row in b.last_deal.rows %}<li><span class="member-name">{{ r'
        'ow.name }}: <bdi>{{ row.points }}</bdi></span> {% if row.members %}<span class="team-han'
        'ds">{% for m in row.members %}<span class="team-hand"><span class="muted">{{ m.name }}</'
        'span> <span class="cards-line">{{ m.cards|default:"—" }}</span></span>{% endfor %}</span'
        '>{% else %}<span class="cards-line">{{ row.cards }}</span>{% endif %}</li>{% endfor %}</'
        "ul>\n"
        "  </div>\n"
        "{% endif %}\n"
        "{% if b.deals %}\n"
        '  <div class="scroll" id="scores">\n'
        '    <table class="scores">\n'
        '      <thead><tr><th>{% translate "Deal" %}</th>{% for name in b.score_columns %}<th>{{ '
        "name }}</th>{% endfor %}</tr></thead>\n"
        "      <tbody>\n"
        "        {% for deal in b.deals %}<tr><td>{{ deal.number }}{% if deal.void %} ({% transla"
        'te "void" %}){% endif %}</td>{% for p in deal.points %}<td><bdi>{{ p }}</bdi></td>{% end'
        "for %}</tr>{% endfor %}\n"
        "      </tbody>\n"
        '      <tfoot><tr><th>{% translate "Total" %}</th>{% for t in b.totals %}<th><bdi>{{ t }}'
        "</bdi></th>{% endfor %}</tr></tfoot>\n"
        "    </table>\n"
        "  </div>\n"
        "{% else %}\n"
        '  <p class="muted small">{% translate "No deal has been scored yet." %}</p>\n'
        "{% endif %}\n"
        "</div>{% endif %}\n"
    ),
}
"""The templates as they were before games.page drew them ("old/game.html": play.html's ``game`` partial)."""

HTMX = {"HTTP_HX_REQUEST": "true"}
TOKEN = re.compile(
    r'(name="csrfmiddlewaretoken" value=")[^"]*"'
)  # masked afresh at every call: compared masked


def _old_engine() -> Engine:
    site = engines["django"].engine
    return Engine(
        dirs=site.dirs,
        context_processors=site.context_processors,
        libraries=site.libraries,
        builtins=site.builtins,
        loaders=[
            ("django.template.loaders.locmem.Loader", OLD),
            ("django.template.loaders.filesystem.Loader", site.dirs),
            "django.template.loaders.app_directories.Loader",
        ],
    )


def _compare(response, old_engine, language: str) -> int:
    """Asserts the answer's drawn #game is what the old templates draw with its context; 1 if compared."""
    assert response.status_code == 200, response.status_code
    context = _context_of(response)
    if context is None:
        return 0
    assert language == response.wsgi_request.LANGUAGE_CODE  # the page is in the reader's language
    drawn = context["game_html"]
    old = _old_for(response.wsgi_request, context, language, old_engine)
    assert TOKEN.sub(r"\1…", drawn) == TOKEN.sub(r"\1…", old)
    if response.get("Content-Type", "").startswith("text/html") and response.wsgi_request.headers.get(
        "HX-Request"
    ):
        assert response.content.decode().startswith(drawn)  # the partial is the drawn element itself
    return 1


def _context_of(response) -> dict | None:
    """The context the answer's ``#game`` was drawn with (None: no dealt game in the answer)."""
    contexts = response.context
    contexts = list(contexts) if isinstance(contexts, ContextList) else [contexts]
    found = [c for c in contexts if c is not None and "game_html" in c]
    return found[-1].flatten() if found else None


def _old_for(request, context: dict, language: str, old_engine: Engine | None = None) -> str:
    """What the old templates draw with ``context``: their table and log panel named as they were, and the
    regions they held (each compared with its own old template in test_play_drawn_items.py) given as the
    view gave them then."""
    game, b, since = context["game"], context["board"], context["since"]
    with translation.override(language):
        rule_state = rules.rule_state_html(
            rules.rule_state_lines(b["view"], b["names"]), context["urls"]["rules"], game.pk
        )
        regions = {
            "seat_list": board.seat_list_html(b, since.seats, game.deadline_at),
            "rule_state_html": rule_state,
            "head": board.head_html(b, game, since.line),
            "actions_html": board.actions_html(b, context["staged_has_discard"]),
            "board": {
                **b,
                "piles_html": None
                if b["foot"]
                else board.piles_html(
                    b["view"]["stock"]["count"], b["discard_top"], b["discard_fresh"], b["indicator"]
                ),
            },
        }
        context = {
            **context,
            **regions,
            "table_template": "games/_foot_table.html" if b["foot"] else "games/_table.html",
            "panels": [
                {**panel, "template": panel["template"] or "games/_panel_log.html"}
                for panel in context["panels"]
            ],
        }
        engine_ = old_engine or _old_engine()
        return engine_.get_template("old/game.html").render(RequestContext(request, context))


def _play(game, users, watcher, language: str, presses: int) -> int:
    """Plays ``presses`` presses of the page's buttons through the views, comparing every answer."""
    old_engine = _old_engine()
    clients = {}
    for seat, user in [*enumerate(users), (None, watcher)]:
        user.language = language  # each reader's own language
        user.save(update_fields=["language"])
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        client.force_login(user)
        client.cookies["django_language"] = language
        clients[seat] = client
    play = reverse("games:play", args=[game.group.slug, game.pk])
    move = reverse("games:move", args=[game.group.slug, game.pk])
    poll = reverse("games:poll", args=[game.group.slug, game.pk])
    compared = pressed = 0
    while pressed < presses:
        game.refresh_from_db()
        if game.status != GameStatus.ACTIVE:
            break
        state = engine.from_json(game.state)
        if pressed % 7 == 0:
            for client in clients.values():
                compared += _compare(client.get(play, **HTMX), old_engine, language)
            compared += _compare(clients[0].get(play, {"sort": "rank"}), old_engine, language)  # a whole page
            token = poll_token(game.pk, users[1].pk)
            changed = clients[1].get(poll, {"r": game.revision - 1, "u": users[1].pk, "t": token})
            compared += _compare(changed, old_engine, language)
        seat = state.current
        stale = clients[seat].post(move, {"act": "draw", "version": game.version - 1}, **HTMX)
        compared += _compare(stale, old_engine, language)  # refused: the page's version is old
        for press in requests_for(state, seat, engine.bot_action(state, seat)):
            compared += _compare(
                clients[seat].post(move, press.as_post(game.version), **HTMX), old_engine, language
            )
            pressed += 1
    return compared


@pytest.mark.parametrize(
    ("variant", "options", "players", "language", "presses"),
    [
        ("classic", {}, 2, "en", 70),
        ("classic", {}, 2, "ar", 40),
        ("kuwaiti", {}, 2, "en", 40),
        ("classic", {"teams": True}, 4, "ar", 40),
        ("hand-and-foot", {}, 2, "en", 50),
    ],
)
def test_the_drawn_game_element_is_what_its_templates_drew(
    cast, start_game, variant, options, players, language, presses
):
    owner, admin, member = cast["owner"], cast["admin"], cast["member"]
    group = owner.memberships.first().group
    people = [owner, member, admin][:players]
    if players == 4:
        people.append(MembershipFactory(group=group).user)
    game = start_game(people, variant=variant, options=options or None, seed=4321)
    for user in people[1:]:
        services.accept_seat(game_id=game.pk, user=user)
    watcher = admin if players == 2 else MembershipFactory(group=group).user
    game = Game.objects.get(pk=game.pk)
    assert _play(game, people, watcher, language, presses) > presses


def test_an_ended_games_page_is_what_its_templates_drew(cast, duel):
    services.end_game(game_id=duel.pk, actor=cast["owner"])
    client = Client()
    client.force_login(cast["member"])
    response = client.get(reverse("games:play", args=[duel.group.slug, duel.pk]), **HTMX)
    assert _compare(response, _old_engine(), "en") == 1


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize("variant", ["classic", "hand-and-foot"])
def test_every_branch_of_the_dock_and_the_game_bar_is_what_the_templates_drew(
    cast, start_game, variant, language
):
    """The branches seeded games seldom reach, on a real answer's context: a refusal to escape, the wild
    card's question with the press to repeat, melds put aside (points or not, with the discard, towards
    an opening or not), a bot in the viewer's seat, an ended game, a finished deal, a partnership."""
    owner, member = cast["owner"], cast["member"]
    owner.language = language
    owner.save(update_fields=["language"])
    game = start_game([owner, member], variant=variant, seed=77)
    services.accept_seat(game_id=game.pk, user=member)
    client = Client()
    client.force_login(owner)
    response = client.get(reverse("games:play", args=[game.group.slug, game.pk]), **HTMX)
    base = _context_of(response)
    request = response.wsgi_request
    staged = [
        {"cards": mark_safe('<span class="card">7♠</span>'), "value": 30, "with_discard": True},
        {"cards": mark_safe('<span class="card">8♠</span>'), "value": None, "with_discard": False},
        {"cards": mark_safe('<span class="card">9♠</span>'), "value": 1, "with_discard": False},
    ]
    ended = copy.copy(base["game"])
    ended.status = "abandoned"
    teams = copy.copy(base["game"])
    teams.options = {**teams.options, "teams": True}
    finished = {**base["board"], "view": {**base["board"]["view"], "finished": True}}
    variations = [
        {},
        {"error": 'Not <b>that</b> & "this"'},
        {"move_answer": True, "scores_keep": True, "error": "No."},
        {
            "wild_choices": [{"value": "12:7S", "words": "7 <of> spades"}],
            "repeat": [("act", "meld"), ("meld", 3)],
        },
        {"staged": staged, "staged_total": 31, "staged_opening": True},
        {"staged": staged[:1], "staged_total": 30, "staged_opening": False},
        {"my_seat": SimpleNamespace(bot=True, user_id=owner.pk, is_filled=True), "error": "Bot."},
        {"my_seat": None},
        {"game": ended, "my_seat": None},
        {"board": finished},
        {"game": teams, "selected_ids": [3, 4]},
    ]
    for changes in variations:
        context = {**base, **changes}
        with translation.override(language):
            drawn = page.game_html(request, context)
        assert TOKEN.sub(r"\1…", drawn) == TOKEN.sub(r"\1…", _old_for(request, context, language)), changes
