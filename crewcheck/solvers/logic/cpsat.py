"""The CP-SAT back-end: the winnability model solved by OR-Tools CP-SAT.

What it is
    The shared model of :mod:`crewcheck.solvers.logic.encoding` (de Jong [1]_ §4 generalised)
    written into a ``CpModel`` the way CP-SAT likes it: one ``BoolVar`` per variable,
    ``add_exactly_one`` for "each seat plays one card per trick", "one led suit",
    "the first leader"; trick winners reified with ``add_bool_and(...).only_enforce_if
    (win)``; the free-assignment quotas and number tokens as linear constraints
    (``sum(owner) <= quota``, enforced counts) that CP-SAT propagates natively instead of
    a CNF counter. Under free assignment an integer model of "tasks and other cards taken
    per seat per trick" is added on top (:func:`add_task_count_constraints`), which
    CP-SAT's integer reasoning exploits where clause learning is helpless (4 players, 36
    free tasks: unwinnable, proved in seconds; 34 free tasks: each seat's tricks counted
    out exactly). The decision fixes the tasks; for an explanation a
    second model takes them as assumptions (``add_assumptions``), and
    ``sufficient_assumptions_for_infeasibility`` gives a core, minimised by deletion (a
    single worker, as CP-SAT cores need) under a time cap.
Rule features
    Everything the model covers: trumps or none, any seats and suits, unequal hands,
    the three first-lead modes, order tokens in both readings, fixed and free
    assignment, mid-game positions.
Exact
    Yes: a feasible solution decodes to a winning continuation that
    :func:`crewcheck.decide` replays; infeasible means unwinnable. Out of time returns
    ``UNKNOWN``.
Cost
    Building is linear in the model (as for Z3), plus CP-SAT's presolve, a fixed cost of
    some tens of milliseconds; on easy Classic deals it is about twice Z3's time, on free
    assignment with many tasks it is usually faster and its integer counts decide cases
    Z3 cannot (see ``docs/performance.md``). ``CpSatOptions.workers`` > 1 runs
    CP-SAT's parallel portfolio (only worth it on an idle machine).

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew", §4 (seed ``001``).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar

from crewcheck.errors import BackendError
from crewcheck.model.derived import quotas_left
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Answer, Budget, Deadline
from crewcheck.solvers.logic.encoding import ENCODED_KINDS, size_limit
from crewcheck.solvers.logic.formula import CHECK_EVERY, Formula
from crewcheck.solvers.logic.position import Encoding
from crewcheck.solvers.logic.decide import Shrink, Solved, decide_encoded

__all__ = ["CpSatSolver", "CpSatOptions", "to_cp_model", "add_task_count_constraints", "counts_bind",
           "TRICK_COUNTS_SPARE"]


@dataclass(frozen=True)
class CpSatOptions:
    """Options of the CP-SAT back-end."""

    workers: int = 1
    """CP-SAT search workers (``num_workers``); 1 is deterministic and best on a shared
    machine; cores are always computed with one worker."""
    explain: bool = True
    """On an unwinnable answer, compute a minimised core of the tasks."""
    seed: int = 0
    """CP-SAT ``random_seed``."""
    explain_factor: float = 5.0
    """Explanations may take this many times the decision's time, plus one second."""
    trick_counts: bool = True
    """Free assignment: add each seat's tricks and other cards to the integer counts
    (:func:`add_task_count_constraints`) where they bind (:func:`counts_bind`); off only
    to measure what they buy."""


def to_cp_model(formula: Formula, deadline: Deadline | None = None) -> tuple[Any, list[Any]]:
    """A ``CpModel`` for ``formula`` and its ``BoolVar`` per variable id (index 0 unused);
    ``deadline`` is checked as it goes (:class:`~crewcheck.solvers.base.BudgetExceeded`)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    pool = formula.pool
    bools: list[Any] = [None] + [model.new_bool_var(pool.name(v)) for v in range(1, pool.top + 1)]

    def lit(x: int) -> Any:
        return bools[x] if x > 0 else bools[-x].Not()

    for count, con in enumerate(formula.constraints):
        if deadline is not None and not count % CHECK_EVERY:
            deadline.check()
        lits = [lit(x) for x in con.lits]
        enforce = [lit(x) for x in con.enforce]
        ct: Any
        if con.kind == "or":
            ct = model.add_bool_or(lits)
        elif con.kind == "and":
            ct = model.add_bool_and(lits)
        elif con.kind == "exactly_one":
            ct = model.add_exactly_one(lits)
        elif con.kind == "at_most_one":
            ct = model.add_at_most_one(lits)
        elif con.kind == "at_most":
            ct = model.add(sum(lits) <= con.bound) if lits else model.add_bool_or([]) if con.bound < 0 else None
        else:
            ct = model.add(sum(lits) >= con.bound) if lits else model.add_bool_or([]) if con.bound > 0 else None
        if enforce and ct is not None:
            ct.only_enforce_if(enforce)
    return model, bools


TRICK_COUNTS_SPARE = 2
"""The trick counts bind when the tricks left exceed the fewest the quotas need by at most
this many (:func:`counts_bind`)."""


def counts_bind(instance: Instance) -> bool:
    """Free assignment whose quotas nearly fill the tricks left: a seat taking ``q`` more
    tasks wins at least ``ceil(q / players)`` more tricks, and those leave at most
    :data:`TRICK_COUNTS_SPARE` tricks to spare (20-34 tasks on four seats of the Classic
    deck). There each seat's tricks and other cards are counted out closely, and the trick
    counts decide in seconds what clause learning cannot (32-34 tasks); on ordinary deals
    with 20-28 tasks they cost CP-SAT about a quarter more time (docs/performance.md, "The
    hard tail")."""
    if instance.rules.assignment != "free":
        return False
    state = instance.state()
    quotas = quotas_left(state)
    if quotas is None:
        return False
    needed = sum(-(-q // instance.players) for q in quotas)
    return instance.tricks - state.tricks_played - needed <= TRICK_COUNTS_SPARE


def add_task_count_constraints(model: Any, bools: list[Any], enc: Encoding, *, tricks: bool = True) -> None:
    """Free assignment, every task required: integer counts of what each seat's tricks hold.

    Redundant with the Boolean model, but CP-SAT reasons on these small integer sums
    directly where clause learning is helpless.

    - The tasks in a trick all go to its winner, and each seat takes exactly its quota. On
      four players with all 36 colour cards as free tasks (quotas 9 each, tricks of four
      cards) this proves in seconds that no split of the tricks gives every seat 9 tasks
      (each seat would need three rockets among its tricks; there are four).
    - ``tricks``: a trick holds one card of each seat, so a seat's tricks hold ``p`` cards
      each, its tasks and the cards that are no task. Per seat, ``p * tricks won - other
      cards taken == quota``. When the quotas nearly fill the game, the bounds alone fix
      each seat's tricks and other cards: 34 free tasks on four seats (quotas 9/9/8/8, six
      other cards) give tricks 3/3/2/2 and other cards 3/3/0/0. With these counts CP-SAT
      decides in seconds the 34-task deals of de Jong's Figure 3 that it and the engine
      otherwise take hours over (docs/performance.md, "The hard tail").
    """
    pos, v = enc.position, enc.vars
    if pos.quotas is None or not pos.tasks:
        return
    p = pos.instance.players
    task_cards = {pos.instance.tasks[k].card for k in pos.tasks}
    in_play = [c for c in range(pos.instance.deck.size) if pos.cards >> c & 1]
    other = [c for c in in_play if c not in task_cards]

    def taken(s: int, cards: Any, name: str) -> list[Any]:
        """Per trick, how many of ``cards`` seat ``s`` takes (all of the trick's if it wins it)."""
        out = []
        for t in pos.tricks:
            won = bools[v.winner[(t, s)]]
            z = model.new_int_var(0, p, f"{name}_t{t}_s{s}")
            model.add(z == sum(bools[v.played_by(t, c)] for c in cards)).only_enforce_if(won)
            model.add(z == 0).only_enforce_if(won.Not())
            out.append(z)
        return out

    others_taken = []
    for s in range(p):
        # Each seat takes exactly its draft count (minus the tasks it already won).
        model.add(sum(taken(s, task_cards, "tasks")) == pos.quotas[s])
        if tricks:
            tricks_won = model.new_int_var(0, len(pos.tricks), f"tricks_s{s}")
            other_taken = model.new_int_var(0, len(other), f"others_s{s}")
            model.add(tricks_won == sum(bools[v.winner[(t, s)]] for t in pos.tricks))
            model.add(other_taken == sum(taken(s, other, "others")))
            model.add(p * tricks_won - other_taken == pos.quotas[s])
            others_taken.append(other_taken)
    if tricks:
        if pos.passing is None and len(in_play) == p * len(pos.tricks):  # every card in play is played
            model.add(sum(others_taken) == len(other))
        else:
            model.add(sum(others_taken) == sum(bools[v.played_by(t, c)] for t in pos.tricks for c in other))


POLL_SECONDS = 0.01
"""How often a running solve looks at its deadline and the budget's ``cancel``."""


def _solve_watched(solver: Any, model: Any, deadline: Deadline, cap: Deadline | None) -> Any:
    """``solver.solve(model)``, stopped from a watcher thread (``stop_search``) once
    ``deadline`` or ``cap`` expires or the budget's ``cancel`` says stop: CP-SAT's own
    ``max_time_in_seconds`` ran 4 s over on a 200-card deal's 1.7 million constraints."""
    if deadline.until is None and deadline.cancel is None and cap is None:
        return solver.solve(model)
    finished = threading.Event()

    def watch() -> None:
        while not finished.wait(POLL_SECONDS):
            if deadline.expired() or (cap is not None and cap.expired()):
                solver.stop_search()
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        return solver.solve(model)
    finally:
        finished.set()
        watcher.join()


class CpSatSolver:
    """OR-Tools CP-SAT on the shared winnability model; see the module docstring."""

    name: ClassVar[str] = "cpsat"
    condition_kinds: ClassVar[frozenset[str]] = ENCODED_KINDS
    plays_covered: ClassVar[bool] = True
    """Every condition kind (:func:`encoding.add_condition_constraints`)."""
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = (("ortools", "cpsat"),)

    def __init__(self, options: CpSatOptions | None = None) -> None:
        self.options = options or CpSatOptions()

    def supports(self, instance: Instance) -> str | None:
        """Every rule feature; only deals whose encoding would be huge are refused."""
        return size_limit(instance)

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        return decide_encoded(instance, budget, self.options, self._solve, self._shrinker)

    def _solve(self, enc: Encoding, deadline: Deadline, stats: dict[str, Any], start: float) -> Solved:
        from ortools.sat.python import cp_model

        model, bools = to_cp_model(enc.formula, deadline)
        # The decision fixes the tasks as facts (presolve uses them; assumptions would
        # keep them open): the explanation builds its own model with assumptions.
        model.add_bool_and([bools[v] for v in enc.assumptions])
        add_task_count_constraints(model, bools, enc,
                                   tricks=self.options.trick_counts and counts_bind(enc.position.instance))
        stats.update(variables=enc.formula.pool.top, constraints=len(enc.formula.constraints),
                     build_seconds=round(time.perf_counter() - start, 4))
        deadline.check()
        solver = self._solver(deadline, None, self.options.workers)
        status = _solve_watched(solver, model, deadline, None)
        if status == cp_model.MODEL_INVALID:
            raise BackendError(f"cp-sat rejected the model: {model.validate()}")
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Solved(True, lambda v: bool(solver.boolean_value(bools[v])))
        return Solved(False if status == cp_model.INFEASIBLE else None)

    def _solver(self, deadline: Deadline, limit: Deadline | None, workers: int) -> Any:
        from ortools.sat.python import cp_model

        solver = cp_model.CpSolver()
        solver.parameters.random_seed = self.options.seed
        solver.parameters.num_workers = workers
        lefts = [x for x in (deadline.remaining(), limit.remaining() if limit else None) if x is not None]
        if lefts:
            solver.parameters.max_time_in_seconds = max(0.001, min(lefts))
        return solver

    @contextmanager
    def _shrinker(self, enc: Encoding, kept: Any, deadline: Deadline, limit: Deadline) -> Iterator[Shrink]:
        """Cores over the task assumptions (one worker, as CP-SAT cores need)."""
        from ortools.sat.python import cp_model

        model, bools = to_cp_model(enc.formula)
        index = {bools[v].index: k for k, v in enc.vars.task.items()}

        def shrink(tasks: list[int]) -> list[int] | bool:
            model.clear_assumptions()
            model.add_assumptions([bools[enc.vars.task[k]] for k in tasks])
            solver = self._solver(deadline, limit, 1)
            if _solve_watched(solver, model, deadline, limit) != cp_model.INFEASIBLE:
                return False
            found = [index[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in index]
            return sorted(found) or True

        yield shrink
