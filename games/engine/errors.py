"""Domain errors raised by the engine.

Every error carries a sentence a player understands. The sentence is kept as a template plus
parameters so that the web layer can translate the template (it is marked with ``_`` for
extraction by ``makemessages``) before filling it in. ``str(error)`` gives the English sentence.
"""

from __future__ import annotations


def _(message: str) -> str:
    """Mark a string for translation without translating it (the engine imports no Django).

    ``makemessages`` extracts calls to ``_``; the web layer translates the template later.
    """
    return message


class DomainError(Exception):
    """A move or a setting the rules do not allow. ``template`` is the untranslated sentence.

    A refusal about one player's figures also says whose and which (:meth:`about`): ``seat`` (0-based)
    or, in Hand and Foot, ``side`` (its index), and ``fact``, the figure refused (``held``, ``finish``,
    ``irregular``, ``indicator``, ``red_books``, ``black_books``, ``melded_points``, ``melded``,
    ``picked_22``), so that a page can word it with the player's name beside that figure."""

    seat: int | None = None
    side: int | None = None
    fact: str | None = None

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(self.sentence())

    def about(self, *, fact: str, seat: int | None = None, side: int | None = None) -> DomainError:
        """The same error, marked as being about ``fact`` of one seat (or side)."""
        self.fact, self.seat, self.side = fact, seat, side
        return self

    def sentence(self, translate=None) -> str:
        """The sentence for a player; ``translate`` (e.g. Django's gettext) is applied to the template."""
        template = translate(self.template) if translate else self.template
        return template.format(**self.params) if self.params else template


class InvalidCards(DomainError):
    """Card notation that cannot be read, or cards the player does not hold."""


class MeldError(DomainError):
    """Cards that do not form the meld the player asked for."""


class IllegalAction(DomainError):
    """A move that is not allowed now (wrong turn, wrong phase, rule violated)."""


class InvalidOptions(DomainError):
    """Game options that do not fit the rule set."""
