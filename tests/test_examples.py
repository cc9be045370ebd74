"""Every bundled example deal loads, and decides to its recorded verdict with every
installed exact back-end that supports it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewcheck import decide, load
from crewcheck.solvers import registry

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted((ROOT / "models" / "deals").glob("*.json")) + sorted((ROOT / "models" / "counterexamples").glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_decides_to_its_expected_verdict(path):
    expected = json.loads(path.read_text()).get("expected")
    deal = load(path)
    if expected is None:
        pytest.skip("no recorded verdict")
    checked = 0
    for name, missing in registry.available().items():
        if missing is not None:
            continue
        backend = registry.get(name)
        if not backend.exact or backend.supports(deal) is not None:
            continue
        result = decide(deal, backend=name, timeout=120)
        assert result.verdict.value == expected, f"{name} says {result.verdict.value}, recorded {expected}"
        checked += 1
    if checked == 0:
        pytest.skip("no installed exact back-end supports this deal")
