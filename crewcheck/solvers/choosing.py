"""A deal that leaves the crew a choice, decided over its choices: quick rounds of the search first.

What it is
    A deal is winnable when one of the crew's choices is (:mod:`crewcheck.model.variants`;
    the takings of a *Mission Deep Sea* mission, :mod:`crewcheck.missions.deepsea`).
    Deciding the choices one by one in their order makes a winnable choice wait for the
    full refutation of every choice before it (a SAT call each, a tenth of a second to
    seconds), though the search often wins it within a few thousand nodes.
    :func:`decide_choices` therefore takes the choices a block (:data:`BLOCK`) at a
    time: every open choice of the block gets the search under a small node budget,
    round after round with a growing budget (:data:`QUICK_NODES`); a choice the search
    wins ends the deal, a choice it refutes is settled, and the choices left get the
    full decider (the caller's back-end, the engine by default) in their order.
Exact
    Yes: each quick answer is the search's exact answer within its budget (UNKNOWN when
    the budget runs out, never a guess); the caller's ``decide`` replays every winning
    line as always. The verdict is the one of deciding each choice in turn; the winning
    choice may be a later one than the first that wins.
Cost
    At most ``sum(QUICK_NODES)`` search nodes and as many calls per choice the quick
    rounds leave open, on top of the full decisions (about 18,000 nodes: a few hundredths
    of a second).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

from crewcheck.errors import NotApplicableError
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Result, Verdict

__all__ = ["QUICK_NODES", "BLOCK", "QUICK_BACKENDS", "Decided", "Decide", "decide_choices"]

QUICK_NODES: tuple[int, ...] = (1 << 11, 1 << 14)
"""The node budgets of the quick rounds, one round each: every choice a round leaves
open gets the next budget."""
BLOCK = 512
"""Choices given their quick rounds together, before the full decider takes the open
ones of them in order (a deal with thousands of choices is not held up by the quick
rounds of its last ones)."""
QUICK_BACKENDS: tuple[str | None, ...] = (None, "auto", "engine")
"""The back-ends under which the quick rounds run (the search is one side of the engine;
a back-end named otherwise decides every choice itself)."""
QUICK_BACKEND = "search"

Decide = Callable[[Instance, str | None, Budget], Result]
"""The caller's decider: ``decide(instance, backend, budget)``, replaying wins."""


@dataclass(frozen=True)
class Decided:
    """What :func:`decide_choices` found."""

    verdict: Verdict
    index: int | None
    """The winning choice's position in the choices (WINNABLE only)."""
    result: Result | None
    """The winning choice's result (WINNABLE only)."""
    nodes: int
    """Search nodes of every decision, quick and full."""
    quick: int
    """Quick decisions made (calls of the search under a quick budget)."""
    full: int
    """Full decisions made (calls of the caller's back-end)."""
    settled: int
    """Choices given an answer (quick or full), the lost ones (``None``) included."""
    backends: tuple[str, ...]
    """The back-end that settled each choice, in the order they were settled (``"-"``
    for a lost choice)."""
    loading: float
    """The compiled kernel's first loading, as the decisions reported it."""


class _Tally:
    """The running counts of one :func:`decide_choices` call."""

    def __init__(self) -> None:
        self.nodes = self.quick = self.full = 0
        self.loading = 0.0
        self.backends: list[str] = []
        self.unknown = False

    def add(self, r: Result) -> None:
        self.nodes += r.stats.nodes
        self.loading += float(r.stats.extra.get("kernel_load_seconds", 0.0))

    def done(self, verdict: Verdict, index: int | None = None, result: Result | None = None) -> Decided:
        return Decided(verdict, index, result, self.nodes, self.quick, self.full, len(self.backends),
                       tuple(self.backends), self.loading)


def decide_choices(choices: Iterable[Instance | None], decide: Decide, backend: str | None, budget: Budget, *,
                   quick: tuple[int, ...] = QUICK_NODES, block: int = BLOCK,
                   settled: Callable[[int], None] | None = None) -> Decided:
    """Decide whether one of ``choices`` can be won (``None``: a choice lost before play).

    ``decide`` decides one choice; ``backend`` is the caller's back-end (the quick rounds
    run under :data:`QUICK_BACKENDS` only, ``quick=()`` turns them off); ``budget``
    bounds the whole call (its seconds) and each decision (its nodes);
    ``settled(n)`` hears how many choices have an answer after each one. UNKNOWN when
    no choice wins and the time ran out or some choice was left undecided.
    """
    rounds = quick if backend in QUICK_BACKENDS else ()
    start = time.perf_counter()
    tally = _Tally()

    def left() -> float | None:
        return None if budget.seconds is None else budget.seconds - (time.perf_counter() - start - tally.loading)

    def answered(name: str) -> None:
        tally.backends.append(name)
        if settled is not None:
            settled(len(tally.backends))

    offset = 0
    source: Iterator[Instance | None] = iter(choices)
    while chunk := list(islice(source, block)):
        found = _block(chunk, offset, decide, backend, budget, rounds, tally, left, answered)
        if found is not None:
            return found
        offset += len(chunk)
    return tally.done(Verdict.UNKNOWN if tally.unknown else Verdict.UNWINNABLE)


def _block(chunk: list[Instance | None], offset: int, decide: Decide, backend: str | None, budget: Budget,
           rounds: tuple[int, ...], tally: _Tally, left: Callable[[], float | None],
           answered: Callable[[str], None]) -> Decided | None:
    """The quick rounds, then the full decisions, of one block of choices: the result
    once a choice wins or the time is out, else ``None`` (every choice refuted, or some
    left unknown in ``tally``)."""
    open_ = []
    for i, inst in enumerate(chunk):
        if inst is None:
            answered("-")
        else:
            open_.append(i)
    for nodes in rounds:
        if len(open_) < 2:  # one choice: the full decider at once
            break
        still = []
        for i in open_:
            seconds = left()
            if seconds is not None and seconds <= 0:
                tally.unknown = True
                return tally.done(Verdict.UNKNOWN)
            cap = nodes if budget.nodes is None else min(nodes, budget.nodes)
            inst = chunk[i]
            assert inst is not None
            try:
                r = decide(inst, QUICK_BACKEND, Budget(seconds, cap, budget.cancel))
            except NotApplicableError:  # the search does not decide it: the full decider will
                still.append(i)
                continue
            tally.quick += 1
            tally.add(r)
            if r.verdict is Verdict.UNKNOWN:
                still.append(i)
                continue
            answered(r.backend)
            if r.verdict is Verdict.WINNABLE:
                return tally.done(Verdict.WINNABLE, offset + i, _tagged(r, "quick"))
        open_ = still
    for i in open_:
        seconds = left()
        if seconds is not None and seconds <= 0:
            tally.unknown = True
            return tally.done(Verdict.UNKNOWN)
        inst = chunk[i]
        assert inst is not None
        r = decide(inst, backend, Budget(seconds, budget.nodes, budget.cancel))
        tally.full += 1
        tally.add(r)
        answered(r.backend)
        if r.verdict is Verdict.WINNABLE:
            return tally.done(Verdict.WINNABLE, offset + i, _tagged(r, "full"))
        tally.unknown = tally.unknown or r.verdict is Verdict.UNKNOWN
    return None


def _tagged(r: Result, phase: str) -> Result:
    """``r`` with the phase that won it in its statistics (``choice_phase``)."""
    extra: dict[str, Any] = {**r.stats.extra, "choice_phase": phase}
    return replace(r, stats=replace(r.stats, extra=extra))
