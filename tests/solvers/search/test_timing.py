"""The time limit counts from when the search starts: loading the compiled kernel into a
fresh process is charged neither to the budget nor to the reported seconds, for the
``search`` back-end as for the engine."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from crewcheck import decide, load
from crewcheck.solvers.base import Deadline
from crewcheck.solvers.search import driver, kernel

DEALS = Path(__file__).resolve().parents[3] / "models" / "deals"
HARD = DEALS / "classic-4p-10-tasks-tokens.json"  # search: about 0.5 s, 2.7 million nodes


def test_search_does_not_charge_kernel_loading_to_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a 0.5 s limit and 1 s of loading, the search proper still gets its 0.5 s
    (rather than returning after 1.2-2.2 s with almost no search), and the result's
    seconds leave the loading out."""
    left: list[float | None] = []
    reached: list[float] = []
    real = driver.SearchSolver._decide

    def spy(self: driver.SearchSolver, instance: object, state: object, budget: object, deadline: Deadline,
            pure: bool, origin: object) -> object:
        left.append(deadline.remaining())
        reached.append(time.perf_counter())
        return real(self, instance, state, budget, deadline, pure, origin)  # type: ignore[arg-type]

    monkeypatch.setattr(kernel, "is_loaded", lambda: False)
    monkeypatch.setattr(driver, "load_compiled", lambda: time.sleep(1.0) or 1.0)
    monkeypatch.setattr(driver.SearchSolver, "_decide", spy)
    t0 = time.perf_counter()
    result = decide(load(HARD), backend="search", timeout=0.5)
    wall = time.perf_counter() - t0
    # what the search proper has left is the limit less the time spent besides the
    # loading (the warm start, building the deal: long on a busy machine), never less
    # the loading itself
    besides = reached[0] - t0 - 1.0
    assert len(left) == 1 and left[0] is not None and left[0] > 0.5 - besides - 0.05
    assert result.stats.extra["kernel_load_seconds"] == 1.0
    assert wall >= 1.0 and result.stats.seconds < wall - 0.9


def test_a_loaded_kernel_reports_no_loading(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(driver, "load_compiled", lambda: None)
    result = decide(load(DEALS / "reiber-figure-1.json"), backend="search", timeout=5)
    assert "kernel_load_seconds" not in result.stats.extra
