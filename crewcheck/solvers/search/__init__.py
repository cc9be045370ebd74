"""Fast exact search: the first side of the default engine (:mod:`crewcheck.solvers.engine`).

What it is
    A depth-first search over single card plays, from the position after the deal's
    history, stopping at the first winning line. The hot loop
    (:func:`crewcheck.solvers.search.kernel.search`) runs on ints with an explicit stack and is
    compiled by numba (a dependency of crewcheck; compiled
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
      lower cards went earlier share one entry (:func:`kernel.position_key`,
      :mod:`~crewcheck.solvers.search.table`); with covered cards the key also holds
      the covers still in play and marks their cards, which the renaming then fixes (up
      to 3 seats and 9 covers; else, while a cover is in play, the exact cards held, which
      say which cards are covered: those whose covering card is held);
    * cheap refutations (:mod:`crewcheck.solvers.search.cuts`, one function per rule): a trick in progress holding a task card whose seat has already
      played and is not winning, or cannot overtake the winning card; two task cards of
      different seats in one trick; a hand holding more task cards than tricks remain;
      more tricks needed than remain (a trick completes one seat's tasks, and one hand's
      task cards need different tricks: sum over seats of the largest such group);
      under free assignment, sum over seats of ceil(quota / players) tricks, and task
      cards in a trick that no seat still able to win it has room for; lead
      reachability (a seat still owing a task must be able to win some future trick,
      :mod:`crewcheck.solvers.search.refutations`; checked at the root and at every trick boundary;
      at the root also a covered task card under a task the order tokens do not let come first);
      per-task release times (the earliest trick that can complete it, e.g. after the other
      seats play out its suit, or after the cards above a covered task card) and a Hall
      check: the tasks released at trick e or later need, per owner, as many tricks as
      one hand holds of them, all among the last ones;
      *precedence*: a seat's own task card that is not a trump must win its trick itself,
      so a seat with no card of that suit to duck under it with (a lower card that is not
      another seat's task) must first play out the suit, and the task cards among those
      complete earlier tricks; a cycle in this order is a contradiction, and so is an
      order the tokens forbid (a task with absolute token r and r or more tasks that must
      come first, two tokens of one kind out of order, "last" before another task). On the
      benchmark corpus this decides at the root many 12-task deals that took millions of
      nodes; under free assignment, *trump sharing*: a seat taking q more tasks takes a
      multiple of the players minus q cards that are no task, and a trick holding trumps
      goes, with all of them, to the highest (``cuts.trump_split_dead``, root rule in
      :mod:`crewcheck.solvers.search.refutations`); it decides the 36-task Classic deals, where the
      cards that are no task are the four rockets; *top trumps*: a seat's trumps above
      every other seat's win the tricks they are played in, and each other seat plays a
      card into each of them, so the seat takes at least the task cards those seats
      cannot spare (``cuts.boss_trump_dead``, fixed and free assignment): a pigeonhole
      that the SAT side takes hours to find on free Classic deals with 24 or more tasks;
    * card equivalence: cards of one seat and suit with no card still in play between
      them, none a task card or a card covering another, are interchangeable; only the
      lowest is tried;
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
    survives between rounds, and any round that completes is a proof. With a ``cancel``
    hook in the budget (the engine's) a round is cut into slices of about 20 ms (the
    first after 2**15 nodes) to poll it; each slice goes on where the kernel stopped, so
    the hook changes no count and no ordering. While the compiled
    kernel is not yet loaded in the process, the plain kernel first gets a few thousand
    nodes, so a fresh ``crewcheck decide`` on an easy deal skips numba's start-up.

    After :attr:`SearchOptions.broaden_after` nodes the rounds broaden: each turn runs one
    round of the whole search, then one for each first play not yet refuted (sharing half
    the node limit), all on one refutation table, so a first play that wins quickly is
    found even when the whole search's first choice is a large unwinnable subtree. A free
    deal with at most :data:`driver.SPLIT_MAX` ways to give its open tasks to seats instead runs,
    after :attr:`SearchOptions.split_nodes` nodes, the free search and the fixed deal of
    each way in turn, so that the fixed-assignment cuts (precedence) apply.
    Statistics (nodes, table hits and stores, cheap cuts, rounds, whether the compiled
    kernel ran, seconds in the kernel; ``broaden_turns``, ``split`` and ``decided_by``
    when those ran) are in ``Answer.extra``.
Rules covered
    Everything the model has: trumps or none, any first lead (seat, commander, free),
    unequal hands, order tokens in both readings (strict, lenient), fixed and free
    assignment (free: the seat that wins a task card takes it while its draft quota has
    room, which is exactly the lazy semantics of :class:`crewcheck.model.State`), and
    mid-game positions, covered cards (JARVIS's columns in the two-player game: a seat
    plays, and follows suit with, only its face-up cards, :func:`rules.playable`; the cuts
    that ask what a seat may play in a trick ask its face-up cards, the others count
    cards held, which covered cards only restrict; :mod:`~crewcheck.solvers.search.cuts`
    says which is which). Decks of at most 63 cards (the Classic deck has 40). Conditions:
    every kind of :data:`conditions.SEARCH_KINDS <crewcheck.solvers.search.conditions.SEARCH_KINDS>`
    (stepped and judged at each trick, with cuts of their own; see that module); a deal
    with another kind is refused, or decided as a relaxation with
    :attr:`SearchOptions.relax`. A deal whose conditions name few cards and whose first
    run ends undecided also gets the low-card relaxation
    (:mod:`crewcheck.solvers.search.low_cards`): if that cannot be won, neither can the deal.
Exact
    Yes: sound and complete. Every cut above is a proof that no winning line exists
    below it, and every winning line is replayed by :func:`crewcheck.decide`.
Cost
    Exponential in the worst case; 5-6 million nodes per second compiled (2.5 million on
    a loaded machine). Easy Classic
    deals take well under a millisecond, but constrained deals with 6-15 tasks can need
    10**6-10**7 nodes; see ``docs/performance.md`` ("Fast search") for the measured table.
Layout
    ``driver.py``
        :class:`SearchSolver`: rounds, restarts, broadening, the free split, statistics.
    ``problem.py``
        The deal and position as the kernel's arrays, built once per run.
    ``kernel.py``
        The depth-first search loop, move generation and the position key (compiled by
        numba, or run as the plain-Python twin: :mod:`crewcheck.runtime.kernels`).
    ``rules.py``
        Who wins a trick, who can still beat a card, whether the tokens allow a group.
    ``cuts.py``
        One function per refutation rule, each with its soundness argument.
    ``conditions/``
        The deal's conditions on ints: the table of kinds, their step and judge twins,
        their cuts, and the conditions that are tasks in disguise.
    ``low_cards.py``
        The low-card relaxation and its kernel function (compiled with the search's).
    ``relaxation.py``
        That relaxation run a slice at a time beside the search.
    ``table.py``
        The refutation table: layout, probe, store, per-thread allocation.
    ``partition.py``
        The partition table (:attr:`SearchOptions.partition`, off by default): refuted
        positions stored with the cards their refutation used.
"""

from crewcheck.solvers.search.driver import MAX_CARDS, SearchOptions, SearchSolver, load_compiled
from crewcheck.solvers.search.table import TABLE_BITS

__all__ = ["SearchSolver", "SearchOptions", "MAX_CARDS", "TABLE_BITS", "load_compiled"]
