"""The conformance suite: every registered back-end runs the same cases.

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

import pytest

from crewcheck import decide, load
from crewcheck.errors import NotApplicableError
from crewcheck.formats.notation import parse_deal
from crewcheck.solvers import registry
from crewcheck.solvers.base import Budget, Verdict
from tests.solvers.test_exhaustive import HAND_CHECKED

ROOT = Path(__file__).resolve().parents[2]


def _cases():
    cases = [(f"hand-{i}", parse_deal(n), v, ()) for i, (n, v) in enumerate(HAND_CHECKED)]
    for folder in ("deals", "counterexamples"):
        for path in sorted((ROOT / "models" / folder).glob("*.json")):
            data = json.loads(path.read_text())
            if "expected" in data:
                cases.append((path.stem, load(path), Verdict(data["expected"]), tuple(data.get("refutes", ()))))
    return cases


CASES = _cases()
NAMES = sorted(registry.BACKENDS)


def _backend(name):
    missing = registry.available()[name]
    if missing is not None:
        pytest.skip(missing)
    return registry.get(name)


@pytest.mark.parametrize("name", NAMES)
def test_backend_agrees_with_every_recorded_verdict(name):
    backend = _backend(name)
    ran = 0
    for case, deal, expected, refutes in CASES:
        if name in refutes or backend.supports(deal) is not None:
            continue
        result = decide(deal, backend=name, timeout=120)
        if result.verdict is Verdict.UNKNOWN and not backend.exact:
            continue
        assert result.verdict is expected, f"`{name}` says {result.verdict.value}, recorded {expected.value} on {case}"
        assert result.backend == name
        ran += 1
    if ran == 0:
        pytest.skip(f"no case in the domain of {name}")


@pytest.mark.parametrize("name", NAMES)
def test_tiny_budget_is_unknown_or_right(name):
    backend = _backend(name)
    for case, deal, expected, refutes in CASES:
        if name in refutes or backend.supports(deal) is not None:
            continue
        result = decide(deal, backend=name, budget=Budget(seconds=1e-9, nodes=1))
        assert result.verdict in (Verdict.UNKNOWN, expected), case


@pytest.mark.parametrize("name", NAMES)
def test_outside_the_domain_is_refused_with_a_reason(name):
    backend = _backend(name)
    for case, deal, _, _ in CASES:
        why = backend.supports(deal)
        if why is None:
            continue
        assert why and "\n" not in why
        with pytest.raises(NotApplicableError, match=name):
            decide(deal, backend=name)
        return
    pytest.skip(f"{name} supports every case")
