"""Harvill & Vivek's Table 1 (seed 004): the rows on a tiny run, and the judging rules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from crewcheck.experiments.deepsea_bench import DeepSeaConfig
from crewcheck.claims import ledger
from crewcheck.claims.claim import Claim, Computation, Status
from crewcheck.claims.harvill_vivek import table1
from crewcheck.claims.harvill_vivek.table1 import ReadingRun


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A quick mode of 40 games with 200 training rollouts, the bench's store under tmp_path."""
    monkeypatch.setattr(table1, "QUICK", DeepSeaConfig(games=40, training=200, chunk=20, rtu=("teammates",),
                                                       r_step=0.5, oracle=False))
    monkeypatch.setenv("CREWCHECK_CACHE_DIR", str(tmp_path))
    yield


@pytest.mark.parametrize("fn", [table1.stochastic_rates, table1.mcts_rates, table1.ratios, table1.rtu_values])
def test_rows_are_well_formed_in_quick_mode(tiny: None, fn: object) -> None:
    """Each row is an empirical computation: readings tried and not tried, the published
    numbers beside ours, a method for every value."""
    comp = fn("quick")  # type: ignore[operator]
    assert isinstance(comp, Computation)
    assert comp.readings is not None and comp.readings.tried and comp.readings.not_tried
    assert set(comp.value("published")) == {"3", "4", "5", "6"}
    assert isinstance(comp.value("reproduced"), bool)
    assert all(v.method for v in comp.values)


def _runs(rates: dict[int, float], seeds: tuple[int | None, ...] = (None,), games: int = 10_000) -> list[ReadingRun]:
    return [ReadingRun("r", "a reading", "stochastic", s, {n: (round(p * games), games) for n, p in rates.items()},
                       "size") for s in seeds]


PUB = {3: 0.047, 4: 0.058, 5: 0.047, 6: 0.043}


@pytest.mark.parametrize("rates, status", [
    (PUB, Status.CONFIRMED),                                   # a perfect reproduction
    ({3: 0.051, 4: 0.057, 5: 0.052, 6: 0.047}, Status.CONFIRMED),  # within the noise of two samples
    ({3: 0.051, 4: 0.057, 5: 0.057, 6: 0.062}, Status.NOT_REPRODUCED),  # N = 5, 6 differ
])
def test_column_verdicts_follow_the_written_rules(monkeypatch: pytest.MonkeyPatch, rates: dict[int, float],
                                                  status: Status) -> None:
    """Two-sample tests, Holm over N: a reading that fits makes the row CONFIRMED; one that
    differs somewhere is NOT REPRODUCED, never REFUTED while readings are left untried."""
    monkeypatch.setattr(table1, "runs", lambda mode: (_runs(rates), list(table1.NOT_TRIED), []))
    claim = Claim("t", "t", "t", {"reproduced": True}, compute=table1.stochastic_rates)
    assert ledger.evaluate(claim, "full").status is status


def test_a_fit_that_needs_the_published_noise_is_not_a_difference() -> None:
    """0.051 over 10,000 games against a published 0.047 over 10,000 is no significant
    difference once the noise of both samples is counted."""
    from crewcheck.claims.stats import holm, two_sample

    c = two_sample(510, 10_000, 0.047, 10_000)
    assert c.interval[0] < 0 < c.interval[1] or c.p_value > 0.05
    assert holm([c.p_value])[0] > 0.05


def test_every_seed_must_reproduce(monkeypatch: pytest.MonkeyPatch) -> None:
    """A trained reading reproduces a column only if every training seed does."""
    good = _runs(PUB, seeds=(0,))
    bad = _runs({3: 0.08, 4: 0.058, 5: 0.047, 6: 0.043}, seeds=(1,))
    runs = [ReadingRun(r.name, r.description, "mcts-table", r.seed, r.per_n, r.size) for r in good + bad]
    monkeypatch.setattr(table1, "runs", lambda mode: (runs, list(table1.NOT_TRIED), []))
    monkeypatch.setattr(table1, "published", lambda: {n: {"mcts": p, "stochastic": p} for n, p in PUB.items()})
    comp = table1.mcts_rates("full")
    assert comp.value("reproduced") is False
    assert comp.readings is not None and "some seeds only" in comp.readings.tried[0]


def test_quick_mode_never_overturns_an_empirical_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reduced run that disagrees with the established verdict reports OPEN, saying so."""
    monkeypatch.setattr(table1, "runs", lambda mode: (_runs(PUB), list(table1.NOT_TRIED), []))
    claim = Claim("t", "t", "t", {"reproduced": True}, compute=table1.stochastic_rates)
    v = ledger.evaluate(claim, "quick", Status.NOT_REPRODUCED)
    assert v.status is Status.OPEN and "cannot decide" in v.reason
