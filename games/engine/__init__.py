"""The rules engine of the Hand family: pure Python, no Django.

Playing a game (the web layer's whole interface, for both families of rule sets: :mod:`.family`
finds the family from the rule set; Hand and Foot plays by :mod:`.handfoot_deal` and
:mod:`.handfoot_play`)::

    state = new_game("classic", players=4, options={"teams": True}, seed=None)  # validates options
    events = apply(state, seat, {"type": "draw"})     # DomainError (state unchanged) if not allowed
    picture = view(state, seat)                       # what that seat may see; seat=None: spectator
    template, params = describe(event, names)         # a visible event as a sentence (translate, format)
    moves = legal_actions(state, seat)                # for buttons and bots
    move = bot_action(state, seat)                    # a greedy bot's next action, one step at a time
    text = dumps(state); state = loads(text)          # JSON with "format_version"
    state = replay("classic", options, 4, seed, [(seat, action), ...])

Helpers the online-play app and the score sheets also use (public, stable): :func:`wilds_of` and
:func:`rules_of` (actions), :func:`meld_spec` (advice), :func:`worst_card` (the bot's discard),
:func:`timeout_actions` (the move made when a player's time ran out), :func:`table_melds` (the melds
and the seats owning them), :func:`deck_for` (a deal's deck by card id), :func:`face_text` (a wild's
face as notation), :func:`sides` (the scoring sides: partners opposite in teams) and :func:`check_players`.

Actions are small JSON-able dicts (see :mod:`games.engine.actions` for every format); events are
JSON-able dicts with a ``"type"`` (filter them per seat with :func:`visible_events`). The pieces:
:mod:`.cards`, :mod:`.errors`, :mod:`.variants`, :mod:`.melds` and :mod:`.solver` (melds and the
meld search), :mod:`.scoring` and :mod:`.match` (deal and game scoring), :mod:`.deal`,
:mod:`.actions` (the rules of each move), :mod:`.advice` (the moves to offer), :mod:`.game`,
:mod:`.view`, :mod:`.persist` and :mod:`.bot` (the deal as a state machine, the game around it,
views, persistence and the bot), :mod:`.family` (one interface over both families).
"""

from .actions import ACTION_TYPES, rules_of, wilds_of
from .advice import meld_spec
from .bot import worst_card
from .cards import Card, format_cards, make_deck, new_seed, parse_cards, shuffled
from .deal import DEAL_OVER, DRAW, GAME_OVER, PHASES, PLAY, DealState, Event, TableMeld, deck_for, derive_seed
from .errors import DomainError, IllegalAction, InvalidCards, InvalidOptions, MeldError
from .family import (
    FAMILIES,
    Family,
    apply,
    bot_action,
    can,
    dumps,
    family_of,
    from_json,
    legal_actions,
    loads,
    new_game,
    replay,
    table_melds,
    timeout_actions,
    to_json,
    verify,
    view,
)
from .game import GameState, deal_facts
from .handfoot import (
    HandFootSideFacts,
    handfoot_card_points,
    handfoot_held_cost,
    handfoot_meld_check,
    score_handfoot_deal,
)
from .handfoot_deal import ACTION_TYPES as HANDFOOT_ACTION_TYPES
from .handfoot_deal import FootGame
from .match import DealRecord, MatchStatus, match_status, next_dealer
from .melds import (
    AmbiguousWild,
    Meld,
    MeldRules,
    Wilds,
    exchange_wild,
    face_text,
    lay_off,
    make_meld,
    meld_options,
    meld_value,
)
from .meldspec import MeldSpec
from .persist import FORMAT_VERSION, RULES_VERSION
from .scoring import (
    FINISHES,
    HAND_NAMES,
    DealScore,
    HandDealFacts,
    ScorePart,
    SideScore,
    penalty_value,
    score_hand_deal,
)
from .solver import KuwaitiHand, best_melds, can_meld_all, going_out_melds, kuwaiti_hand, meld_partition
from .variants import (
    HAND_AND_FOOT_VARIANTS,
    HAND_VARIANTS,
    VARIANTS,
    check_players,
    get_variant,
    scoring_deals,
    sides,
    validate_options,
)
from .view import EVENT_TEMPLATES, describe, visible_events

__all__ = [
    "ACTION_TYPES",
    "DEAL_OVER",
    "DRAW",
    "EVENT_TEMPLATES",
    "FAMILIES",
    "FINISHES",
    "FORMAT_VERSION",
    "GAME_OVER",
    "HANDFOOT_ACTION_TYPES",
    "HAND_AND_FOOT_VARIANTS",
    "HAND_NAMES",
    "HAND_VARIANTS",
    "PHASES",
    "PLAY",
    "RULES_VERSION",
    "VARIANTS",
    "AmbiguousWild",
    "Card",
    "DealRecord",
    "DealScore",
    "DealState",
    "DomainError",
    "Event",
    "Family",
    "FootGame",
    "GameState",
    "HandDealFacts",
    "HandFootSideFacts",
    "IllegalAction",
    "InvalidCards",
    "InvalidOptions",
    "KuwaitiHand",
    "MatchStatus",
    "Meld",
    "MeldError",
    "MeldRules",
    "MeldSpec",
    "ScorePart",
    "SideScore",
    "TableMeld",
    "Wilds",
    "apply",
    "best_melds",
    "bot_action",
    "can",
    "can_meld_all",
    "check_players",
    "deal_facts",
    "deck_for",
    "derive_seed",
    "describe",
    "dumps",
    "exchange_wild",
    "face_text",
    "family_of",
    "format_cards",
    "from_json",
    "get_variant",
    "going_out_melds",
    "handfoot_card_points",
    "handfoot_held_cost",
    "handfoot_meld_check",
    "kuwaiti_hand",
    "lay_off",
    "legal_actions",
    "loads",
    "make_deck",
    "make_meld",
    "match_status",
    "meld_options",
    "meld_partition",
    "meld_spec",
    "meld_value",
    "new_game",
    "new_seed",
    "next_dealer",
    "parse_cards",
    "penalty_value",
    "replay",
    "rules_of",
    "score_hand_deal",
    "score_handfoot_deal",
    "scoring_deals",
    "shuffled",
    "sides",
    "table_melds",
    "timeout_actions",
    "to_json",
    "validate_options",
    "verify",
    "view",
    "visible_events",
    "wilds_of",
    "worst_card",
]
