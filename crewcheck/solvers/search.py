"""Fast exact search: the default decider.

What it is
    A depth-first search over single card plays, from the position after the deal's
    history, stopping at the first winning line. The hot loop
    (:func:`crewcheck.solvers.kernel.search`) runs on ints with an explicit stack and is
    compiled by numba when it is installed (``pip install "crewcheck[search]"``; compiled
    code cached on disk), or runs as plain Python otherwise (same function, much slower).
    Ingredients:

    * a compact position: the cards still held (one 64-bit mask: every card's holder is
      fixed by the deal), the leader and, under free assignment, the seats' remaining task
      quotas. Tasks done and token progress follow from the cards played, since any
      failure ends the game;
    * a table of refuted trick-boundary positions (two-way set-associative, 2**20 slots
      of one cache line each: 64 MB of address space on huge pages, touched only as it
      fills; one per thread, reused across calls by a generation stamp, so nothing is cleared
      between deals), keyed by
      *relative ranks*: per suit, the holder and task flag of each card still in play in
      rank order, plus the task cards still held. Positions that differ only by which
      lower cards went earlier share one entry (:func:`kernel.position_key`);
    * cheap refutations: a trick in progress holding a task card whose seat has already
      played and is not winning, or cannot overtake the winning card; two task cards of
      different seats in one trick; a hand holding more task cards than tricks remain;
      more tricks needed than remain (a trick completes one seat's tasks, and one hand's
      task cards need different tricks: sum over seats of the largest such group);
      under free assignment, sum over seats of ceil(quota / players) tricks, and task
      cards in a trick that no seat still able to win it has room for; lead
      reachability (a seat still owing a task must be able to win some future trick,
      :mod:`crewcheck.model.analysis`; checked at the root and at every trick boundary);
      per-task release times (the earliest trick that can complete it, e.g. after the other
      seats play out its suit) and a Hall check: the tasks released at trick e or later
      need, per owner, as many tricks as one hand holds of them, all among the last ones;
      *precedence*: a seat's own task card that is not a trump must win its trick itself,
      so a seat with no card of that suit to duck under it with (a lower card that is not
      another seat's task) must first play out the suit, and the task cards among those
      complete earlier tricks; a cycle in this order is a contradiction, and so is an
      order the tokens forbid (a task with absolute token r and r or more tasks that must
      come first, two tokens of one kind out of order, "last" before another task). On the
      benchmark corpus this decides at the root many 12-task deals that took millions of
      nodes; under free assignment, *trump sharing*: a seat taking q more tasks takes a
      multiple of the players minus q cards that are no task, and a trick holding trumps
      goes, with all of them, to the highest (kernel ``trump_split_dead``, root rule in
      :mod:`crewcheck.model.analysis`); it decides the 36-task Classic deals, where the
      cards that are no task are the four rockets;
    * card equivalence: cards of one seat and suit with no card still in play between
      them, none a task card, are interchangeable; only the lowest is tried;
    * move ordering: plays that keep a task trick with its seat, that complete a task,
      that lead a seat's own top task card or draw out a suit holding its tasks first;
      under free assignment, plays that leave the trick with the seat that has the most
      tasks still to take (and room for the trick's); then low cards first.

    The search runs in node-limited rounds (the limit grows 1.5x per round), checking the
    deadline between rounds; the rounds take turns among three move orderings (the one
    above, one with a bonus for "shaping" plays that unblock a seat's own low task card
    or void a suit its seat must trump (under free assignment: without the quota
    preference), and a seeded shuffle of the first two tricks), a
    portfolio against the heavy-tailed times of backtracking search. The refutation table
    survives between rounds, and any round that completes is a proof. While the compiled
    kernel is not yet loaded in the process, the plain kernel first gets a few thousand
    nodes, so a fresh ``crewcheck decide`` on an easy deal skips numba's start-up.

    After :attr:`SearchSolver.broaden_after` nodes the rounds broaden: each turn runs one
    round of the whole search, then one for each first play not yet refuted (sharing half
    the node limit), all on one refutation table, so a first play that wins quickly is
    found even when the whole search's first choice is a large unwinnable subtree. A free
    deal with at most :data:`SPLIT_MAX` ways to give its open tasks to seats instead runs,
    after :attr:`SearchSolver.split_nodes` nodes, the free search and the fixed deal of
    each way in turn, so that the fixed-assignment cuts (precedence) apply.
    Statistics (nodes, table hits and stores, cheap cuts, rounds, whether the compiled
    kernel ran, seconds in the kernel; ``broaden_turns``, ``split`` and ``decided_by``
    when those ran) are in ``Answer.extra``.
Rules covered
    Everything the model has: trumps or none, any first lead (seat, commander, free),
    unequal hands, order tokens in both readings (strict, lenient), fixed and free
    assignment (free: the seat that wins a task card takes it while its draft quota has
    room, which is exactly the lazy semantics of :class:`crewcheck.model.State`), and
    mid-game positions. Decks of at most 63 cards (the Classic deck has 40).
Exact
    Yes: sound and complete. Every cut above is a proof that no winning line exists
    below it, and every winning line is replayed by :func:`crewcheck.decide`.
Cost
    Exponential in the worst case; 5-6 million nodes per second compiled (2.5 million on
    a loaded machine). Easy Classic
    deals take well under a millisecond, but constrained deals with 6-15 tasks can need
    10**6-10**7 nodes; see ``docs/performance.md`` ("Fast search") for the measured table.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Mapping
from math import comb
from typing import Any, ClassVar

from crewcheck.model.analysis import refutation
from crewcheck.model.instance import Instance
from crewcheck.model.state import State
from crewcheck.model.tasks import TokenKind, token_kind
from crewcheck.solvers import kernel as _kernel
from crewcheck.solvers.base import Answer, Budget, Deadline, Verdict

__all__ = ["SearchSolver", "MAX_CARDS", "TABLE_BITS", "load_compiled"]

MAX_CARDS = 63
"""Largest deck the kernel handles (a set of cards is one signed 64-bit mask)."""
UNLIMITED = 1 << 40
TABLE_BITS = 20
"""The refutation table has ``2**TABLE_BITS`` slots (compiled kernel)."""
PURE_TABLE_BITS = 15
"""Slots of the plain-Python kernel's table (a list: kept small so it is quick to make)."""
CANCEL_ROUND_SECONDS = 0.02
"""Longest round (estimated from the measured rate) when the budget has a ``cancel``
callable, which is polled between rounds."""
WARM_START_NODES = 3000
"""Node budget of the plain-Python first try while the compiled kernel is not loaded."""
SPLIT_MAX = 24
"""Free assignment: the most ways of giving the open tasks to seats (within the quotas)
for which the search also tries each as a fixed deal (:meth:`SearchSolver.decide`)."""

_KIND_CODE = {TokenKind.ABSOLUTE: 1, TokenKind.RELATIVE: 2, TokenKind.LAST: 3}


class _Table:
    """The refutation table (:data:`kernel.TT_STRIDE` words per slot), allocated once per
    thread and kernel kind.

    The compiled kernel's table is an anonymous memory map advised to use huge pages
    where the system allows it (Linux ``madvise``): the table is touched at random, and
    on the virtual machines measured here each first touch of a 4 KiB page cost ~85 us,
    which made the first deals of a process pay up to 0.2 s for a table of 4 KiB pages."""

    def __init__(self, bits: int, numpy: bool) -> None:
        size = 1 << bits
        self.mask = size - 1
        self.gen = 0
        self.words: Any
        self._map: Any = None
        if numpy:
            import mmap

            import numpy as np

            nbytes = size * _kernel.TT_STRIDE * 8
            self._map = mmap.mmap(-1, nbytes)
            if hasattr(mmap, "MADV_HUGEPAGE"):
                try:
                    self._map.madvise(mmap.MADV_HUGEPAGE)
                except OSError:
                    pass
            self.words = np.frombuffer(self._map, dtype=np.int64)
        else:
            self.words = [0] * (size * _kernel.TT_STRIDE)


_THREAD = threading.local()
"""Per-thread refutation tables: the compiled kernel runs without the GIL, so two threads
searching at once must never share a table (a torn entry could refute a winnable
position)."""


def _table(compiled: bool, bits: int) -> _Table:
    """This thread's table for the kernel kind (made on first use)."""
    tables: dict[tuple[bool, int], _Table] | None = getattr(_THREAD, "tables", None)
    if tables is None:
        tables = _THREAD.tables = {}
    table = tables.get((compiled, bits))
    if table is None:
        table = tables[(compiled, bits)] = _Table(bits, compiled)
    return table


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
    from crewcheck.model.cards import Deck
    from crewcheck.model.tasks import Task

    tiny = Instance(Deck.from_sizes({"B": 2}), (0b10, 0b01), (Task(0, 0),), lead=0)
    SearchSolver(warm_start=False).decide(tiny, budget=Budget())
    return time.perf_counter() - t0


_SUMMED = ("tt_hits", "tt_stores", "cuts", "rounds", "kernel_seconds", "seconds")
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


def _first_plays(state: State) -> list[int]:
    """The legal plays of ``state``, one per class of interchangeable cards (one hand,
    one suit, no card still in play between them, none a task card): as the kernel."""
    inst = state.instance
    deck = inst.deck
    live = 0
    for hand in state.hands:
        live |= hand
    for c in state.trick:
        live |= 1 << c
    tasks = inst.task_mask
    legal = state.legal_mask()
    out: list[int] = []
    prev = -1
    for c in range(deck.size):
        if not legal >> c & 1:
            continue
        if (prev >= 0 and deck.suit_of(prev) == deck.suit_of(c) and inst.holder[prev] == inst.holder[c]
                and not (tasks >> c) & 1 and not (tasks >> prev) & 1
                and not live & ((1 << c) - (1 << (prev + 1)))):
            prev = c
            continue
        prev = c
        out.append(c)
    return out


def _assignments(instance: Instance, state: State) -> list[tuple[int, ...]] | None:
    """Free assignment: every way to give the open tasks to seats within the quotas left
    (tasks already taken keep their seat), or ``None`` when there are more than
    :data:`SPLIT_MAX`."""
    counts = instance.task_counts or ()
    owners = state.owners or ()
    room = [counts[s] - sum(1 for o in owners if o == s) for s in range(instance.players)]
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


class SearchSolver:
    """Fast exact depth-first search (see the module docstring).

    Parameters
    ----------
    pure
        Run the plain-Python kernel even when numba is installed (for tests).
    """

    name: ClassVar[str] = "search"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()
    """numba is optional: without it the plain-Python kernel runs."""

    probes: tuple[tuple[int, int], ...] = ()
    """Short probes run before the complete search: ``(idle, nodes)`` looks for a win in
    which at most ``idle`` tricks complete no task, within ``nodes`` nodes. A probe
    finding nothing proves nothing; it only bounds the time spent on lines that stall."""

    first_round_nodes: int = 1 << 16
    """Node limit of the first round of the complete search (the plain kernel: 1/32)."""
    shaping: int = 15
    """Move-ordering bonus for shaping plays (kernel ``gen_moves``); 0 turns it off."""
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
    """Key the refutation table by relative ranks (see :func:`kernel.position_key`)."""
    broaden: bool = True
    """After :attr:`broaden_after` nodes, give the first plays rounds of their own beside
    the whole search (:meth:`_broaden`)."""
    broaden_after: int = 1 << 18
    """Nodes of the whole search alone before it broadens (about 50 ms compiled)."""
    split_nodes: int = 1 << 16
    """Free assignment with at most :data:`SPLIT_MAX` ways to give the open tasks to seats:
    nodes the free search gets alone before the fixed deals of those ways join it."""

    def __init__(self, *, pure: bool = False, probes: tuple[tuple[int, int], ...] | None = None,
                 canonical: bool | None = None, restarts: bool | None = None,
                 warm_start: bool | None = None, shaping: int | None = None,
                 split_nodes: int | None = None, broaden: bool | None = None) -> None:
        self.pure = pure
        if broaden is not None:
            self.broaden = broaden
        if split_nodes is not None:
            self.split_nodes = split_nodes
        if shaping is not None:
            self.shaping = shaping
        if warm_start is not None:
            self.warm_start = warm_start
        if restarts is not None:
            self.restarts = restarts
        if canonical is not None:
            self.canonical = canonical
        if probes is not None:
            self.probes = probes

    def supports(self, instance: Instance) -> str | None:
        if instance.deck.size > MAX_CARDS:
            return f"search handles decks of at most {MAX_CARDS} cards; this deal has {instance.deck.size}"
        return None

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        deadline = budget.start()
        state = instance.state()
        if state.end is not None:
            won = state.end.won
            return Answer(Verdict.WINNABLE if won else Verdict.UNWINNABLE, () if won else None,
                          state.owners if won else None)
        why = refutation(state)  # cheap sound necessary conditions (crewcheck.model.analysis)
        if why is not None:
            return Answer(Verdict.UNWINNABLE, extra={"refuted_before_search": True}, explanation=why)
        pure = self.pure or os.environ.get("CREWCHECK_PURE_KERNEL", "") in ("1", "true", "yes")
        if not pure and self.warm_start and not _kernel.is_loaded():
            # the compiled kernel is not loaded in this process yet (~1 s): try the plain
            # kernel on a small node budget first, so easy deals answer at once
            quick = self._run(instance, state, budget, deadline, False, WARM_START_NODES)
            if quick.verdict is not Verdict.UNKNOWN or deadline.expired(quick.nodes):
                return quick
        ways = _assignments(instance, state) if state.owners is not None else None
        if ways is not None:
            first = self._run(instance, state, budget, deadline, not pure, self.split_nodes)
            if first.verdict is not Verdict.UNKNOWN or deadline.expired(first.nodes):
                return first
            return self._split(instance, state, ways, budget, deadline, not pure, first)
        if not self.broaden:
            return self._run(instance, state, budget, deadline, not pure, None)
        first = self._run(instance, state, budget, deadline, not pure, self.broaden_after)
        if first.verdict is not Verdict.UNKNOWN or deadline.expired(first.nodes):
            return first
        return self._broaden(instance, state, budget, deadline, not pure, first)

    def _broaden(self, instance: Instance, state: State, budget: Budget, deadline: Deadline,
                 compiled: bool, first: Answer) -> Answer:
        """After :attr:`broaden_after` nodes: turns of one round of the whole search (node
        limit x1.5 per turn, going on from the rounds so far, the move orderings in turn),
        then a round for each first play not yet refuted, sharing half that limit. All
        runs share one refutation table (they are positions of one deal). A first play
        that wins quickly is found even when the whole search's first choice leads into a
        large unwinnable subtree (on 4p free k = 30 deals leading a rocket wins in 100
        nodes while the first choice is still open after 10**7)."""
        spent = first.nodes
        rounds = int(first.extra.get("rounds", 1))
        base = self.first_round_nodes if compiled else max(1, self.first_round_nodes >> 5)
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
            assignment = None
            if plays is not None and state.owners is not None:
                s = state
                for c in plays:
                    s = s.apply(c)
                assignment = s.owners
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
            turn += 1

    def _split(self, instance: Instance, state: State, ways: list[tuple[int, ...]], budget: Budget,
               deadline: Deadline, compiled: bool, first: Answer) -> Answer:
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
        live = list(range(len(arms)))
        limit = self.split_nodes
        spent = first.nodes
        extra: dict[str, Any] = {"split": len(ways)}
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
                    owners = state
                    for card in answer.plays or ():
                        owners = owners.apply(card)
                    extra["decided_by"] = "free" if arm == 0 else f"fixed assignment {arm - 1}"
                    return Answer(Verdict.WINNABLE, answer.plays, owners.owners, nodes=spent,
                                  extra=extra)
                if answer.verdict is Verdict.UNWINNABLE:
                    if arm == 0 or live == [arm]:
                        extra["decided_by"] = "free" if arm == 0 else "every fixed assignment"
                        return Answer(Verdict.UNWINNABLE, nodes=spent, extra=extra)
                    live.remove(arm)
                if deadline.expired(spent):
                    return Answer(Verdict.UNKNOWN, nodes=spent, extra=extra)
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
        np: Any = None
        if compiled:
            import numpy as np
        deck = instance.deck
        p = instance.players
        n_cards = deck.size
        tasks = instance.tasks
        ntasks = len(tasks)
        free = 1 if instance.rules.assignment == "free" else 0
        quota = [0] * p
        if free:
            counts = instance.task_counts or (0,) * p
            owners = state.owners or ()
            quota = [counts[s] - sum(1 for o in owners if o == s) for s in range(p)]
        tseat = [(-1 if t.seat is None else t.seat) for t in tasks]
        tkind = [0] * ntasks
        trank = [0] * ntasks
        for i, t in enumerate(tasks):
            if t.token is not None:
                kind, rank = token_kind(t.token)
                tkind[i] = _KIND_CODE[kind]
                trank[i] = rank
        card_task = [-1] * n_cards
        task_cards = 0
        for i, t in enumerate(tasks):
            card_task[t.card] = i
            task_cards |= 1 << t.card
        suit_of = list(deck.suit_of_table)
        suit_mask = list(deck.suit_masks)
        trump = -1 if instance.trump_suit is None else instance.trump_suit
        strict = 1 if instance.rules.order_rule == "strict" else 0
        has_tokens = 1 if any(t.token is not None for t in tasks) else 0
        all_done = (1 << ntasks) - 1
        leader = -1 if state.leader is None else state.leader
        trick = list(state.trick)
        tlen0 = len(trick)
        in_hands = sum(h.bit_count() for h in state.hands)
        depth_max = in_hands + 1
        seq_len = tlen0 + depth_max

        bits = TABLE_BITS if compiled else PURE_TABLE_BITS
        table = _table(compiled, bits)
        if not same_table:
            table.gen += 1

        def arr(values: list[int]) -> Any:
            return np.array(values, dtype=np.int64) if compiled else list(values)

        def zeros(n: int) -> Any:
            return np.zeros(n, dtype=np.int64) if compiled else [0] * n

        own = [0] * p
        for t in tasks:
            if t.seat is not None:
                own[t.seat] |= 1 << t.card
        c_own = arr(own)
        c_tseat, c_tkind, c_trank = arr(tseat), arr(tkind), arr(trank)
        c_card_task, c_suit_of, c_suit_mask = arr(card_task), arr(suit_of), arr(suit_mask)
        moves = zeros(depth_max * _kernel.MAXM)
        scores = zeros(depth_max * _kernel.MAXM)
        nmoves, midx = zeros(depth_max), zeros(depth_max)
        sv_leader, sv_seat, sv_done = zeros(depth_max), zeros(depth_max), zeros(depth_max)
        sv_qg, sv_flag, sv_waste = zeros(depth_max), zeros(depth_max), zeros(depth_max)
        stats = zeros(_kernel.STAT_SIZE)
        release = zeros(2 * _kernel.PRED)
        keybuf = zeros(_kernel.KEY_WORDS)
        c_holder = arr(list(instance.holder))
        sizes = [m.bit_count() for m in suit_mask]
        canon = 1 if (self.canonical and p <= 4 and len(sizes) <= 8 and max(sizes) <= 15
                      and in_hands <= 60) else 0

        limit = self.first_round_nodes if compiled else max(1, self.first_round_nodes >> 5)
        if round_nodes is not None:
            limit = round_nodes
        rounds = 0
        kernel_seconds = 0.0
        rate_seconds = 0.0
        rate_nodes = 0
        status = _kernel.OUT_OF_NODES
        seq: Any = None
        phases = list(self.probes)
        probe_won = False
        restart = restart0
        round_used = 0
        phase = 0
        while True:
            rounds += 1
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
                if remaining is not None:
                    node_cap = max(1024, min(node_cap, int(rate * remaining * 0.9) + 1))
                if deadline.cancel is not None:  # keep rounds short so a cancel is seen soon
                    node_cap = max(1024, min(node_cap, int(rate * CANCEL_ROUND_SECONDS) + 1))
            seq = arr(trick + [0] * depth_max)
            seed, shaping = 0, 0
            if cap == UNLIMITED and self.restarts:
                # a portfolio of move orderings, one per round, in turn
                strategy = restart % 3
                shaping = self.shaping if strategy == 1 else 0
                seed = restart if strategy == 2 else 0
            hands = arr(list(state.hands))
            q = arr(quota)
            tk = time.perf_counter()
            status = k.search(hands, p, seq, tlen0, leader, state.done, q, free, all_done, c_tseat,
                              c_tkind, c_trank, ntasks, c_card_task, c_suit_of, c_suit_mask, trump,
                              strict, has_tokens, task_cards, c_own, canon, c_holder, keybuf, table.words,
                              table.gen, table.mask, node_cap, cap, seed, shaping, moves,
                              scores, nmoves, midx, sv_leader, sv_seat, sv_done, sv_qg, sv_waste,
                              sv_flag, release, stats)
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
                continue  # a round cut into slices (cancel polling): same ordering, go on
            round_used = 0
            limit = min(limit * 3 // 2 if self.restarts else limit * 2, 1 << 24)
            restart += 1

        nodes = int(stats[_kernel.STAT_NODES])
        extra = {
            "tt_hits": int(stats[_kernel.STAT_TT_HITS]),
            "tt_stores": int(stats[_kernel.STAT_TT_STORES]),
            "cuts": int(stats[_kernel.STAT_CUTS]),
            "rounds": rounds,
            "probe_won": probe_won,
            "compiled": compiled,
            "canonical": bool(canon),
            "kernel_seconds": kernel_seconds,
            "seconds": time.perf_counter() - t0,
        }
        if status == _kernel.OUT_OF_NODES:
            return Answer(Verdict.UNKNOWN, nodes=nodes, extra=extra)
        if status == _kernel.LOSE:
            return Answer(Verdict.UNWINNABLE, nodes=nodes, extra=extra)
        length = int(stats[_kernel.STAT_DEPTH])
        plays = tuple(int(seq[tlen0 + i]) for i in range(length))
        assignment = None
        if free:
            s = state
            for c in plays:
                s = s.apply(c)
            assignment = s.owners
        return Answer(Verdict.WINNABLE, plays, assignment, nodes=nodes, extra=extra)
