"""Harvill & Vivek's Table 1 (seed 004): the four rows on a tiny run, and the judging rule."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from crewcheck.experiments.deepsea_bench import DeepSeaConfig
from crewcheck.claims import ledger
from crewcheck.claims.claim import Claim, Computation, Status, Value
from crewcheck.claims.harvill_vivek import table1


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A quick mode of 40 games at N = 3, 4 with 200 training rollouts, stored under tmp_path."""
    monkeypatch.setattr(table1, "QUICK", DeepSeaConfig(cards=(3, 4), games=40, training=200, chunk=20,
                                                       rtu=("teammates",), r_step=0.5, oracle=False))
    monkeypatch.setattr(table1, "out_dir", lambda: tmp_path / "deepsea")
    table1.table.cache_clear()
    yield
    table1.table.cache_clear()


@pytest.mark.parametrize("fn", [table1.stochastic_rates, table1.mcts_rates, table1.ratios, table1.rtu_values])
def test_rows_are_well_formed_in_quick_mode(tiny: None, fn: object) -> None:
    """Each row computes per-N values and a per-N comparison; quick mode never refutes."""
    comp = fn("quick")  # type: ignore[operator]
    assert isinstance(comp, Computation)
    assert comp.holds is None
    within = comp.value("within_interval")
    assert set(within) == {"3", "4"}
    assert set(comp.value("published")) == {"3", "4", "5", "6"}
    if any(ok is False for ok in within.values()):
        assert comp.open_reason is not None and "cannot refute" in comp.open_reason
    assert all(v.method for v in comp.values)


def test_rates_are_the_bench_summary(tiny: None) -> None:
    """The stochastic row's rate and interval are the bench's for the same run."""
    comp = table1.stochastic_rates("quick")
    rows = table1.table("quick")
    for r in rows:
        e = r["settings"]["stochastic"]
        assert comp.value("stochastic_rate")[str(r["cards"])] == round(e["rate"], 4)
        lo, hi = comp.value("stochastic_interval")[str(r["cards"])]
        assert lo <= e["rate"] <= hi


@pytest.mark.parametrize("mode, within, status", [
    ("full", {"3": True, "4": True}, Status.CONFIRMED),
    ("full", {"3": True, "4": False}, Status.REFUTED),
    ("quick", {"3": True, "4": False}, Status.OPEN),
    ("quick", {"3": True, "4": True}, Status.CONFIRMED),
    ("full", {"3": True, "4": None}, Status.OPEN),
    ("full", {"3": False, "4": None}, Status.REFUTED),
])
def test_judging_rule(mode: str, within: dict[str, bool | None], status: Status) -> None:
    """Outside an interval refutes only in full mode; an undefined value alone leaves it open."""
    comp = table1._judge(mode, [Value("x", 1, "one")], within, "rate")  # type: ignore[arg-type]
    claim = Claim("t", "t", "t", {"within_interval": {"3": True, "4": True}}, compute=lambda m: comp)
    assert ledger.evaluate(claim, mode).status is status  # type: ignore[arg-type]


def test_ratio_interval_contains_the_ratio() -> None:
    st = {"wins": 50, "rate": 0.05}
    mc = {"wins": 150, "rate": 0.15}
    ci = table1._ratio_interval(st, mc)
    assert ci is not None and ci[0] < 3.0 < ci[1] and ci[0] > 1
    assert table1._ratio_interval({"wins": 0, "rate": 0.0}, mc) is None
