"""The decision engine (the default): the fast search, raced against a CDCL solver in a child process.

What it is
    1. ``search`` starts alone: most deals end within its first slice
       (:data:`SEARCH_SECONDS`), in well under a millisecond, with no second process.
    2. Once the slice is over, a child process
       (:class:`crewcheck.solvers.logic.sat_process.SatProcess`: a fork, or a spare process
       made ahead of the deal that serves deal after deal) builds the deal's CNF and
       solves it with Glucose (OR-Tools CP-SAT on its model instead where free quotas
       nearly fill the tricks: :func:`sat_solver_for`) while the search goes on (nothing
       is restarted: the child is started from the search's ``cancel`` hook, polled
       between its rounds of at most 20 ms). The first to decide wins; the other is
       stopped at once (the child is killed, the search cancelled through the same
       hook). The two are
       complementary (docs/performance.md, "The engine"): clause learning refutes in
       a fraction of a second deals whose refutation the search has to enumerate, and
       the search decides deals whose CNF is hard. On two cores the race costs neither
       side its speed: the search kernel runs without the GIL and the SAT solver in its
       own process.
    3. With no time limit the race runs until one side decides, so a call with no
       ``--timeout`` always answers. A SAT process that dies without an answer (out of
       memory on a huge deal, say) leaves the search to finish alone; the cause is in
       ``Result.stats.extra["sat_error"]``.
Rules covered
    Everything the search covers (every rule feature of the model); the SAT side joins
    when PySAT is installed, it encodes every condition kind of the deal and the deal's
    encoding is not too large (:func:`crewcheck.solvers.logic.encoding.size_limit`).
    Conditions: a deal whose kinds the search judges (:data:`SEARCH_KINDS
    <crewcheck.solvers.search.conditions.SEARCH_KINDS>`) races like any other; a kind
    only the SAT side knows leaves the search a relaxation (the kind left out), whose
    refutation is a proof and whose winning line counts only if it wins the real deal,
    so the SAT side decides what the search cannot. Covered cards (JARVIS's columns)
    race like any other deal: both sides play them.
Exact
    Yes: each side is exact, and a winning line passes the replay checker in
    :func:`crewcheck.decide` as always. ``Result.stats.extra["stage"]`` says which side
    answered (``"search"`` or ``"sat"``).
Start-up
    In a fresh process the plain-Python kernel tries a few thousand nodes first, so an
    easy deal is answered before numba is even imported (a whole ``crewcheck decide``
    takes about 0.2 s); otherwise the SAT process starts at once and the compiled kernel
    is loaded meanwhile, and with it the kernel that writes the CNF of later SAT processes
    (:func:`crewcheck.solvers.logic.cnf_build.load_kernel`; this first one builds it in
    plain Python). The loading (0.3-0.6 s) is not charged to the budget, so
    ``--timeout`` bounds the decision itself.
Stopping
    Ctrl-C, an exception, the deadline or the other side's answer all stop the child
    before :meth:`EngineSolver.decide` returns; the child also dies with this process
    (see :mod:`crewcheck.solvers.logic.sat_process`), so no solver outlives a killed run.
"""

from __future__ import annotations

import functools
import importlib.util
import time
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from crewcheck.errors import BackendError
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.logic import sat_process
from crewcheck.solvers.base import Answer, Budget, Deadline, Verdict
from crewcheck.solvers.logic.cnf_build import load_kernel
from crewcheck.solvers.logic.cpsat import counts_bind
from crewcheck.solvers.logic.encoding import ENCODED_KINDS, size_limit
from crewcheck.solvers.search import kernel as _kernel
from crewcheck.solvers.search.conditions import SEARCH_KINDS, unknown_kinds
from crewcheck.solvers.search.driver import WARM_START_NODES, SearchOptions, SearchSolver, load_compiled

__all__ = ["EngineSolver", "EngineOptions", "SEARCH_SECONDS", "AUTO", "sat_solver_for"]

SEARCH_SECONDS = 0.005
WAIT_POLL = 0.05
"""Seconds between looks at the cancel hook while the engine waits on the SAT side alone."""
"""The search's slice alone, before the SAT process starts (docs/performance.md). The
search polls the hook first after
:data:`~crewcheck.solvers.search.driver.FIRST_CANCEL_SLICE_NODES` nodes (about 6 ms), so
a deal decided within them never starts a second process."""


def _start(instance: Instance, solver: str) -> sat_process.SatProcess | None:
    """The SAT process, or ``None`` if the system cannot start one (no process slots,
    no memory to fork): the search then runs alone, as without PySAT."""
    try:
        return sat_process.SatProcess(instance, solver)
    except OSError:
        return None


def _wait(child: sat_process.SatProcess, deadline: Deadline, budget: Budget) -> None:
    """Block until the SAT child has answered (or died), the deadline passes or the
    budget's cancel hook says stop, polling the hook every :data:`WAIT_POLL` seconds."""
    while not child.ready():
        if (budget.cancel is not None and budget.cancel()) or deadline.expired():
            return
        left = deadline.remaining()
        try:
            child.wait(WAIT_POLL if left is None else max(0.0, min(WAIT_POLL, left)))
        except BackendError:  # the child died: its error is kept for the caller
            return


def _left(deadline: Deadline, extra: float) -> float | None:
    """Seconds left of ``deadline`` moved ``extra`` seconds later."""
    return None if deadline.until is None else max(0.0, deadline.until + extra - time.monotonic())


def _summed(*extras: Any) -> dict[str, Any]:
    """The search statistics of several runs added up (``nodes`` apart)."""
    out: dict[str, Any] = {}
    for extra in extras:
        for k, v in extra.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) and k in out:
                out[k] += v
            else:
                out[k] = v
    return out


AUTO = "auto"
"""``EngineOptions.sat_solver``: let :func:`sat_solver_for` choose per deal."""


def sat_solver_for(instance: Instance) -> str:
    """The SAT side's solver on ``instance``: OR-Tools CP-SAT (:data:`sat_process.CPSAT`),
    when it is installed, on free assignment whose quotas nearly fill the tricks left
    (:func:`crewcheck.solvers.logic.cpsat.counts_bind`: 20-34 tasks on four seats of the
    Classic deck), where CP-SAT's trick counts decide in seconds deals that Glucose left
    undecided for minutes to hours (32-34 tasks). Otherwise Glucose
    (:data:`sat_process.SOLVER`)."""
    return sat_process.CPSAT if counts_bind(instance) and _have_ortools() else sat_process.SOLVER


@functools.lru_cache(maxsize=1)
def _have_ortools() -> bool:
    return importlib.util.find_spec("ortools") is not None


@dataclass(frozen=True)
class EngineOptions:
    """Options of the engine."""

    search_seconds: float = SEARCH_SECONDS
    """The search's slice alone, before the SAT process joins the race."""
    sat_solver: str = AUTO
    """The SAT process's solver: a PySAT solver's name, :data:`sat_process.CPSAT`, or
    :data:`AUTO` (:func:`sat_solver_for` chooses per deal)."""


class EngineSolver:
    """``search``, then ``search`` racing a CDCL solver in a child process; see the module docstring."""

    name: ClassVar[str] = "engine"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()
    condition_kinds: ClassVar[frozenset[str]] = ENCODED_KINDS | frozenset(SEARCH_KINDS)
    """A kind either side judges (the search a relaxation without the kinds it does not know)."""
    plays_covered: ClassVar[bool] = True
    """Covered cards (JARVIS's columns): both sides of the race play them."""

    def __init__(self, options: EngineOptions | None = None) -> None:
        self.options = options or EngineOptions()

    @staticmethod
    def limitations() -> str | None:
        """``None`` when both sides of the race run here at full strength, else what is
        missing (``crewcheck backends`` shows it)."""
        from crewcheck.solvers.search.driver import SearchSolver

        parts = [why for why in (SearchSolver.limitations(), sat_process.available()) if why]
        if sat_process.available():
            parts[-1] = "no SAT side (" + parts[-1] + "): the search runs alone"
        return "; ".join(parts) or None

    def supports(self, instance: Instance) -> str | None:
        why = SearchSolver(SearchOptions(relax=True)).supports(instance)
        if why is not None and (instance.conditions or instance.covered):
            return self.sat_side(instance) and why  # the SAT side alone, if it can
        return why

    def sat_side(self, instance: Instance) -> str | None:
        """``None`` if the SAT process joins the race on ``instance``, else why not."""
        missing = sorted({c.kind for c in instance.conditions} - ENCODED_KINDS)
        if missing:
            return f"the SAT side does not encode the condition kind(s) {', '.join(missing)}"
        return sat_process.available() or size_limit(instance)

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        if SearchSolver(SearchOptions(relax=True)).supports(instance) is not None:
            sat = registry.get("sat").decide(instance, budget=budget)  # too large for the search
            return replace(sat, extra={**sat.extra, "stage": "sat"})
        relax = bool(unknown_kinds(instance))
        search = SearchSolver(SearchOptions(relax=True)) if relax else registry.get("search")
        why_not = self.sat_side(instance)
        solver = sat_solver_for(instance) if self.options.sat_solver == AUTO else self.options.sat_solver
        deadline = budget.start()
        began = time.monotonic()
        child: sat_process.SatProcess | None = None
        tried = False
        warm_nodes = 0
        loading = 0.0

        def stop() -> bool:
            """The search's cancel hook, polled between its rounds: starts the SAT process
            once the slice is over, then stops the search when the child has answered."""
            nonlocal child, tried
            if budget.cancel is not None and budget.cancel():
                return True
            if not tried and why_not is None and time.monotonic() - began >= self.options.search_seconds:
                tried = True
                child = _start(instance, solver)
            return child is not None and child.ready()

        try:
            if not _kernel.is_loaded():
                # A fresh process: the plain kernel first (an easy deal never waits for
                # numba), then the compiled kernel is loaded while the SAT process is
                # already at work; the loading is not charged to the budget.
                warm = SearchSolver(SearchOptions(pure=True, relax=relax)).decide(instance, budget=Budget(
                    seconds=deadline.remaining(), nodes=WARM_START_NODES, cancel=budget.cancel))
                if warm.verdict is not Verdict.UNKNOWN or deadline.expired():
                    return Answer(warm.verdict, warm.plays, warm.assignment, warm.nodes,
                                  {**warm.extra, "stage": "search"}, warm.explanation)
                warm_nodes = warm.nodes
                if why_not is None:
                    tried = True
                    child = _start(instance, solver)
                loading = load_compiled() or 0.0
                if why_not is None:  # the next SAT process forked from here builds with it
                    loading += load_kernel() or 0.0
            ours = search.decide(instance, budget=Budget(seconds=_left(deadline, loading),
                                                         nodes=budget.nodes, cancel=stop))
            lost = ours.verdict is Verdict.UNKNOWN and bool(ours.extra.get("relaxed_line_lost"))
            if child is not None and lost:
                # the relaxation's winning line loses the real game: the search has nothing
                # more to say, so the SAT side decides, however long it takes
                _wait(child, deadline, budget)
            theirs = child.answer() if child is not None and ours.verdict is Verdict.UNKNOWN else None
            error = None if child is None else child.error
            if child is None and why_not is None and lost and not deadline.expired():
                # the relaxation won before the SAT side started: it decides alone
                theirs = registry.get("sat").decide(instance, budget=Budget(
                    seconds=deadline.remaining(), nodes=budget.nodes, cancel=budget.cancel))
        finally:
            if child is not None:
                child.stop()
        nodes = warm_nodes + ours.nodes
        if theirs is not None:
            extra = {**theirs.extra, "stage": "sat", "search_nodes": nodes}
            if loading:
                extra["kernel_load_seconds"] = round(loading, 4)
            return Answer(theirs.verdict, theirs.plays, theirs.assignment, nodes, extra, theirs.explanation)
        extra = {**ours.extra, "stage": "search"}
        if why_not is not None:
            extra["sat_side"] = why_not
        if error is not None and ours.verdict is Verdict.UNKNOWN and not deadline.expired(nodes):
            # the SAT side died without an answer: the search finishes alone
            rest = None if budget.nodes is None else max(0, budget.nodes - nodes)
            more = search.decide(instance, budget=Budget(seconds=_left(deadline, loading),
                                                         nodes=rest, cancel=budget.cancel))
            extra = {**_summed(ours.extra, more.extra), "stage": "search"}
            ours, nodes = more, nodes + more.nodes
        if error is not None:
            extra["sat_error"] = error
        if loading:
            extra["kernel_load_seconds"] = round(loading, 4)
        return Answer(ours.verdict, ours.plays, ours.assignment, nodes, extra, ours.explanation)
