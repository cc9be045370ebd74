"""The conformance suite: every registered back-end runs the same cases, one test per
back-end and case (a failure names both, and hides no other).

Cases: the hand-checked deals of the oracle tests, every bundled example with a recorded
verdict, and every saved counterexample. For each installed back-end: the verdict on
every case it supports equals the recorded one (a counterexample file may name the
back-ends it refutes in ``"refutes"``; those are pinned to their wrong answer in their
own tests and skipped here), winning witnesses pass the replay checker (``decide``
raises otherwise), a tiny budget gives UNKNOWN or the right answer (never a wrong one,
never an exception), and a deal outside the back-end's domain raises
NotApplicableError naming the reason.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crewcheck.api import decide, unsupported_rules
from crewcheck.errors import NotApplicableError
from crewcheck.formats.deal_json import load
from crewcheck.formats.notation import parse_deal
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.base import Budget, Solver, Verdict
from tests.solvers.hand_checked import HAND_CHECKED

ROOT = Path(__file__).resolve().parents[2]


def _cases() -> list[Any]:
    cases = [pytest.param(parse_deal(n), v, (), id=f"hand-{i}") for i, (n, v) in enumerate(HAND_CHECKED)]
    for folder in ("deals", "counterexamples"):
        for path in sorted((ROOT / "models" / folder).glob("*.json")):
            data = json.loads(path.read_text())
            if "expected" in data:
                cases.append(pytest.param(load(path), Verdict(data["expected"]),
                                          tuple(data.get("refutes", ())), id=path.stem))
    return cases


CASES = _cases()
NAMES = sorted(registry.BACKENDS)


def _backend(name: str) -> Solver:
    missing = registry.missing(name)
    if missing is not None:
        pytest.skip(missing)
    return registry.get(name)


def _in_domain(name: str, deal: Instance, refutes: tuple[str, ...]) -> Solver:
    """The back-end, or skip: a case outside its domain, or one it is known to get wrong
    (pinned in its own tests)."""
    backend = _backend(name)
    if name in refutes:
        pytest.skip(f"{name} is refuted by this case (pinned in its own tests)")
    why = backend.supports(deal) or unsupported_rules(backend, deal)
    if why is not None:
        pytest.skip(why)
    return backend


@pytest.mark.parametrize("deal,expected,refutes", CASES)
@pytest.mark.parametrize("name", NAMES)
def test_backend_agrees_with_the_recorded_verdict(name: str, deal: Instance, expected: Verdict,
                                                  refutes: tuple[str, ...]) -> None:
    """The back-end's verdict is the recorded one (a winning witness is replayed by decide)."""
    backend = _in_domain(name, deal, refutes)
    result = decide(deal, backend=name, timeout=120)
    if result.verdict is Verdict.UNKNOWN and not backend.exact:
        pytest.skip(f"{name} is not exact and did not decide")
    assert result.verdict is expected, f"`{name}` says {result.verdict.value}, recorded {expected.value}"
    assert result.backend == name


@pytest.mark.parametrize("deal,expected,refutes", CASES)
@pytest.mark.parametrize("name", NAMES)
def test_tiny_budget_is_unknown_or_right(name: str, deal: Instance, expected: Verdict,
                                         refutes: tuple[str, ...]) -> None:
    """Out of budget the answer is UNKNOWN or the right one, never a wrong one or an error."""
    _in_domain(name, deal, refutes)
    result = decide(deal, backend=name, budget=Budget(seconds=1e-9, nodes=1))
    assert result.verdict in (Verdict.UNKNOWN, expected)


@pytest.mark.parametrize("deal,expected,refutes", CASES)
@pytest.mark.parametrize("name", NAMES)
def test_outside_the_domain_is_refused_with_a_reason(name: str, deal: Instance, expected: Verdict,
                                                     refutes: tuple[str, ...]) -> None:
    """A case the back-end does not support is refused in one line naming the back-end."""
    why = _backend(name).supports(deal)
    if why is None:
        pytest.skip(f"{name} supports this case")
    assert why and "\n" not in why
    with pytest.raises(NotApplicableError, match=name):
        decide(deal, backend=name)
