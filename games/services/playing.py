"""A player's move: :func:`play` (an engine action) and :func:`move` (a press of the play page's
buttons: a move, putting a meld aside or taking it back, arranging one's hand). Each locks the game row,
checks the version the player acted on, calls the engine and saves through games.services.saving.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import get_language_bidi
from django.utils.translation import gettext as _

from games import engine, moves
from games.models import Game, GameStatus, Move, MoveKind, Seat
from games.services import core, saving


@transaction.atomic
def play(
    *, game_id: int, user, version: int | None, action: dict, group_slug: str | None = None
) -> core.MoveResult:
    """Apply ``user``'s engine ``action`` (see games/engine/actions.py), made on ``version`` of the
    game, then the bot seats' moves that follow. Raises GameNotFound, StaleVersion, GameError,
    MoveRefused. (The play page goes through :func:`move`.)"""
    game, seats = core.locked(game_id, user=user, group_slug=group_slug)
    seat = player_seat(game, seats, user)
    if version is None or version != game.version:
        raise core.StaleVersion
    state = core.load_state(game)
    try:
        return _apply(game, seats, seat, state, action, user)
    except engine.AmbiguousWild as error:
        raise core.MoveRefused(error, moves.wild_choices(state, error)) from None
    except engine.DomainError as error:
        raise core.MoveRefused(error) from None


def player_seat(game: Game, seats: list[Seat], user) -> Seat:
    """The seat ``user`` plays in this active game, or a GameError saying why they cannot move."""
    seat = core.seat_of(seats, user)
    if game.status != GameStatus.ACTIVE:
        if game.status == GameStatus.WAITING:
            raise core.GameError(_("The game has not started yet."))
        raise core.GameError(_("The game is over."))
    if seat is None or not seat.is_filled:
        raise core.GameError(_("You are watching this game; only its players make moves."))
    if seat.bot:
        raise core.GameError(_("A bot plays your seat now."))
    return seat


def _apply(game: Game, seats: list[Seat], seat: Seat, state, action: dict, user) -> core.MoveResult:
    """Apply the action (raises engine.DomainError, changing nothing), the bots' moves, and save."""
    previous_turn = saving.turn_key(state)
    deal = state.deal.number
    events = engine.apply(state, seat.number, action)
    result = core.MoveResult(game=game, seats=seats, state=state)
    saving.log_action(result, seat.number, action, events, actor=user, kind=MoveKind.PLAYER, deal=deal)
    saving.run_bots(result)
    saving.save(result, previous_turn=previous_turn)
    return result


# --- The play page's moves and staged melds -------------------------------------------------------


@dataclass
class MoveOutcome:
    """What :func:`move` did: the game as it is now (applied or not) and, for a refusal, the sentence."""

    game: Game
    seats: list[Seat]
    state: engine.GameState | None
    staged: list[moves.StagedMeld] = field(default_factory=list)
    applied: bool = False
    error: str | None = None
    wild_choices: list[tuple[int, str]] = field(default_factory=list)
    selected: tuple[int, ...] = ()
    moves: list[Move] | None = None  # the rows written (the player's move and the bots' that followed)
    arranged: bool = False  # the player's own order of their hand was saved (show it)


@transaction.atomic
def move(*, game_id: int, group_slug: str, user, request: moves.MoveRequest) -> MoveOutcome:
    """One press of a button on the play page (games.forms.MoveForm's typed request): a move, or
    putting a meld aside / taking it back (kept per seat in ``Game.staged``). One result for success
    and refusal alike. Only GameNotFound (not in the group: the view answers 404) is raised; nothing
    of the request is looked at before that check (the lock query joins the membership)."""
    game, seats = core.locked(game_id, user=user, group_slug=group_slug)
    state = core.load_state(game)
    seat = core.seat_of(seats, user)
    number = seat.number if seat is not None and seat.is_filled else None
    outcome = MoveOutcome(
        game=game, seats=seats, state=state, staged=saving.staged_melds(game, number, state)
    )

    def refuse(message: str, *, keep_selection: bool = True, choices=()) -> MoveOutcome:
        outcome.error = message
        outcome.wild_choices = list(choices)
        outcome.selected = request.cards if keep_selection else ()
        return outcome

    if request.problem:
        return refuse(request.problem, keep_selection=False)
    try:
        seat = player_seat(game, seats, user)
    except core.GameError as error:
        return refuse(error.message, keep_selection=False)
    if request.is_arranging:
        return _arrange(outcome, seat, state, request, refuse)
    if not request.is_staging and request.version != game.version:
        return refuse(core.StaleVersion().message, keep_selection=False)
    current = [meld.spec for meld in outcome.staged]
    try:
        if request.is_staging:
            specs = moves.stage(state, seat.number, current, request)
            saving.set_staged(game, seat.number, state, specs)
            game.save(update_fields=["staged"])  # nobody else sees it: no new revision
            outcome.staged = moves.read_staged(state, seat.number, specs)
            return outcome
        action = moves.to_action(state, seat.number, request, current)
        if action["type"] in ("meld", "announce", "take_discard") and request.act == "lay_down":
            saving.set_staged(game, seat.number, state, [])  # saved with the move
        result = _apply(game, seats, seat, state, action, user)
    except engine.AmbiguousWild as error:
        return refuse(_sentence(error), choices=moves.wild_choices(state, error))
    except engine.DomainError as error:
        return refuse(_refusal(state, seat.number, request, error))
    outcome.seats, outcome.state, outcome.applied = result.seats, result.state, True
    outcome.moves = result.moves
    outcome.staged = saving.staged_melds(game, seat.number, result.state)
    return outcome


CARD_PARAMS = frozenset({"card", "cards", "wild", "face", "choices"})
"""Parameters of a sentence that are cards in notation ("8♦", "5♠ 6♠"): left to right in any language."""


def _cards_ltr(params: dict) -> dict:
    """In a right-to-left language each run of cards in a sentence is a left-to-right isolate (LRI ...
    PDI), so "8♦" never reads "♦8" (a first-strong isolate has no strong letter to go by)."""
    if not get_language_bidi():
        return params
    return {key: f"\u2066{value}\u2069" if key in CARD_PARAMS else value for key, value in params.items()}


def _sentence(error: engine.DomainError) -> str:
    """The engine's sentence in the reader's language."""
    template = _(error.template)
    return template.format(**_cards_ltr(error.params)) if error.params else template


def _refusal(state: engine.GameState, number: int, request: moves.MoveRequest, error) -> str:
    """The engine's sentence, after what the player tried when it names cards ("7♣ 8♣ onto meld 3:
    These cards do not fit on that meld.")."""
    reason = _sentence(error)
    what = moves.tried(state, number, request)
    if what is None:
        return reason
    template, params = what
    return _("{what}: {reason}").format(what=_(template).format(**_cards_ltr(params)), reason=reason)


def _arrange(outcome: MoveOutcome, seat: Seat, state, request: moves.MoveRequest, refuse) -> MoveOutcome:
    """``group`` / ``arrange``: the seat's own order of its hand, kept on the seat for this deal (nobody
    else sees it: no new revision). The cards put aside in staged melds are not in the shown hand."""
    if state is None or not moves.moves_of(state).arranges:
        return refuse(_("That is not a move."), keep_selection=False)
    own = moves.own_order(seat.hand_order, state)
    aside = {card["id"] for meld in outcome.staged for card in meld.cards}
    hand = [{"id": c.id, "face": c.face} for c in state.deal.hands[seat.number] if c.id not in aside]
    shown = [c["id"] for c in moves.ordered_hand(hand, moves.effective_sort(request.sort, own), own)]
    try:
        order = moves.arranged(shown, request)
    except engine.DomainError as error:
        return refuse(error.sentence(_))
    seat.hand_order = {"deal": [state.deal.number, state.deal.attempt], "cards": order}
    seat.save(update_fields=["hand_order"])
    outcome.arranged = True
    return outcome
