"""The ``auto`` dispatch: confirmed special deciders first, the default otherwise."""

from __future__ import annotations

import pytest

import crewcheck
from crewcheck.formats.deal_json import loads
from crewcheck.api import choose_backend
from crewcheck.solvers.special import CONFIRMED, UNCONFIRMED


def test_picks_special_decider() -> None:
    """Deals in a confirmed class go to that decider; the result names it."""
    single_value = loads('{"hands": [["A1", "B1"], ["C1", "D1"]], "lead": "any", '
                         '"tasks": [{"card": "A1", "seat": 1}]}')
    assert choose_backend(single_value) == "single_value"
    assert crewcheck.decide(single_value, backend=choose_backend(single_value)).backend == "single_value"
    owned = loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "lead": "any", "tasks": [{"card": "B4", "seat": 1}]}')
    assert choose_backend(owned) == "single_suit_owned"


def test_never_picks_unconfirmed() -> None:
    """A one-suit deal with unowned tasks is not sent to single_suit (it has counterexamples)."""
    assert "single_suit" not in CONFIRMED and "single_suit" in UNCONFIRMED
    deal = loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "lead": "any", '
                 '"tasks": [{"card": "B1", "seat": 1}, {"card": "B2", "seat": 1}, {"card": "B4", "seat": 1}]}')
    assert choose_backend(deal) not in UNCONFIRMED


def test_hampath_deals() -> None:
    """Reduction deals go to hampath when networkx is installed."""
    nx = pytest.importorskip("networkx")
    from crewcheck.solvers.special.hampath import reduce_hampath

    assert choose_backend(reduce_hampath(nx.cycle_graph(4))) == "hampath"


def test_falls_back_to_default() -> None:
    """A general deal falls back to the registry's default order."""
    deal = loads('{"hands": [["B1", "G3"], ["B2", "G1"], ["B3", "G2"]], "lead": 0, '
                 '"tasks": [{"card": "G3", "seat": 1}]}')
    assert choose_backend(deal) not in CONFIRMED
