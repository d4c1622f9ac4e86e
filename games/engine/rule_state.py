"""The live state of the rules in a deal, as sentences: :func:`rule_state` for the seat whose per-seat
view it reads (the sentences, :data:`TEMPLATES`, and each family's lines are :mod:`.rule_lines`')."""

from .family import rule_state
from .rule_lines import TEMPLATES, RuleLine, announce_from_turn, foot_rule_state, hand_rule_state

__all__ = ["TEMPLATES", "RuleLine", "announce_from_turn", "foot_rule_state", "hand_rule_state", "rule_state"]
