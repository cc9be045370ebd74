"""Deals apart only in their conditions, decided in one SAT call.

What it is
    The crew's choices often change nothing but the conditions: the takings of a
    *Mission Deep Sea* mission (:mod:`crewcheck.missions.deepsea`; 210 ways to share
    seven task cards among three seats) and the seats a ``"choose"`` condition leaves to
    the crew (at most four in the logbook, fewer than a group needs:
    :data:`MIN_GROUP`). :func:`decide_conditions` encodes the game once (hands, lead and rules are
    the same) and every distinct condition of the group once, each under a
    gate ``gate{j}`` (every constraint of condition ``j`` enforced by it); a selector
    ``choice{i}`` per deal turns on the gates of that deal's conditions, and at least one
    selector is true.
Exact
    Yes: a model is a line of play that meets every condition of a deal whose selector it
    sets, so that deal can be won (the caller replays the line against it); unsatisfiable
    if and only if no deal of the group can be won. The symmetry breaking sees the
    conditions of the whole group, so it only keeps apart cards one of them names: sound
    for each deal.
Cost
    One game's encoding plus each distinct condition's clauses, instead of a formula per
    deal: on the slowest Deep Sea mission of the study (difficulty 16, 3 players, seed
    17; 210 takings and 69 distinct conditions) one call of about half a second, where
    the takings one by one took minutes (docs/performance.md, "Deals apart only in their
    conditions"). Refuting a group can cost more than refuting its deals one by one
    (difficulty 12, 4 players, seed 69: 24 takings, 13.8 s together against about 7 s
    apart), hence the deciders' limit of :data:`CONDITIONS_SECONDS`.
"""

from __future__ import annotations

import time
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from crewcheck.model.cards import CardIndex
from crewcheck.model.conditions import HOLDS, Condition
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.limits import MAX_CONDITIONS
from crewcheck.solvers.base import BudgetExceeded, Budget, Deadline, discard
from crewcheck.solvers.logic.condition_clauses import CONDITION_CLAUSES, add_condition_constraints
from crewcheck.solvers.logic.choices import groups_apart_in
from crewcheck.solvers.logic.decode import decode
from crewcheck.solvers.logic.encoding import ENCODED_KINDS, ENCODERS, size_limit
from crewcheck.solvers.logic.export import ClauseFormula
from crewcheck.solvers.logic.formula import Constraint, Formula, Lit
from crewcheck.solvers.logic.position import Encoding, Position, Variables, add_variables, position_of

__all__ = ["MIN_GROUP", "CONDITIONS_SECONDS", "ConditionGroup", "condition_groups", "encode_conditions",
           "decide_conditions"]

MIN_GROUP = 8
"""The fewest deals a group holds (:func:`condition_groups`): a few deals are decided
one by one at no greater cost, and a formula holding a hard deal is as hard as that deal
(mission 5's two choices of the sick crew member, one of which Glucose refutes in 87 s)."""
CONDITIONS_SECONDS = 5.0
"""The most seconds the deciders of a deal with choices give one group's formula (a
formula that does not answer in time leaves its deals to be decided one by one)."""


@dataclass(frozen=True)
class ConditionGroup:
    """The formula of a group of deals apart only in their conditions."""

    encoding: Encoding
    """The game and every condition of the group under its gate (the position is the
    first deal's, with the group's conditions)."""
    selectors: tuple[Lit, ...]
    """Deal ``i``'s selector: its conditions hold when it is true."""
    deals: tuple[Instance, ...]


def condition_groups(instances: Sequence[Instance | None]) -> list[list[int]]:
    """The positions of ``instances`` grouped by the deal they are apart from their
    conditions: the groups of :data:`MIN_GROUP` or more concrete deals before play (no history, no
    distress signal) whose every condition has clauses (:data:`~crewcheck.solvers.logic.encoding.ENCODED_KINDS`)
    and at most :data:`~crewcheck.model.limits.MAX_CONDITIONS` distinct conditions
    together, in order of their first member."""
    def fits(inst: Instance) -> bool:
        return (inst.is_concrete() and inst.distress is None and not inst.history
                and all(c.kind in ENCODED_KINDS for c in inst.conditions))

    out = []
    for group in groups_apart_in(instances, "conditions", fits):
        if len(group) < MIN_GROUP:
            continue
        try:
            distinct = {c for i in group for c in _conditions(instances[i])}
        except TypeError:  # a condition that does not hash
            continue
        if len(distinct) <= MAX_CONDITIONS:
            out.append(group)
    return out


def _conditions(inst: Instance | None) -> tuple[Condition, ...]:
    assert inst is not None
    return inst.conditions


def encode_conditions(deals: Sequence[Instance], *, deadline: Deadline | None = None,
                      formula: Formula | None = None) -> ConditionGroup:
    """The formula of ``deals``, which are apart only in their conditions
    (:func:`condition_groups`) and none of them over before play: the game once, each
    distinct condition under its gate, a selector per deal and at least one selector
    true. ``formula``: where to write it (default a new :class:`Formula`; the decider
    writes it as clauses straight away, into a
    :class:`~crewcheck.solvers.logic.export.ClauseFormula`, whose CNF is
    :func:`~crewcheck.solvers.logic.export.to_cnf` of the default's, clause for clause).
    ``deadline`` is checked between the blocks of the game and between conditions."""
    union: dict[Condition, int] = {}
    members = [[union.setdefault(c, len(union)) for c in d.conditions] for d in deals]
    whole = replace(deals[0], conditions=tuple(union))
    pos = position_of(whole)
    model = Formula(deadline=deadline) if formula is None else formula
    try:
        v = add_variables(model, pos)
        for add in ENCODERS:
            if add is not add_condition_constraints:
                add(model, v, pos)
                if deadline is not None:
                    deadline.check()
        gates = [model.new_bool(("gate", j)) for j in range(len(union))]
        for j, (cond, memo) in enumerate(zip(whole.conditions, pos.memos)):
            _add_gated(model, v, pos, cond, memo, j, gates[j])
            if deadline is not None:
                deadline.check()
        selectors = tuple(model.new_bool(("choice", i)) for i in range(len(deals)))
        for sel, js in zip(selectors, members, strict=True):
            for j in js:
                model.add_implication(sel, gates[j])
        model.add_bool_or(selectors)
    except BudgetExceeded:
        discard(model.constraints)
        if isinstance(model, ClauseFormula):
            discard(model.clauses)
        raise
    return ConditionGroup(Encoding(pos, model, v), selectors, tuple(deals))


def _add_gated(model: Formula, v: Variables, pos: Position, cond: Condition, memo: Hashable, j: int,
               gate: Lit) -> None:
    """Condition ``j``'s clauses, each enforced by ``gate`` (none when it already holds)."""
    if cond.judge(pos.instance, memo, pos.cards, len(pos.tricks)) is not HOLDS:
        CONDITION_CLAUSES[cond.kind](_Gated(model, gate), v, pos, cond, memo, j)


class _Gated(Formula):
    """A condition's clauses written into ``target``, each enforced by ``gate`` as well:
    every constraint goes to ``target`` with ``gate`` added last to its enforcement
    literals (none is kept here)."""

    def __init__(self, target: Formula, gate: Lit) -> None:
        super().__init__(pool=target.pool, deadline=target.deadline)
        self.target, self.gate = target, gate

    def _add(self, con: Constraint) -> None:  # the cardinalities (the other kinds are below)
        self.target._add(Constraint(con.kind, con.lits, con.bound, (*con.enforce, self.gate)))

    def add_bool_or(self, lits: Iterable[Lit], *, enforce: Iterable[Lit] = ()) -> None:
        self.target.add_bool_or(lits, enforce=(*enforce, self.gate))

    def add_bool_and(self, lits: Iterable[Lit], *, enforce: Iterable[Lit] = ()) -> None:
        self.target.add_bool_and(lits, enforce=(*enforce, self.gate))

    def add_implication(self, a: Lit, b: Lit) -> None:
        self.target.add_bool_and((b,), enforce=(a, self.gate))


def decide_conditions(deals: Sequence[Instance], budget: Budget) -> tuple[
        bool | None, int | None, tuple[tuple[CardIndex, ...], tuple[Seat, ...] | None] | None, dict[str, Any]]:
    """Decide deals apart only in their conditions (:func:`condition_groups`) in one SAT
    call on :func:`encode_conditions`' formula.

    Returns ``(winnable, index, line, stats)``: ``winnable`` is ``None`` when the formula
    is not used (too large, PySAT missing) or the budget ran out; for a win, ``index`` is
    the position in ``deals`` of a deal the model wins and ``line`` its winning
    continuation and task seats (the caller replays it). A deal whose game is over before
    play (won at once, or a condition broken) needs no formula, and is left out of it.
    """
    from crewcheck.errors import BackendUnavailableError
    from crewcheck.solvers.logic.sat import SatOptions, SatSolver

    stats: dict[str, Any] = {}
    open_ = []
    for i, deal in enumerate(deals):
        state = deal.state()
        if state.end is None:
            open_.append(i)
        elif state.end.won:  # over before play, won: nothing to do, no conditions left
            return True, i, ((), state.owners), stats
    if not open_:
        return False, None, None, stats
    if len(open_) < len(deals):  # those over before play are lost
        won, k, line, stats = decide_conditions([deals[i] for i in open_], budget)
        return won, None if k is None else open_[k], line, stats
    if size_limit(deals[0]) is not None:
        return None, None, None, stats
    deadline = Deadline(budget)
    try:
        start = time.perf_counter()
        clauses = ClauseFormula()
        group = encode_conditions(deals, deadline=deadline, formula=clauses)
        solved = SatSolver(SatOptions(explain=False)).solve_cnf(clauses.cnf(assume=group.encoding.assumptions),
                                                                 deadline, stats, start)
    except (BudgetExceeded, BackendUnavailableError):
        return None, None, None, stats
    if solved.satisfiable is None:
        return None, None, None, stats
    if not solved.satisfiable:
        return False, None, None, stats
    value = solved.value
    assert value is not None
    index = next(i for i, sel in enumerate(group.selectors) if value(sel))
    enc = group.encoding
    # the line is cut where the chosen deal's game ends, under its own conditions
    own = Encoding(replace(enc.position, instance=deals[index]), enc.formula, enc.vars)
    return True, index, decode(own, value), stats
