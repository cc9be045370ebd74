"""Reiber §3 (single value) against the exhaustive oracle."""

from __future__ import annotations

import pytest
from hypothesis import given

import crewcheck
from crewcheck.errors import NotApplicableError
from crewcheck.formats.deal_json import dumps, loads
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.special.single_value import SingleValueSolver, published_verdict
from tests.oracle import check_against_oracle, oracle_verdict
from tests.solvers.special.strategies import all_single_value, single_value_deals


@given(single_value_deals())
def test_matches_oracle(inst: crewcheck.Instance) -> None:
    """On random one-value deals the verdict equals the oracle's (and wins replay)."""
    check_against_oracle(inst, "single_value")


@pytest.mark.parametrize("n,p", [pytest.param(n, p, marks=pytest.mark.slow) if (n, p) == (5, 3) else (n, p)
                                 for n in range(2, 6) for p in (2, 3) if p <= n])
def test_every_small_deal(n: int, p: int) -> None:
    """Every one-value deal with n <= 5 cards, 2-3 seats and up to 3 tasks agrees with the
    oracle (5 cards and 3 seats in the slow suite)."""
    for inst in all_single_value(n, p, max_tasks=3):
        assert published_verdict(inst) == (oracle_verdict(inst) is Verdict.WINNABLE), dumps(inst)


@pytest.mark.slow
@pytest.mark.long
def test_every_deal_of_six_cards() -> None:
    """Every one-value deal with 6 cards, 2-3 seats and up to 4 tasks agrees with the oracle."""
    for p in (2, 3):
        for inst in all_single_value(6, p, max_tasks=4):
            assert published_verdict(inst) == (oracle_verdict(inst) is Verdict.WINNABLE), dumps(inst)


def test_refuses_other_classes() -> None:
    """Outside β(1, _, _, _) the decider refuses, naming the condition."""
    solver = SingleValueSolver()
    two_values = loads('{"hands": [["B1", "B2"], ["G1"]], "lead": "any", "tasks": []}')
    assert solver.supports(two_values) == "single_value needs 1 value per suit (k = 1); suit 'B' has 2"
    fixed = loads('{"hands": [["B1"], ["G1"]], "lead": 0, "tasks": []}')
    assert "free first lead" in (solver.supports(fixed) or "")
    with pytest.raises(NotApplicableError, match="single_value needs"):
        solver.decide(fixed, budget=Budget())


def test_example() -> None:
    """Two task cards in one hand need two tricks; a one-card hand ends the game first."""
    deal = loads('{"hands": [["A1", "B1"], ["C1"]], "lead": "any", '
                 '"tasks": [{"card": "A1", "seat": 1}, {"card": "B1", "seat": 1}]}')
    assert crewcheck.decide(deal, backend="single_value").verdict is Verdict.UNWINNABLE
    deal = loads('{"hands": [["A1", "B1"], ["C1", "D1"]], "lead": "any", '
                 '"tasks": [{"card": "A1", "seat": 1}, {"card": "B1", "seat": 1}]}')
    r = crewcheck.decide(deal, backend="single_value")
    assert r.verdict is Verdict.WINNABLE and len(r.witness.tricks) == 2
