"""crewcheck: can this deal of The Crew be won?

An exact decision toolkit for the cooperative trick-taking game *The Crew* under
perfect information: interchangeable deciders behind :func:`decide`, an independent
replay checker for every winning line, and the published claims re-derived.

>>> import crewcheck
>>> deal = crewcheck.loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B4", "seat": 0}]}')
>>> crewcheck.decide(deal).verdict
<Verdict.UNWINNABLE: 'unwinnable'>
"""

from __future__ import annotations

from crewcheck.api import check_witness, choose_backend, decide, decide_many
from crewcheck.errors import (
    BackendError,
    BackendUnavailableError,
    CrewcheckError,
    IllegalPlayError,
    InvalidCardError,
    InvalidDealError,
    InvalidInputError,
    InvalidTaskError,
    NotApplicableError,
    UnknownBackendError,
    UnknownRulesError,
)
from crewcheck.formats.deal_json import dump, dumps, from_dict, load, loads, to_dict
from crewcheck.model import (
    CLASSIC_DECK, Card, CardSet, Deck, Instance, Outcome, Rules, State, Task, Termination, Trick, replay,
)
from crewcheck.solvers.base import Budget, Result, Stats, Verdict, Witness

__version__ = "0.1.0"

__all__ = [
    "decide", "decide_many", "choose_backend", "check_witness",
    "load", "loads", "dump", "dumps", "from_dict", "to_dict",
    "CLASSIC_DECK", "Card", "CardSet", "Deck", "Instance", "Outcome", "Rules", "State", "Task",
    "Termination", "Trick", "replay",
    "Budget", "Result", "Stats", "Verdict", "Witness",
    "CrewcheckError", "InvalidInputError", "InvalidCardError", "InvalidDealError", "InvalidTaskError",
    "IllegalPlayError", "UnknownBackendError", "UnknownRulesError", "NotApplicableError",
    "BackendError", "BackendUnavailableError",
]
