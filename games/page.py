"""The play page's ``#game`` element for a dealt game (templates/games/play.html's ``game`` partial, in the
page, a move's htmx answer and a changed poll's), drawn in Python as its templates drew it, byte for byte
(tests/games/test_play_page_drawn.py renders both): the game bar, the form with the table, the panels and
the dock, the chat's form and the poll. A move's answer then costs some string joins instead of a hundred
template nodes, lookups and includes (issue 17: the template machinery was a seventh of a move's CPU).

The regions inside were already drawn in Python (games/board.py, games/rules.py): this draws what holds
them. Two panels stay templates, each a region with a view of its own, rendered here only when shown
anew: the chat (templates/games/_chat.html, also the chat's own answer) and the score sheet
(templates/games/_panel_scores.html); a move's answer keeps both as the page has them (games.views.PANELS).
A game not dealt yet (no board) is still drawn by the template, with templates/games/_waiting.html.

Every value is escaped as the templates' ``{{ }}`` escaped it; the fixed words are not, as a ``{% translate
"literal" %}`` was not (games.board._words). Numbers are never localised (the partial was inside
``{% localize off %}``)."""

from __future__ import annotations

from django.middleware.csrf import get_token
from django.template import RequestContext
from django.template.loader import get_template
from django.utils.html import conditional_escape as esc
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, get_language_bidi, gettext, ngettext

from games import board as boards
from games import rules


def game_html(request, context: dict) -> SafeString:
    """``<div id="game">`` of a dealt game (``context["board"]`` is set): the play page's context as
    games.views builds it (``move_answer``, ``scores_keep`` and ``repeat`` included)."""
    game, seat = context["game"], context["my_seat"]
    leave = game.status == "active" and seat is not None and seat.is_filled and not seat.bot
    out = [
        f'\n<div id="game" class="game game-table" data-version="{game.version}"'
        f' data-status="{esc(game.status)}"{" data-can-leave" if leave else ""}>\n  ',
        _head(context),
        "\n  \n  ",
        _form(request, context),
        _chat_form(request, context),
        "\n  \n  \n  ",
    ]
    if game.status in ("active", "waiting"):
        out.append(
            f'\n    <div id="poll" hx-get="{esc(context["poll_url"])}" hx-trigger="every 4s, visibilitychange'
            ' from:document" hx-target="#game" hx-swap="outerHTML"></div>\n  '
        )
    out.append("\n</div>\n")
    return mark_safe("".join(out))  # every value escaped


def _head(context: dict) -> str:
    """The game bar (templates/games/_head.html draws it before the deal): the rule set, the deal, whose
    turn (games.board.head_html)."""
    words = boards._words(get_language())
    game = context["game"]
    head = boards.head_html(context["board"], game, context["since"].line)
    teams = f'<span class="muted">· {words["Partnership"]}</span>' if game.options.get("teams") else ""
    return (
        '\n<header class="game-head" id="game-head">\n  <p class="game-title">\n'
        f'    <a href="{esc(context["urls"]["group"])}" class="muted" dir="auto">'
        f"{esc(context['group'].name)}</a>\n"
        f'    <span aria-hidden="true" class="muted crumb">{"‹" if get_language_bidi() else "›"}</span>\n'
        f"    <strong>{esc(game.get_variant_display())}</strong>\n"
        f"    {head['deal']}\n    {teams}\n  </p>\n  {head['turn']}\n  \n</header>\n"
    )


def _form(request, context: dict) -> str:
    """The play form: the page's token, the version and sort it shows, the table, the panels, the dock."""
    game, board = context["game"], context["board"]
    if context.get("move_answer"):  # a move's answer keeps the page's token (no new one to mask)
        token = '<input type="hidden" name="csrfmiddlewaretoken" id="play-csrf" hx-preserve="true">'
    else:
        token = (
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(get_token(request))}"'
            ' id="play-csrf">'
        )
    url = esc(context["move_url"])
    return (
        f'\n  <form id="play-form" class="play" data-picked="{len(context["selected_ids"])}" method="post"'
        f' action="{url}" hx-post="{url}" hx-target="#game" hx-swap="outerHTML">\n    {token}\n'
        f'    <input type="hidden" name="version" value="{game.version}">\n'
        f'    <input type="hidden" name="sort" value="{esc(board["sort"])}">\n'
        '    <div class="play-main">\n      '
        f"{_foot_table(context) if board['foot'] else _table(context)}\n      {_panels(request, context)}\n"
        f"    </div>\n    {_dock(context)}\n  </form>\n  "
    )


def _table(context: dict) -> str:
    """The classic table (was templates/games/_table.html): the seats, the piles, the rule state, the
    melds."""
    words = boards._words(get_language())
    board = context["board"]
    stock = board["view"]["stock"]["count"]
    piles = boards.piles_html(stock, board["discard_top"], board["discard_fresh"], board["indicator"])
    if board["meld_groups"]:
        melds = f"\n    \n    {board['melds_html']}\n    "
    else:
        melds = f'\n      <p class="muted small empty-table">{words["No melds on the table yet."]}</p>\n    '
    return (
        f'\n<section class="felt" id="table" aria-label="{words["Table"]}">\n'
        f'  <ul class="seats" id="seat-list">\n    \n    {_seats(context)}\n  </ul>\n'
        f'  <div class="centre" id="centre">\n    {piles}\n    {_rule_state(context)}\n'
        f'  </div>\n  <div class="meld-groups" id="melds">\n    {melds}\n  </div>\n</section>\n'
    )


def _foot_table(context: dict) -> str:
    """Hand and Foot's table (was templates/games/_foot_table.html): the seats, the piles, the rule state,
    the sides."""
    words = boards._words(get_language())
    board, view = context["board"], context["board"]["view"]
    count = view["discard"]["count"]
    cards = ngettext("%(cards)s card", "%(cards)s cards", count) % {"cards": count}
    top = board["discard_top"] or '<span class="muted">—</span>'
    return (
        f'\n<section class="felt" id="table" aria-label="{words["Table"]}">\n'
        f'  <ul class="seats" id="seat-list">\n    {_seats(context)}\n  </ul>\n'
        '  <div class="centre" id="centre">\n'
        f'    <div class="pile pile-stock"><span class="pile-label">{words["Draw pile"]}</span>'
        '<span class="stock-back" aria-hidden="true"></span>'
        f'<span class="count">{view["stock"]["count"]}</span></div>\n'
        f'    <div class="pile pile-discard{" fresh" if board["discard_fresh"] else ""}" id="discard-pile">'
        f'<span class="pile-label">{words["Discard pile"]}</span>{top}'
        f'<span class="muted small">{cards}</span></div>'
        f"\n    {_rule_state(context)}\n  </div>\n"
        f'  <div class="meld-groups" id="melds">\n    \n    {board["sides_html"]}\n  </div>\n</section>\n'
    )


def _seats(context: dict) -> str:
    """The seat list's items (games.board.seat_list_html): who moved since the viewer's last move, the time
    left on the seat whose turn it is."""
    return boards.seat_list_html(context["board"], context["since"].seats, context["game"].deadline_at)


def _rule_state(context: dict) -> str:
    """The rule-state box (games.rules): the deal's live rules and the link to this game's rules."""
    game, board = context["game"], context["board"]
    lines = rules.rule_state_lines(board["view"], board["names"])
    return rules.rule_state_html(lines, context["urls"]["rules"], game.pk)


def _panels(request, context: dict) -> str:
    """The panels (was templates/games/_panels.html): one ``<details>`` a panel (games.views.PANELS)."""
    words = boards._words(get_language())
    out = [f'\n<aside class="panels" id="panels" aria-label="{words["Game panels"]}">\n  ']
    for panel in context["panels"]:
        ident = esc(panel["id"])
        out.append(
            f'\n    <details class="panel" id="panel-{ident}" data-panel="{ident}"'
            f"{' open' if panel['open'] else ''}>"
            f"\n      <summary>{esc(panel['title'])}</summary>\n"
            f'      <div class="panel-body">{_panel(request, context, panel)}</div>\n'
            "    </details>\n  "
        )
    out.append("\n</aside>\n")
    return "".join(out)


def _panel(request, context: dict, panel: dict) -> str:
    template = panel["template"]
    if template is None:
        return _log_panel(context)
    if context.get(panel.get("kept_if")):  # a move's answer: the page keeps its own
        return f"\n{panel['kept']}\n"
    # A panel drawn anew (a page, a changed poll; the sheet after a deal's end): its template, with the
    # page's context as the partial gave it (``b``, ``v``; numbers not localised).
    board = context["board"]
    page = RequestContext(request, {**context, "b": board, "v": board["view"]}, use_l10n=False)
    return get_template(template).template.render(page)


def _log_panel(context: dict) -> str:
    """The log panel (was templates/games/_panel_log.html): the deal's last moves and the links to the
    game's log and replay."""
    words = boards._words(get_language())
    urls = context["urls"]
    replay = ""
    if context["game"].status == "finished":
        replay = f' · <a href="{esc(urls["replay"])}">{words["Replay the game"]}</a>'
    return (
        f'\n<ol class="log" id="log" reversed>{context["board"]["log_html"]}</ol>\n'
        f'<p class="small"><a href="{esc(urls["log"])}">{words["The whole game's log"]}</a>{replay}</p>\n'
    )


def _dock(context: dict) -> str:
    """The player's dock (was templates/games/_dock.html): the refusal, the wild card's question, the melds
    put aside, the action bar, the hand; or what a watcher is told."""
    words = boards._words(get_language())
    game, board, seat = context["game"], context["board"], context["my_seat"]
    view = board["view"]
    error = context.get("error")
    bot = seat is not None and seat.bot
    if view["hand"] is not None and not view["finished"] and game.status == "active" and not bot:
        out = [f'\n<section class="dock" id="dock" aria-label="{words["Your hand"]}">\n  ']
        if error:
            out.append(f'<p class="message message-error" role="alert" id="move-error">{esc(error)}</p>')
        out.append("\n  ")
        if context.get("wild_choices"):
            out.append(_wild_choices(context, words))
        out.append("\n  ")
        if context.get("staged"):
            out.append(_staged(context, words))
        hand_bar = "" if board["foot"] else " data-arrange"
        out.append(
            f"\n  {boards.actions_html(board, context['staged_has_discard'])}\n"
            f'  <ul class="hand" id="hand"{hand_bar} aria-label="{words["Your hand"]}">\n'
            f"    {board['hand_html']}\n  </ul>\n</section>\n"
        )
        return "\n" + "".join(out) + "\n"
    if view["finished"]:
        return "\n\n"
    out = ["\n\n  "]
    if error:
        out.append(f'<p class="message message-error" role="alert">{esc(error)}</p>')
    out.append("\n  ")
    if game.status == "abandoned":
        said = words["This game was ended early; it is not scored."] + "</p>\n  "
    elif bot and seat.user_id:
        said = words["A bot plays your seat now; you are watching."] + "</p>\n  "
    else:
        said = words["You are watching this game."] + "</p>"
    out.append(f'<p class="muted watching">{said}\n\n')
    return "".join(out)


def _wild_choices(context: dict, words: dict) -> str:
    buttons = "".join(
        f'<button type="submit" name="wild" value="{esc(choice["value"])}" class="button-quiet">'
        f'<span class="plays-as">{esc(choice["words"])}</span></button>'
        for choice in context["wild_choices"]
    )
    repeat = "".join(
        f'<input type="hidden" name="{esc(name)}" value="{esc(value)}">'
        for name, value in context.get("repeat", ())
    )
    return (
        '\n    <div class="wild-choices" id="wild-choices">\n'
        f"      <p>{words['What does the wild card stand for?']}</p>\n"
        f"      {buttons}\n      {repeat}\n    </div>\n  "
    )


def _staged(context: dict, words: dict) -> str:
    items = []
    for number, meld in enumerate(context["staged"]):
        value = meld["value"]
        if value is not None:
            said = ngettext("%(value)s point", "%(value)s points", value) % {"value": value}
        else:
            said = words["checked when laid down"]
        if meld["with_discard"]:
            said += f" · {words['with the discard']}"
        items.append(
            '\n          <li class="meld">\n'
            f'            <span class="meld-cards">{esc(meld["cards"])}</span>\n'
            f'            <span class="muted small">{said}</span>\n'
            f'            <button type="submit" name="unstage" value="{number}" class="button-quiet mini"'
            f' aria-label="{words["Remove"]}">{words["Remove"]}</button>\n'
            "          </li>\n        "
        )
    total = context["staged_total"]
    if context.get("staged_opening"):
        minimum = context["board"]["view"]["opening_minimum"]
        said = gettext("Total %(total)s of the %(minimum)s needed to open.") % {
            "total": total,
            "minimum": minimum,
        }
        said += "\n        "
    else:
        said = gettext("Total %(total)s.") % {"total": total}
    return (
        '\n    <div class="pending" id="pending">\n      <ul class="melds staged">\n        '
        f"{''.join(items)}\n      </ul>\n"
        f'      <p class="small pending-total" id="pending-total">\n        {said}\n'
        '        <button type="submit" name="act" value="lay_down" class="mini">'
        f"{words['Lay down these melds']}</button>\n      </p>\n    </div>\n  "
    )


def _chat_form(request, context: dict) -> str:
    """The chat's form element (was templates/games/_chat_form.html), outside the play form (forms do not
    nest)."""
    if context.get("move_answer"):
        form = '<form id="chat-form" class="chat-form" hx-preserve="true"></form>'
    else:
        url = esc(context["chat_url"])
        form = (
            f'<form id="chat-form" class="chat-form" method="post" action="{url}" hx-post="{url}"'
            ' hx-target="#chat" hx-swap="outerHTML">'
            f'<input type="hidden" name="csrfmiddlewaretoken" value="{esc(get_token(request))}"></form>'
        )
    return f"\n{form}\n"
