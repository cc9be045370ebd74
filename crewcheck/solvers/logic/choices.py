"""The winnability encoding of a deal that leaves the crew a choice before play.

What it is
    A deal with a ``"choose"`` condition seat, the commander's decision or distribution
    (``"assignment": "decision"`` / ``"distribution"``) or a distress signal is winnable
    when one of the crew's choices can be won (:mod:`crewcheck.model.variants`). The
    deciders go over the choices (:mod:`crewcheck.solvers.choosing`); a single formula
    for an outside solver holds them all: one selector ``choice{i}`` per choice of
    seats, recipient, split and signal direction (exactly one is true), and under each
    selector the encoding of that choice (:func:`crewcheck.solvers.logic.encoding.encode`,
    its variables renamed ``v{i}_...``, every constraint enforced by the selector). The
    distress signal's passes are not enumerated (a seat with 12 cards that are no trump
    has 12 choices, and four seats 20,736): they are variables of each branch
    (:class:`~crewcheck.solvers.logic.position.Passing`). Choices apart only in their
    task counts (the commander's splits, a hand-over under free assignment) may share a
    branch, one game with each choice's counts under a selector (``together``;
    :func:`decide_counts` decides such a group alone): mission 36 with five players has
    95 such choices, one branch per signal direction instead of 95.
Exact
    Yes: satisfiable if and only if some choice can be won, which is the deciders'
    definition; a model decodes (:func:`decode_deal`) to the choice, the passes, the
    winning line and the task seats, which ``crewcheck decode`` replays against the
    original rules.
Cost
    The sum of the branches: at most ``seats x 4 x 10`` branches (choose, decision,
    distribution), each the size of one deal's encoding (a shared branch: one encoding
    and two cardinality constraints per seat and choice); the passes add one variable
    per card that is no trump and a ``played`` variable per trick for every card two
    seats may hold.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import fields, replace
from typing import Any

from crewcheck.errors import BackendError, InvalidInputError
from crewcheck.model.cards import CardIndex
from crewcheck.model.derived import quotas_left
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.variants import Choice, signal_directions, variant_assignment, variants
from crewcheck.solvers.base import Answer, Budget, BudgetExceeded, Deadline, Verdict
from crewcheck.solvers.logic.decode import decode, passes_of
from crewcheck.solvers.logic.encoding import ENCODED_KINDS, MAX_VARIABLES, encode, size_limit
from crewcheck.solvers.logic.formula import Constraint, Formula, Lit
from crewcheck.solvers.logic.position import Branch, Encoding, Variables, position_of

__all__ = ["encode_deal", "decode_deal", "decide_deal", "decide_signal", "choices_of", "MAX_BRANCHES",
           "SIGNAL_BACKENDS", "groups_apart_in", "count_groups", "decide_counts", "COUNTS_SECONDS"]

MAX_BRANCHES = 1024
"""The most choices one formula holds (choose seats x recipient x split x direction)."""


SIGNAL_BACKENDS = ("auto", "engine", "sat")
"""Back-ends under which a deal with a distress signal is decided in one SAT call on
the formula of every choice, the passes as variables (:func:`decide_signal`)."""


def choices_of(instance: Instance) -> Iterator[tuple[Choice, Instance]]:
    """Each of the crew's choices but the distress passes: the choice (with its signal
    direction) and the deal under it (with the hands before the passes)."""
    if instance.distress is None:
        yield from variants(instance)
        return
    base = replace(instance, distress=None)
    for direction in signal_directions(instance):
        for choice, concrete in variants(base):
            yield replace(choice, direction=direction), concrete


def encode_deal(instance: Instance, *, deadline: Deadline | None = None, together: bool = False) -> Encoding:
    """The encoding of "``instance`` can be won", whatever choices it leaves the crew.

    A deal without a choice is :func:`~crewcheck.solvers.logic.encoding.encode`'s.
    ``together``: the choices apart only in their task counts (the commander's splits, a
    hand-over under free assignment) share one branch, their counts under selectors
    (:attr:`~crewcheck.solvers.logic.position.Branch.members`), instead of a branch
    each. Raises :class:`InvalidInputError` when the formula would be too large or the
    history has already ended the game under every choice (nothing to encode).
    """
    if instance.is_concrete():
        return encode(instance, deadline=deadline)
    options = list(choices_of(instance))
    units = _units(options) if together else [[o] for o in options]
    if len(units) > MAX_BRANCHES:
        raise InvalidInputError(f"the crew has {len(units):,} choices; one formula holds at most {MAX_BRANCHES:,}")
    too_big = size_limit(options[0][1], branches=len(units)) if options else None
    if too_big is not None:
        raise InvalidInputError(too_big)
    merged = Formula(deadline=deadline)
    branches: list[Branch] = []
    first: Encoding | None = None
    for i, unit in enumerate(units):
        choice, concrete = unit[0]
        sel = merged.new_bool(("choice", i))
        state = concrete.state()
        if state.end is not None:
            if not state.end.won:
                merged.add_bool_or([], enforce=[sel])
            branches.append(Branch(choice, concrete, sel, None))
            continue
        if choice.direction is not None and _empties_a_hand(concrete, choice.direction):
            merged.add_bool_or([], enforce=[sel])  # as the deciders: no such variant
            branches.append(Branch(choice, concrete, sel, None))
            continue
        counts = tuple(_counts(c) for _, c in unit) if len(unit) > 1 else ()
        sub = encode(concrete, deadline=deadline, direction=choice.direction, quota_options=counts)
        first = first or sub
        pool = sub.formula.pool
        ids = (0, *(merged.new_bool(("in", i, *pool.key(x))) for x in range(1, pool.top + 1)))

        def lit(x: Lit, ids: tuple[int, ...] = ids) -> Lit:
            return ids[x] if x > 0 else -ids[-x]

        for con in sub.formula.constraints:
            merged._add(Constraint(con.kind, tuple(lit(x) for x in con.lits), con.bound,
                                   (sel, *(lit(x) for x in con.enforce))))
        for a in sub.assumptions:
            merged.add_bool_and([lit(a)], enforce=[sel])
        branches.append(Branch(choice, concrete, sel, sub, ids, tuple(unit) if len(unit) > 1 else ()))
    merged.add_exactly_one(b.selector for b in branches)
    if merged.pool.top > MAX_VARIABLES:
        raise InvalidInputError(f"the encoding needs {merged.pool.top:,} variables; the limit is {MAX_VARIABLES:,}")
    if first is not None:
        return Encoding(first.position, merged, Variables(), tuple(branches))
    # no choice left to play (every signal empties a hand, or the history ended the game)
    open_ = [b.instance for b in branches if b.instance.state().end is None]
    if not open_:
        raise InvalidInputError("the game is already over under every choice of the crew (ended before play "
                                "or by the played history); nothing to encode")
    return Encoding(position_of(open_[0]), merged, Variables(), tuple(branches))


def _counts(instance: Instance) -> tuple[int, ...]:
    counts = quotas_left(instance.state())
    assert counts is not None
    return counts


def _units(options: list[tuple[Choice, Instance]]) -> list[list[tuple[Choice, Instance]]]:
    """``options`` in units of one choice, or of the choices apart only in their task
    counts (same signal direction, free assignment, the game still open, no seat left
    with fewer tasks than it already won), in order of their first member."""
    units: list[list[tuple[Choice, Instance]]] = []
    where: dict[tuple[object, ...], int] = {}
    for choice, concrete in options:
        key = _count_key(choice, concrete)
        if key is None or key not in where:
            if key is not None:
                where[key] = len(units)
            units.append([(choice, concrete)])
        else:
            units[where[key]].append((choice, concrete))
    return units


def _count_key(choice: Choice, concrete: Instance) -> tuple[object, ...] | None:
    """What the choices of one unit of :func:`_units` share, or ``None`` for a unit of one."""
    if concrete.rules.assignment != "free" or concrete.history:
        return None
    if choice.direction is not None and _empties_a_hand(concrete, choice.direction):
        return None
    key = (choice.direction, *(getattr(concrete, f.name) for f in fields(concrete) if f.name != "quota"))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def decide_deal(instance: Instance, *, budget: Budget) -> tuple[
        bool | None, tuple[tuple[CardIndex, ...], tuple[Seat, ...] | None, Choice | None] | None, dict[str, Any]]:
    """Decide a deal with choices in one SAT call on :func:`encode_deal`'s formula: the
    distress signal's passes are variables, not tried one by one.

    Returns ``(winnable, line, stats)``: ``winnable`` is ``None`` when the budget ran out;
    ``line`` is :func:`decode_deal`'s ``(plays, seats, choice)`` of a winnable deal (the
    caller replays it). Raises :class:`InvalidInputError` when the formula would be too
    large (:func:`encode_deal`), :class:`BackendUnavailableError` without PySAT.
    """
    from crewcheck.solvers.logic.sat import SatOptions, SatSolver

    deadline = Deadline(budget)
    start = time.perf_counter()
    stats: dict[str, Any] = {}
    try:
        enc = encode_deal(instance, deadline=deadline, together=True)
        solved = SatSolver(SatOptions(explain=False)).solve_encoding(enc, deadline, stats)
    except BudgetExceeded:
        solved = None
    stats["encode_and_solve_seconds"] = round(time.perf_counter() - start, 4)
    stats["branches"] = len(enc.branches) if solved is not None else None
    if solved is None or solved.satisfiable is None:
        return None, None, stats
    if not solved.satisfiable:
        return False, None, stats
    assert solved.value is not None
    return True, decode_deal(enc, solved.value), stats


def decide_signal(instance: Instance, budget: Budget) -> tuple[Answer, Choice | None] | None:
    """A deal with a distress signal decided in one formula (the passes are variables):
    the answer about the position after the history, and for a win the crew's choice its
    line takes (the caller replays it); ``None`` when the formula would be too large or
    holds a condition kind the formula does not encode (the caller tries the passes one
    by one)."""
    if any(c.kind not in ENCODED_KINDS for c in instance.conditions):
        return None
    try:
        winnable, line, stats = decide_deal(instance, budget=budget)
    except InvalidInputError:
        return None
    extra = {**stats, "distress": "one formula"}
    if winnable is None:
        return Answer(Verdict.UNKNOWN, extra=extra), None
    if not winnable:
        return Answer(Verdict.UNWINNABLE, extra=extra,
                      explanation="no choice of the crew, distress passes included, can be won"), None
    assert line is not None
    plays, assignment, choice = line
    if choice is not None:
        extra["choice"] = choice.describe(instance)
    return Answer(Verdict.WINNABLE, plays, assignment, 0, extra), choice


COUNTS_SECONDS = 5.0
"""The most seconds :func:`decide_counts` is given by the deciders of a deal with choices
(a formula that does not answer in time leaves its choices to be decided one by one)."""


def groups_apart_in(instances: Sequence[Instance | None], field: str,
                    fits: Callable[[Instance], bool]) -> list[list[int]]:
    """The positions of the deals of ``instances`` that ``fits`` accepts, grouped by
    every field of :class:`Instance` but ``field``, in order of their first member
    (``None`` and a deal with a field that does not hash are in no group; a group may
    have one member)."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, inst in enumerate(instances):
        if inst is None or not fits(inst):
            continue
        key = tuple(getattr(inst, f.name) for f in fields(inst) if f.name != field)
        try:
            groups.setdefault(key, []).append(i)
        except TypeError:  # a field that does not hash: no group
            continue
    return list(groups.values())


def count_groups(instances: Sequence[Instance]) -> list[list[int]]:
    """The positions of ``instances`` grouped by the deal they are apart from their task
    counts (:attr:`Instance.quota`, free assignment): the groups of two or more, in order
    of their first member."""
    groups = groups_apart_in(instances, "quota", lambda inst: inst.rules.assignment == "free")
    return [g for g in groups if len(g) > 1]


def decide_counts(group: Sequence[Instance], budget: Budget) -> tuple[bool | None, int | None, dict[str, Any]]:
    """Decide deals that differ only in their task counts (:func:`count_groups`) in one
    SAT call: one game, the counts of each deal under a selector
    (:attr:`crewcheck.solvers.logic.position.Position.quota_options`), exactly one true.

    Returns ``(winnable, index, stats)``: ``winnable`` is ``None`` when the formula is
    not used (a condition kind it does not encode, a too large deal, a game the history
    ended, PySAT missing) or the budget ran out; ``index`` is the position in ``group``
    of the deal whose counts a model takes (winnable only; the caller decides that deal
    to get its line). Exact: unsatisfiable if and only if no deal of the group can be won.
    """
    from crewcheck.errors import BackendUnavailableError
    from crewcheck.solvers.logic.sat import SatOptions, SatSolver

    first = group[0]
    stats: dict[str, Any] = {}
    if any(c.kind not in ENCODED_KINDS for c in first.conditions) or size_limit(first) is not None:
        return None, None, stats
    options = []
    for inst in group:
        state = inst.state()
        counts = quotas_left(state)
        if state.end is not None or counts is None or min(counts) < 0:
            return None, None, stats
        options.append(counts)
    deadline = Deadline(budget)
    try:
        enc = encode(first, deadline=deadline, quota_options=tuple(options))
        solved = SatSolver(SatOptions(explain=False)).solve_encoding(enc, deadline, stats)
    except (BudgetExceeded, BackendUnavailableError):
        return None, None, stats
    if solved.satisfiable is None:
        return None, None, stats
    if not solved.satisfiable:
        return False, None, stats
    assert solved.value is not None
    value = solved.value
    taken = [j for j in range(len(options)) if value(enc.formula.pool.id(("quota_option", j)))]
    return True, taken[0] if taken else None, stats


def _empties_a_hand(instance: Instance, direction: int) -> bool:
    """Whether a distress signal in ``direction`` leaves some hand empty (a seat with one
    card passes it and, its giver holding only trumps, gets none)."""
    trumps = 0 if instance.trump_suit is None else instance.deck.suit_mask(instance.trump_suit)
    p = instance.players
    out = [h & ~trumps != 0 for h in instance.hands]
    return any(h.bit_count() - out[s] + out[(s - direction) % p] == 0 for s, h in enumerate(instance.hands))


def decode_deal(enc: Encoding, value: Callable[[int], bool]) -> tuple[
        tuple[CardIndex, ...], tuple[Seat, ...] | None, Choice | None]:
    """The winning continuation, the task seats and the crew's choice in a model of
    :func:`encode_deal`'s formula (``value(var)``: the model's value). The seats follow
    :func:`crewcheck.decide`: every task's under the commander's decision, none under
    fixed assignment. :class:`BackendError` if the model does not decode."""
    if not enc.branches:
        return (*decode(enc, value), None)
    chosen = [b for b in enc.branches if value(b.selector)]
    if len(chosen) != 1:
        raise BackendError(f"the model takes {len(chosen)} of the crew's choices, not one")
    b = chosen[0]
    choice = b.choice
    if b.members:
        assert b.encoding is not None
        ids = b.ids
        taken = [j for j in range(len(b.members))
                 if value(ids[b.encoding.formula.pool.id(("quota_option", j))])]
        if len(taken) != 1:
            raise BackendError(f"the model takes {len(taken)} of a branch's task counts, not one")
        choice, member = b.members[taken[0]]
        # the line is cut and the seats read under the chosen member's counts
        pos = replace(b.encoding.position, instance=member, quotas=b.encoding.position.quota_options[taken[0]])
        b = replace(b, choice=choice, instance=member, encoding=replace(b.encoding, position=pos))
    plays: tuple[CardIndex, ...]
    if b.encoding is None:
        state = b.instance.state()
        if state.end is None or not state.end.won:
            raise BackendError("the model takes a choice that cannot be won")
        plays = ()
        assignment = state.owners
    else:
        ids = b.ids

        def inner(x: int) -> bool:
            return value(ids[x])

        plays, assignment = decode(b.encoding, inner)
        if b.encoding.position.passing is not None:
            choice = replace(choice, passes=passes_of(b.encoding, inner))
    assignment = variant_assignment(b.instance, choice, b.instance, assignment)
    return plays, assignment, None if choice.is_empty() else choice
