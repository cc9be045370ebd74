"""Reiber §4 (one suit, owned task cards) against the exhaustive oracle."""

from __future__ import annotations

import pytest
from hypothesis import given

import crewcheck
from crewcheck.formats.deal_json import dumps, loads
from crewcheck.solvers.base import Verdict
from crewcheck.solvers.special.single_suit_owned import SingleSuitOwnedSolver, published_play
from tests.oracle import check_against_oracle, oracle_verdict
from tests.solvers.special.strategies import all_single_suit, single_suit_deals


@given(single_suit_deals(owned=True))
def test_matches_oracle(inst: crewcheck.Instance) -> None:
    """On random one-suit owned-task deals (any lead) the verdict equals the oracle's."""
    check_against_oracle(inst, "single_suit_owned")


@pytest.mark.parametrize("n,p", [pytest.param(n, p, marks=pytest.mark.slow) if (n, p) == (6, 3) else (n, p)
                                 for n in range(2, 7) for p in (2, 3) if p <= n])
def test_every_small_deal(n: int, p: int) -> None:
    """Every one-suit owned deal with up to 6 cards and 2-3 seats (every task set) agrees (6
    cards and 3 seats in the slow suite)."""
    for inst in all_single_suit(n, p, max_tasks=n, owned=True):
        assert published_play(inst)[0] == (oracle_verdict(inst) is Verdict.WINNABLE), dumps(inst)


def test_refuses_unowned_and_multi_suit() -> None:
    """A task card held by another seat, or a second suit, is refused by name."""
    s = SingleSuitOwnedSolver()
    unowned = loads('{"hands": [["B1"], ["B2"]], "lead": "any", "tasks": [{"card": "B2", "seat": 0}]}')
    assert s.supports(unowned) == ("single_suit_owned needs every task card held by the task's own seat; "
                                   "tasks[0] card 'B2' is for seat 0 but held by seat 1")
    two = loads('{"hands": [["B1"], ["G2"]], "lead": "any", "tasks": []}')
    assert s.supports(two) == "single_suit_owned needs one suit; this deal has 2"
