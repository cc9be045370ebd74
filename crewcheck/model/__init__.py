"""The trusted base: cards, tasks, rules, states and the independent replay checker.

Nothing here imports from the rest of crewcheck (except :mod:`crewcheck.errors`).
"""

from __future__ import annotations

from crewcheck.model.cards import CLASSIC_DECK, Card, CardIndex, CardSet, Deck, Mask, iter_bits
from crewcheck.model.instance import Instance, Lead, Seat
from crewcheck.model.outcome import Outcome, Termination, Trick
from crewcheck.model.replay import replay
from crewcheck.model.rules import Rules, find_rules
from crewcheck.model.state import State
from crewcheck.model.tasks import TOKENS, Task, Token

__all__ = [
    "CLASSIC_DECK", "Card", "CardIndex", "CardSet", "Deck", "Mask", "iter_bits",
    "Instance", "Lead", "Seat",
    "Outcome", "Termination", "Trick", "replay",
    "Rules", "find_rules", "State",
    "TOKENS", "Task", "Token",
]
