"""Free assignment: which seats can still take each open task in some winning line
(:func:`task_seats`), with the winnability encoding kept in one incremental CDCL solver;
the draft (:func:`draft_verdicts`) and the distress signal's passes
(:func:`signal_verdicts`) one pick at a time, each option a solve under assumptions."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from crewcheck.analysis.run import Cancel
from crewcheck.errors import NotApplicableError
from crewcheck.model.instance import Instance, Seat
from crewcheck.solvers.base import Budget, BudgetExceeded, Result, Verdict

__all__ = ["TaskSeats", "task_seats", "draft_verdicts", "signal_verdicts"]


@dataclass(frozen=True)
class TaskSeats:
    """Free assignment: the seats that can take one open task in some winning line."""

    task: int
    """Index into :attr:`Instance.tasks`."""
    seats: tuple[Seat, ...]
    """Seats that take it in some winning line from the position."""
    unknown: tuple[Seat, ...] = ()
    """Seats not decided (time limit or cancel)."""


def task_seats(instance: Instance, *, position: Result | None = None, timeout: float | None = None,
               cancel: Cancel | None = None) -> tuple[TaskSeats, ...]:
    """Free assignment: for every task still open, the seats that take it in some winning
    line from the position after the history.

    The winnability encoding, without its symmetry breaking (which may keep only one
    of two interchangeable task cards' assignments), goes into one incremental CDCL
    solver; each question "can seat s take task k?" is a solve under the assumption
    ``owner_k{k}_s{s}``, and every model found answers the questions it settles.
    ``position``, a known result of the position, seeds the answers with its assignment.
    ``timeout`` bounds the whole computation; seats left undecided are in
    :attr:`TaskSeats.unknown`.

    Raises
    ------
    NotApplicableError
        The deal is not under free assignment.

    Examples
    --------
    >>> from crewcheck.formats.deal_json import loads
    >>> deal = loads('{"hands": [["B1", "G2"], ["B2", "G1"]], "lead": 0, "assignment": "free", '
    ...              '"tasks": [{"card": "B2"}, {"card": "G1"}]}')
    >>> [(deal.card(deal.tasks[t.task].card).__str__(), t.seats) for t in task_seats(deal)]
    [('B2', (1,)), ('G1', (0,))]
    """

    # The encoding is imported when a question needs it: this module is loaded by every
    # analysis and by the result writer of `crewcheck decide`, which most runs never ask.
    from crewcheck.solvers.logic import sat_process
    from crewcheck.solvers.logic.encoding import size_limit
    from crewcheck.solvers.logic.sat import SatSolver

    if instance.rules.assignment != "free":
        raise NotApplicableError(f"task_seats needs free assignment; this deal has {instance.rules.assignment!r}")
    if not instance.is_concrete():
        raise NotApplicableError("task_seats needs a deal without a seat left to choose")
    state = instance.state()
    owners = state.owners or ()
    open_tasks = [k for k, o in enumerate(owners) if o < 0]
    if state.end is not None or not open_tasks:
        return ()
    p = instance.players
    if position is not None and position.verdict is Verdict.UNWINNABLE:
        return tuple(TaskSeats(k, ()) for k in open_tasks)
    counts = instance.task_counts or (0,) * p
    room = [counts[s] - sum(1 for o in owners if o == s) for s in range(p)]
    possible: set[tuple[int, Seat]] = set()
    impossible: set[tuple[int, Seat]] = {(k, s) for k in open_tasks for s in range(p) if room[s] <= 0}
    if position is not None and position.witness is not None and position.witness.assignment is not None:
        possible.update((k, position.witness.assignment[k]) for k in open_tasks)

    def answer(unknown: bool) -> tuple[TaskSeats, ...]:
        out = []
        for k in open_tasks:
            seats = tuple(s for s in range(p) if (k, s) in possible)
            left = tuple(s for s in range(p) if (k, s) not in possible and (k, s) not in impossible)
            out.append(TaskSeats(k, seats, left if unknown else ()))
        return tuple(out)

    pending = [(k, s) for k in open_tasks for s in range(p) if (k, s) not in possible | impossible]
    if not pending:
        return answer(False)

    if sat_process.available() is not None or size_limit(instance) is not None:
        return answer(True)
    from pysat.solvers import Solver  # type: ignore[import-untyped]


    cnf, v = _owner_formula(instance)
    deadline = Budget(seconds=timeout, cancel=cancel).start()
    with Solver(name="glucose42", bootstrap_with=cnf.clauses) as sat:
        for k, s in pending:
            if (k, s) in possible or (k, s) in impossible:
                continue
            got = SatSolver._solve_until(sat, [v.owner[(k, s)]], deadline, None)
            if got is None:
                return answer(True)
            if got:
                values = {abs(x): x > 0 for x in sat.get_model() or ()}
                possible.update((kk, ss) for (kk, ss), var in v.owner.items() if values.get(var, False))
            else:
                impossible.add((k, s))
    return answer(False)


def _owner_formula(instance: Instance) -> tuple[Any, Any]:
    """The winnability encoding of ``instance`` (free assignment) without its symmetry
    breaking, as clauses with the position's assumptions, and its variables (``owner``:
    task and seat -> the literal "the seat takes the task")."""
    from crewcheck.solvers.logic.encoding import ENCODERS
    from crewcheck.solvers.logic.export import to_cnf
    from crewcheck.solvers.logic.formula import Formula
    from crewcheck.solvers.logic.position import add_variables, position_of
    from crewcheck.solvers.logic.rule_clauses import add_symmetry_constraints

    pos = position_of(instance)
    model = Formula()
    v = add_variables(model, pos)
    for add in ENCODERS:
        if add is not add_symmetry_constraints:
            add(model, v, pos)
    return to_cnf(model, assume=[v.task[k] for k in pos.tasks]), v


def draft_verdicts(instance: Instance, taken: Mapping[int, Seat], seat: Seat, candidates: Sequence[int], *,
                   timeout: float | None = None, cancel: Cancel | None = None) -> dict[int, Verdict]:
    """The draft, one task at a time: for each task in ``candidates``, whether the deal
    (free assignment, before its first card) can still be won when ``seat`` takes it and
    every task in ``taken`` (task index -> seat) went where it did. One incremental CDCL
    solver answers every candidate under assumptions (``owner_k{k}_s{s}``); a candidate
    left undecided by ``timeout`` or ``cancel`` is :attr:`Verdict.UNKNOWN`.

    Raises
    ------
    NotApplicableError
        The deal is not under free assignment, or leaves a seat to choose, or is too
        large to encode.
    """
    from crewcheck.solvers.logic import sat_process
    from crewcheck.solvers.logic.encoding import size_limit
    from crewcheck.solvers.logic.sat import SatSolver

    if instance.rules.assignment != "free" or not instance.is_concrete():
        raise NotApplicableError("draft_verdicts needs a deal under free assignment without a seat to choose")
    too_big = sat_process.available() or size_limit(instance)
    if too_big is not None:
        raise NotApplicableError(too_big)
    from pysat.solvers import Solver

    out = {k: Verdict.UNKNOWN for k in candidates}
    cnf, v = _owner_formula(instance)
    if any((k, s) not in v.owner for k, s in taken.items()):  # a seat with no room for that task
        return {k: Verdict.UNWINNABLE for k in candidates}
    given = [v.owner[(k, s)] for k, s in taken.items()]
    deadline = Budget(seconds=timeout, cancel=cancel).start()
    with Solver(name="glucose42", bootstrap_with=cnf.clauses) as sat:
        for k in candidates:
            if (k, seat) not in v.owner:
                out[k] = Verdict.UNWINNABLE
                continue
            got = SatSolver._solve_until(sat, [*given, v.owner[(k, seat)]], deadline, None)
            if got is None:
                break
            out[k] = Verdict.WINNABLE if got else Verdict.UNWINNABLE
    return out


def signal_verdicts(instance: Instance, given: Mapping[Seat, int], seat: Seat, candidates: Sequence[int], *,
                    timeout: float | None = None, cancel: Cancel | None = None) -> dict[int, Verdict]:
    """The distress signal, one seat's pass at a time: for each card in ``candidates``,
    whether the deal (a distress signal in one direction, ``"left"`` or ``"right"``,
    before its first card) can still be won when ``seat`` passes it and every seat in
    ``given`` passed its card, the other seats' passes and every other choice of the
    crew left free. The formula of every choice with the passes as variables
    (:func:`crewcheck.solvers.logic.choices.encode_deal`) goes into one incremental CDCL
    solver; each candidate is a solve under the assumptions "seat s passes card c" in
    every choice's branch (a branch not taken leaves its variables free). A candidate
    left undecided by ``timeout`` or ``cancel`` is :attr:`Verdict.UNKNOWN`.

    Raises
    ------
    NotApplicableError
        The deal has no distress signal in one direction, a history, a condition the
        formula does not encode, or is too large to encode.
    """
    from crewcheck.errors import InvalidInputError
    from crewcheck.solvers.logic.choices import encode_deal
    from crewcheck.solvers.logic.encoding import ENCODED_KINDS
    from crewcheck.solvers.logic.export import to_cnf
    from crewcheck.solvers.logic.sat import SatSolver

    if instance.distress not in ("left", "right") or instance.history:
        raise NotApplicableError("signal_verdicts needs a deal before its first card with a distress signal "
                                 "in one direction")
    if any(c.kind not in ENCODED_KINDS for c in instance.conditions):
        raise NotApplicableError("the deal holds a condition the formula does not encode")
    out = {c: Verdict.UNKNOWN for c in candidates}
    deadline = Budget(seconds=timeout, cancel=cancel).start()
    try:
        enc = encode_deal(instance, deadline=deadline)
        cnf = to_cnf(enc.formula, assume=enc.assumptions, deadline=deadline)
    except InvalidInputError as e:
        raise NotApplicableError(str(e)) from None
    except BudgetExceeded:
        return out

    def held(s: Seat, c: int) -> list[int]:
        """"Seat s passes card c" in every branch that encodes a game."""
        return [b.ids[b.encoding.vars.passes[(s, c)]] for b in enc.branches
                if b.encoding is not None and (s, c) in b.encoding.vars.passes]

    fixed = [lit for s, c in given.items() if c >= 0 for lit in held(s, c)]
    from pysat.solvers import Solver

    with Solver(name="glucose42", bootstrap_with=cnf.clauses) as sat:
        for c in candidates:
            got = SatSolver._solve_until(sat, [*fixed, *held(seat, c)], deadline, None)
            if got is None:
                break
            out[c] = Verdict.WINNABLE if got else Verdict.UNWINNABLE
    return out
