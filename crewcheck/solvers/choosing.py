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
    full decider (the caller's back-end, the engine by default) in their order. After
    the first round (cut short after :data:`QUICK_SECONDS`; at most :data:`FEW_OPEN`
    open choices get the other rounds first) the caller may decide the open choices
    several at a time (``shared``: :func:`crewcheck.api.decide_together` decides the
    choices apart only in their task counts in one SAT formula per group, 95 of them for
    mission 36 with five players, where each alone costs a SAT call, and those apart only
    in their conditions, such as a Deep Sea mission's takings, in another).
Exact
    Yes: each quick answer is the search's exact answer within its budget (UNKNOWN when
    the budget runs out, never a guess); the caller's ``decide`` replays every winning
    line as always. The verdict is the one of deciding each choice in turn; the winning
    choice may be a later one than the first that wins.
Cost
    At most ``sum(QUICK_NODES)`` search nodes and as many calls per choice the quick
    rounds leave open, on top of the full decisions (about 18,000 nodes: a few hundredths
    of a second), and the ``shared`` decider's calls (a group formula: about half a
    second to a second, more than the quick rounds where those refute every choice).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from itertools import chain, islice
from typing import Any

from crewcheck.errors import NotApplicableError
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Result, Verdict

__all__ = ["QUICK_NODES", "BLOCK", "QUICK_SECONDS", "FEW_OPEN", "HEAD_SECONDS", "QUICK_BACKENDS", "Decided", "Decide",
           "Shared", "decide_choices"]

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
QUICK_SECONDS = 0.25
"""With a ``shared`` decider, the first quick round of a block pauses after this long
(by default; the caller's ``pause``): the choices it has not reached go to the shared
decider with its open ones (one SAT formula for hundreds of choices costs less than
their quick rounds), and the round takes those the shared decider leaves open after
it."""
FEW_OPEN = 16
"""At most this many choices left open by the first quick round (every one reached) get
the other quick rounds before the ``shared`` decider: their rounds cost less than a
formula (a tenth of a second to seconds), and often win."""
HEAD_SECONDS = 0.25
"""The first choice's head start: the full decider for this long before the quick rounds.
Where the choice is optional (a token moved, a task handed over) the first choice is
the deal as dealt, which wins most often; the quick rounds' calls over hundreds of choices
cost more than its decision where the search alone does not win it quickly."""

Decide = Callable[[Instance, str | None, Budget], Result]
"""The caller's decider: ``decide(instance, backend, budget)``, replaying wins."""
Shared = Callable[[list[Instance], Budget], dict[int, "bool | Result"]]
"""The caller's decider of several choices at once, run on the choices the quick rounds
leave open (before their full decisions): ``False`` for a choice it refutes, ``True``
for one it finds winnable (decided first), a winnable :class:`Result` (its line
replayed) for one it has won, nothing for the others (positions in the list it is
given)."""


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
    shared: int
    """Choices the caller's ``shared`` decider refuted together."""
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
        self.nodes = self.quick = self.full = self.shared = 0
        self.loading = 0.0
        self.backends: list[str] = []
        self.unknown = False

    def add(self, r: Result) -> None:
        self.nodes += r.stats.nodes
        self.loading += float(r.stats.extra.get("kernel_load_seconds", 0.0))

    def done(self, verdict: Verdict, index: int | None = None, result: Result | None = None) -> Decided:
        return Decided(verdict, index, result, self.nodes, self.quick, self.shared, self.full, len(self.backends),
                       tuple(self.backends), self.loading)


def decide_choices(choices: Iterable[Instance | None], decide: Decide, backend: str | None, budget: Budget, *,
                   quick: tuple[int, ...] = QUICK_NODES, block: int = BLOCK,
                   settled: Callable[[int], None] | None = None, shared: Shared | None = None,
                   head: float = 0.0, pause: float = QUICK_SECONDS) -> Decided:
    """Decide whether one of ``choices`` can be won (``None``: a choice lost before play).

    ``decide`` decides one choice; ``backend`` is the caller's back-end (the quick rounds
    run under :data:`QUICK_BACKENDS` only, ``quick=()`` turns them off); ``budget``
    bounds the whole call (its seconds, the choices' building included: they are built
    as the first round reaches them) and each decision (its nodes); ``settled(n)`` hears
    how many choices have an answer after each one; ``shared`` (under
    :data:`QUICK_BACKENDS` only) decides the choices the quick rounds leave open together
    where it can; ``head`` (seconds, under :data:`QUICK_BACKENDS` only) gives the first
    choice the full decider for that long before any quick round (:data:`HEAD_SECONDS`);
    ``pause``: with ``shared``, the seconds after which the first quick round of a block
    hands the choices it has not reached to ``shared`` (:data:`QUICK_SECONDS`).
    UNKNOWN when no choice wins and the time ran out or some choice was left undecided.
    """
    quick_ones = backend in QUICK_BACKENDS
    run = _Run(decide, backend, budget, quick if quick_ones else (), settled, shared if quick_ones else None, pause)
    source: Iterator[Instance | None] = iter(choices)
    if quick_ones and head > 0:
        source, found = run.head(source, head)
        if found is not None:
            return found
    offset = 0
    while True:
        chunk: list[Instance | None] = []
        found = run.block(islice(source, block), chunk, offset)
        if found is not None:
            return found
        if not chunk:
            return run.tally.done(Verdict.UNKNOWN if run.tally.unknown else Verdict.UNWINNABLE)
        offset += len(chunk)


class _Run:
    """One :func:`decide_choices` call: its decider, budget, rounds and counts."""

    def __init__(self, decide: Decide, backend: str | None, budget: Budget, rounds: tuple[int, ...],
                 settled: Callable[[int], None] | None, shared: Shared | None, pause: float = QUICK_SECONDS) -> None:
        self.decide, self.backend, self.budget, self.rounds = decide, backend, budget, rounds
        self.settled, self.shared, self.pause = settled, shared, pause
        self.start = time.perf_counter()
        self.tally = _Tally()

    def left(self) -> float | None:
        """Seconds left of the budget (the kernel's first loading not charged)."""
        if self.budget.seconds is None:
            return None
        return self.budget.seconds - (time.perf_counter() - self.start - self.tally.loading)

    def answered(self, name: str) -> None:
        self.tally.backends.append(name)
        if self.settled is not None:
            self.settled(len(self.tally.backends))

    def head(self, source: Iterator[Instance | None], seconds: float) -> tuple[
            Iterator[Instance | None], Decided | None]:
        """The full decider on the first choice for at most ``seconds``: the result if it
        wins; else the choices again, the first settled when it was refuted, as it was
        when the time ran out (its quick rounds and full decision follow)."""
        first = next(source, _NONE)
        if first is _NONE:
            return source, None
        left = self.left()
        if first is None or (left is not None and left <= 0):
            return chain([first], source), None
        r = self.decide(first, self.backend, Budget(seconds if left is None else min(seconds, left),
                                                     self.budget.nodes, self.budget.cancel))
        self.tally.full += 1
        self.tally.add(r)
        if r.verdict is Verdict.WINNABLE:
            self.answered(r.backend)
            return source, self.tally.done(Verdict.WINNABLE, 0, _tagged(r, "head"))
        if r.verdict is Verdict.UNWINNABLE:
            self.answered(r.backend)
            return chain([_SETTLED], source), None
        return chain([first], source), None

    def block(self, items: Iterable[Instance | None], chunk: list[Instance | None], offset: int) -> Decided | None:
        """The quick rounds, the ``shared`` decider and the full decisions of one block of
        choices (``items``, gathered into ``chunk`` as the first round reaches them): the
        result once a choice wins or the time is out, else ``None`` (every choice
        refuted, or some left unknown in the tally).

        The first quick round comes first (with a ``shared`` decider: for at most
        :data:`QUICK_SECONDS`); then the ``shared`` decider, except that at most
        :data:`FEW_OPEN` open choices, all reached, get the other quick rounds before it;
        then the first round on the open choices it had not reached, the other quick
        rounds and the full decisions in order."""
        open_: list[int] = []
        late: set[int] = set()  # not reached by the first round in its time
        start = time.perf_counter()
        for first in self.rounds[:1] or (None,):
            for inst in items:
                chunk.append(inst)
                if inst is _SETTLED:  # refuted in its head start
                    continue
                if inst is None:
                    self.answered("-")
                    continue
                if first is not None and self.shared is not None and time.perf_counter() - start > self.pause:
                    late.add(len(chunk) - 1)
                    open_.append(len(chunk) - 1)
                    continue
                found = self.quick(inst, len(chunk) - 1, offset, first, open_)
                if found is not None:
                    return found
        others: list[tuple[int, set[int] | None]] = [(nodes, None) for nodes in self.rounds[1:]]
        before: list[tuple[int, set[int] | None]] = []
        after = others
        if self.shared is not None and not late and len(open_) <= FEW_OPEN:
            before, after = others, []
        if late:  # the first round, on the choices it had not reached that are still open
            after = [(self.rounds[0], late), *after]
        got = self.rounds_on(chunk, open_, offset, before)
        if not isinstance(got, Decided):
            got = self.together(chunk, got, offset)
        if not isinstance(got, Decided):
            got = self.rounds_on(chunk, got, offset, after)
        if isinstance(got, Decided):
            return got
        for i in got:
            inst = chunk[i]
            assert inst is not None
            found = self.full(inst, offset + i)
            if found is not None:
                return found
        return None

    def rounds_on(self, chunk: list[Instance | None], open_: list[int], offset: int,
                  rounds: list[tuple[int, set[int] | None]]) -> list[int] | Decided:
        """Quick rounds on the open choices, each ``(nodes, only)`` in turn (``only``: the
        choices it is for, ``None``: every open one): the result if one wins or the time
        is out, else the choices still open, in order."""
        for nodes, only in rounds:
            still: list[int] = []
            for i in open_:
                inst = chunk[i]
                assert inst is not None
                if only is not None and i not in only:
                    still.append(i)
                    continue
                found = self.quick(inst, i, offset, nodes, still)
                if found is not None:
                    return found
            open_ = still
        return open_

    def together(self, chunk: list[Instance | None], open_: list[int], offset: int) -> list[int] | Decided:
        """The ``shared`` decider on the open choices: the result when it wins one; else
        the open choices left, those it refutes settled, those it finds winnable first,
        then the others in order."""
        if self.shared is None or len(open_) < 2:
            return open_
        seconds = self.left()
        if seconds is not None and seconds <= 0:
            return open_
        said = self.shared([c for c in (chunk[i] for i in open_) if c is not None],
                           Budget(seconds, None, self.budget.cancel))
        for k, won in sorted(said.items()):
            if isinstance(won, Result):
                assert won.verdict is Verdict.WINNABLE
                self.tally.add(won)
                self.answered(won.backend)
                return self.tally.done(Verdict.WINNABLE, offset + open_[k], _tagged(won, "together"))
        for k, won in said.items():
            if not won:
                self.tally.shared += 1
                self.answered("sat")
        return [open_[k] for k in sorted(said) if said[k]] + [i for k, i in enumerate(open_) if k not in said]

    def quick(self, inst: Instance, i: int, offset: int, nodes: int | None, still: list[int]) -> Decided | None:
        """The search on choice ``i`` within ``nodes`` nodes (``None``: no quick round,
        the choice stays open): the result if it wins or the time is out; an open choice
        goes to ``still``."""
        seconds = self.left()
        if seconds is not None and seconds <= 0:
            self.tally.unknown = True
            return self.tally.done(Verdict.UNKNOWN)
        if nodes is None:
            still.append(i)
            return None
        cap = nodes if self.budget.nodes is None else min(nodes, self.budget.nodes)
        try:
            r = self.decide(inst, QUICK_BACKEND, Budget(seconds, cap, self.budget.cancel))
        except NotApplicableError:  # the search does not decide it: the full decider will
            still.append(i)
            return None
        self.tally.quick += 1
        self.tally.add(r)
        if r.verdict is Verdict.UNKNOWN:
            still.append(i)
            return None
        self.answered(r.backend)
        if r.verdict is Verdict.WINNABLE:
            return self.tally.done(Verdict.WINNABLE, offset + i, _tagged(r, "quick"))
        return None

    def full(self, inst: Instance, index: int) -> Decided | None:
        """The caller's back-end on the choice at ``index``: the result if it wins or the
        time is out."""
        seconds = self.left()
        if seconds is not None and seconds <= 0:
            self.tally.unknown = True
            return self.tally.done(Verdict.UNKNOWN)
        r = self.decide(inst, self.backend, Budget(seconds, self.budget.nodes, self.budget.cancel))
        self.tally.full += 1
        self.tally.add(r)
        self.answered(r.backend)
        if r.verdict is Verdict.WINNABLE:
            return self.tally.done(Verdict.WINNABLE, index, _tagged(r, "full"))
        self.tally.unknown = self.tally.unknown or r.verdict is Verdict.UNKNOWN
        return None


_NONE: Any = object()
"""No choice at all (an empty iterator's marker; ``None`` is a choice lost before play)."""
_SETTLED: Any = object()
"""The first choice, refuted in its head start (:meth:`_Run.head`)."""


def _tagged(r: Result, phase: str) -> Result:
    """``r`` with the phase that won it in its statistics (``choice_phase``)."""
    extra: dict[str, Any] = {**r.stats.extra, "choice_phase": phase}
    return replace(r, stats=replace(r.stats, extra=extra))
