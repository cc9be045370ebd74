"""The exhaustive oracle: a deliberately plain depth-first search over all legal plays.

What it is
    Depth-first search from the position after the history, over every legal card of
    :meth:`State.legal_plays`, stopping at the first win. The only refinement is a set
    of positions already refuted (``State.key()`` captures everything the rest of the
    game depends on), so no position is searched twice.
Rules covered
    Everything the model has: trumps, any first lead, unequal hands, order tokens in both
    readings, mid-game states. Free assignment is decided by its definition: every
    assignment with the draft's per-seat counts is tried as a fixed deal (the rules
    engine's lazy assignment is *not* used here, so the two cross-check each other).
Exact
    Yes: sound and complete. It is the trusted reference for the other back-ends.
Cost
    Exponential. It refuses deals with more than :data:`MAX_CARDS` cards in play and
    free-assignment deals with more than :data:`MAX_ASSIGNMENTS` assignments, so that
    the default never hangs; give it a budget to try anyway.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from math import comb
from collections.abc import Iterator
from typing import ClassVar

from crewcheck.model.cards import iter_bits
from crewcheck.model.conditions import CONDITION_KINDS
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.state import State
from crewcheck.solvers.base import Answer, Budget, BudgetExceeded, Deadline, Verdict

__all__ = ["ExhaustiveSolver", "MAX_CARDS", "MAX_ASSIGNMENTS", "assignments"]

MAX_CARDS = 20
"""Largest number of cards still in hands that the oracle accepts without a budget."""
MAX_ASSIGNMENTS = 2000


def assignments(instance: Instance) -> Iterator[tuple[Seat, ...]]:
    """Every seat tuple giving each seat its draft count of tasks (free assignment)."""
    counts = instance.task_counts or ()
    n = len(instance.tasks)

    def rec(i: int, left: list[int], acc: list[Seat]) -> Iterator[tuple[Seat, ...]]:
        if i == n:
            yield tuple(acc)
            return
        for seat, room in enumerate(left):
            if room:
                left[seat] -= 1
                acc.append(seat)
                yield from rec(i + 1, left, acc)
                acc.pop()
                left[seat] += 1

    return rec(0, list(counts), [])


def _count_assignments(instance: Instance) -> int:
    total, left = 1, len(instance.tasks)
    for c in instance.task_counts or ():
        total *= comb(left, c)
        left -= c
    return total


def _elsewhere(instance: Instance) -> str:
    """Where to turn when the oracle refuses ``instance`` for its size: the search when it
    takes the deal, else why it does not either (its deck, or its conditions: what the
    search cannot track is said, the refusal being about their count when it tracks every
    kind of them one by one)."""
    from crewcheck.solvers.search.driver import MAX_CARDS as SEARCH_MAX_CARDS, SearchSolver

    if instance.deck.size > SEARCH_MAX_CARDS:  # (the logic back-ends take any deck)
        return " (use --backend sat, z3 or cpsat)"
    why = SearchSolver().supports(instance)
    if why is None:
        return " (use --backend search)"
    alone = [replace(instance, conditions=(c,)) for c in {c.kind: c for c in instance.conditions}.values()]
    if all(SearchSolver().supports(one) is None for one in alone):
        why = (f"the search tracks each of its kinds but not {len(instance.conditions)} conditions at once "
               f"(too many for its position key)")
    return f"; nor does the search: {why}"


class ExhaustiveSolver:
    """Plain depth-first search; see the module docstring."""

    name: ClassVar[str] = "exhaustive"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()
    condition_kinds: ClassVar[frozenset[str]] = frozenset(CONDITION_KINDS)
    """Every condition kind: the oracle is the reference for them."""
    plays_covered: ClassVar[bool] = True
    """Covered cards: the rules engine plays them."""

    def supports(self, instance: Instance) -> str | None:
        left = instance.state().hands
        cards = sum(h.bit_count() for h in left)
        if cards > MAX_CARDS:
            return (f"the exhaustive oracle handles at most {MAX_CARDS} cards in play; this deal "
                    f"has {cards}{_elsewhere(instance)}")
        if instance.rules.assignment == "free" and _count_assignments(instance) > MAX_ASSIGNMENTS:
            return (f"the exhaustive oracle tries at most {MAX_ASSIGNMENTS} task assignments; this "
                    f"deal has {_count_assignments(instance)}")
        return None

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        search = _Search(budget.start())
        try:
            if instance.rules.assignment == "fixed":
                line = search.run(instance.state())
                return _answer(line, None, search.nodes)
            for seats in assignments(instance):
                fixed = instance.with_history(()).with_assignment(seats)
                state = fixed.initial_state()
                for card in instance.history:  # the history may already fail this assignment
                    state = state.apply(card)
                    if state.is_terminal():
                        break
                else:
                    line = search.run(state)
                    if line is not None:
                        return _answer(line, seats, search.nodes)
            return _answer(None, None, search.nodes)
        except BudgetExceeded:
            return Answer(Verdict.UNKNOWN, nodes=search.nodes)


def _answer(line: list[int] | None, seats: tuple[Seat, ...] | None, nodes: int) -> Answer:
    if line is None:
        return Answer(Verdict.UNWINNABLE, nodes=nodes)
    return Answer(Verdict.WINNABLE, tuple(line), seats, nodes=nodes)


class _Search:
    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.nodes = 0
        self.refuted: set[object] = set()

    def run(self, state: State) -> list[int] | None:
        """A winning continuation from ``state`` (cards in order), or ``None``."""
        self.refuted.clear()
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 10_000))
        try:
            line: list[int] = []
            return line[::-1] if self._win(state, line) else None
        finally:
            sys.setrecursionlimit(limit)

    def _win(self, state: State, line: list[int]) -> bool:
        if state.end is not None:
            return state.end.won
        key = state.key()
        if key in self.refuted:
            return False
        self.nodes += 1
        if self.nodes & 1023 == 0 or self.deadline.nodes is not None:
            self.deadline.check(self.nodes)
        for card in iter_bits(state.legal_mask()):
            if self._win(state.apply(card), line):
                line.append(card)
                return True
        self.refuted.add(key)
        return False
