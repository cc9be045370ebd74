"""A plain-SAT back-end: the pure CNF of the winnability encoding solved by a CDCL solver (PySAT).

What it is
    :func:`crewcheck.solvers.logic.encoding.encode` (de Jong's encoding, generalised) expanded to
    clauses by :func:`crewcheck.solvers.logic.export.to_cnf` (Sinz counters for the
    cardinalities) and handed to a CDCL solver from PySAT, Glucose 4.2 by default (it can
    be interrupted when the budget runs out), with the open tasks as unit clauses. On an
    unsatisfiable answer a second solver takes the tasks as assumptions; its core is
    minimised by deletion (under a time cap) into the explanation. It is the same file
    ``crewcheck encode --format dimacs`` writes, solved in-process.
Rule features
    Everything the encoding covers: trumps or none, any seats and suits, unequal hands,
    the three first-lead modes, order tokens in both readings, fixed and free
    assignment, mid-game positions.
Exact
    Yes: a model decodes to a winning continuation that :func:`crewcheck.decide` replays;
    unsatisfiable means unwinnable. Out of time (the solver is interrupted) returns
    ``UNKNOWN``.
Cost
    As the encoding (2,000-4,000 variables, 7,000-14,000 clauses on a Classic deal) plus
    the SAT search. Spot checks on the Classic corpus (6-12 deals per cell, loaded
    machine): CaDiCaL 0.07 s median on 4p-fixed-k04 and no timeout on 3p-fixed-k12 (z3:
    0.56 s, two timeouts); Glucose 0.21 s and 1.4 s median. Like Z3 it cannot do the
    arithmetic that refutes 36 free tasks with four players.

Registered as ``sat`` (extra ``sat`` = python-sat). The engine's SAT side
(:mod:`.sat_process`) solves the same CNF in a child process.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Answer, Budget, Deadline, discard
from crewcheck.solvers.logic.encoding import ENCODED_KINDS, size_limit
from crewcheck.solvers.logic.position import Encoding
from crewcheck.solvers.logic.export import CNF, to_cnf
from crewcheck.solvers.logic.decide import Shrink, Solved, decide_encoded, earliest

__all__ = ["SatSolver", "SatOptions", "POLL_SECONDS"]

LOAD_BLOCK = 50_000
"""Clauses handed to the solver between two looks at the deadline."""

POLL_SECONDS = 0.005
"""How often a running solve checks its deadline and the budget's ``cancel``."""


@dataclass(frozen=True)
class SatOptions:
    """Options of the plain-SAT back-end."""

    solver: str = "glucose42"
    """A PySAT solver name. The default, Glucose 4.2, can be interrupted, so it honours
    the budget; ``cadical195`` is often faster but PySAT cannot interrupt it, so it runs
    without a time limit (only use it without one)."""
    explain: bool = True
    """On an unwinnable answer, compute a minimised core of the tasks."""
    explain_factor: float = 5.0
    """Explanations may take this many times the decision's time, plus one second."""


class SatSolver:
    """A CDCL solver (Glucose 4.2 by default, via PySAT) on the pure CNF of the encoding;
    see the module docstring."""

    name: ClassVar[str] = "sat"
    condition_kinds: ClassVar[frozenset[str]] = ENCODED_KINDS
    plays_covered: ClassVar[bool] = True
    """Every condition kind (:func:`encoding.add_condition_constraints`)."""
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = (("pysat", "sat"),)

    def __init__(self, options: SatOptions | None = None) -> None:
        self.options = options or SatOptions()

    def supports(self, instance: Instance) -> str | None:
        """Every rule feature; only deals whose encoding would be huge are refused."""
        return size_limit(instance)

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        return decide_encoded(instance, budget, self.options, self._solve, self._shrinker)

    def solve_encoding(self, enc: Encoding, deadline: Deadline, stats: dict[str, Any]) -> Solved:
        """Solve ``enc``'s formula (with its task assumptions as facts) until ``deadline``;
        ``stats`` gets the formula's size and build time. For a deal with choices
        (:func:`crewcheck.solvers.logic.choices.encode_deal`) as much as for one position."""
        return self._solve(enc, deadline, stats, time.perf_counter())

    def _solve(self, enc: Encoding, deadline: Deadline, stats: dict[str, Any], start: float) -> Solved:
        if deadline.expired():
            stats["build_seconds"] = round(time.perf_counter() - start, 4)
            return Solved(None)
        # The decision gets the tasks as unit clauses (the solver simplifies with them);
        # the explanation uses a second solver with the tasks as assumptions.
        return self.solve_cnf(to_cnf(enc.formula, assume=enc.assumptions, deadline=deadline), deadline, stats, start)

    def solve_cnf(self, cnf: CNF, deadline: Deadline, stats: dict[str, Any], start: float) -> Solved:
        """Solve ``cnf`` (its clauses handed over to the solver, then dropped) until
        ``deadline``; ``stats`` gets its size and the seconds since ``start`` it took to
        build and load."""
        if deadline.expired():
            stats["build_seconds"] = round(time.perf_counter() - start, 4)
            return Solved(None)
        try:
            sat_solver = self._solver(cnf.clauses, deadline)
        finally:
            stats.update(variables=cnf.nv, clauses=len(cnf.clauses),
                         build_seconds=round(time.perf_counter() - start, 4))
            discard(cnf.clauses)  # (the solver holds its own copy)
        with sat_solver as sat:
            result = self._solve_until(sat, [], deadline, None)
            if result is True:
                model = {abs(x): x > 0 for x in sat.get_model() or ()}
                return Solved(True, lambda v: model.get(v, False))
        return Solved(result)

    @contextmanager
    def _shrinker(self, enc: Encoding, kept: Any, deadline: Deadline, cap: Deadline) -> Iterator[Shrink]:
        """Cores over the task assumptions, from a second solver on the CNF without the units."""
        task_of = {v: k for k, v in enc.vars.task.items()}
        both = earliest(deadline, cap)
        cnf = to_cnf(enc.formula, deadline=both)
        try:
            sat_solver = self._solver(cnf.clauses, both)
        finally:
            discard(cnf.clauses)
        with sat_solver as sat:

            def shrink(tasks: list[int]) -> list[int] | bool:
                got = self._solve_until(sat, [enc.vars.task[k] for k in tasks], deadline, cap)
                if got is not False:
                    return False
                return sorted(task_of[x] for x in sat.get_core() or () if x in task_of) or True

            yield shrink

    def _solver(self, clauses: list[list[int]], deadline: Deadline | None = None) -> Any:
        """A solver holding ``clauses``; with a ``deadline``, handed over in blocks between
        looks at it (two million clauses take a second to load)."""
        from pysat.solvers import Solver  # type: ignore[import-untyped]

        if deadline is None:
            return Solver(name=self.options.solver, bootstrap_with=clauses)
        sat = Solver(name=self.options.solver)
        try:
            for i in range(0, len(clauses), LOAD_BLOCK):
                deadline.check()
                sat.append_formula(clauses[i:i + LOAD_BLOCK])
        except BaseException:
            sat.delete()
            raise
        return sat

    @staticmethod
    def _solve_until(sat: Any, assumptions: list[int], deadline: Deadline, cap: Deadline | None) -> bool | None:
        """Solve until done, or until either deadline expires or the budget's ``cancel``
        says stop (``None``: interrupted). A watcher thread polls every
        :data:`POLL_SECONDS` and interrupts the solver (which runs without the GIL)."""
        if deadline.expired() or (cap is not None and cap.expired()):
            return None
        if deadline.until is None and deadline.cancel is None and cap is None:
            return sat.solve(assumptions=assumptions)  # type: ignore[no-any-return]
        finished = threading.Event()

        def watch() -> None:
            # keeps interrupting until the solve returns (an interrupt sent just before
            # the solve starts may be cleared by it)
            while not finished.wait(POLL_SECONDS):
                if deadline.expired() or (cap is not None and cap.expired()):
                    sat.interrupt()

        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        try:
            return sat.solve_limited(assumptions=assumptions, expect_interrupt=True)  # type: ignore[no-any-return]
        finally:
            finished.set()
            watcher.join()
            try:
                sat.clear_interrupt()
            except NotImplementedError:
                pass
