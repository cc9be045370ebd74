"""The Z3 back-end: de Jong's SAT encoding of winnability, solved by Z3.

What it is
    The shared encoding of :mod:`crewcheck.solvers.logic.encoding` (de Jong [1]_ §4,
    expressions (4)-(15), generalised) handed to Z3's finite-domain solver
    (``SolverFor("QF_FD")``: its SAT core with native pseudo-Boolean constraints) as one
    SMT-LIB string (:func:`to_smt2`): clauses stay clauses, cardinality constraints
    become ``(_ at-most k)`` / ``(_ at-least k)`` (no CNF expansion), enforcement
    literals ``=>``. The decision asserts the open tasks as facts. On an unsatisfiable
    answer a second solver takes every open task as an assumption; Z3's unsat core over
    them is minimised by deletion (under a time cap, ``Z3Options.explain_factor``) and
    reported as the explanation ("tasks G7@1, P9@0 cannot all be completed"): no deal
    with those tasks, whichever of the others it has, can be won, and dropping any one
    of them makes some such deal winnable (:mod:`crewcheck.solvers.logic.cores`).
Rule features
    Everything the model covers: trumps or none, any seats and suits, unequal hands,
    the three first-lead modes, order tokens in both readings, fixed and free
    assignment, mid-game positions.
Exact
    Yes: a satisfying model decodes to a winning continuation that
    :func:`crewcheck.decide` replays; unsatisfiable means unwinnable. Out of time
    returns ``UNKNOWN``.
Cost
    Building is linear in the formula (2,000-4,000 variables and 7,000-14,000 CNF
    clauses for a Classic deal; ~0.1 s of Python and Z3 parsing on an idle core);
    solving is NP-hard in general: 0.1-0.5 s on most Classic deals, seconds to minutes on
    hard refutations with many fixed tasks, and heavy-tailed on free assignment with 25+
    tasks (see ``docs/performance.md``). Explanations cost one extra solve per task
    in the first core.

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew", §4 (seed ``001``).
"""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Answer, Budget, Deadline
from crewcheck.solvers.logic.encoding import ENCODED_KINDS, size_limit
from crewcheck.solvers.logic.formula import CHECK_EVERY, Formula
from crewcheck.solvers.logic.position import Encoding
from crewcheck.solvers.logic.decide import Shrink, Solved, decide_encoded

__all__ = ["Z3Solver", "Z3Options", "to_smt2"]

POLL_SECONDS = 0.01
"""How often a running check looks at its deadline and the budget's ``cancel``."""
PARSE_BLOCK = 20_000
"""Assertions Z3 reads between two looks at the deadline."""

_TRUE = re.compile(r"\(define-fun (\S+) \(\) Bool\s+true\)")


@dataclass(frozen=True)
class Z3Options:
    """Options of the Z3 back-end."""

    explain: bool = True
    """On an unwinnable answer, compute a minimised unsat core of the tasks."""
    logic: str | None = "QF_FD"
    """Z3 logic for ``SolverFor`` (``None``: the default ``Solver()``)."""
    explain_factor: float = 5.0
    """Explanations may take this many times the decision's time, plus one second."""


def to_smt2(formula: Formula) -> str:
    """The formula as an SMT-LIB 2 script Z3 reads natively (Z3's ``(_ at-most k)``,
    ``(_ at-least k)`` and ``(_ pbeq ...)`` for cardinalities; no CNF expansion).

    Building Z3 terms through the Python API costs tens of microseconds per term; one
    string parsed by Z3's own reader is an order of magnitude faster.
    """
    declarations, assertions = smt2_lines(formula)
    return "\n".join(declarations + assertions)


def smt2_lines(formula: Formula, deadline: Deadline | None = None) -> tuple[list[str], list[str]]:
    """:func:`to_smt2` as its declarations and its assertions, one per line; ``deadline``
    is checked as it goes (:class:`~crewcheck.solvers.base.BudgetExceeded`)."""
    pool = formula.pool
    name = [""] + [pool.name(v) for v in range(1, pool.top + 1)]

    neg = [""] + [f"(not {n})" for n in name[1:]]

    def lit(x: int) -> str:
        return name[x] if x > 0 else neg[-x]

    def conj(items: list[str]) -> str:
        return "true" if not items else items[0] if len(items) == 1 else f"(and {' '.join(items)})"

    def disj(items: list[str]) -> str:
        return "false" if not items else items[0] if len(items) == 1 else f"(or {' '.join(items)})"

    declarations = [f"(declare-const {n} Bool)" for n in name[1:]]
    out: list[str] = []
    for count, con in enumerate(formula.constraints):
        if deadline is not None and not count % CHECK_EVERY:
            deadline.check()
        if con.kind == "or":
            # a clause: enforcement literals join it negated
            items = [neg[x] if x > 0 else name[-x] for x in con.enforce]
            items += [name[x] if x > 0 else neg[-x] for x in con.lits]
            out.append(f"(assert {disj(items)})")
            continue
        lits = [lit(x) for x in con.lits]
        n = len(lits)
        if con.kind == "and":
            body = conj(lits)
        elif con.kind == "exactly_one":
            body = "false" if n == 0 else lits[0] if n == 1 else f"((_ pbeq 1 {' '.join(['1'] * n)}) {' '.join(lits)})"
        elif con.kind == "at_most_one":
            body = "true" if n <= 1 else f"((_ at-most 1) {' '.join(lits)})"
        elif con.kind == "at_most":
            k = con.bound
            body = "false" if k < 0 else "true" if k >= n else \
                conj([f"(not {x})" for x in lits]) if k == 0 else f"((_ at-most {k}) {' '.join(lits)})"
        else:
            k = con.bound
            body = "true" if k <= 0 else "false" if k > n else \
                conj(lits) if k == n else f"((_ at-least {k}) {' '.join(lits)})"
        if con.enforce:
            body = f"(=> {conj([lit(e) for e in con.enforce])} {body})"
        out.append(f"(assert {body})")
    return declarations, out


def _check(solver: Any, ctx: Any, deadline: Deadline, cap: Deadline | None, *assumptions: Any) -> Any:
    """``solver.check(*assumptions)``, interrupted from a watcher thread once ``deadline``
    or ``cap`` expires (or the budget's ``cancel`` says stop): Z3's own ``timeout`` is
    not looked at during its preprocessing, which on a 200-card deal runs for tens of
    seconds past it."""
    if deadline.until is None and deadline.cancel is None and cap is None:
        return solver.check(*assumptions)
    finished = threading.Event()

    def watch() -> None:
        while not finished.wait(POLL_SECONDS):
            if deadline.expired() or (cap is not None and cap.expired()):
                ctx.interrupt()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        return solver.check(*assumptions)
    finally:
        finished.set()
        watcher.join()


class Z3Solver:
    """Z3 on the shared winnability encoding; see the module docstring."""

    name: ClassVar[str] = "z3"
    condition_kinds: ClassVar[frozenset[str]] = ENCODED_KINDS
    plays_covered: ClassVar[bool] = True
    """Every condition kind (:func:`encoding.add_condition_constraints`)."""
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = (("z3", "z3"),)

    def __init__(self, options: Z3Options | None = None) -> None:
        self.options = options or Z3Options()

    def supports(self, instance: Instance) -> str | None:
        """Every rule feature; only deals whose encoding would be huge are refused."""
        return size_limit(instance)

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        return decide_encoded(instance, budget, self.options, self._solve, self._shrinker)

    def _solve(self, enc: Encoding, deadline: Deadline, stats: dict[str, Any], start: float) -> Solved:
        import z3  # type: ignore[import-untyped]

        ctx = z3.Context()
        pool = enc.formula.pool
        declarations, assertions = smt2_lines(enc.formula, deadline)
        # The decision asserts the tasks as facts: the solver simplifies with them, which
        # assumptions would prevent (a refutation runs up to 1.5x faster this way).
        units = [f"(assert {pool.name(v)})" for v in enc.assumptions]
        solver = self._solver(z3, ctx)
        # Z3 keeps the declarations between reads: the assertions go in blocks, with a
        # look at the deadline between them (a 200-card deal is 100 MB of text)
        solver.from_string("\n".join(declarations))
        for i in range(0, len(assertions), PARSE_BLOCK):
            deadline.check()
            solver.from_string("\n".join(assertions[i:i + PARSE_BLOCK]))
        solver.from_string("\n".join(units))
        deadline.check()  # (on expiry the lines are freed with the frame: they are a tenth of the formula)
        stats.update(variables=pool.top, constraints=len(enc.formula.constraints),
                     build_seconds=round(time.perf_counter() - start, 4))
        left = deadline.remaining()
        if left is not None:
            solver.set("timeout", max(1, int(left * 1000)))
        result = _check(solver, ctx, deadline, None)
        if result == z3.sat:
            # one C call and a regex: walking model.decls() costs ~0.2 ms per variable
            true = set(_TRUE.findall(solver.model().sexpr()))
            return Solved(True, lambda v: pool.name(v) in true)
        return Solved(False if result == z3.unsat else None, kept=(ctx, declarations, assertions))

    def _solver(self, z3: Any, ctx: Any) -> Any:
        return z3.SolverFor(self.options.logic, ctx=ctx) if self.options.logic else z3.Solver(ctx=ctx)

    @contextmanager
    def _shrinker(self, enc: Encoding, kept: Any, deadline: Deadline, limit: Deadline) -> Iterator[Shrink]:
        """Unsat cores over the task assumptions, in the decision's context and formula."""
        import z3

        ctx, declarations, assertions = kept
        solver = self._solver(z3, ctx)
        solver.from_string("\n".join(declarations + assertions))
        pool = enc.formula.pool
        assume = {k: z3.Bool(pool.name(v), ctx) for k, v in enc.vars.task.items()}
        names = {str(b): k for k, b in assume.items()}

        def shrink(tasks: list[int]) -> list[int] | bool:
            lefts = [x for x in (deadline.remaining(), limit.remaining()) if x is not None]
            if lefts:
                solver.set("timeout", max(1, int(min(lefts) * 1000)))
            if _check(solver, ctx, deadline, limit, *[assume[k] for k in tasks]) != z3.unsat:
                return False
            return sorted(names[str(x)] for x in solver.unsat_core()) or True

        yield shrink
