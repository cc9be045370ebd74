"""Portfolio: the fast search first, then the CP-SAT model on what it leaves open.

What it is
    ``search`` with a short time slice (:data:`SEARCH_SECONDS`, or the whole budget if
    smaller), then ``cpsat`` with the rest of the budget if the search answered UNKNOWN.
    The two are complementary on the benchmark corpus (docs/performance.md): the search
    answers easy deals in milliseconds, while clause learning refutes the long
    "idle-trick" deals the search cannot; on 552 corpus deals, search for a second then
    cpsat decided every one.
Rules covered
    Whatever both stages cover (every rule feature of the model).
Exact
    Yes: each stage is exact, and a winning line passes the replay checker in
    :func:`crewcheck.decide` as always. ``Result.stats.extra["stage"]`` says which stage
    answered.
Cost
    The search's on easy deals; otherwise up to the slice plus the CP-SAT solve. Without
    OR-Tools installed it is the search alone.
"""

from __future__ import annotations

from typing import ClassVar

from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.base import Answer, Budget, Verdict

__all__ = ["PortfolioSolver", "SEARCH_SECONDS"]

SEARCH_SECONDS = 1.0
"""Time slice of the search stage."""


class PortfolioSolver:
    """``search``, then ``cpsat``; see the module docstring."""

    name: ClassVar[str] = "portfolio"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()

    def supports(self, instance: Instance) -> str | None:
        return registry.get("search").supports(instance)

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        deadline = budget.start()
        remaining = deadline.remaining()
        slice_ = SEARCH_SECONDS if remaining is None else min(SEARCH_SECONDS, remaining)
        first = registry.get("search").decide(instance, budget=Budget(seconds=slice_, nodes=budget.nodes))
        extra = {**first.extra, "stage": "search"}
        if first.verdict is not Verdict.UNKNOWN:
            return Answer(first.verdict, first.plays, first.assignment, first.nodes, extra, first.explanation)
        if registry.available().get("cpsat") is not None or deadline.expired():
            return Answer(Verdict.UNKNOWN, nodes=first.nodes, extra=extra)
        cpsat = registry.get("cpsat")
        if cpsat.supports(instance) is not None:
            return Answer(Verdict.UNKNOWN, nodes=first.nodes, extra=extra)
        second = cpsat.decide(instance, budget=Budget(seconds=deadline.remaining()))
        extra = {"stage": "cpsat", "search_nodes": first.nodes, **second.extra}
        return Answer(second.verdict, second.plays, second.assignment, first.nodes, extra, second.explanation)
