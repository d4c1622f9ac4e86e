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
    """A move or a setting the rules do not allow. ``template`` is the untranslated sentence."""

    def __init__(self, template: str, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(self.sentence())

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
