"""Portfolio: the fast search alone for a moment, then the search and a SAT solver racing.

What it is
    ``search`` alone for a short slice (:data:`SEARCH_SECONDS`, or the whole budget if
    smaller): most deals end there, in milliseconds. If it answers UNKNOWN, the plain-SAT
    back-end (``sat``, Glucose through PySAT, without the explanation core) starts in a
    second thread and the search goes on in this one; the first to decide wins and
    cancels the other through the budget's ``cancel`` hook (the search polls it between
    short rounds, the SAT solver is interrupted by a watcher). The two are complementary
    on the benchmark corpus (docs/performance.md): clause learning refutes, in a fraction
    of a second, deals whose refutation the search has to enumerate, while the search
    decides deals whose CNF is hard. The search kernel and the SAT solver both run without
    the GIL, so on a machine with two cores the race costs the search little. Without
    PySAT the second stage is the CP-SAT model run after the search slice (sequentially:
    it cannot be cancelled), and without either it is the search alone.
Rules covered
    Whatever the search covers (every rule feature of the model); the SAT stage joins
    only when its encoding supports the deal.
Exact
    Yes: each stage is exact, and a winning line passes the replay checker in
    :func:`crewcheck.decide` as always. When both stages decide (a near tie) their
    verdicts are compared and a disagreement raises :class:`BackendError`.
    ``Result.stats.extra["stage"]`` says which stage answered.
Cost
    The search's on easy deals; otherwise at most the budget, on two threads.
"""

from __future__ import annotations

import threading
from typing import Any, ClassVar

from crewcheck.errors import BackendError
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.base import Answer, Budget, Verdict

__all__ = ["PortfolioSolver", "SEARCH_SECONDS"]

SEARCH_SECONDS = 0.05
"""Time slice of the search alone, before the race starts."""
JOIN_SECONDS = 0.05
"""How long the race waits for the SAT thread to stop after the search has finished."""


def _done(answer: Answer | None) -> bool:
    return answer is not None and answer.verdict is not Verdict.UNKNOWN


class PortfolioSolver:
    """``search``, then ``search`` racing ``sat``; see the module docstring."""

    name: ClassVar[str] = "portfolio"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()

    def supports(self, instance: Instance) -> str | None:
        return registry.get("search").supports(instance)

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        deadline = budget.start()
        second = self._second_stage(instance)
        remaining = deadline.remaining()
        slice_ = remaining if second is None else (
            SEARCH_SECONDS if remaining is None else min(SEARCH_SECONDS, remaining))
        first = registry.get("search").decide(instance, budget=Budget(seconds=slice_, nodes=budget.nodes))
        if first.verdict is not Verdict.UNKNOWN or second is None or deadline.expired(first.nodes):
            return Answer(first.verdict, first.plays, first.assignment, first.nodes,
                          {**first.extra, "stage": "search"}, first.explanation)
        if second == "sat":
            return self._race(instance, budget, deadline.remaining(), first.nodes)
        late = registry.get("cpsat").decide(instance, budget=Budget(seconds=deadline.remaining()))
        extra = {"stage": "cpsat", "search_nodes": first.nodes, **late.extra}
        return Answer(late.verdict, late.plays, late.assignment, first.nodes, extra, late.explanation)

    @staticmethod
    def _second_stage(instance: Instance) -> str | None:
        """``"sat"`` (raced) if PySAT is installed and supports the deal, else ``"cpsat"``
        (after the slice) likewise, else ``None``: the search alone, with the whole budget."""
        for name in ("sat", "cpsat"):
            if registry.missing(name) is None and registry.get(name).supports(instance) is None:
                return name
        return None

    def _race(self, instance: Instance, budget: Budget, seconds: float | None, slice_nodes: int) -> Answer:
        """The search (this thread) against ``sat`` (a second thread), first answer wins."""
        from crewcheck.solvers.encoding_sat import SatOptions, SatSolver

        stop_sat = threading.Event()
        sat_answer: list[Answer] = []
        sat_error: list[BaseException] = []

        def run_sat() -> None:
            try:
                sat_answer.append(SatSolver(SatOptions(explain=False)).decide(
                    instance, budget=Budget(seconds=seconds, cancel=stop_sat.is_set)))
            except BaseException as e:  # handed to the caller's thread below
                sat_error.append(e)

        worker = threading.Thread(target=run_sat, name="crewcheck-portfolio-sat", daemon=True)
        worker.start()
        try:
            ours = registry.get("search").decide(instance, budget=Budget(
                seconds=seconds, nodes=budget.nodes,
                cancel=lambda: bool(sat_answer) and _done(sat_answer[0]) or bool(sat_error)))
        finally:
            stop_sat.set()
            # The SAT thread stops within a poll once its solver runs; while it is still
            # building the encoding (plain Python, up to ~0.6 s on a 36-task deal) it cannot
            # be interrupted, so it is left to notice the cancel and exit on its own: it
            # shares nothing with later calls.
            worker.join(JOIN_SECONDS)
        if sat_error:
            raise sat_error[0]
        theirs = sat_answer[0] if sat_answer else None
        nodes = slice_nodes + ours.nodes
        if _done(ours) and _done(theirs):
            assert theirs is not None
            if ours.verdict is not theirs.verdict:
                raise BackendError(f"portfolio: `search` says {ours.verdict.name}, `sat` says "
                                   f"{theirs.verdict.name} on the same deal")
        if _done(ours) or not _done(theirs):
            extra: dict[str, Any] = {**ours.extra, "stage": "search"}
            return Answer(ours.verdict, ours.plays, ours.assignment, nodes, extra, ours.explanation)
        assert theirs is not None
        extra = {**theirs.extra, "stage": "sat", "search_nodes": nodes}
        return Answer(theirs.verdict, theirs.plays, theirs.assignment, nodes, extra, theirs.explanation)
