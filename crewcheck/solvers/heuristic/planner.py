"""The critical-card planner of seed 003: a heuristic that finds winning lines and never proves a loss.

What it is
    The "critical card technique" of the blog post (seed ``003``), in its two stages.

    *Planning.* For every task and every seat, all tricks of the task card's suit are
    generated from the deal's hands (the task card's holder plays it, every other seat
    plays a card it may legally play to a trick led in that suit); the seat *could win*
    the task if one of those tricks is won by it (:func:`winning_cards`). Those pairs are
    the edges of the seat/task bipartite graph (:func:`task_graph`), and the plans are
    its matchings: every task given to a seat it is joined to, each seat taking its
    share of the tasks (:func:`matchings`). Under fixed assignment the only candidate is
    the deal's own assignment, so there is a matching iff every task's seat could win it.
    Each plan marks, for every task, two *critical cards*: the task card and the card
    its seat plans to win the trick with (:func:`critical_cards`).

    *Execution.* A depth-first search over tricks (:func:`execute`), the post's
    ``findValidPlays``: from the current leader, for each task still open (and allowed
    now by the order tokens), play the planned trick of that task, that is, the holder
    plays the task card and the planned seat plays a winning card (the planned one
    first, then its other winning cards); every other card of the trick is unimportant
    and is chosen by a fixed rule (:func:`planned_trick`), never one that is critical to
    another open task unless the rules force it. The trick counts if its planned seat
    wins it without losing the game; then the search goes on from its winner. Every trick
    completes a task, so the search is at most as deep as there are tasks.

    The post leaves several points open; :doc:`docs/planner.md` lists the choices made
    here (which winning card is planned, how the unimportant cards are chosen, that every
    trick is led in its task's suit, the order of the tasks and of the matchings).
Rules covered
    Every rule feature of the model except a history: trumps or none, any number of
    suits, values and seats, unequal hands, a given or free first lead (the first
    leader is then tried seat by seat), fixed or free assignment (free: every matching
    with the draft's per-seat counts), and order tokens (a task is tried only when the
    tokens allow completing it next; the rules engine judges the rest). A deal with
    cards already played is refused: the post plans from the deal.
Exact
    No. It answers WINNABLE with a witness (checked by :func:`crewcheck.decide` like any
    other) or UNKNOWN; never UNWINNABLE. ``Result.stats.extra["stage"]`` says how it
    ended: ``"solved"``, ``"no_matching"`` (the graph has no matching),
    ``"execution_failed"`` (every plan's search failed) or ``"out_of_budget"``.
Cost
    Planning is polynomial (per task, the tricks of one suit: at most the product of the
    seats' holdings in it). The search branches over the open tasks and the planned
    seat's winning cards only, with a table of refuted positions per plan; it is
    exponential in the number of tasks in the worst case, and the number of matchings
    grows exponentially under free assignment.

References
----------
.. [1] seed ``003``: a blog post on generating solutions to The Crew, "The Critical
   Card Technique" (planning stage, objective matching, ``findValidPlays``).
"""

from __future__ import annotations

import itertools
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal

from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model.deal import Deal
from crewcheck.model.instance import Instance, Seat, seats_from
from crewcheck.model.rules import legal_plays, order_violation
from crewcheck.model.state import State
from crewcheck.solvers.base import Answer, Budget, BudgetExceeded, Deadline, Verdict
from crewcheck.solvers.special.requirements import requires

__all__ = [
    "PlannerSolver", "PlannerOptions", "Plan", "winning_cards", "task_graph", "matchings", "critical_cards",
    "planned_trick", "execute",
]

WinningCard = Literal["highest", "lowest"]
"""Which of a seat's winning cards a plan reserves for a task (docs/planner.md)."""

Graph = tuple[dict[Seat, tuple[CardIndex, ...]], ...]
"""The seat/task graph: ``graph[t][seat]`` are the cards with which ``seat`` could win
task ``t`` (ascending); a seat is joined to the task iff it is a key."""


# -- planning -------------------------------------------------------------------------
def winning_cards(instance: Instance, hands: Sequence[Mask], card: CardIndex) -> dict[Seat, tuple[CardIndex, ...]]:
    """Seat -> its cards that win some trick of ``card``'s suit in which ``card`` is played.

    The post's ``playerCanWinObjective``: every trick led in the task card's suit that
    can be made from ``hands`` (one card per seat, the holder of ``card`` playing it,
    every other seat a card it may play to that suit: one of that suit if it has any,
    else any card; its non-trump discards are all alike, so one stands for them) is
    generated, and its winner recorded with the winning card.

    Examples
    --------
    >>> from crewcheck.formats.deal_json import loads
    >>> d = loads('{"hands": [["B1", "B5"], ["B3", "G1"], ["G2", "R1"]], "trump": "R",'
    ...           ' "tasks": [{"card": "B3", "seat": 2}]}')
    >>> {s: [str(d.card(c)) for c in cs] for s, cs in winning_cards(d, d.hands, d.tasks[0].card).items()}
    {0: ['B5'], 1: ['B3'], 2: ['R1']}
    """
    deck, trump = instance.deck, instance.trump_suit
    suit = deck.suit_of(card)
    suit_mask = deck.suit_mask(suit)
    trump_mask = 0 if trump is None else deck.suit_mask(trump)
    holder = next(s for s, h in enumerate(hands) if h >> card & 1)
    options: list[list[CardIndex]] = []
    for seat, hand in enumerate(hands):
        if seat == holder:
            options.append([card])
        elif hand & suit_mask:
            options.append(list(iter_bits(hand & suit_mask)))
        else:
            opts = list(iter_bits(hand & trump_mask))
            discards = hand & ~trump_mask
            if discards:
                opts.append(next(iter_bits(discards)))
            options.append(opts)
    found: dict[Seat, set[CardIndex]] = {}
    for trick in itertools.product(*options):
        seat = _best(trick, suit, trump, deck.suit_of)
        found.setdefault(seat, set()).add(trick[seat])
    return {s: tuple(sorted(found[s])) for s in sorted(found)}


def _best(cards: Sequence[CardIndex], led: int, trump: int | None, suit_of: Any) -> int:
    """Position in ``cards`` of the card that wins a trick led in suit ``led``."""
    best, best_key = -1, (-1, -1)
    for i, c in enumerate(cards):
        s = suit_of(c)
        rank = 2 if s == trump else 1 if s == led else 0
        if rank and (rank, c) > best_key:
            best, best_key = i, (rank, c)
    return best


def task_graph(instance: Instance, hands: Sequence[Mask] | None = None) -> Graph:
    """The seat/task bipartite graph of the planning stage (see :data:`Graph`).

    Under fixed assignment every seat is still tested (the graph is the post's); only
    the matchings are restricted to the deal's assignment.
    """
    hands = instance.hands if hands is None else hands
    return tuple(winning_cards(instance, hands, t.card) for t in instance.tasks)


def matchings(graph: Graph, capacity: Sequence[int], allowed: Sequence[Seat | None] | None = None
              ) -> Iterator[tuple[Seat, ...]]:
    """Every assignment of each task to a seat it is joined to, at most ``capacity[s]``
    tasks per seat ``s``; ``allowed[t]``, when given and not ``None``, is the only seat
    task ``t`` may take (fixed assignment). Tasks in order, seats ascending.

    Examples
    --------
    >>> g = ({0: (1,), 1: (2,)}, {1: (3,)}, {0: (4,), 1: (5,)})
    >>> list(matchings(g, [1, 2]))
    [(0, 1, 1), (1, 1, 0)]
    >>> list(matchings(g, [3, 3], allowed=[1, 0, None]))
    []
    """
    n = len(graph)
    left = list(capacity)
    acc: list[Seat] = []

    def rec(t: int) -> Iterator[tuple[Seat, ...]]:
        if t == n:
            yield tuple(acc)
            return
        for seat in sorted(graph[t]):
            if left[seat] <= 0 or (allowed is not None and allowed[t] is not None and allowed[t] != seat):
                continue
            left[seat] -= 1
            acc.append(seat)
            yield from rec(t + 1)
            acc.pop()
            left[seat] += 1

    return rec(0)


@dataclass(frozen=True, slots=True)
class Plan:
    """One matching and its critical cards."""

    seats: tuple[Seat, ...]
    """``seats[t]``: the seat that is to win task ``t``."""
    winners: tuple[CardIndex, ...]
    """``winners[t]``: the card ``seats[t]`` plans to win task ``t``'s trick with."""
    tasks: tuple[CardIndex, ...]
    """``tasks[t]``: task ``t``'s card."""

    def reserved(self, done: Mask, but: int) -> Mask:
        """The critical cards of every task open in ``done`` except task ``but``."""
        m = 0
        for t, (c, w) in enumerate(zip(self.tasks, self.winners)):
            if t != but and not done >> t & 1:
                m |= 1 << c | 1 << w
        return m


def critical_cards(instance: Instance, graph: Graph, seats: Sequence[Seat], *,
                   prefer: WinningCard = "highest") -> Plan:
    """The plan of matching ``seats``: each task's card and a planned winning card.

    Tasks in order, each takes the highest (``prefer="lowest"``: the lowest) card of its
    seat's winning cards (:func:`winning_cards`) that is neither a task card nor already
    planned for another task; when every one is taken, the first in that order (the two
    tasks then compete for it).
    """
    task_cards = {t.card for t in instance.tasks}
    taken: set[CardIndex] = set()
    winners: list[CardIndex] = []
    for t, seat in enumerate(seats):
        own = instance.tasks[t].card
        cards = graph[t][seat] if prefer == "lowest" else graph[t][seat][::-1]
        free = [c for c in cards if c == own or (c not in task_cards and c not in taken)]
        pick = free[0] if free else cards[0]
        taken.add(pick)
        winners.append(pick)
    return Plan(tuple(seats), tuple(winners), tuple(t.card for t in instance.tasks))


# -- execution ------------------------------------------------------------------------
def _value_key(instance: Deal, card: CardIndex) -> tuple[int, int, int]:
    """Order of the unimportant cards: non-trumps before trumps, then low values first."""
    deck = instance.deck
    suit = deck.suit_of(card)
    first = (deck.suit_mask(suit) & -deck.suit_mask(suit)).bit_length() - 1
    return (int(suit == instance.trump_suit), deck.values[suit][card - first], card)


def _beats(instance: Deal, card: CardIndex, target: CardIndex, led: int) -> bool:
    """Whether ``card`` would beat ``target`` in a trick led in suit ``led``."""
    deck, trump = instance.deck, instance.trump_suit
    s, ts = deck.suit_of(card), deck.suit_of(target)
    if ts == trump:
        return s == trump and card > target
    if s == trump:
        return True
    return s == led and ts == led and card > target


def planned_trick(state: State, plan: Plan, task: int, leader: Seat, win: CardIndex
                  ) -> tuple[CardIndex, ...] | None:
    """Task ``task``'s trick from ``state``, led by ``leader``, with ``plan.seats[task]``
    playing ``win``; ``None`` if it cannot be played so.

    The two critical cards are fixed: the holder plays the task card, the planned seat
    ``win``; if one of them leads, it leads its critical card, else the leader leads a
    card of the task card's suit (``None`` if it has none that is not critical to another
    open task). The other cards are unimportant: each other seat plays the lowest card
    (:func:`_value_key`) it may play that is not critical to another open task and does
    not beat ``win``; failing that, the lowest it may play that is not critical; and
    only when the rules force it, a critical card. The trick is returned as chosen; the
    caller plays it and checks who won.
    """
    inst = state.instance
    deck = inst.deck
    card = plan.tasks[task]
    seat = plan.seats[task]
    suit = deck.suit_of(card)
    holder = next(s for s, h in enumerate(state.hands) if h >> card & 1)
    reserved = plan.reserved(state.done, task)
    task_cards = inst.task_mask
    trick: list[CardIndex] = []
    for s in seats_from(leader, inst.players):
        hand = state.hands[s]
        if s == holder:
            pick = card
        elif s == seat:
            pick = win
        elif not trick:
            options = hand & deck.suit_mask(suit) & ~reserved
            if not options:
                return None
            pick = _lowest_safe(inst, options, win, suit, task_cards)
        else:
            legal = legal_plays(deck, hand, trick)
            options = legal & ~reserved or legal
            pick = _lowest_safe(inst, options, win, suit, task_cards)
        if trick and not legal_plays(deck, hand, trick) >> pick & 1:
            return None
        trick.append(pick)
    return tuple(trick)


def _lowest_safe(inst: Deal, options: Mask, win: CardIndex, led: int, task_cards: Mask) -> CardIndex:
    cards = sorted(iter_bits(options), key=lambda c: _value_key(inst, c))
    for c in cards:
        if not _beats(inst, c, win, led) and not task_cards >> c & 1:
            return c
    for c in cards:
        if not task_cards >> c & 1:
            return c
    return cards[0]


def _winning_options(state: State, plan: Plan, task: int) -> list[CardIndex]:
    """The cards the planned seat may win task ``task``'s trick with: the planned one
    first, then, lowest first, its other cards that could (a higher card of the task's
    suit, or a trump when it has none of that suit) and are not critical elsewhere."""
    inst = state.instance
    deck = inst.deck
    card = plan.tasks[task]
    seat = plan.seats[task]
    hand = state.hands[seat]
    if hand >> card & 1:
        return [card]
    suit = deck.suit_of(card)
    in_suit = hand & deck.suit_mask(suit)
    if in_suit:
        above = in_suit & ~((1 << (card + 1)) - 1)
    else:
        above = hand & deck.suit_mask(inst.trump_suit) if inst.trump_suit is not None else 0
    above &= ~plan.reserved(state.done, task)
    planned = plan.winners[task]
    out = [planned] if hand >> planned & 1 else []
    out.extend(c for c in iter_bits(above) if c != planned)
    return out


@dataclass
class _Counters:
    nodes: int = 0
    tricks: int = 0


def execute(state: State, plan: Plan, deadline: Deadline, counters: _Counters | None = None
            ) -> list[CardIndex] | None:
    """The post's ``findValidPlays``: a winning continuation guided by ``plan``, or ``None``.

    Raises :class:`BudgetExceeded` when ``deadline`` runs out.
    """
    counters = _Counters() if counters is None else counters
    refuted: set[object] = set()
    inst = state.instance
    tasks = inst.tasks
    rule = inst.rules.order_rule

    def search(st: State, line: list[CardIndex]) -> bool:
        if st.end is not None:
            return st.end.won
        key = st.key()
        if key in refuted:
            return False
        counters.nodes += 1
        deadline.check(counters.nodes)
        leaders = range(inst.players) if st.leader is None else (st.leader,)
        for t in range(len(tasks)):
            if st.done >> t & 1 or order_violation(tasks, st.done, 1 << t, rule) is not None:
                continue
            for win in _winning_options(st, plan, t):
                for leader in leaders:
                    trick = planned_trick(st, plan, t, leader, win)
                    if trick is None:
                        continue
                    counters.tricks += 1
                    nxt = st
                    for c in trick:
                        nxt = nxt.apply(c)
                    if nxt.end is not None and not nxt.end.won:
                        continue
                    if nxt.leader != plan.seats[t] or not nxt.done >> t & 1:
                        continue
                    if search(nxt, line):
                        line[:0] = trick
                        return True
        refuted.add(key)
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        line: list[CardIndex] = []
        return line if search(state, line) else None
    finally:
        sys.setrecursionlimit(limit)


# -- the back-end ---------------------------------------------------------------------
def _no_matching_reason(instance: Instance, graph: Graph) -> str:
    for t, task in enumerate(instance.tasks):
        name = str(instance.card(task.card))
        if not graph[t]:
            return f"no seat can win task {name} with a trick of its suit"
        if task.seat is not None and task.seat not in graph[t]:
            return (f"seat {task.seat} cannot win its task {name} with a trick of its suit "
                    f"(seats that could: {sorted(graph[t])})")
    return "no assignment of the tasks to seats that could win them fits the draft's per-seat counts"


@dataclass(frozen=True, slots=True)
class PlannerOptions:
    """The planner's choices where the post leaves them open (docs/planner.md)."""

    winning_card: WinningCard = "highest"
    """Which winning card a plan reserves for each task (:func:`critical_cards`)."""


@requires(history=False)
class PlannerSolver:
    """The critical-card planner (seed 003); see the module docstring."""

    name: ClassVar[str] = "planner"
    exact: ClassVar[bool] = False
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init__(self, options: PlannerOptions | None = None) -> None:
        self.options = PlannerOptions() if options is None else options

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        deadline = budget.start()
        state = instance.state()
        graph = task_graph(instance, state.hands)
        edges = sum(len(g) for g in graph)
        if instance.rules.assignment == "free":
            capacity: Sequence[int] = instance.task_counts or ()
            allowed = None
        else:
            capacity = [len(instance.tasks)] * instance.players
            allowed = [t.seat for t in instance.tasks]
        counters = _Counters()
        tried = 0
        extra: dict[str, Any] = {"edges": edges}
        try:
            for seats in matchings(graph, capacity, allowed):
                tried += 1
                deadline.check(counters.nodes)
                plan = critical_cards(instance, graph, seats, prefer=self.options.winning_card)
                line = execute(state, plan, deadline, counters)
                if line is not None:
                    end = state
                    for c in line:
                        end = end.apply(c)
                    extra.update(stage="solved", matchings=tried, tricks_tried=counters.tricks)
                    return Answer(Verdict.WINNABLE, tuple(line), end.owners, nodes=counters.nodes, extra=extra)
        except BudgetExceeded:
            extra.update(stage="out_of_budget", matchings=tried, tricks_tried=counters.tricks)
            return Answer(Verdict.UNKNOWN, nodes=counters.nodes, extra=extra,
                          explanation=f"the planner ran out of budget after {tried} matching(s)")
        extra.update(matchings=tried, tricks_tried=counters.tricks)
        if tried == 0:
            extra["stage"] = "no_matching"
            why = "planning found no matching: " + _no_matching_reason(instance, graph)
        else:
            extra["stage"] = "execution_failed"
            why = f"the planned search found no winning line for any of {tried} matching(s)"
        return Answer(Verdict.UNKNOWN, nodes=counters.nodes, extra=extra,
                      explanation=why + " (the planner is a heuristic: unknown, not unwinnable)")
