"""What the three logic back-ends (``z3``, ``cpsat``, ``sat``) share: one decision path.

Each encodes the position with :func:`crewcheck.solvers.logic.encoding.encode`, solves the
formula with the open tasks as facts, decodes a model into the winning line, and explains
an unsatisfiable answer: a second solver takes the open tasks as assumptions, its core is
minimised by deletion under a time cap (``explain_factor`` times the decision's time, plus
one second) and reported ("tasks G7@1, P9@0 cannot all be completed": no deal with those
tasks, whichever of the others it has, can be won, and dropping any one of them makes
some such deal winnable; the tasks outside the core stay open, see :mod:`.cores`).

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
from crewcheck.solvers.logic.cores import explain_core, minimise_core
from crewcheck.solvers.logic.decode import decode
from crewcheck.solvers.logic.encoding import encode, variables_estimate
from crewcheck.solvers.logic.position import Encoding

__all__ = ["Solved", "Shrink", "ExplainOptions", "decide_encoded", "earliest", "CHILD_VARIABLES"]

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
    """Decide ``instance`` through its encoding (see the module docstring).

    Under a time limit (or a ``cancel``) a deal whose formula is large
    (:data:`CHILD_VARIABLES`) is decided in a forked child process that is killed when
    the budget runs out: on a 200-card deal's 1.7 million constraints Glucose ignored its
    interrupt for 2 s and CP-SAT its time limit and ``stop_search`` for 3-4 s, and freeing
    the formula alone takes half a second. Small formulas, and processes running other
    threads (which must not fork), are decided here.
    """
    if (budget.seconds is not None or budget.cancel is not None) and _fork_context() is not None \
            and variables_estimate(instance) >= CHILD_VARIABLES:
        return _decide_in_child(instance, budget, options, solve, shrinker)
    return _decide_here(instance, budget, options, solve, shrinker)


CHILD_VARIABLES = 20_000
"""Estimated variables (:func:`~crewcheck.solvers.logic.encoding.variables_estimate`) from which
a time-limited decision runs in a child process: about ten times a Classic deal's, a
formula that takes seconds to build."""
CHILD_POLL_SECONDS = 0.01
"""How often the parent looks at the child, the deadline and the budget's ``cancel``."""


def _fork_context() -> Any:
    """A ``fork`` multiprocessing context when this process may fork (a single thread on
    a platform with ``fork``), else ``None``."""
    import multiprocessing
    import threading

    if "fork" not in multiprocessing.get_all_start_methods() or threading.active_count() != 1:
        return None
    return multiprocessing.get_context("fork")


def _child(conn: Any, parent: int, instance: Instance, seconds: float | None, options: ExplainOptions,
           solve: SolveFn, shrinker: ShrinkerFn) -> None:
    import signal

    from crewcheck.runtime.processes import die_with_parent

    die_with_parent(parent)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        answer = _decide_here(instance, Budget(seconds=seconds), options, solve, shrinker)
        conn.send(("answer", answer.verdict.value, answer.plays, answer.assignment, answer.nodes,
                   dict(answer.extra), answer.explanation))
    except BaseException as e:  # reported to the parent
        conn.send(("error", f"{type(e).__name__}: {e}"))
    finally:
        conn.close()


def _decide_in_child(instance: Instance, budget: Budget, options: ExplainOptions, solve: SolveFn,
                     shrinker: ShrinkerFn) -> Answer:
    import os

    from crewcheck.errors import BackendError

    ctx = _fork_context()
    deadline = budget.start()
    receiver, sender = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(sender, os.getpid(), instance, deadline.remaining(), options, solve,
                                            shrinker), name="crewcheck-logic", daemon=True)
    proc.start()
    sender.close()
    try:
        while not receiver.poll(CHILD_POLL_SECONDS):
            if deadline.expired():
                proc.kill()  # reaped by multiprocessing later: taking back its memory is not our time
                return Answer(Verdict.UNKNOWN, extra={"stopped": "at the time limit (the solver's process was stopped)"})
            if not proc.is_alive() and not receiver.poll():
                raise BackendError(f"the solver's process ended without an answer (exit code {proc.exitcode})")
        try:
            msg = receiver.recv()
        except (EOFError, OSError):
            raise BackendError(f"the solver's process ended without an answer (exit code {proc.exitcode})") from None
    finally:
        receiver.close()
    # not joined: the child exits by itself, and multiprocessing reaps it later
    if msg[0] == "error":
        raise BackendError(f"the solver's process failed: {msg[1]}")
    _, verdict, plays, assignment, nodes, extra, explanation = msg
    return Answer(Verdict(verdict), plays, assignment, nodes, {**extra, "process": "child"}, explanation)


def _decide_here(instance: Instance, budget: Budget, options: ExplainOptions, solve: SolveFn,
                 shrinker: ShrinkerFn) -> Answer:
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
