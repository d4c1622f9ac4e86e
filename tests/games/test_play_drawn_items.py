"""The play page's repeated items drawn in Python (games/board.py: the hand, the seat list, the melds, Hand
and Foot's sides, the log, the piles, the dock's action and hand bars, the game bar's lines;
games/rules.py: the rule state) are byte for byte what the template loops and regions they replaced drew,
kept here as they were: over many positions of seeded games of bots (classic, a partnership, Kuwaiti's
announcement, both Hand and Foot rule sets), for every seat and a watcher, in English and Arabic, with
names to escape, ticked and fresh cards, seats that moved, a bot, a player who left and a deadline.
(bench/render_capture.py compares whole answers through the views before and after such a change.)"""

from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.template import Context, Template
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from games import board, engine, rules

OLD_SEATS = (
    '{% translate "cards held" as cards_held %}{% for s in b.seat_rows %}\n'
    '      <li class="seat{% if s.is_turn %} seat-turn{% endif %}{% if s.is_you %} seat-you{% e'
    'ndif %}{% if s.number in since.seats %} seat-moved{% endif %}">\n'
    '        <span class="seat-name">{{ s.name }}{% if s.is_you %} <span class="muted">({% tran'
    'slate "you" %})</span>{% endif %}</span>\n'
    '        <span class="seat-facts small">\n'
    '          <span class="seat-cards" title="{{ cards_held }}">{% blocktranslate count cards='
    "s.cards %}{{ cards }} card{% plural %}{{ cards }} cards{% endblocktranslate %}</span>\n"
    '          {% if s.opened %}<span class="tag">{% if v.opening_rule == "announcement" %}{% t'
    'ranslate "announced" %}{% else %}{% translate "opened" %}{% endif %}</span>{% endif %}\n'
    '          {% if v.teams %}<span class="tag tag-team tag-team-{{ s.team|add:1 }}">{% if s.t'
    'eam == 0 %}{% translate "team 1" %}{% else %}{% translate "team 2" %}{% endif %}</span>{% '
    "endif %}\n"
    '          {% if s.left %}<span class="tag">{% translate "left: a bot plays" %}</span>{% el'
    'if s.bot %}<span class="tag">{% translate "bot" %}</span>{% endif %}\n'
    '          {% if s.dealer %}<span class="tag">{% translate "dealer" %}</span>{% endif %}\n'
    '          {% if s.is_turn and game.deadline_at %}<span class="tag tag-time">{{ game.deadli'
    "ne_at|timeuntil }}</span>{% endif %}\n"
    "        </span>\n"
    "      </li>\n"
    "    {% endfor %}"
)

OLD_MELDS = (
    '{% translate "meld" as meld_word %}{% translate "Lay off here" as lay_off_here %}{% for gr'
    "oup_melds in b.meld_groups %}\n"
    '      <div class="meld-group">\n'
    '        <h3 class="meld-owner small">{{ group_melds.title }}</h3>\n'
    '        <ul class="melds">\n'
    "          {% for meld in group_melds.melds %}\n"
    '            <li class="meld{% if meld.fresh %} fresh{% endif %}" id="meld-{{ meld.id }}">\n'
    '              <span class="meld-no" title="{{ meld_word }}">{{ meld.id }}</span>\n'
    '              <span class="meld-cards">{{ meld.cards }}</span>\n'
    '              {% if meld.lay_off_button %}<button data-needs="cards" type="submit" name="l'
    'ay_off" value="{{ meld.id }}" class="button-quiet mini{% if meld.can_lay_off %} suggested{'
    '% endif %}">{{ lay_off_here }}</button>{% endif %}\n'
    '              {% if meld.take_button %}<button type="submit" name="take_lay_off" value="{{'
    ' meld.id }}" class="button-quiet mini{% if meld.can_take %} suggested{% endif %}">{% trans'
    'late "Put the discard here" %}</button>{% endif %}\n'
    '              {% if meld.exchange_button %}<button data-needs="cards" type="submit" name="'
    'exchange" value="{{ meld.id }}" class="button-quiet mini{% if meld.can_exchange %} suggest'
    'ed{% endif %}">{% translate "Exchange for the wild card" %}</button>{% endif %}\n'
    "            </li>\n"
    "          {% endfor %}\n"
    "        </ul>\n"
    "      </div>\n"
    "    {% endfor %}"
)

OLD_FOOT_SEATS = (
    "{% for s in b.seat_rows %}\n"
    '      <li class="seat{% if s.is_turn %} seat-turn{% endif %}{% if s.is_you %} seat-you{% e'
    'ndif %}{% if s.number in since.seats %} seat-moved{% endif %}">\n'
    '        <span class="seat-name">{{ s.name }}{% if s.is_you %} <span class="muted">({% tran'
    'slate "you" %})</span>{% endif %}</span>\n'
    '        <span class="seat-facts small">\n'
    '          {% if s.in_foot %}<span class="seat-cards">{% blocktranslate count cards=s.cards'
    " %}playing from the foot: {{ cards }} card{% plural %}playing from the foot: {{ cards }} c"
    "ards{% endblocktranslate %}</span>\n"
    '          {% else %}<span class="seat-cards">{% blocktranslate count cards=s.cards %}hand '
    "{{ cards }} card{% plural %}hand {{ cards }} cards{% endblocktranslate %}</span>\n"
    '          <span class="seat-cards">{% blocktranslate count cards=s.foot %}foot {{ cards }}'
    " card{% plural %}foot {{ cards }} cards{% endblocktranslate %}</span>{% endif %}\n"
    '          {% if v.teams %}<span class="tag tag-team tag-team-{{ s.side|add:1 }}">{% if s.s'
    'ide == 0 %}{% translate "team 1" %}{% else %}{% translate "team 2" %}{% endif %}</span>{% '
    "endif %}\n"
    '          {% if s.bot %}<span class="tag">{% translate "bot" %}</span>{% endif %}\n'
    '          {% if s.dealer %}<span class="tag">{% translate "dealer" %}</span>{% endif %}\n'
    '          {% if s.is_turn and game.deadline_at %}<span class="tag tag-time">{{ game.deadli'
    "ne_at|timeuntil }}</span>{% endif %}\n"
    "        </span>\n"
    "      </li>\n"
    "    {% endfor %}"
)

OLD_SIDES = (
    '{% translate "meld" as meld_word %}{% for side in b.sides %}\n'
    '      <div class="meld-group foot-side{% if side.yours %} foot-side-yours{% endif %}" id="'
    'side-{{ side.side }}">\n'
    '        <h3 class="meld-owner small">{% if v.teams %}<span class="tag tag-team tag-team-{{'
    ' side.side|add:1 }}">{% if side.side == 0 %}{% translate "team 1" %}{% else %}{% translate'
    ' "team 2" %}{% endif %}</span> {% endif %}{{ side.title }}\n'
    '          <span class="muted">· {% blocktranslate count books=side.red_books %}{{ books }}'
    " red book{% plural %}{{ books }} red books{% endblocktranslate %} · {% blocktranslate coun"
    "t books=side.black_books %}{{ books }} black book{% plural %}{{ books }} black books{% end"
    'blocktranslate %}{% if not side.opened %} · {% translate "not opened" %}{% endif %}</span>'
    "\n"
    "        </h3>\n"
    '        {% if not side.yours %}<p class="small foot-missing">{{ side.missing }}</p>{% endi'
    "f %}{# your side's: in the rule state #}\n"
    '        <ul class="melds">\n'
    "          {% for meld in side.melds %}\n"
    '            <li class="meld{% if meld.colour %} book book-{{ meld.colour }}{% endif %}{% i'
    'f meld.fresh %} fresh{% endif %}" id="meld-{{ meld.id }}">\n'
    '              <span class="meld-no" title="{{ meld_word }}">{{ meld.id }}</span>\n'
    '              <span class="meld-cards">{{ meld.cards }}</span>\n'
    '              <span class="small meld-count">{% if meld.colour == "red" %}<span class="bad'
    'ge badge-red">{% translate "red book" %}</span>{% elif meld.colour == "black" %}<span clas'
    's="badge badge-black">{% translate "black book" %}</span>{% endif %} {% blocktranslate cou'
    "nt cards=meld.count %}{{ cards }} card{% plural %}{{ cards }} cards{% endblocktranslate %}"
    "</span>\n"
    '              {% if meld.can_lay_off %}<button type="submit" name="lay_off" value="{{ meld'
    '.id }}" class="button-quiet mini suggested">{% translate "Lay off here" %}</button>{% endi'
    "f %}\n"
    "            </li>\n"
    '          {% empty %}<li class="muted small">{% translate "No melds yet." %}</li>\n'
    "          {% endfor %}\n"
    "        </ul>\n"
    "      </div>\n"
    "    {% endfor %}"
)

OLD_HAND = (
    "{% for c in b.hand %}\n"
    '      <li><input type="checkbox" name="cards" value="{{ c.id }}" id="pick-{{ c.id }}" clas'
    's="pick"{% if c.selected %} checked{% endif %}><label for="pick-{{ c.id }}">{{ c.html }}</'
    "label></li>\n"
    "    {% endfor %}"
)

OLD_LOG = "{{ b.log_lines|unordered_list }}"

NAMES = ["Hala <b>", "Fadi & Sons", 'Rana "R"', "Omar's"]

GAMES = [
    # variant, players, options, seed
    ("classic", 2, {}, 1234),
    ("classic", 4, {"teams": True}, 31),
    ("kuwaiti", 3, {}, 77),
    ("hand-and-foot", 2, {}, 5),
    ("hand-and-foot-teams", 4, {}, 9),
]

OLD_ACTIONS = (  # the dock's action bar and hand bar (games/_dock.html)
    "{% if b.foot %}\n"
    '  <div class="actions action-bar" id="actions">\n'
    '    {% if b.offer.draw %}<button type="submit" name="act" value="draw">{% blocktranslate c'
    "ount cards=v.draw_count %}Draw {{ cards }} card{% plural %}Draw {{ cards }} cards{% endblo"
    "cktranslate %}</button>{% endif %}\n"
    '    {% if b.offer.draw_phase and b.offer.has_discard %}<button type="submit" name="act" va'
    'lue="take" class="button-quiet">{% translate "Take the pile with the selected cards" %}</b'
    "utton>{% endif %}\n"
    '    {% if b.offer.play_phase %}<button type="submit" name="act" value="meld">{% translate '
    '"Meld the selected cards" %}</button>\n'
    '      <button type="submit" name="act" value="discard">{% translate "Discard the selected '
    'card" %}</button>{% endif %}\n'
    '    {% if b.offer.end_turn %}<button type="submit" name="act" value="end_turn" class="butt'
    'on-quiet">{% translate "End the turn without a discard" %}</button>{% endif %}\n'
    "    {% if b.offer.takes %}\n"
    '      <details class="hints">\n'
    "        <summary>{% blocktranslate count n=b.offer.hints %}{{ n }} suggestion{% plural %}{"
    "{ n }} suggestions{% endblocktranslate %}</summary>\n"
    '        {% for take in b.offer.takes %}<button type="submit" name="offer" value="{{ take.o'
    'ption }}" class="button-quiet hint">{{ take.label }}</button>{% endfor %}\n'
    "      </details>\n"
    "    {% endif %}\n"
    '    {% if b.offer.play_phase and not v.in_foot %}<p class="muted small">{% translate "Meld'
    " your whole hand to pick up your foot now; discard your last hand card to pick it up for y"
    'our next turn." %}</p>{% endif %}\n'
    '    {% if not v.your_turn %}<p class="muted small waiting-turn">{% blocktranslate with nam'
    "e=b.turn_name %}{{ name }} to play.{% endblocktranslate %}</p>{% endif %}\n"
    "  </div>\n"
    "  {% else %}\n"
    '  <div class="actions action-bar" id="actions">\n'
    '    {% if b.offer.draw %}<button type="submit" name="act" value="draw">{% translate "Draw '
    'from the stock" %}</button>{% endif %}\n'
    '    {% if b.offer.take_declare %}<button type="submit" name="act" value="take_declare" cla'
    'ss="button-quiet{% if b.offer.takes_declare %} suggested{% endif %}">{% blocktranslate wit'
    "h card=b.discard_top %}Take {{ card }} and declare a Hand{% endblocktranslate %}</button>{"
    "% endif %}\n"
    '    {% if b.offer.draw_phase and b.offer.has_discard %}<button data-needs="cards" type="su'
    'bmit" name="act" value="take" class="button-quiet">{% translate "Take the discard with the'
    ' selected cards" %}</button>\n'
    '      {% if not staged_has_discard %}<button data-needs="cards" type="submit" name="act" v'
    'alue="stage_take" class="button-quiet">{% translate "Add as a meld with the discard" %}</b'
    "utton>{% endif %}{% endif %}\n"
    "    {% if b.offer.play_phase %}\n"
    '      {% if b.offer.announce %}<button data-needs="cards" type="submit" name="act" value="'
    'meld">{% translate "Announce the selected cards" %}</button>\n'
    '      {% else %}<button data-needs="cards" type="submit" name="act" value="meld">{% transl'
    'ate "Meld the selected cards" %}</button>{% endif %}\n'
    "    {% endif %}\n"
    '    <button data-needs="cards" type="submit" name="act" value="stage" class="button-quiet"'
    '>{% translate "Add as a meld" %}</button>\n'
    '    {% if b.offer.declare_hand or b.offer.declare_any %}<button type="submit"{% if not b.o'
    'ffer.declare_hand %} class="button-quiet"{% endif %} name="act" value="declare_hand">{% tr'
    'anslate "Declare a Hand" %}</button>{% endif %}\n'
    '    {% if b.offer.play_phase %}<button data-needs="one" type="submit" name="act" value="di'
    'scard">{% translate "Discard the selected card" %}</button>{% endif %}\n'
    '    <button data-needs="cards" type="submit" name="act" value="group" class="button-quiet"'
    '>{% translate "Group in my hand" %}</button>\n'
    '    {% if b.offer.redeal %}<button type="submit" name="act" value="redeal" class="button-q'
    'uiet">{% translate "Show pairs and demand a redeal" %}</button>{% endif %}\n'
    '    {% if b.offer.play_phase %}<p class="muted small tap-hint" data-needs="none">{% transl'
    'ate "Tap cards to meld, lay off, exchange a wild card or discard." %}</p>{% endif %}\n'
    "    {% if b.offer.takes or b.offer.exchanges %}\n"
    '      <details class="hints">\n'
    "        <summary>{% blocktranslate count n=b.offer.hints %}{{ n }} suggestion{% plural %}{"
    "{ n }} suggestions{% endblocktranslate %}</summary>\n"
    '        {% for take in b.offer.takes %}<button type="submit" name="offer" value="{{ take.o'
    'ption }}" class="button-quiet hint">{{ take.label }}</button>{% endfor %}\n'
    '        {% for ex in b.offer.exchanges %}<button type="submit" name="offer" value="{{ ex.o'
    'ption }}" class="button-quiet hint">{{ ex.label }}</button>{% endfor %}\n'
    "      </details>\n"
    "    {% endif %}\n"
    '    {% if not v.your_turn %}<p class="muted small waiting-turn">{% blocktranslate with nam'
    'e=b.turn_name %}{{ name }} to play.{% endblocktranslate %} {% translate "You can put melds'
    ' aside meanwhile." %}</p>{% endif %}\n'
    "  </div>\n"
    "  {% endif %}\n"
    '  <div class="hand-bar">\n'
    '    <span class="muted small">{% blocktranslate count cards=b.hand_count %}{{ cards }} car'
    "d{% plural %}{{ cards }} cards{% endblocktranslate %}</span>\n"
    '    <span class="sort small">\n'
    '      {% if b.sort != "suit" %}<a href="?sort=suit" hx-get="?sort=suit" hx-target="#game" '
    'hx-swap="outerHTML">{% translate "Sort by suit" %}</a>{% endif %}\n'
    '      {% if b.sort != "rank" %}<a href="?sort=rank" hx-get="?sort=rank" hx-target="#game" '
    'hx-swap="outerHTML">{% translate "Sort by rank" %}</a>{% endif %}\n'
    '      {% if b.has_own_order and b.sort != "own" %}<a href="?sort=own" hx-get="?sort=own" h'
    'x-target="#game" hx-swap="outerHTML">{% translate "My order" %}</a>{% endif %}\n'
    "    </span>\n"
    "  </div>"
)

OLD_HEAD_DEAL = (  # the game bar's deal (games/_head.html)
    '{% if board %}{% with v=board.view %}<span class="muted">· {% blocktranslate with number=v'
    ".deal.scoring_deal total=v.deal.scoring_deals %}Deal {{ number }} of {{ total }}{% endbloc"
    'ktranslate %}{% if v.deal.in_tie_break %} · {% translate "tie-break" %}{% endif %}</span>{'
    "% endwith %}{% endif %}"
)

OLD_HEAD_TURN = (  # the game bar's lines under the title (games/_head.html)
    "{% if board %}{% with v=board.view %}\n"
    "    {% if v.finished %}\n"
    '      <p class="turn"><strong>{% translate "The game is over." %}</strong></p>\n'
    '    {% elif game.status == "abandoned" %}\n'
    '      <p class="turn" id="turn"><strong>{% blocktranslate with name=game.ended_by.name|def'
    'ault:"—" %}{{ name }} ended the game early.{% endblocktranslate %}</strong></p>\n'
    "    {% else %}\n"
    '      <p class="turn{% if v.your_turn %} your-turn{% endif %}" id="turn">\n'
    '        {% if v.your_turn %}<strong>{% translate "Your turn." %}</strong>\n'
    "        {% else %}{% blocktranslate with name=board.turn_name %}{{ name }} to play.{% endb"
    "locktranslate %}{% endif %}\n"
    '        {% if game.deadline_at %}<span class="muted small">{% blocktranslate with left=gam'
    "e.deadline_at|timeuntil when=game.deadline_at|when %}Time left: {{ left }} (until {{ when "
    "}}){% endblocktranslate %}</span>{% endif %}\n"
    "      </p>\n"
    "    {% endif %}\n"
    '    {% if since.line %}<p class="since small" id="since"><span class="muted">{% translate '
    '"Since your last move:" %}</span> {{ since.line }}</p>{% endif %}\n'
    '    {% if game.paused_until %}<p class="muted small paused">{% blocktranslate with until=g'
    "ame.paused_until|when %}The player to move is on vacation: the deadline is paused until {{"
    " until }}.{% endblocktranslate %}</p>{% endif %}\n"
    "  {% endwith %}{% endif %}"
)

OLD_RULE_STATE = (  # the rule state's box (games/_rule_state.html, included by both tables)
    "{% load i18n translate_now %}{# The live rule state of the deal (games.rules.rule_state_li"
    "nes from engine.rule_state), with a link to the rules and this game's options. #}\n"
    '{% if rule_state or game %}<div class="rule-state" id="rule-state">\n'
    '  {% if rule_state %}<ul class="rule-state-lines">{% for line in rule_state %}<li>{{ line '
    "}}</li>{% endfor %}</ul>{% endif %}\n"
    '  <p class="rule-state-link small"><a href="{{ urls.rules }}?game={{ game.pk }}">{% transl'
    'ate "Rules of this game" %}</a></p>\n'
    "</div>{% endif %}\n"
)

OLD_PILES = (  # the classic table's piles (games/_table.html's centre)
    '    <div class="pile pile-stock"><span class="pile-label">{% translate "Stock" %}</span><s'
    'pan class="stock-back" aria-hidden="true"></span><span class="count">{{ v.stock.count }}</'
    "span></div>\n"
    '    <div class="pile pile-discard{% if b.discard_fresh %} fresh{% endif %}"><span class="p'
    'ile-label">{% translate "Discard pile" %}</span>{% if b.discard_top %}{{ b.discard_top }}{'
    '% else %}<span class="muted">—</span>{% endif %}</div>\n'
    '    {% if b.indicator %}<div class="pile"><span class="pile-label">{% translate "Indicator'
    '" %}</span>{{ b.indicator }}</div>{% endif %}\n'
)


def _old(template: str, **context) -> str:
    return Template("{% load i18n l10n times %}{% localize off %}" + template + "{% endlocalize %}").render(
        Context(context)
    )


def _seats(players: int) -> list[SimpleNamespace]:
    """The seats as the views pass them: the second a bot, the last one left (a bot plays it)."""
    left = timezone.now()
    return [
        SimpleNamespace(
            number=n, name=NAMES[n], bot=n in (1, players - 1), left_at=left if n == players - 1 else None
        )
        for n in range(players)
    ]


def _positions(variant: str, players: int, options: dict, seed: int, every: int = 9, most: int = 400):
    state = engine.new_game(variant, players, options, seed=seed)
    for step in range(most):
        if state.finished:
            return
        if step % every == 0:
            yield step // every, state  # the position's number
        engine.apply(state, state.current, engine.bot_action(state, state.current))


def _compare(state, seats, step: int) -> int:
    compared = 0
    deadline = timezone.now() + timedelta(hours=5, minutes=7) if step % 2 else None
    moved = {step % state.players}
    for viewer in [*range(state.players), None]:
        picture = engine.view(state, viewer)
        own = [card["id"] for card in picture["hand"] or []]
        selected = own[: step % 3]
        table = [card["id"] for meld in picture.get("melds") or [] for card in meld["cards"]]
        fresh = set(table[-4:])
        b = board.build(
            state, seats, viewer=viewer, sort="rank" if step % 4 else "suit", selected=selected, fresh=fresh
        )
        since = SimpleNamespace(seats=moved)
        game = SimpleNamespace(deadline_at=deadline)
        v = b["view"]
        foot = b["foot"]
        old_seats = _old(OLD_FOOT_SEATS if foot else OLD_SEATS, b=b, v=v, since=since, game=game)
        assert board.seat_list_html(b, moved, deadline) == old_seats
        if foot:
            assert b["sides_html"] == _old(OLD_SIDES, b=b, v=v)
        else:
            assert b["melds_html"] == _old(OLD_MELDS, b=b, v=v)
            piles = board.piles_html(
                v["stock"]["count"], b["discard_top"], b["discard_fresh"], b["indicator"]
            )
            assert "    " + piles + "\n" == _old(OLD_PILES, b=b, v=v)
        old_hand = [
            {"id": card["id"], "html": board.card_html(card), "selected": card["id"] in selected}
            for card in b["hand"]
        ]
        assert b["hand_html"] == _old(OLD_HAND, b={**b, "hand": old_hand})
        assert b["hand_count"] == len(old_hand)
        assert b["log_html"] == _old(OLD_LOG, b=b)
        if v["hand"] is not None and not v["finished"]:  # the dock is shown
            for staged_has_discard in (False, True):
                old_actions = _old(OLD_ACTIONS, b=b, v=v, staged_has_discard=staged_has_discard)
                assert board.actions_html(b, staged_has_discard) == old_actions
        _compare_head(b, step)
        lines = rules.rule_state_lines(v, {seat.number: seat.name for seat in seats})
        for shown in (lines, []):
            url = "/rules/x?a=1&b=<2>"  # escaped
            old_rule_state = _old(
                OLD_RULE_STATE, rule_state=shown, urls={"rules": url}, game=SimpleNamespace(pk=7)
            )
            assert rules.rule_state_html(shown, url, 7) == old_rule_state
        compared += 1
    return compared


def _compare_head(b, step: int) -> None:
    """The game bar's lines for a game in play, ended early (by somebody or nobody), with a deadline and a
    pause or not, with a line of what happened since (names to escape) or none."""
    now = timezone.now()
    ender = SimpleNamespace(name=NAMES[step % len(NAMES)]) if step % 3 else None
    for status in ("active", "abandoned"):
        game = SimpleNamespace(
            status=status,
            ended_by=ender,
            deadline_at=now + timedelta(hours=5, minutes=7) if step % 2 else None,
            paused_until=now + timedelta(days=3) if step % 5 == 1 else None,
        )
        for line in (None, mark_safe('Hala &lt;b&gt; drew <span class="pcard">x</span>')):
            since = SimpleNamespace(line=line)
            drawn = board.head_html(b, game, line)
            assert drawn["deal"] == _old(OLD_HEAD_DEAL, board=b, game=game)
            assert drawn["turn"] == _old(OLD_HEAD_TURN, board=b, game=game, since=since)


@pytest.mark.parametrize("language", ["en", "ar"])
@pytest.mark.parametrize(("variant", "players", "options", "seed"), GAMES)
def test_the_drawn_items_are_what_the_template_loops_drew(variant, players, options, seed, language):
    seats = _seats(players)
    compared = 0
    with translation.override(language):
        for step, state in _positions(variant, players, options, seed):
            compared += _compare(state, seats, step)
    assert compared >= 20


def test_the_words_of_the_drawn_items_follow_the_language_of_each_page():
    state = next(state for _step, state in _positions("classic", 2, {}, 1234, every=1))
    seats = _seats(2)
    drawn = {}
    for language in ("en", "ar", "en"):
        with translation.override(language):
            b = board.build(state, seats, viewer=0)
            drawn.setdefault(language, set()).add(str(board.seat_list_html(b, set(), None)))
    assert len(drawn["en"]) == 1  # the same page in English before and after an Arabic one
    assert "(you)" in next(iter(drawn["en"]))
    assert "(you)" not in next(iter(drawn["ar"]))


def test_names_in_the_seat_list_and_the_melds_are_escaped():
    seats = _seats(4)
    with translation.override("en"):
        for _step, state in _positions("classic", 4, {"teams": True}, 31, every=3):
            b = board.build(state, seats, viewer=0)
            drawn = str(board.seat_list_html(b, set(), None)) + str(b["melds_html"])
            assert "<b>" not in drawn
            assert "Hala &lt;b&gt;" in drawn
            if b["meld_groups"]:
                assert "&amp; Sons" in str(b["melds_html"]) or "Hala &lt;b&gt; &amp;" in str(b["melds_html"])
                break
        else:
            pytest.fail("no meld in the partnership game")


def test_the_panel_titles_kept_per_process_follow_the_language_of_each_page():
    from games import views

    context = {"view": {"finished": False}, "deal_fresh": False}
    titles = {}
    for language in ("en", "ar", "en"):
        with translation.override(language):
            expected = [str(panel["title"]) for panel in views.PANELS]
            titles.setdefault(language, []).append([panel["title"] for panel in views._panels(context)])
            assert titles[language][-1] == expected
    assert titles["en"][0] == titles["en"][1] == ["What happened", "Table talk", "Scores"]
    assert titles["ar"][0] != titles["en"][0]
