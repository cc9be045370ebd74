"""The portfolio back-end: the search alone, then the search racing the SAT solver."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, note, settings

from crewcheck import decide, load
from crewcheck.formats.notation import to_notation
from crewcheck.model.instance import Instance
from crewcheck.solvers import portfolio, registry
from crewcheck.solvers.base import Answer, Budget, Verdict
from tests.strategies import instances

pytest.importorskip("numba")
DEALS = Path(__file__).resolve().parents[2] / "models" / "deals"


@settings(max_examples=25)
@given(instances(max_players=3, max_cards=10, max_tasks=3))
def test_portfolio_agrees_with_the_oracle(inst):
    note(to_notation(inst))
    assert decide(inst, backend="portfolio").verdict is decide(inst, backend="exhaustive").verdict


class _StallingSearch:
    """Stands in for `search`: UNKNOWN at once in the first slice; in the race it waits
    for the budget's cancel (so only the SAT stage can answer) and records that it came."""

    name = "search"
    exact = True
    cancelled: list[bool] = []

    def supports(self, instance: Instance) -> str | None:
        return None

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        if budget.cancel is None:
            return Answer(Verdict.UNKNOWN)
        until = time.monotonic() + 60
        while not budget.cancel() and time.monotonic() < until:
            time.sleep(0.001)
        self.cancelled.append(budget.cancel())
        return Answer(Verdict.UNKNOWN)


def _stall_search(monkeypatch: pytest.MonkeyPatch) -> None:
    real_get = registry.get
    monkeypatch.setattr(registry, "get",
                        lambda name: _StallingSearch() if name == "search" else real_get(name))


def test_sat_wins_the_race_and_cancels_the_search(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the search cannot answer, the SAT thread decides, and its answer cancels the
    search through the budget's hook."""
    pytest.importorskip("pysat")
    _stall_search(monkeypatch)
    _StallingSearch.cancelled.clear()
    deal = load(DEALS / "classic-4p-10-tasks-tokens.json")
    result = decide(deal, backend="portfolio", timeout=120)
    assert result.verdict is Verdict.UNWINNABLE and result.stats.extra["stage"] == "sat"
    assert _StallingSearch.cancelled == [True]


def test_race_winnable_witness_replays(monkeypatch: pytest.MonkeyPatch) -> None:
    """A SAT win in the race is a witness that decide replays."""
    pytest.importorskip("pysat")
    _stall_search(monkeypatch)
    result = decide(load(DEALS / "classic-3p-14-13-13.json"), backend="portfolio", timeout=120)
    assert result.verdict is Verdict.WINNABLE and result.stats.extra["stage"] == "sat"
    assert result.witness is not None


def test_cpsat_stage_without_pysat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without PySAT the CP-SAT model follows the search slice (and says so)."""
    pytest.importorskip("ortools")
    real = registry.missing
    monkeypatch.setattr(registry, "missing", lambda name: "needs pysat" if name == "sat" else real(name))
    monkeypatch.setattr(portfolio, "SEARCH_SECONDS", 0.0)
    result = decide(load(DEALS / "classic-4p-10-tasks-tokens.json"), backend="portfolio", timeout=120)
    assert result.verdict is Verdict.UNWINNABLE
    assert result.stats.extra["stage"] in ("search", "cpsat")


def test_sat_poll_stops_on_cancel() -> None:
    """The SAT back-end stops soon after the budget's cancel turns true (UNKNOWN, no guess)."""
    pytest.importorskip("pysat")
    from benchmarks.corpus import Cell, load_cell
    from crewcheck.solvers.encoding_sat import SatSolver

    hard = load_cell(Cell.parse("3p-fixed-k02"), 59)[58]  # beyond every solver here in 60 s
    flag = threading.Event()
    threading.Timer(0.3, flag.set).start()
    answer = SatSolver().decide(hard, budget=Budget(seconds=60, cancel=flag.is_set))
    assert answer.verdict is Verdict.UNKNOWN


def test_easy_deal_is_answered_by_the_search_stage():
    result = decide(load(DEALS / "classic-3p-14-13-13.json"), backend="portfolio")
    assert result.verdict is Verdict.WINNABLE and result.stats.extra["stage"] == "search"


def test_search_alone_gets_the_whole_budget_without_a_second_stage(monkeypatch: pytest.MonkeyPatch) -> None:
    """With neither PySAT nor OR-Tools the search runs once, with the whole budget."""
    real = registry.missing
    monkeypatch.setattr(registry, "missing",
                        lambda name: "not installed" if name in ("sat", "cpsat") else real(name))
    calls: list[Budget] = []
    search = registry.get("search")
    real_get = registry.get

    class Counting:
        name, exact = "search", True

        def supports(self, instance: Instance) -> str | None:
            return search.supports(instance)

        def decide(self, instance: Instance, *, budget: Budget) -> Answer:
            calls.append(budget)
            return search.decide(instance, budget=budget)

    monkeypatch.setattr(registry, "get", lambda name: Counting() if name == "search" else real_get(name))
    result = decide(load(DEALS / "classic-3p-14-13-13.json"), backend="portfolio", timeout=30)
    assert result.verdict is Verdict.WINNABLE and result.stats.extra["stage"] == "search"
    assert len(calls) == 1 and calls[0].seconds is not None and calls[0].seconds > portfolio.SEARCH_SECONDS
