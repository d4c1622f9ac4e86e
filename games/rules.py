"""The rules in players' words: the rules pages (``/rules/<slug>/``), the help line of each option in
game creation, a game's option values, and the live rule-state line of the play page.

Every number shown comes from the engine's rule-set data (``games.engine.variants``, the scoring tables)
so a page can never disagree with the game the server plays. The prose is in ``templates/games/rules.html``.
"""

from __future__ import annotations

from django.utils.html import conditional_escape, format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from games import board, engine
from games.engine import rule_state as engine_rule_state
from games.engine.cards import RANK_NAMES
from games.engine.deal import HAND_SIZE
from games.engine.scoring import KUWAITI_TABLE, STANDARD_TABLE
from games.engine.variants import HandAndFootVariant, HandVariant, face_limits, players_text, scoring_deals

RULE_SET_ORDER = tuple(engine.VARIANTS)
"""The seven rule sets, in the order the engine lists them (the rules pages' navigation)."""


def option_value_text(option: engine.variants.Option, value) -> str:
    """An option's value as a player reads it: "on", "off" or the number."""
    if option.kind == "bool":
        return pgettext("option value", "on") if value else pgettext("option value", "off")
    return str(value)


def option_rows(variant, values: dict | None = None) -> list[dict]:
    """Each option of ``variant``: label, one line of help, default; with ``values`` (a game's frozen
    options) also the game's value and whether it differs from the default."""
    rows = []
    for option in variant.options:
        row = {
            "name": option.name,
            "label": _(option.label),
            "help": _(option.help) if option.help else "",
            "default": option_value_text(option, option.default),
        }
        if values is not None:
            value = values.get(option.name, option.default)
            row["value"] = option_value_text(option, value)
            row["changed"] = value != option.default
        rows.append(row)
    return rows


def _deck_rows(variant) -> list[dict]:
    """Decks by player count (consecutive counts with the same decks are one row)."""
    rows: list[dict] = []
    for players in range(variant.min_players, variant.max_players + 1):
        decks = variant.decks_for(players)
        cards = sum(face_limits(variant, players).values())
        if rows and rows[-1]["decks"] == decks:
            rows[-1]["high"] = players
        else:
            rows.append({"low": players, "high": players, "decks": decks, "cards": cards})
    for row in rows:
        row["players"] = players_text(row["low"], row["high"])
    return rows


def _hand_card_values(variant: HandVariant) -> list[dict]:
    ace = (
        _("11; 1 inside a low run (A-2-3…)")
        if variant.ace_in_low_run == 1
        else _("11, even inside a low run (A-2-3…)")
    )
    return [
        {"card": _("Ace"), "value": ace},
        {"card": _("K, Q, J"), "value": "10"},
        {"card": _("2 to 10"), "value": _("face value")},
        {"card": _("A wild card in a meld"), "value": _("the card it stands for")},
        {"card": _("A wild card left in hand"), "value": str(variant.wild_penalty)},
    ]


def _signed(number: int) -> str:
    return f"{number:+d}" if number else "0"


def _standard_rows() -> list[dict]:
    rows = []
    for row in STANDARD_TABLE.values():
        rows.append(
            {
                "label": _(row.label),
                "winner": _signed(row.winner),
                "opened": f"× {row.multiplier}",
                "not_opened": str(row.not_opened),
            }
        )
    return rows


HAND_DESCRIPTIONS = {
    "announcement": gettext_lazy("the announcer later melds everything and discards the last card"),
    "regular": gettext_lazy("14 cards in melds and one discarded"),
    "colored": gettext_lazy("14 cards in melds, all one colour, and one discarded"),
    "suited": gettext_lazy("14 cards in melds, all one suit, and one discarded"),
    "joker": gettext_lazy("14 cards in melds and a wild card discarded"),
    "double_joker": gettext_lazy("13 cards in melds and both wild cards discarded"),
    "joker_colored": gettext_lazy("14 cards in melds of one colour and a wild card discarded"),
    "joker_suited": gettext_lazy("14 cards in melds of one suit and a wild card discarded"),
    "double_joker_colored": gettext_lazy("13 cards in melds of one colour and both wild cards discarded"),
    "double_joker_suited": gettext_lazy("13 cards in melds of one suit and both wild cards discarded"),
}
"""What each row of the kuwaiti table is, in players' words (``hand-family.md`` section 6)."""


def _kuwaiti_rows(*, announcement: bool) -> list[dict]:
    rows = []
    for row in KUWAITI_TABLE.values():
        if row.name == "announcement" and not announcement:
            continue
        rows.append(
            {
                "label": _(row.label),
                "what": HAND_DESCRIPTIONS[row.name],
                "winner": _signed(row.winner),
                "opened": f"× {row.multiplier}",
                "not_opened": str(row.not_opened),
                "irregularity": str(row.irregularity),
            }
        )
    return rows


def _handfoot_points(variant: HandAndFootVariant) -> list[dict]:
    """Card points, highest first, ranks of equal points together ("K Q J 10: 10")."""
    by_points: dict[int, list[str]] = {}
    for rank in (0, 1, 2, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4):
        points = variant.card_points.get(rank)
        if points is not None:
            by_points.setdefault(points, []).append(_("joker") if rank == 0 else RANK_NAMES[rank])
    return [{"cards": " ".join(names), "points": points} for points, names in by_points.items()]


def rulebook(slug: str) -> dict:
    """The context of the rules page of ``slug`` (KeyError for an unknown rule set)."""
    variant = engine.VARIANTS[slug]
    book = {
        "slug": slug,
        "variant": variant,
        "name": _(variant.name),
        "family": variant.family,
        # format_html of one inline element: the count sits inside translated sentences of the page.
        "players": format_html(
            '<bdi dir="ltr">{}</bdi>', players_text(variant.min_players, variant.max_players)
        ),
        "decks": _deck_rows(variant),
        "deals": scoring_deals(variant, {o.name: o.default for o in variant.options}),
        "options": option_rows(variant),
        "others": [{"slug": s, "name": _(engine.VARIANTS[s].name)} for s in RULE_SET_ORDER],
    }
    book.update(FAMILY_BOOKS[variant.family](variant))
    return book


def _hand_book(variant: HandVariant) -> dict:
    """The rules page's parts of a rule set of the Hand family."""
    option_names = {o.name for o in variant.options}
    return {
        "hand_size": HAND_SIZE,
        "first_hand": HAND_SIZE + 1,
        "card_values": _hand_card_values(variant),
        "standard_rows": _standard_rows(),
        "went_out": _signed(STANDARD_TABLE["normal"].winner),
        "went_out_hand": _signed(STANDARD_TABLE["hand"].winner),
        "special_rows": _kuwaiti_rows(announcement=False) if variant.scoring == "egyptian" else [],
        "kuwaiti_rows": _kuwaiti_rows(announcement=True) if variant.scoring == "kuwaiti" else [],
        "has_max_wild_option": "max_wild_per_meld" in option_names,
        "has_redeal": "redeal" in option_names,
        "has_tie_break_option": "tie_break" in option_names,
        "has_reshuffle": "reshuffle_discards" in option_names,
        "deals_choices": variant.option("deals").choices if "deals" in option_names else (),
        "reshuffle_limit": engine.actions.MAX_RESHUFFLES,
    }


def _foot_book(variant: HandAndFootVariant) -> dict:
    """The rules page's parts of a Hand and Foot rule set."""
    return {
        "hand_sizes": sorted(
            {variant.hand_size(p) for p in range(variant.min_players, variant.max_players + 1)},
            reverse=True,
        ),
        "small_table": max(
            (p for p in range(variant.min_players, variant.max_players + 1) if variant.hand_size(p) == 13),
            default=None,
        ),
        "card_points": _handfoot_points(variant),
        "minimums": [
            {"deal": number, "minimum": minimum}
            for number, minimum in enumerate(variant.opening_minimums, start=1)
        ],
        "fourth_minimum": engine.variants.opening_minimum(variant, len(variant.opening_minimums)),
    }


FAMILY_BOOKS = {"hand": _hand_book, "hand-and-foot": _foot_book}
"""The rules page's parts of each family of rule sets (the rule set's ``family``)."""


# --- The live rule-state line of the play page --------------------------------------------------


def _face_html(face: str) -> SafeString:
    """A card named in a sentence: "A♥", kept left-to-right inside Arabic text. format_html of one inline
    element: it sits inside a translated sentence, where a template tag cannot put it."""
    return format_html('<bdi class="face suit-{}">{}</bdi>', face[-1:], board.face_words(face))


def _sentence(template: str, params: dict, names: dict[int, str]) -> SafeString:
    shown = {}
    for key, value in params.items():
        if key == "seat":
            shown[key] = names.get(value, "")
        elif key == "seats":
            # Translators: the separator between names in a list ("Omar, Layla").
            shown[key] = pgettext("list separator", ", ").join(names.get(seat, "") for seat in value)
        elif key in ("card", "indicator"):
            shown[key] = _face_html(value)
        elif key == "items":
            shown[key] = format_html_join(" · ", "{}", ((_sentence(t, p, names),) for t, p in value))
        else:
            shown[key] = value
    return format_html(_(template), **shown) if shown else conditional_escape(_(template))


def rule_state_lines(view: dict, names: dict[int, str]) -> list[SafeString]:
    """The engine's live rule-state sentences (``engine.rule_state``) for the play page: translated,
    filled in with the players' names (escaped), cards as "A♥"."""
    return [_sentence(template, params, names) for template, params in engine_rule_state.rule_state(view)]
