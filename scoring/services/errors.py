"""What the score sheets refuse, and the engine's sentences in the reader's language."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from games.engine.errors import DomainError
from games.engine.scoring import ScorePart

if TYPE_CHECKING:
    from scoring.models import Deal, DealChange


class SheetError(Exception):
    """Input the rules or the sheet refuse; ``message`` is a translated sentence for the player.
    ``field``: the deal form's field the sentence is about (``held_points_2``), when there is one."""

    def __init__(self, message: str, *, field: str | None = None):
        self.message = message
        self.field = field
        super().__init__(message)


class SheetPermissionDenied(SheetError):
    pass


class DealAlreadySaved(SheetError):
    """A second submit of the same deal (two phones at the table, a double tap): ``deal`` is the one
    saved first, for a link to it."""

    def __init__(self, message: str, *, deal: Deal):
        super().__init__(message)
        self.deal = deal


class DealConflict(SheetError):
    """An edit made from an older version of the deal (someone changed or deleted it meanwhile):
    ``deal`` as it stands now and ``change``, the latest change of it (who, when)."""

    def __init__(self, message: str, *, deal: Deal, change: DealChange | None):
        super().__init__(message)
        self.deal = deal
        self.change = change


# --- Translation of engine sentences -------------------------------------------------------------


def _translate_params(params: dict) -> dict:
    # Parameters that are labels (a hand's name, a rule set's name) are translated too; card notation
    # and numbers pass through unchanged.
    return {key: _(value) if isinstance(value, str) and value else value for key, value in params.items()}


def error_sentence(error: DomainError) -> str:
    """An engine error as a translated sentence."""
    template = _(error.template)
    return template.format(**_translate_params(error.params)) if error.params else template


def part_text(part: ScorePart) -> str:
    """One breakdown line, translated: ``"Cards left: KS 7H JK = 32"``."""
    template = _(part.label)
    return template.format(**_translate_params(part.params)) if part.params else template
