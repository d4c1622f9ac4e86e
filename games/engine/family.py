"""The two families of rule sets behind one interface: a :class:`Family` is the set of functions that
play a game of its rule sets, and :func:`family_of` finds it from the rule set's ``family``.

The Hand family (classic, jordanian, saudi, kuwaiti, egyptian) plays by :mod:`.game`, :mod:`.actions`,
:mod:`.advice`, :mod:`.view`, :mod:`.bot` and :mod:`.persist`; Hand and Foot by :mod:`.handfoot_deal`
and :mod:`.handfoot_play`. The functions below are the engine's public entry points; each looks the
family up once, from the game's rule set, and hands the game to it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from . import actions, advice, bot, game, handfoot, handfoot_deal, handfoot_play, persist, rule_lines, scoring
from .deal import DRAW, Event
from .errors import DomainError, InvalidOptions, _
from .match import apply_on_copy
from .variants import get_variant
from .view import view as hand_view


@dataclass(frozen=True)
class Family:
    """What playing a game of one family takes. ``perform`` runs one action on a working copy of the
    game (it may leave the copy half-changed when it refuses); ``next_deal`` scores a finished deal and
    deals the next one or ends the game; ``rule_state`` reads a per-seat view. ``held_costs``,
    ``melded_points`` and ``opening`` count cards at the table for the score sheets' picker.
    ``timeout_actions`` is the move made for a player whose time ran out; ``table_melds`` lists the melds
    on the table with the seats that own each (one player, or a side's players)."""

    name: str
    action_types: tuple[str, ...]
    new_game: Callable[[str, int, dict | None, int | None], Any]
    perform: Callable[[Any, object, object], list[Event]]
    next_deal: Callable[[Any], list[Event]]
    legal_actions: Callable[[Any, int | None], list[dict]]
    view: Callable[[Any, int | None], dict[str, Any]]
    bot_action: Callable[[Any, int], dict | None]
    to_json: Callable[[Any], dict[str, Any]]
    from_json: Callable[[dict[str, Any]], Any]
    rule_state: Callable[[dict[str, Any]], list[rule_lines.RuleLine]]
    held_costs: Callable[..., tuple[int, ...]]
    melded_points: Callable[..., tuple[int, ...]]
    opening: Callable[..., tuple[tuple[int, ...], int]]
    timeout_actions: Callable[[Any, int], list[dict]]
    table_melds: Callable[[Any], list[tuple[tuple[int, ...], list]]]


def _hand_timeout_actions(state: Any, seat: int) -> list[dict]:
    """Draw (if not drawn yet) and discard the drawn card; never meld. If the drawn card cannot be
    discarded (or nothing was drawn: a first turn of 15 cards), the bot's worst card."""
    done = []
    work = state.copy()
    drawn = None
    if work.deal.phase == DRAW:
        events = apply(work, seat, {"type": "draw"})
        drawn = events[0]["secret"]["card"]["id"]
        done.append({"type": "draw"})
    elif work.deal.turn.drew == "stock":
        for event in reversed(work.deal.events):
            if event.get("type") == "drew" and event.get("seat") == seat:
                drawn = event["secret"]["card"]["id"]
                break
    hand = work.deal.hands[seat]
    candidates = [card.id for card in hand if card.id == drawn] + [bot.worst_card(work, seat).id]
    candidates += [card.id for card in hand]
    for card_id in candidates:
        action = {"type": "discard", "card": card_id}
        if can(work, seat, action):
            return [*done, action]
    raise RuntimeError("no card can be discarded")  # pragma: no cover - the rules always allow one


def _foot_timeout_actions(state: Any, seat: int) -> list[dict]:
    """Draw (or take the pile when the draw pile is too small), then discard the card the bot needs
    least; if no discard is allowed (only wild cards that can be laid off), the bot finishes the turn."""
    work = state.copy()
    done = []
    if work.deal.phase == DRAW:
        first = legal_actions(work, seat)[0]  # "draw" when the draw pile allows it, else the pile
        apply(work, seat, first)
        done.append(first)
    for card in handfoot_play.discard_order(work, seat):
        action = {"type": "discard", "card": card.id}
        if can(work, seat, action):
            return [*done, action]
    for _step in range(60):
        if work.finished or work.deal.current != seat:
            break
        action = handfoot_play.bot_action(work, seat)
        apply(work, seat, action)
        done.append(action)
    return done


def _hand_table_melds(state: Any) -> list[tuple[tuple[int, ...], list]]:
    return [((tm.owner,), tm.meld.cards) for tm in state.deal.melds]


def _foot_table_melds(state: Any) -> list[tuple[tuple[int, ...], list]]:
    return [(tuple(state.side_seats(tm.side)), tm.cards) for tm in state.deal.melds]


HAND = Family(
    name="hand",
    action_types=actions.ACTION_TYPES,
    new_game=game.new_game,
    perform=actions.perform,
    next_deal=game.next_deal,
    legal_actions=advice.legal_actions,
    view=hand_view,
    bot_action=bot.bot_action,
    to_json=persist.to_json,
    from_json=persist.from_json,
    rule_state=rule_lines.hand_rule_state,
    held_costs=scoring.table_held_costs,
    melded_points=scoring.table_melded_points,
    opening=scoring.table_opening,
    timeout_actions=_hand_timeout_actions,
    table_melds=_hand_table_melds,
)

HAND_AND_FOOT = Family(
    name="hand-and-foot",
    action_types=handfoot_deal.ACTION_TYPES,
    new_game=handfoot_deal.new_game,
    perform=handfoot_deal.perform,
    next_deal=handfoot_deal.next_deal,
    legal_actions=handfoot_play.legal_actions,
    view=handfoot_play.view,
    bot_action=handfoot_play.bot_action,
    to_json=handfoot_deal.to_json,
    from_json=handfoot_deal.from_json,
    rule_state=rule_lines.foot_rule_state,
    held_costs=handfoot.table_held_costs,
    melded_points=handfoot.table_melded_points,
    opening=handfoot.table_opening,
    timeout_actions=_foot_timeout_actions,
    table_melds=_foot_table_melds,
)

FAMILIES = {family.name: family for family in (HAND, HAND_AND_FOOT)}


def family_of(rule_set: str) -> Family:
    """The family that plays the rule set called ``rule_set`` (:class:`InvalidOptions` for an unknown
    one)."""
    return FAMILIES[get_variant(rule_set).family]


# --- The public entry points -------------------------------------------------------------------


def new_game(variant: str, players: int, options: dict | None = None, seed: int | None = None) -> Any:
    """Start a game of the rule set ``variant``: validate the options, draw the first dealer from the
    seed and deal the first deal."""
    return family_of(variant).new_game(variant, players, options, seed)


def apply(state: Any, seat: int | None, action: dict) -> list[Event]:
    """Apply one player's action; return what happened as events (with secrets: filter them with
    ``view.visible_events`` before showing them). Raises a ``DomainError`` and changes nothing when
    the action is not allowed now."""
    family = family_of(state.variant)
    return apply_on_copy(state, seat, action, family.perform, family.next_deal)


def verify(state: Any, seat: int | None, action: dict) -> None:
    """Raise the ``DomainError`` that :func:`apply` would raise; change nothing."""
    family_of(state.variant).perform(state.copy(), seat, action)


def can(state: Any, seat: int | None, action: dict) -> bool:
    """Whether :func:`apply` would accept the action now."""
    try:
        verify(state, seat, action)
    except DomainError:
        return False
    return True


def legal_actions(state: Any, seat: int | None) -> list[dict]:
    """What ``seat`` may do now (for buttons and bots); the formats are the family's."""
    return family_of(state.variant).legal_actions(state, seat)


def timeout_actions(state: Any, seat: int) -> list[dict]:
    """The actions made for ``seat`` when its time ran out (it must be the seat to move): at least a
    discard that ends the turn; never changes ``state``."""
    return family_of(state.variant).timeout_actions(state, seat)


def table_melds(state: Any) -> list[tuple[tuple[int, ...], list]]:
    """The melds on the table in the current deal: ``(owning seats, cards)`` each, in table order."""
    return family_of(state.variant).table_melds(state)


def bot_action(state: Any, seat: int) -> dict | None:
    """The bot's next action for ``seat``, or ``None`` when ``seat`` has nothing to do now."""
    return family_of(state.variant).bot_action(state, seat)


def view(state: Any, seat: int | None) -> dict[str, Any]:
    """The JSON-able picture of the game for ``seat`` (``None``: a spectator)."""
    return family_of(state.variant).view(state, seat)


def rule_state(picture: dict[str, Any]) -> list[rule_lines.RuleLine]:
    """The live rule-state sentences for the seat whose view ``picture`` is; none once the game is
    over."""
    if picture["finished"]:
        return []
    return family_of(picture["variant"]).rule_state(picture)


def to_json(state: Any) -> dict[str, Any]:
    """The whole state as JSON-able data (holds hidden cards and the seed: never send it to a browser)."""
    return family_of(state.variant).to_json(state)


def from_json(data: dict[str, Any]) -> Any:
    """Rebuild a state stored by :func:`to_json`; refuses an unknown ``format_version``."""
    version = data.get("format_version") if isinstance(data, dict) else None
    if version != persist.FORMAT_VERSION:
        raise InvalidOptions(_("This game was saved in a format this version cannot read."))
    return family_of(data["variant"]).from_json(data)


def dumps(state: Any) -> str:
    """Stable JSON text of the state (sorted keys, no spaces): two equal states give equal strings."""
    return json.dumps(to_json(state), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def loads(text: str) -> Any:
    """The state stored as text by :func:`dumps`; refuses an unknown ``format_version`` (InvalidOptions)."""
    return from_json(json.loads(text))


def replay(
    variant: str,
    options: dict | None,
    players: int,
    seed: int,
    actions: Iterable[tuple[int | None, dict] | list],
) -> Any:
    """Start the game again from its seed and apply the logged ``(seat, action)`` pairs in order; the
    result equals the stored state."""
    state = new_game(variant, players, options, seed)
    for seat, action in actions:
        apply(state, seat, action)
    return state
