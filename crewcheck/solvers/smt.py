"""The Z3 back-end: de Jong's SAT encoding of winnability, solved by Z3.

What it is
    The shared encoding of :mod:`crewcheck.solvers.encoding` (de Jong [1]_ §4,
    expressions (4)-(15), generalised) handed to Z3's finite-domain solver
    (``SolverFor("QF_FD")``: its SAT core with native pseudo-Boolean constraints).
    Clauses become ``Or``, cardinality constraints ``AtMost`` / ``AtLeast`` (no CNF
    expansion), enforcement literals ``Implies``. Every open task is a Boolean assumed
    true; on an unsatisfiable answer Z3's unsat core over those assumptions is
    minimised by deletion and reported as the explanation ("tasks G7@1, P9@0 cannot all
    be completed"): the deal with only those tasks is already lost, and (when the
    minimisation finished) dropping any one of them makes that sub-deal winnable.
Rule features
    Everything the model covers: trumps or none, any seats and suits, unequal hands,
    the three first-lead modes, order tokens in both readings, fixed and free
    assignment, mid-game positions.
Exact
    Yes: a satisfying model decodes to a winning continuation that
    :func:`crewcheck.decide` replays; unsatisfiable means unwinnable. Out of time
    returns ``UNKNOWN``.
Cost
    Building the formula is linear in its size (about 10,000 constraints for a Classic
    4-player deal, a few tens of milliseconds in Python); solving is NP-hard in general,
    typically well under a second on Classic deals. Explanations cost one extra solve
    per task in the first core.

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew", §4 (seed ``001``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, ClassVar

from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Answer, Budget, Verdict
from crewcheck.solvers.encoding import Formula, decode, encode, explain_core, minimise_core

__all__ = ["Z3Solver", "Z3Options", "to_z3"]


@dataclass(frozen=True)
class Z3Options:
    """Options of the Z3 back-end."""

    explain: bool = True
    """On an unwinnable answer, compute a minimised unsat core of the tasks."""
    logic: str | None = "QF_FD"
    """Z3 logic for ``SolverFor`` (``None``: the default ``Solver()``)."""


def to_z3(formula: Formula, ctx: Any = None) -> tuple[list[Any], list[Any]]:
    """The formula's variables (index = variable id) and assertions as Z3 terms."""
    import z3

    pool = formula.pool
    bools = [None] + [z3.Bool(pool.name(v), ctx) for v in range(1, pool.top + 1)]

    def lit(x: int) -> Any:
        return bools[x] if x > 0 else z3.Not(bools[-x])

    true = z3.BoolVal(True, ctx)
    out: list[Any] = []
    for con in formula.constraints:
        lits = [lit(x) for x in con.lits]
        if con.kind == "or":
            body = z3.Or(*lits) if len(lits) != 1 else lits[0]
            if not lits:
                body = z3.BoolVal(False, ctx)
        elif con.kind == "and":
            body = z3.And(*lits) if len(lits) != 1 else lits[0]
            if not lits:
                body = true
        elif con.kind == "exactly_one":
            body = z3.PbEq([(x, 1) for x in lits], 1) if lits else z3.BoolVal(False, ctx)
        elif con.kind == "at_most_one":
            body = z3.AtMost(*lits, 1) if len(lits) > 1 else true
        elif con.kind == "at_most":
            body = (z3.AtMost(*lits, con.bound) if con.bound < len(lits) else true) if con.bound >= 0 \
                else z3.BoolVal(False, ctx)
        else:  # at_least
            if con.bound <= 0:
                body = true
            elif con.bound > len(lits):
                body = z3.BoolVal(False, ctx)
            else:
                body = z3.AtLeast(*lits, con.bound)
        if con.enforce:
            guard = [lit(x) for x in con.enforce]
            body = z3.Implies(z3.And(*guard) if len(guard) > 1 else guard[0], body)
        out.append(body)
    return bools, out


class Z3Solver:
    """Z3 on the shared winnability encoding; see the module docstring."""

    name: ClassVar[str] = "z3"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = (("z3", "z3"),)

    def __init__(self, options: Z3Options | None = None) -> None:
        self.options = options or Z3Options()

    def supports(self, instance: Instance) -> str | None:
        return None

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        import z3

        start = time.perf_counter()
        deadline = budget.start()
        enc = encode(instance)
        ctx = z3.Context()
        bools, assertions = to_z3(enc.formula, ctx)
        solver = z3.SolverFor(self.options.logic, ctx=ctx) if self.options.logic else z3.Solver(ctx=ctx)
        solver.add(*assertions)
        built = time.perf_counter() - start
        assume = {k: bools[v] for k, v in enc.vars.task.items()}

        def check(tasks: list[int]) -> Any:
            left = deadline.remaining()
            if left is not None:
                solver.set("timeout", max(1, int(left * 1000)))
            return solver.check(*[assume[k] for k in tasks])

        stats = {"variables": enc.formula.pool.top, "constraints": len(enc.formula.constraints),
                 "build_seconds": round(built, 4)}
        result = check(list(enc.position.tasks))
        if result == z3.sat:
            model = solver.model()
            plays, assignment = decode(enc, lambda v: z3.is_true(model.eval(bools[v], model_completion=True)))
            return Answer(Verdict.WINNABLE, plays, assignment, extra=stats)
        if result != z3.sat and result != z3.unsat:
            return Answer(Verdict.UNKNOWN, extra=stats)
        explanation = None
        if self.options.explain and enc.position.tasks:
            names = {str(assume[k]): k for k in assume}
            core = sorted(names[str(x)] for x in solver.unsat_core())
            core = minimise_core(core, lambda ts: check(ts) == z3.unsat, lambda: deadline.expired())
            stats["core"] = len(core)
            explanation = explain_core(instance, core)
        return Answer(Verdict.UNWINNABLE, extra=stats, explanation=explanation)
