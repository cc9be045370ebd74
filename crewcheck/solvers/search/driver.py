"""The driver of the search: :class:`SearchSolver`, which runs the kernel in node-limited
rounds with restarts, broadens to the first plays, splits free deals into fixed ones,
and sums the statistics (see :mod:`crewcheck.solvers.search` for the whole back-end)."""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from dataclasses import dataclass
from math import comb
from typing import Any, ClassVar

from crewcheck.runtime import kernels
from crewcheck.solvers.search.refutations import refutation
from crewcheck.model.cards import Deck
from crewcheck.model.conditions import NoTrickWonWith
from crewcheck.model.derived import equivalent_plays, quotas_left
from crewcheck.model.instance import Instance
from crewcheck.model.state import State
from crewcheck.model.tasks import Task
from crewcheck.solvers.base import Answer, Budget, Deadline, Verdict
from crewcheck.solvers.search import kernel as _kernel
from crewcheck.solvers.search.conditions import (
    SEARCH_KINDS, describe_relaxation, tasks_in_disguise, winning_card_arms,
)
from crewcheck.solvers.search.relaxation import LOW_CARD_NODES, LowCards, relaxation_lost
from crewcheck.solvers.search.problem import Problem
from crewcheck.solvers.search.records import Limits
from crewcheck.solvers.search.table import PURE_TABLE_BITS, TABLE_BITS, begin, table

__all__ = ["SearchSolver", "SearchOptions", "MAX_CARDS", "load_compiled"]

MAX_CARDS = 63
"""Largest deck the kernel handles (a set of cards is one signed 64-bit mask)."""
UNLIMITED = 1 << 40
CANCEL_ROUND_SECONDS = 0.02
"""Longest round (estimated from the measured rate) when the budget has a ``cancel``
callable, which is polled between rounds."""
FIRST_CANCEL_SLICE_NODES = 1 << 15
"""With a ``cancel`` callable and no node rate known yet, the node limit of the first
slice (about 6 ms compiled): the engine's hook, which starts its SAT process once
:data:`crewcheck.solvers.engine.SEARCH_SECONDS` have passed, is polled that early."""
WARM_START_NODES = 3000
"""Node budget of the plain-Python first try while the compiled kernel is not loaded."""
SPLIT_MAX = 24
"""Free assignment: the most ways of giving the open tasks to seats (within the quotas)
for which the search also tries each as a fixed deal (:meth:`SearchSolver.decide`)."""

LOW_CARD_FIRST = 5_000
"""Trick boundaries of the low-card relaxation's first turn, right after the first run."""
LOW_CARD_RATIO = 32
"""Later turns of the relaxation get a boundary per this many nodes the search has just
spent: a boundary costs the relaxation's kernel about as long as 30 nodes cost the search
(mission 46, 3 players, seed 132: 202,387 boundaries in 9.5 s, the search 650,000 nodes a
second, on the shared machine), so the two get the CPU alike."""

_LOADED = [False]
"""Whether the compiled kernel has been called in this process (its first call loads it)."""


def _kernel_funcs(pure: bool) -> tuple[Any, bool]:
    """The kernel namespace and whether it is compiled."""
    if not pure:
        try:
            return _kernel.compiled(), True
        except ImportError:
            pass
    return _kernel.twin(), False


def load_compiled() -> float | None:
    """Load the compiled kernel now (import numba, load the cached machine code) by
    deciding a two-card deal with it; the seconds it took, or ``None`` without numba or
    when it is already loaded. Batch runs call it before timing their first deal."""
    if _LOADED[0]:
        return None
    t0 = time.perf_counter()
    try:
        _kernel.compiled()
    except ImportError:
        return None
    tiny = Instance(Deck.from_sizes({"B": 2}), (0b10, 0b01), (Task(0, 0),), lead=0)
    budget = Budget()
    solver = SearchSolver(SearchOptions(warm_start=False))
    solver._run(tiny, tiny.state(), budget, budget.start(), True, None)
    # the low-card relaxation's kernel too (numba loads each function at its first call)
    low = Instance(Deck.from_sizes({"B": 3}), (0b110, 0b001), lead=0, conditions=(NoTrickWonWith(2),))
    relaxation_lost(low)
    return time.perf_counter() - t0


_SUMMED = ("tt_hits", "tt_stores", "cuts", "part_hits", "part_stores", "rounds", "kernel_seconds", "seconds")
"""Statistics that add up over the kernel runs of one decision (the others: the last run's)."""


def _tally(total: dict[str, Any], extra: Mapping[str, Any]) -> None:
    """Add one kernel run's statistics into ``total``."""
    for key, value in extra.items():
        if key in _SUMMED:
            total[key] = total.get(key, 0) + value
        elif key == "probe_won":
            total[key] = bool(total.get(key)) or bool(value)
        else:
            total[key] = value


def _played_out(state: State, plays: tuple[int, ...]) -> State:
    """The position after ``plays``, or where the game ends on the way (a line of a
    relaxation may go on after the real game is over)."""
    for card in plays:
        if state.end is not None:
            break
        state = state.apply(card)
    return state


def _winning_prefix(state: State, plays: tuple[int, ...]) -> tuple[int, ...] | None:
    """The plays of ``plays`` up to the end of the real game, if it is won there."""
    for i, card in enumerate(plays):
        state = state.apply(card)
        if state.end is not None:
            return plays[:i + 1] if state.end.won else None
    return None


def _ended(state: State, answer: Answer) -> Answer:
    """A winning line cut where the real game ends: a deal with conditions is won as soon
    as every condition is settled, and the search's line (of the kernel's game, or of an
    arm whose conditions became tasks) may play on after that. A line that does not win
    the real game is left as it is, for the replay checker to reject."""
    if answer.verdict is not Verdict.WINNABLE or not answer.plays:
        return answer
    plays = _winning_prefix(state, answer.plays)
    if plays is None or len(plays) == len(answer.plays):
        return answer
    assignment = _played_out(state, plays).owners if answer.assignment is not None else None
    return Answer(answer.verdict, plays, assignment, answer.nodes, answer.extra, answer.explanation)


def _first_plays(state: State) -> list[int]:
    """The legal plays of ``state``, one per class of interchangeable cards (as the kernel)."""
    return [group[0] for group in equivalent_plays(state)]


def _assignments(instance: Instance, state: State) -> list[tuple[int, ...]] | None:
    """Free assignment: every way to give the open tasks to seats within the quotas left
    (tasks already taken keep their seat), or ``None`` when there are more than
    :data:`SPLIT_MAX`."""
    owners = state.owners or ()
    room = list(quotas_left(state) or ())
    open_tasks = [i for i, o in enumerate(owners) if o < 0]
    total, left = 1, len(open_tasks)
    for r in room:
        total *= comb(left, max(r, 0))
        left -= max(r, 0)
    if total > SPLIT_MAX or left != 0:
        return None
    out: list[tuple[int, ...]] = []
    seats = list(owners)

    def place(k: int) -> None:
        if k == len(open_tasks):
            out.append(tuple(seats))
            return
        for s in range(instance.players):
            if room[s] > 0:
                room[s] -= 1
                seats[open_tasks[k]] = s
                place(k + 1)
                room[s] += 1

    place(0)
    return out


@dataclass(frozen=True)
class SearchOptions:
    """Options of the search (every field has the default the registry's ``search`` uses)."""

    pure: bool = False
    """Run the plain-Python kernel even when numba is installed (for tests)."""
    probes: tuple[tuple[int, int], ...] = ()
    """Short probes run before the complete search: ``(idle, nodes)`` looks for a win in
    which at most ``idle`` tricks complete no task, within ``nodes`` nodes. A probe
    finding nothing proves nothing; it only bounds the time spent on lines that stall."""
    first_round_nodes: int = 1 << 16
    """Node limit of the first round of the complete search (the plain kernel: 1/32)."""
    shaping: int = 15
    """Move-ordering bonus for shaping plays (:func:`~crewcheck.solvers.search.kernel.gen_moves`);
    0 turns it off."""
    warm_start: bool = True
    """While the compiled kernel is not yet loaded in this process, first try the
    plain-Python kernel for :data:`WARM_START_NODES` nodes (a fresh ``crewcheck decide``
    on an easy deal then never pays numba's start-up)."""
    restarts: bool = True
    """Node-limited rounds take turns among three move orderings: the default, with
    shaping bonuses, and a seeded perturbation (restarts against heavy-tailed search
    times; the node limit grows 1.5x per round, the refutation table carries over, and
    any round that completes is a proof)."""
    canonical: bool = True
    """Key the refutation table by relative ranks (see :func:`~crewcheck.solvers.search.kernel.position_key`)."""
    partition: bool = False
    """Also keep the partition table: refuted positions with the cards that made them
    lost, each refuting the positions that differ only in other cards
    (:mod:`crewcheck.solvers.search.partition`; fixed assignment without conditions or
    covered cards)."""
    broaden: bool = True
    """After :attr:`broaden_after` nodes, give the first plays rounds of their own beside
    the whole search (:meth:`SearchSolver._broaden`)."""
    broaden_after: int = 1 << 18
    """Nodes of the whole search alone before it broadens (about 50 ms compiled)."""
    split_nodes: int = 1 << 16
    """Free assignment with at most :data:`SPLIT_MAX` ways to give the open tasks to seats:
    nodes the free search gets alone before the fixed deals of those ways join it."""
    low_card_nodes: int = LOW_CARD_NODES
    """Trick boundaries the low-card relaxation may visit on a deal (0: never tried); see
    :meth:`SearchSolver._relaxed`."""
    relax: bool = False
    """Decide a deal whose conditions include kinds the search cannot judge
    (:func:`~crewcheck.solvers.search.conditions.unknown_kinds`) by leaving those out: an
    UNWINNABLE is then a proof (the relaxation has more winning lines), a winning line is
    kept only if it also wins the real deal, else the answer is UNKNOWN. Off: such a deal
    is refused (:meth:`SearchSolver.supports`)."""


class SearchSolver:
    """Fast exact depth-first search (see the module docstring), with :class:`SearchOptions`."""

    name: ClassVar[str] = "search"
    exact: ClassVar[bool] = True
    summary: ClassVar[str] = "Fast exact depth-first search on a numba-compiled kernel: the engine's first side."
    """One line for ``crewcheck backends`` (this module's docstring is about the driver)."""
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()
    """numba is optional: without it the plain-Python kernel runs."""
    condition_kinds: ClassVar[frozenset[str]] = frozenset(SEARCH_KINDS)
    """The condition kinds the kernel judges (:mod:`crewcheck.solvers.search.conditions`)."""
    plays_covered: ClassVar[bool] = True
    """Covered cards (JARVIS's columns): a seat plays and follows suit with its face-up cards only."""

    def __init__(self, options: SearchOptions | None = None) -> None:
        self.options = options or SearchOptions()

    @staticmethod
    def limitations() -> str | None:
        """``None`` when this back-end runs at full strength here, else what it lacks
        (``crewcheck backends`` shows it): the compiled kernel."""
        if os.environ.get("CREWCHECK_PURE_KERNEL", "") in ("1", "true", "yes"):
            return "runs the plain-Python kernel (much slower): CREWCHECK_PURE_KERNEL is set"
        why = kernels.numba_missing()  # through the module: tests replace it there
        return None if why is None else f"runs the plain-Python kernel (much slower): {why}"

    def supports(self, instance: Instance) -> str | None:
        if instance.deck.size > MAX_CARDS:
            return (f"search handles decks of at most {MAX_CARDS} cards; this deal has {instance.deck.size} "
                    f"(use --backend sat, z3 or cpsat)")
        if not self.options.relax:
            return describe_relaxation(instance)
        return None

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        deadline = budget.start()
        state = instance.state()
        if state.end is not None:
            won = state.end.won
            return Answer(Verdict.WINNABLE if won else Verdict.UNWINNABLE, () if won else None,
                          state.owners if won else None)
        relaxed = describe_relaxation(instance)
        if relaxed is not None and not self.options.relax:
            raise ValueError(relaxed)
        work = tasks_in_disguise(instance)  # the same winning lines, with the task cuts
        work_state = state if work is None else work.state()
        why = refutation(work_state)  # cheap sound necessary conditions (crewcheck.solvers.search.refutations)
        if why is not None:
            return Answer(Verdict.UNWINNABLE, extra={"refuted_before_search": True}, explanation=why)
        answer = self._decide_loaded(instance if work is None else work, work_state, budget, deadline, instance)
        if work is not None:
            extra = {**answer.extra, "conditions_as_tasks": True}
            assignment = None
            if answer.verdict is Verdict.WINNABLE and state.owners is not None:
                assignment = _played_out(state, answer.plays or ()).owners
            answer = Answer(answer.verdict, answer.plays, assignment, answer.nodes, extra, answer.explanation)
        if relaxed is None:
            return _ended(state, answer) if instance.conditions else answer
        extra = {**answer.extra, "relaxed": relaxed}
        if answer.verdict is Verdict.WINNABLE:
            plays = _winning_prefix(state, answer.plays or ())
            if plays is None:
                # a line of the relaxation that the conditions left out do not let win
                return Answer(Verdict.UNKNOWN, nodes=answer.nodes, extra={**extra, "relaxed_line_lost": True})
            assignment = _played_out(state, plays).owners if answer.assignment is not None else None
            return Answer(Verdict.WINNABLE, plays, assignment, answer.nodes, extra, answer.explanation)
        return Answer(answer.verdict, answer.plays, answer.assignment, answer.nodes, extra, answer.explanation)

    def _decide_loaded(self, instance: Instance, state: State, budget: Budget, deadline: Deadline,
                       origin: Instance) -> Answer:
        """The search with the compiled kernel loaded (or the plain one, warm start first);
        ``origin``: the deal as given (``instance`` may have conditions written as tasks)."""
        pure = self.options.pure or os.environ.get("CREWCHECK_PURE_KERNEL", "") in ("1", "true", "yes")
        if not pure and self.options.warm_start and not _kernel.is_loaded():
            # the compiled kernel is not loaded in this process yet (~1 s): try the plain
            # kernel on a small node budget first, so easy deals answer at once
            quick = self._run(instance, state, budget, deadline, False, WARM_START_NODES)
            if quick.verdict is not Verdict.UNKNOWN or deadline.expired(quick.nodes):
                return quick
        loading = None if pure else load_compiled()
        if loading is not None:
            # loading the compiled kernel is not charged to the budget (as in the engine)
            if deadline.until is not None:
                deadline.until += loading
            answer = self._decide(instance, state, budget, deadline, pure, origin)
            return Answer(answer.verdict, answer.plays, answer.assignment, answer.nodes,
                          {**answer.extra, "kernel_load_seconds": round(loading, 4)}, answer.explanation)
        return self._decide(instance, state, budget, deadline, pure, origin)

    def _decide(self, instance: Instance, state: State, budget: Budget, deadline: Deadline,
                pure: bool, origin: Instance) -> Answer:
        """The search proper, once the cheap refutations and the warm start are done. A
        deal its first run does not decide gets turns of the low-card relaxation of
        ``origin`` (:meth:`_relaxed`) beside the search's."""
        cards = winning_card_arms(instance)
        ways = _assignments(instance, state) if cards is None and state.owners is not None else None
        if cards is None and ways is None and not self.options.broaden:
            return self._run(instance, state, budget, deadline, not pure, None)
        first = self._run(instance, state, budget, deadline, not pure,
                          self.options.broaden_after if cards is None and ways is None else self.options.split_nodes)
        if first.verdict is not Verdict.UNKNOWN or deadline.expired(first.nodes):
            return first
        relax = LowCards(origin, not pure) if self.options.low_card_nodes > 0 else None
        refuted = self._relaxed(relax, LOW_CARD_FIRST, first.nodes, first.extra, deadline)
        if refuted is not None:
            return refuted
        if cards is not None:
            arms = [(instance, state)] + [(arm, arm.state()) for arm in cards]
            return self._alternate(state, arms, ("whole", "winning cards", "every choice of winning cards"),
                                   budget, deadline, not pure, first, relax)
        if ways is not None:
            return self._split(instance, state, ways, budget, deadline, not pure, first, relax)
        return self._broaden(instance, state, budget, deadline, not pure, first, relax)

    def _relaxed(self, relax: LowCards | None, nodes: int, spent: int, extra: Mapping[str, Any],
                 deadline: Deadline) -> Answer | None:
        """A turn of the low-card relaxation beside the search: ``nodes`` more trick
        boundaries (within :attr:`SearchOptions.low_card_nodes`, stopping when the deadline
        or the cancel hook says so). UNWINNABLE, with the search's ``spent`` nodes and
        ``extra`` statistics, if the relaxation is lost; else ``None``."""
        if relax is None or not relax.applies or relax.verdict is not None:
            return None
        nodes = min(nodes, self.options.low_card_nodes - relax.spent)
        if nodes <= 0 or not relax.run(nodes, lambda: deadline.expired(spent)):
            return None
        return Answer(Verdict.UNWINNABLE, nodes=spent, extra={**extra, "low_card_positions": relax.spent},
                      explanation="the deal cannot be won even with its low cards played as the crew likes "
                                  "(the low-card relaxation)")

    def _broaden(self, instance: Instance, state: State, budget: Budget, deadline: Deadline,
                 compiled: bool, first: Answer, relax: LowCards | None = None) -> Answer:
        """After :attr:`SearchOptions.broaden_after` nodes: turns of one round of the whole search (node
        limit x1.5 per turn, going on from the rounds so far, the move orderings in turn),
        then a round for each first play not yet refuted, sharing half that limit. All
        runs share one refutation table (they are positions of one deal). A first play
        that wins quickly is found even when the whole search's first choice leads into a
        large unwinnable subtree (on 4p free k = 30 deals leading a rocket wins in 100
        nodes while the first choice is still open after 10**7)."""
        spent = first.nodes
        rounds = int(first.extra.get("rounds", 1))
        base = self.options.first_round_nodes if compiled else max(1, self.options.first_round_nodes >> 5)
        seconds = float(first.extra.get("kernel_seconds", 0.0))
        rate = spent / seconds if seconds > 0 else None
        kids: list[tuple[int, Instance, State]] = []
        for card in _first_plays(state):
            child = instance.with_history((*instance.history, card))
            kids.append((card, child, child.state()))
        live = list(range(len(kids)))
        turn = rounds
        extra: dict[str, Any] = {"broaden_turns": 0}
        _tally(extra, first.extra)

        def done(answer: Answer, plays: tuple[int, ...] | None) -> Answer:
            free = plays is not None and state.owners is not None
            assignment = _played_out(state, plays or ()).owners if free else None
            return Answer(answer.verdict, plays, assignment, nodes=spent, extra=extra)

        while True:
            extra["broaden_turns"] = turn - rounds + 1
            limit = int(base * 1.5 ** turn)
            if budget.nodes is not None:
                limit = min(limit, budget.nodes - spent)
                if limit <= 0:
                    return Answer(Verdict.UNKNOWN, nodes=spent, extra=extra)
            whole = self._run(instance, state, budget, deadline, compiled, limit, same_table=True,
                              round_nodes=limit, restart0=turn, rate_hint=rate)
            spent += whole.nodes
            _tally(extra, whole.extra)
            if whole.verdict is not Verdict.UNKNOWN:
                extra["decided_by"] = "whole"
                return done(whole, whole.plays)
            if deadline.expired(spent):
                return Answer(Verdict.UNKNOWN, nodes=spent, extra=extra)
            share = max(256, limit // (2 * max(1, len(live))))
            for i in list(live):
                card, child, cstate = kids[i]
                if cstate.end is not None:
                    if cstate.end.won:
                        return done(Answer(Verdict.WINNABLE, ()), (card,))
                    live.remove(i)
                else:
                    answer = self._run(child, cstate, budget, deadline, compiled, share,
                                       same_table=True, round_nodes=share, restart0=turn,
                                       rate_hint=rate)
                    spent += answer.nodes
                    _tally(extra, answer.extra)
                    if answer.verdict is Verdict.WINNABLE:
                        extra["decided_by"] = f"first play {card}"
                        return done(answer, (card, *(answer.plays or ())))
                    if answer.verdict is Verdict.UNWINNABLE:
                        live.remove(i)
                if not live:
                    extra["decided_by"] = "every first play"
                    return Answer(Verdict.UNWINNABLE, nodes=spent, extra=extra)
                if deadline.expired(spent):
                    return Answer(Verdict.UNKNOWN, nodes=spent, extra=extra)
            refuted = self._relaxed(relax, 2 * limit // LOW_CARD_RATIO, spent, extra, deadline)
            if refuted is not None:
                return refuted
            turn += 1

    def _split(self, instance: Instance, state: State, ways: list[tuple[int, ...]], budget: Budget,
               deadline: Deadline, compiled: bool, first: Answer, relax: LowCards | None = None) -> Answer:
        """Free assignment, few ways to give the open tasks to seats: run the free search
        and the fixed deal of every way in turn, each for a node limit that doubles per
        turn (each restart loses its refutation table, a constant factor). Winnable when any
        wins; unwinnable when the free search or every fixed deal is refuted. The fixed
        deals get the precedence and release-time cuts, which need a seat per task: a
        free deal whose seat must win its lowest card of a suit is found that way."""
        arms: list[tuple[Instance, State]] = [(instance, state)]
        for seats in ways:
            fixed = instance.with_assignment(seats)
            arms.append((fixed, fixed.state()))
        return self._alternate(state, arms, ("free", "fixed assignment", "every fixed assignment"), budget,
                               deadline, compiled, first, relax)

    def _alternate(self, state: State, arms: list[tuple[Instance, State]], names: tuple[str, str, str],
                   budget: Budget, deadline: Deadline, compiled: bool, first: Answer,
                   relax: LowCards | None = None) -> Answer:
        """Run the arms in turn, each for a node limit that doubles per turn: arm 0 is the
        deal itself, the others together are equivalent to it (some wins iff it does).
        Winnable when any arm wins (its line wins the deal, which ``state`` belongs to);
        unwinnable when arm 0 or every other arm is refuted. ``names``: how the statistics
        call arm 0, the others, and all of them."""
        live = list(range(len(arms)))
        limit = self.options.split_nodes
        spent = first.nodes
        extra: dict[str, Any] = {"split": len(arms) - 1}
        _tally(extra, first.extra)
        while True:
            for arm in list(live):
                inst, st = arms[arm]
                cap = limit
                if budget.nodes is not None:
                    cap = min(cap, budget.nodes - spent)
                    if cap <= 0:
                        return Answer(Verdict.UNKNOWN, nodes=spent, extra=extra)
                answer = self._run(inst, st, budget, deadline, compiled, cap)
                spent += answer.nodes
                _tally(extra, answer.extra)
                if answer.verdict is Verdict.WINNABLE:
                    extra["decided_by"] = names[0] if arm == 0 else f"{names[1]} {arm - 1}"
                    return Answer(Verdict.WINNABLE, answer.plays, _played_out(state, answer.plays or ()).owners,
                                  nodes=spent, extra=extra)
                if answer.verdict is Verdict.UNWINNABLE:
                    if arm == 0 or live == [arm]:
                        extra["decided_by"] = names[0] if arm == 0 else names[2]
                        return Answer(Verdict.UNWINNABLE, nodes=spent, extra=extra)
                    live.remove(arm)
                if deadline.expired(spent):
                    return Answer(Verdict.UNKNOWN, nodes=spent, extra=extra)
            refuted = self._relaxed(relax, limit * len(live) // LOW_CARD_RATIO, spent, extra, deadline)
            if refuted is not None:
                return refuted
            limit *= 2

    def _run(self, instance: Instance, state: State, budget: Budget, deadline: Deadline,
             want_compiled: bool, ceiling: int | None, *, same_table: bool = False,
             round_nodes: int | None = None, restart0: int = 0,
             rate_hint: float | None = None) -> Answer:
        """Run the kernel in node-limited rounds (at most ``ceiling`` nodes if given).

        ``same_table``: keep the refutation table's entries (a position of the same deal);
        ``round_nodes``: the first round's node limit; ``restart0``: the first round's
        move ordering (in turn, as the rounds go); ``rate_hint``: nodes per second
        measured before, to size the first round against the deadline."""
        t0 = time.perf_counter()
        k, compiled = _kernel_funcs(not want_compiled)
        problem = Problem.build(instance, state, compiled=compiled, canonical=self.options.canonical,
                                relax=self.options.relax, partition=self.options.partition)
        tt = table(compiled, TABLE_BITS if compiled else PURE_TABLE_BITS)
        if not same_table:
            # a new generation, unless table.shared() keeps this deal's entries; the key
            # layout (canonical or not) is part of the deal's identity
            begin(tt, (instance.deck, instance.hands, instance.tasks, instance.trump, instance.lead,
                       instance.rules, instance.conditions, instance.quota, instance.covered, problem.deal.canon))
        work = problem.workspace()
        stats = work.stats

        limit = self.options.first_round_nodes if compiled else max(1, self.options.first_round_nodes >> 5)
        if round_nodes is not None:
            limit = round_nodes
        rounds = 0
        kernel_seconds = 0.0
        rate_seconds = 0.0
        rate_nodes = 0
        status = _kernel.OUT_OF_NODES
        seq: Any = None
        phases = list(self.options.probes)
        probe_won = False
        restart = restart0
        round_used = 0
        phase = 0
        resume = False
        hands: Any = None
        quota: Any = None
        while True:
            if not resume:
                rounds += 1  # (a slice of a round is no round of its own)
            done_nodes = int(stats[_kernel.STAT_NODES])
            cap = UNLIMITED
            node_cap = limit - round_used
            if phase < len(phases):
                cap, node_cap = phases[phase]
            if budget.nodes is not None:
                node_cap = min(node_cap, max(1, budget.nodes - done_nodes))
            if ceiling is not None:
                node_cap = min(node_cap, max(1, ceiling - done_nodes))
            remaining = deadline.remaining()
            rate = rate_hint or 0.0
            if rate_seconds > 0 and rate_nodes > 0:
                rate = rate_nodes / rate_seconds
            if rate > 0:
                # slices of at least 1024 nodes, but never past the round's, the budget's
                # or the ceiling's end: a round cut into slices explores exactly its nodes
                if remaining is not None:
                    node_cap = min(node_cap, max(1024, int(rate * remaining * 0.9) + 1))
                if deadline.cancel is not None:  # keep rounds short so a cancel is seen soon
                    node_cap = min(node_cap, max(1024, int(rate * CANCEL_ROUND_SECONDS) + 1))
            elif deadline.cancel is not None:
                node_cap = min(node_cap, FIRST_CANCEL_SLICE_NODES)
            seed, shaping = 0, 0
            if cap == UNLIMITED and self.options.restarts:
                # a portfolio of move orderings, one per round, in turn
                strategy = restart % 3
                shaping = self.options.shaping if strategy == 1 else 0
                seed = restart if strategy == 2 else 0
            if not resume:
                hands, seq, quota = problem.round_arrays()
            work.frame[_kernel.FRAME_RESUME] = 1 if resume else 0
            resume = False
            tk = time.perf_counter()
            status = k.search(hands, seq, quota, Limits(node_cap, cap, seed, shaping), problem.deal, tt.arrays(problem.deal.part == 1),
                              work)
            dt = time.perf_counter() - tk
            kernel_seconds += dt
            if compiled and not _LOADED[0]:
                _LOADED[0] = True  # the first compiled call loads the kernel: not a rate sample
            else:
                rate_seconds += dt
                rate_nodes += int(stats[_kernel.STAT_NODES]) - done_nodes
            if phase < len(phases):
                phase += 1
                if status == _kernel.WIN:
                    probe_won = True
                    break
                status = _kernel.OUT_OF_NODES  # a probe's LOSE proves nothing
                if deadline.expired(int(stats[_kernel.STAT_NODES])):
                    break
                continue
            if status != _kernel.OUT_OF_NODES:
                break
            if deadline.expired(int(stats[_kernel.STAT_NODES])):
                break
            if budget.nodes is not None and int(stats[_kernel.STAT_NODES]) >= budget.nodes:
                break
            if ceiling is not None and int(stats[_kernel.STAT_NODES]) >= ceiling:
                break
            round_used += int(stats[_kernel.STAT_NODES]) - done_nodes
            if round_used < limit:
                # a round cut into slices (cancel polling): the same ordering goes on from
                # where the kernel stopped
                resume = True
                continue
            round_used = 0
            # 1.5x a round (at least one node more: a limit of 1 would stay 1, every round
            # one node from the root, and never decide)
            limit = min(max(limit + 1, limit * 3 // 2) if self.options.restarts else limit * 2, 1 << 24)
            restart += 1

        nodes = int(stats[_kernel.STAT_NODES])
        extra = {
            "tt_hits": int(stats[_kernel.STAT_TT_HITS]),
            "tt_stores": int(stats[_kernel.STAT_TT_STORES]),
            "cuts": int(stats[_kernel.STAT_CUTS]),
            "part_hits": int(stats[_kernel.STAT_PT_HITS]),
            "part_stores": int(stats[_kernel.STAT_PT_STORES]),
            "rounds": rounds,
            "probe_won": probe_won,
            "compiled": compiled,
            "canonical": bool(problem.deal.canon),
            "kernel_seconds": kernel_seconds,
            "seconds": time.perf_counter() - t0,
        }
        if status == _kernel.OUT_OF_NODES:
            return Answer(Verdict.UNKNOWN, nodes=nodes, extra=extra)
        if status == _kernel.LOSE:
            return Answer(Verdict.UNWINNABLE, nodes=nodes, extra=extra)
        length = int(stats[_kernel.STAT_DEPTH])
        tlen0 = problem.deal.tlen0
        plays = tuple(int(seq[tlen0 + i]) for i in range(length))
        assignment = _played_out(state, plays).owners if problem.deal.free else None
        return Answer(Verdict.WINNABLE, plays, assignment, nodes=nodes, extra=extra)
