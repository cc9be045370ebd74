"""The decision engine: the search, raced against a CDCL solver in a child process."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, note, settings

from crewcheck import decide, load
from crewcheck.api import choose_backend
from crewcheck.formats.notation import to_notation
from crewcheck.model.instance import Instance
from crewcheck.solvers import engine, registry
from crewcheck.solvers.logic import sat_process
from crewcheck.solvers.base import Answer, Budget, Verdict
from crewcheck.solvers.engine import EngineOptions, EngineSolver
from crewcheck.solvers.logic.cnf_build import load_kernel
from crewcheck.solvers.search.driver import load_compiled
from tests.oracle import oracle_verdict
from tests.solvers.children import no_children
from tests.strategies import full_free_instances, instances

pytest.importorskip("numba")
pytest.importorskip("pysat")
ROOT = Path(__file__).resolve().parents[2]
DEALS = ROOT / "models" / "deals"


def _ctrl_c_on() -> None:
    """In the child: Ctrl-C (SIGINT) delivered as usual, even when the test run itself was
    started with SIGINT ignored (a background job of a non-interactive shell)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_auto_is_the_engine() -> None:
    assert choose_backend(load(DEALS / "classic-4p-10-tasks-tokens.json")) == "engine"
    assert registry.canonical("portfolio") == "engine"


@settings(max_examples=30)
@given(instances(max_players=3, max_cards=10, max_tasks=3))
def test_engine_agrees_with_the_oracle_when_racing(inst: Instance) -> None:
    """With no search slice the SAT process starts at the search's first poll, so either
    side may answer; the verdict is the oracle's and a win replays (in decide)."""
    note(to_notation(inst))
    got = EngineSolver(EngineOptions(search_seconds=0.0)).decide(inst, budget=Budget())
    assert got.verdict is decide(inst, backend="exhaustive").verdict
    assert no_children()


@settings(max_examples=30)
@given(full_free_instances())
def test_engine_racing_a_cpsat_child_agrees_with_the_oracle(inst: Instance) -> None:
    note(to_notation(inst))
    got = EngineSolver(EngineOptions(search_seconds=0.0)).decide(inst, budget=Budget())
    assert got.verdict is oracle_verdict(inst)
    assert no_children()


def test_the_sat_side_runs_cpsat_where_free_quotas_fill_the_tricks(monkeypatch: pytest.MonkeyPatch) -> None:
    """34 free tasks on four seats (quotas 9/9/8/8 need all ten tricks): CP-SAT; 33 and 32
    (one and two tricks to spare): CP-SAT; 16 (six to spare), fixed assignment, or no
    OR-Tools: Glucose."""
    pytest.importorskip("ortools")
    import random

    from crewcheck.claims.dejong.figure3 import _deal_dict, deal_instance

    sizes = {"B": 9, "G": 9, "P": 9, "Y": 9, "R": 4}

    def deal(k: int, objectives: str) -> Instance:
        return deal_instance(_deal_dict(random.Random(k), sizes, 4, k, objectives))

    assert engine.sat_solver_for(deal(34, "free")) == sat_process.CPSAT
    assert engine.sat_solver_for(deal(33, "free")) == sat_process.CPSAT
    assert engine.sat_solver_for(deal(32, "free")) == sat_process.CPSAT
    assert engine.sat_solver_for(deal(16, "free")) == sat_process.SOLVER
    assert engine.sat_solver_for(deal(34, "fixed")) == sat_process.SOLVER
    monkeypatch.setattr(engine, "_have_ortools", lambda: False)
    assert engine.sat_solver_for(deal(34, "free")) == sat_process.SOLVER


class _StallingSearch:
    """Stands in for `search`: never answers until its budget's cancel says stop, and
    records how often it was cancelled."""

    name, exact = "search", True
    cancelled: list[bool] = []

    def supports(self, instance: Instance) -> str | None:
        return None

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        deadline = budget.start()
        while not deadline.expired():
            time.sleep(0.002)
        self.cancelled.append(budget.cancel is not None and budget.cancel())
        return Answer(Verdict.UNKNOWN, nodes=1)


@pytest.fixture(autouse=True, scope="module")
def kernels_loaded() -> None:
    """The search's and the CNF's compiled kernels loaded before the timed tests, so that a
    fresh clone's first run (numba compiling them, a minute or more) is not counted in
    their seconds."""
    load_compiled()
    load_kernel()


@pytest.fixture
def forked(monkeypatch: pytest.MonkeyPatch) -> None:
    """The SAT child forked from this process (whatever threads other tests left), never a
    spare, so a monkeypatched ``sat_process._solve`` is what it runs."""
    monkeypatch.setattr(sat_process, "_context", lambda: multiprocessing.get_context("fork"))
    monkeypatch.setattr(sat_process.SPARES, "enabled", False)


@pytest.fixture
def stalled(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda name: _StallingSearch() if name == "search" else real_get(name))
    _StallingSearch.cancelled.clear()
    return _StallingSearch.cancelled


@pytest.mark.parametrize("deal, verdict", [("classic-4p-10-tasks-tokens.json", Verdict.UNWINNABLE),
                                           ("classic-3p-14-13-13.json", Verdict.WINNABLE)])
def test_sat_side_answers_and_cancels_the_search(stalled: list[bool], deal: str, verdict: Verdict) -> None:
    result = decide(load(DEALS / deal), backend="engine", timeout=120)
    assert result.verdict is verdict and result.stats.extra["stage"] == "sat"
    assert stalled == [True]
    assert result.stats.extra["sat_solver"] == sat_process.SOLVER
    assert no_children()


class _LosingRelaxation(_StallingSearch):
    """Stands in for the search on a relaxation: runs until the SAT side has started (its
    cancel hook polled every millisecond), then gives up because its winning line loses
    the real deal, as the driver does."""

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        start = time.monotonic()
        while time.monotonic() - start < 0.05:
            if budget.cancel is not None:
                budget.cancel()
            time.sleep(0.001)
        return Answer(Verdict.UNKNOWN, nodes=1, extra={"relaxed_line_lost": True})


@pytest.mark.parametrize("deal, verdict", [("classic-4p-10-tasks-tokens.json", Verdict.UNWINNABLE),
                                           ("classic-3p-14-13-13.json", Verdict.WINNABLE)])
def test_a_lost_relaxed_line_waits_for_the_sat_side(monkeypatch: pytest.MonkeyPatch, forked: None, deal: str,
                                                    verdict: Verdict) -> None:
    """The search gives up after the SAT side started (its relaxed line loses the real
    game): with no time limit the engine waits for the SAT side's verdict, never UNKNOWN."""
    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda name: _LosingRelaxation() if name == "search" else real_get(name))
    monkeypatch.setattr(engine._kernel, "is_loaded", lambda: True)  # no warm start: the stand-in runs at once
    monkeypatch.setattr(sat_process, "_solve", lambda instance, solver, real=sat_process._solve: (
        time.sleep(0.3), real(instance, solver))[1])
    result = EngineSolver(EngineOptions(search_seconds=0.0)).decide(load(DEALS / deal), budget=Budget())
    assert result.verdict is verdict and result.extra["stage"] == "sat"
    assert no_children()


def test_the_deadline_stops_both_sides(stalled: list[bool], forked: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A SAT process that never answers is killed at the deadline: UNKNOWN, no child left."""
    monkeypatch.setattr(sat_process, "_solve", lambda instance, solver: time.sleep(600))
    t0 = time.perf_counter()
    result = decide(load(DEALS / "classic-4p-10-tasks-tokens.json"), backend="engine", timeout=0.5)
    assert result.verdict is Verdict.UNKNOWN
    assert time.perf_counter() - t0 < 5
    assert no_children()


def test_a_dead_sat_side_leaves_the_search_to_finish(forked: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """The SAT process crashing is not an answer: the search decides alone and says why."""
    monkeypatch.setattr(sat_process, "_solve", lambda instance, solver: os._exit(3))
    deal = load(DEALS / "classic-4p-10-tasks-tokens.json")
    result = EngineSolver(EngineOptions(search_seconds=0.0)).decide(deal, budget=Budget(seconds=120))
    assert result.verdict is Verdict.UNWINNABLE and result.extra["stage"] == "search"
    assert "exit code 3" in result.extra["sat_error"]
    assert no_children()


def test_easy_deal_starts_no_process(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[int] = []
    real = sat_process.SatProcess

    def counting(*args: object, **kw: object) -> sat_process.SatProcess:
        started.append(1)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(sat_process, "SatProcess", counting)
    result = decide(load(DEALS / "classic-3p-14-13-13.json"))
    assert result.backend == "engine" and result.verdict is Verdict.WINNABLE
    assert result.stats.extra["stage"] == "search" and started == []


def test_without_pysat_the_search_runs_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sat_process, "available", lambda: "needs python-sat")  # (cached in real use)
    result = decide(load(DEALS / "classic-4p-10-tasks-tokens.json"), backend="engine")
    assert result.verdict is Verdict.UNWINNABLE
    assert result.stats.extra["stage"] == "search" and result.stats.extra["sat_side"] == "needs python-sat"


def test_engine_module_slice_is_short() -> None:
    """The slice alone must stay short: it is the latency every hard deal pays before the race."""
    assert 0 < engine.SEARCH_SECONDS <= 0.1


# A deal neither side decides within seconds (3p-fixed-k02/58 of the corpus).
HARD = ('{"hands":[["B2","B4","B6","G5","G6","G8","P2","P4","P9","R3","R4","Y5","Y7","Y8"],'
        '["B1","B3","B8","G1","G2","G3","G7","P1","P8","R2","Y4","Y6","Y9"],'
        '["B5","B7","B9","G4","G9","P3","P5","P6","P7","R1","Y1","Y2","Y3"]],"trump":"R",'
        '"lead":"rocket","tasks":[{"card":"Y8","seat":0},{"card":"P1","seat":1}]}')


def _children_of(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return [int(x) for x in out.stdout.split()]


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and ps --ppid (Linux)")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_no_orphan_after_kill_or_ctrl_c(tmp_path: Path, sig: signal.Signals) -> None:
    """``crewcheck decide`` killed (-9) or interrupted (Ctrl-C) mid-race leaves no SAT process."""
    deal = tmp_path / "hard.json"
    deal.write_text(HARD)
    proc = subprocess.Popen([sys.executable, "-m", "crewcheck", "decide", str(deal)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, preexec_fn=_ctrl_c_on)
    children: list[int] = []
    deadline = time.monotonic() + 30
    while not children and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
        children = _children_of(proc.pid)
    assert children, "the race never started a SAT process"
    proc.send_signal(sig)
    proc.wait(timeout=30)
    if sig == signal.SIGINT:
        assert proc.returncode == 130
    gone = time.monotonic() + 10
    while any(_alive(c) for c in children) and time.monotonic() < gone:
        time.sleep(0.05)
    assert not any(_alive(c) for c in children)


def test_loading_the_kernel_is_not_charged_to_the_budget(forked: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a fresh process the compiled kernel's loading time is given back to the search,
    and the SAT process is already at work while it loads."""
    from crewcheck.solvers import engine
    from crewcheck.solvers.search import kernel

    budgets: list[Budget] = []

    class Recording:
        name, exact = "search", True

        def supports(self, instance: Instance) -> str | None:
            return None

        def decide(self, instance: Instance, *, budget: Budget) -> Answer:
            budgets.append(budget)
            return Answer(Verdict.UNKNOWN)

    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda name: Recording() if name == "search" else real_get(name))
    monkeypatch.setattr(kernel, "is_loaded", lambda: False)
    monkeypatch.setattr(engine, "load_compiled", lambda: time.sleep(1.0) or 1.0)
    monkeypatch.setattr(sat_process, "_solve", lambda instance, solver: time.sleep(600))
    result = EngineSolver().decide(load(DEALS / "classic-4p-10-tasks-tokens.json"), budget=Budget(seconds=2.5))
    assert result.verdict is Verdict.UNKNOWN
    # charged, the 1 s of loading would have left the search at most 1.5 s of the 2.5 s
    # budget (the margin is for a busy machine's overheads)
    assert len(budgets) == 1 and budgets[0].seconds is not None and budgets[0].seconds > 1.6
    assert result.extra["kernel_load_seconds"] == 1.0
    assert no_children()


def test_no_process_to_be_had_leaves_the_search_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """A system that cannot start the SAT process (no process slots) is not an error:
    the search answers alone, and no second attempt is made at every poll."""
    attempts: list[int] = []

    def refuse(*args: object, **kw: object) -> sat_process.SatProcess:
        attempts.append(1)
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(sat_process, "SatProcess", refuse)
    result = EngineSolver(EngineOptions(search_seconds=0.0)).decide(load(DEALS / "classic-4p-10-tasks-tokens.json"),
                                                     budget=Budget(seconds=120))
    assert result.verdict is Verdict.UNWINNABLE and result.extra["stage"] == "search"
    assert attempts == [1]


def test_the_kernel_loading_is_reported_when_the_sat_side_answers(forked: None,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """When the SAT process answers while the compiled kernel loads in a fresh process,
    the answer still reports the loading (``kernel_load_seconds``), so that a caller
    deciding several variants can leave it out of the deal's time as ``decide`` does."""
    from crewcheck.solvers import engine
    from crewcheck.solvers.search import kernel

    class Undecided:
        name, exact = "search", True

        def supports(self, instance: Instance) -> str | None:
            return None

        def decide(self, instance: Instance, *, budget: Budget) -> Answer:
            while budget.cancel is not None and not budget.cancel():
                time.sleep(0.01)
            return Answer(Verdict.UNKNOWN)

    real_get = registry.get
    monkeypatch.setattr(registry, "get", lambda name: Undecided() if name == "search" else real_get(name))
    monkeypatch.setattr(kernel, "is_loaded", lambda: False)
    monkeypatch.setattr(engine, "load_compiled", lambda: 0.25)
    deal = load(DEALS / "classic-4p-10-tasks-tokens.json")
    monkeypatch.setattr(engine, "SearchSolver", lambda options: Undecided())
    result = EngineSolver().decide(deal, budget=Budget(seconds=120))
    assert result.extra["stage"] == "sat" and result.verdict is not Verdict.UNKNOWN
    assert result.extra["kernel_load_seconds"] == 0.25
