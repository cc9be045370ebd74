"""What the three logic back-ends (``z3``, ``cpsat``, ``sat``) share: one decision path.

Each encodes the position with :func:`crewcheck.solvers.encoding.encode`, solves the
formula with the open tasks as facts, decodes a model into the winning line, and explains
an unsatisfiable answer: a second solver takes the open tasks as assumptions, its core is
minimised by deletion under a time cap (``explain_factor`` times the decision's time, plus
one second) and reported ("tasks G7@1, P9@0 cannot all be completed": the deal with only
those tasks is already lost, and dropping any one of them makes that sub-deal winnable).

:func:`decide_encoded` is that path. A back-end supplies the two steps that differ:

``solve(enc, deadline, stats, start) -> Solved``
    Build its model of ``enc.formula`` (recording its size and ``build_seconds``, counted
    from ``start``, in ``stats``) and solve it until ``deadline``. The build checks the
    deadline as it goes (:class:`~crewcheck.solvers.base.BudgetExceeded`: the answer is
    unknown), so a limit holds on a deal whose formula alone takes seconds to build.
``shrinker(enc, kept, deadline, cap)``
    A context manager giving ``shrink(tasks)``: is the formula unsatisfiable under these
    task assumptions? ``False`` if not (or out of time), else the solver's core of them
    (or ``True``). ``kept`` is what ``solve`` handed over in :attr:`Solved.kept`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias

from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Answer, Budget, BudgetExceeded, Deadline, Verdict, discard
from crewcheck.solvers.encoding import Encoding, decode, encode, explain_core, minimise_core

__all__ = ["Solved", "Shrink", "ExplainOptions", "decide_encoded", "earliest"]

Shrink: TypeAlias = Callable[[list[int]], "list[int] | bool"]
"""``shrink(tasks)``: ``False`` when satisfiable (or unknown) under those task
assumptions, else the solver's core of them (or ``True`` when it gives none)."""


@dataclass(frozen=True)
class Solved:
    """The decision's solve: satisfiable, unsatisfiable or out of time."""

    satisfiable: bool | None
    """``True`` satisfiable, ``False`` unsatisfiable, ``None`` out of time."""
    value: Callable[[int], bool] | None = None
    """Satisfiable: the model's value of a variable."""
    kept: Any = None
    """Whatever the back-end's explanation reuses from the decision."""


class ExplainOptions(Protocol):
    """The options every logic back-end has (its options dataclass has more)."""

    @property
    def explain(self) -> bool:
        """On an unwinnable answer, compute a minimised core of the tasks."""
        ...

    @property
    def explain_factor(self) -> float:
        """Explanations may take this many times the decision's time, plus one second."""
        ...


SolveFn: TypeAlias = Callable[[Encoding, Deadline, dict[str, Any], float], Solved]
ShrinkerFn: TypeAlias = Callable[[Encoding, Any, Deadline, Deadline], AbstractContextManager[Shrink]]


def decide_encoded(instance: Instance, budget: Budget, options: ExplainOptions, solve: SolveFn,
                   shrinker: ShrinkerFn) -> Answer:
    """Decide ``instance`` through its encoding (see the module docstring)."""
    start = time.perf_counter()
    deadline = budget.start()
    stats: dict[str, Any] = {}
    try:  # building a large deal's formula takes seconds: it checks the deadline too
        enc = encode(instance, deadline=deadline)
    except BudgetExceeded:
        return _stopped(stats, start)
    try:
        return _decide(instance, enc, deadline, stats, start, options, solve, shrinker)
    finally:
        discard(enc.formula.constraints)


def _stopped(stats: dict[str, Any], start: float) -> Answer:
    stats.setdefault("build_seconds", round(time.perf_counter() - start, 4))
    return Answer(Verdict.UNKNOWN, extra={**stats, "stopped": "while building the formula"})


def _decide(instance: Instance, enc: Encoding, deadline: Deadline, stats: dict[str, Any], start: float,
            options: ExplainOptions, solve: SolveFn, shrinker: ShrinkerFn) -> Answer:
    try:
        solved = solve(enc, deadline, stats, start)
    except BudgetExceeded:
        return _stopped(stats, start)
    if solved.satisfiable is None:
        return Answer(Verdict.UNKNOWN, extra=stats)
    if solved.satisfiable:
        assert solved.value is not None
        plays, assignment = decode(enc, solved.value)
        return Answer(Verdict.WINNABLE, plays, assignment, extra=stats)
    explanation = None
    if options.explain and enc.position.tasks:
        cap = Budget(seconds=options.explain_factor * (time.perf_counter() - start) + 1.0).start()
        try:
            with shrinker(enc, solved.kept, deadline, cap) as shrink:
                core = _minimised_core(enc, shrink, deadline, cap)
        except BudgetExceeded:  # (building the explanation's solver ran out of time)
            core = None
        if core is not None:
            stats["core"] = len(core[0])
            explanation = explain_core(instance, core[0]) + ("" if core[1] else " (core not minimised)")
    return Answer(Verdict.UNWINNABLE, extra=stats, explanation=explanation)


def earliest(deadline: Deadline, cap: Deadline) -> Deadline:
    """A deadline that expires with the first of ``deadline`` and ``cap`` (or the budget's
    ``cancel``), for a build that both bound."""
    lefts = [x for x in (deadline.remaining(), cap.remaining()) if x is not None]
    return Budget(seconds=min(lefts) if lefts else None, cancel=deadline.cancel).start()


def _minimised_core(enc: Encoding, shrink: Shrink, deadline: Deadline,
                    cap: Deadline) -> tuple[list[int], bool] | None:
    """A deletion-minimised core over the task assumptions and whether the minimisation
    finished; ``None`` if even the first core ran out of time."""
    first = shrink(list(enc.position.tasks))
    if first is False:
        return None
    core = list(enc.position.tasks) if first is True else list(first)

    def expired() -> bool:
        return deadline.expired() or cap.expired()

    out = minimise_core(core, shrink, expired)
    return out, not expired()
