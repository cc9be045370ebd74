"""Every card's verdict at a position (:func:`analyse`) and where a played game was lost
(:func:`review`).

These are the questions asked after "can this deal be won?": which cards keep the
position winnable, and which card of a played game turned a winnable position into a
lost one. Both are answered with :func:`crewcheck.decide` on the positions concerned, so
every verdict is exact and every winning line has passed the replay checker. (Not to be
confused with :mod:`crewcheck.solvers.search.refutations`, the cheap sound refutations that the
search tries first.)

How few decisions are needed
    * *Equivalent cards* (:func:`equivalent_cards`) get one decision per class.
    * *The position first.* If the position cannot be won, no card wins: one decision
      answers for every card. If it can, its winning line answers for the class of the
      line's first card.
    * *Monotonicity along a game.* A position reached from a winnable one by a card
      that keeps it winnable is winnable; a position after an unwinnable one is
      unwinnable. So along a played game the verdicts read "winnable" up to one card and
      "unwinnable" after it, and :func:`review` finds that card by bisection (about
      ``log2(cards played)`` decisions), skipping ahead along every winning line it is
      given that the game followed.
    * *One refutation table.* All the decisions of one call share the search's
      refutation table (:func:`crewcheck.solvers.search.table.shared`): they are
      positions of one deal, and a position refuted for one of them is refuted for all.

Free assignment
    :func:`task_seats` answers, for each task still open, which seats can take it in
    some winning line, with the winnability encoding (:mod:`crewcheck.solvers.logic.encoding`)
    kept in one incremental CDCL solver queried under the assumption "task k goes to
    seat s" (every model found answers several such questions at once).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from crewcheck.api import decide
from crewcheck.model.cards import CardIndex, iter_bits
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.derived import equivalent_plays
from crewcheck.model.state import State
from crewcheck.solvers.base import Budget, Result, Verdict, Witness
from crewcheck.solvers.search.table import shared

__all__ = ["CardVerdict", "TaskSeats", "Analysis", "Step", "Review", "equivalent_cards", "analyse",
           "review", "task_seats", "Progress", "Cancel", "analysis_to_dict", "review_to_dict",
           "result_to_dict", "witness_to_list", "cards_text", "history_index", "summary", "play_state",
           "play_variant"]

Progress = Callable[[int, int, str], None]
"""``progress(done, total, what)``: called before each decision (``total`` may grow)."""
Cancel = Callable[[], bool]
"""Polled during and between decisions; once it returns true the rest is ``UNKNOWN``."""

DECIDED = "decided"
""":attr:`CardVerdict.how`: the position after the card was decided."""
ON_WINNING_LINE = "winning line of the position"
"""The card starts the position's winning line."""
POSITION_LOST = "the position cannot be won"
"""The position before the card is unwinnable, so every card loses."""
CANCELLED = "cancelled"
"""Not decided: the caller cancelled."""


@dataclass(frozen=True)
class CardVerdict:
    """The verdict after playing any card of one class of equivalent cards."""

    cards: tuple[CardIndex, ...]
    """The class (:func:`equivalent_cards`), lowest first: the verdict of each is the same."""
    verdict: Verdict
    """Whether the position after playing ``cards[0]`` can still be won."""
    witness: Witness | None = None
    """A winning game (history included) whose next card is one of :attr:`cards`, when
    winnable (``cards[0]`` when decided; the position's own line when it starts with
    another card of the class)."""
    explanation: str | None = None
    """Why it cannot be won, when the back-end said."""
    how: str = DECIDED
    """How the verdict was obtained: decided, or known from the position's own verdict."""
    nodes: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class TaskSeats:
    """Free assignment: the seats that can take one open task in some winning line."""

    task: int
    """Index into :attr:`Instance.tasks`."""
    seats: tuple[Seat, ...]
    """Seats that take it in some winning line from the position."""
    unknown: tuple[Seat, ...] = ()
    """Seats not decided (time limit or cancel)."""


@dataclass(frozen=True)
class Analysis:
    """Every legal card's verdict at the position after an instance's history."""

    instance: Instance
    position: Result
    """The verdict of the position itself (before the next card)."""
    to_play: Seat | None
    """The seat to play; ``None`` before a free first lead (any seat may lead)."""
    cards: tuple[CardVerdict, ...]
    """One entry per class of equivalent legal cards, in card order (empty when the game
    is over)."""
    tasks: tuple[TaskSeats, ...] | None = None
    """Free assignment: the seats that can take each open task; ``None`` otherwise."""
    seconds: float = 0.0
    """Wall-clock time of the whole analysis."""
    decisions: int = 0
    """Calls of :func:`crewcheck.decide` made."""
    nodes: int = 0
    """Search nodes of those decisions."""

    @property
    def winning(self) -> tuple[CardVerdict, ...]:
        """The classes after which the position can still be won."""
        return tuple(c for c in self.cards if c.verdict is Verdict.WINNABLE)


@dataclass(frozen=True)
class Step:
    """One card of a reviewed game and the verdicts around it."""

    index: int
    """Position of the card in the history (0 = the first card of the game)."""
    card: CardIndex
    seat: Seat
    trick: int
    """Trick number, from 1."""
    before: Verdict
    """Whether the position before the card could be won."""
    after: Verdict
    """Whether the position after it could be won."""


@dataclass(frozen=True)
class Review:
    """Where a played game (an instance's history) stopped being winnable."""

    instance: Instance
    steps: tuple[Step, ...]
    """One per card of the history."""
    start: Verdict
    """Verdict of the deal before its first card."""
    end: Verdict
    """Verdict of the position after the whole history."""
    losing: int | None = None
    """Index of the first card after which the game could no longer be won; ``None`` if
    there is none (never winnable, still winnable, or undecided)."""
    alternatives: Analysis | None = None
    """The analysis of the position before the losing card: its winnable classes are the
    cards that kept the game winnable."""
    explanation: str | None = None
    """Why the deal could never be won (when it could not)."""
    gap: tuple[int, int] | None = None
    """When decisions ran out of time: the loss lies after card ``gap[0]`` and by card
    ``gap[1]`` (indices), but which card is undecided."""
    backend: str = ""
    seconds: float = 0.0
    decisions: int = 0
    nodes: int = 0


# -- equivalent cards ---------------------------------------------------------------
def equivalent_cards(state: State) -> list[tuple[CardIndex, ...]]:
    """The legal plays of ``state`` grouped into classes of interchangeable cards.

    Two legal cards are *equivalent* when they are held by the same seat, are of the
    same suit, neither is a task card (nor a card a condition of the deal names, such as
    the 9s of "no trick is won with a 9": :meth:`Condition.named`), and every card of
    that suit ranked between them is out of play (won in an earlier trick): no card
    between them is in any hand or in the trick in progress. Classes are the chains of
    such pairs ("B3 = B4 = B5").

    Equivalent cards have the same verdict: exchanging them throughout any game (one
    seat holds both, so they are never in one trick) changes no comparison with any
    other card still in play, so no trick winner and no task. This is the rule by
    which the search tries only the lowest card of a class
    (:func:`crewcheck.solvers.search.driver._first_plays`).

    Returns the classes in card order, each lowest card first; empty when the game is
    over.

    Examples
    --------
    >>> from crewcheck.formats.notation import parse_deal
    >>> deal = parse_deal("B3 B4 B6 G1 | B5 G2 G3 G4 ; trump - ; lead 0 ; tasks G4@1 ; strict/fixed")
    >>> [" = ".join(str(deal.card(c)) for c in group) for group in equivalent_cards(deal.state())]
    ['B3 = B4', 'B6', 'G1']
    """
    return [tuple(g) for g in equivalent_plays(state)]


# -- analyse --------------------------------------------------------------------------
@dataclass
class _Run:
    """Bookkeeping shared by the decisions of one :func:`analyse` or :func:`review`."""

    backend: str | None
    timeout: float | None
    cancel: Cancel | None
    progress: Progress | None
    total: int = 0
    decisions: int = 0
    nodes: int = 0
    names: set[str] = field(default_factory=set)

    def cancelled(self) -> bool:
        return self.cancel is not None and self.cancel()

    def decide(self, instance: Instance, what: str) -> Result:
        if self.progress is not None:
            self.progress(self.decisions, max(self.total, self.decisions + 1), what)
        result = decide(instance, backend=self.backend,
                        budget=Budget(seconds=self.timeout, cancel=self.cancel))
        self.decisions += 1
        self.nodes += result.stats.nodes
        self.names.add(result.backend)
        return result


def play_variant(instance: Instance) -> Instance:
    """A concrete deal with the rules of play of ``instance``: itself, or, when its
    conditions leave the crew a choice of seat (:mod:`crewcheck.model.variants`), the
    first choice whose game is not over after the history (else the first choice).
    Legal plays and trick winners do not depend on the choice; the deciders try every
    choice."""
    if instance.is_concrete():
        return instance
    from crewcheck.model.variants import variants

    first = None
    for _, variant in variants(instance):
        if variant.state().end is None:
            return variant
        first = first or variant
    return first if first is not None else instance.without_choices()


def play_state(instance: Instance) -> State:
    """The position after the history, for the rules of play (:func:`play_variant`)."""
    return play_variant(instance).state()


def _child(instance: Instance, card: CardIndex) -> Instance:
    return instance.with_history((*instance.history, card))


def analyse(instance: Instance, *, backend: str | None = None, timeout: float | None = None,
            cancel: Cancel | None = None, progress: Progress | None = None,
            position: Result | None = None, tasks: bool = True) -> Analysis:
    """Every legal card's verdict at the position after ``instance.history``.

    Parameters
    ----------
    instance
        The deal; the question is about its next card.
    backend
        As for :func:`crewcheck.decide` (default: the best exact back-end per position).
    timeout
        Seconds per decision; a decision that runs out answers ``UNKNOWN``.
    cancel
        Polled while deciding; once true, what is left is ``UNKNOWN``.
    progress
        Called before each decision (see :data:`Progress`).
    position
        The position's own result, if already known (it must be exact: a winning line
        from this very position, or unwinnable).
    tasks
        Free assignment: also compute :attr:`Analysis.tasks` (:func:`task_seats`).

    Raises
    ------
    The errors of :func:`crewcheck.decide` (bad back-end name, a back-end failure).

    Examples
    --------
    >>> from crewcheck.formats.notation import parse_deal
    >>> deal = parse_deal("B1 B2 B4 | B3 G1 G2 ; trump - ; lead 0 ; tasks B3@1 ; strict/fixed")
    >>> a = analyse(deal, backend="exhaustive")
    >>> [(" = ".join(str(deal.card(c)) for c in v.cards), v.verdict.value) for v in a.cards]
    [('B1 = B2', 'winnable'), ('B4', 'unwinnable')]
    """
    t0 = time.perf_counter()
    run = _Run(backend, timeout, cancel, progress)
    state = play_state(instance)
    classes = equivalent_cards(state) if state.end is None else []
    run.total = len(classes) + (position is None)
    with shared():
        if position is None:
            position = run.decide(instance, "the position")
        verdicts = _card_verdicts(instance, position, classes, run)
    seats = None
    if instance.rules.assignment == "free" and instance.is_concrete() and state.end is None and tasks:
        seats = task_seats(instance, position=position, timeout=timeout, cancel=cancel)
    return Analysis(instance, position, state.to_play, tuple(verdicts), seats,
                    time.perf_counter() - t0, run.decisions, run.nodes)


def _card_verdicts(instance: Instance, position: Result, classes: Sequence[tuple[CardIndex, ...]],
                   run: _Run) -> list[CardVerdict]:
    n = len(instance.history)
    out: list[CardVerdict] = []
    line = position.witness.plays if position.witness is not None else ()
    next_card = line[n] if len(line) > n else None
    for group in classes:
        if position.verdict is Verdict.UNWINNABLE:
            out.append(CardVerdict(group, Verdict.UNWINNABLE, None, position.explanation, POSITION_LOST))
        elif next_card is not None and next_card in group:
            out.append(CardVerdict(group, Verdict.WINNABLE, position.witness, None, ON_WINNING_LINE))
        elif run.cancelled():
            out.append(CardVerdict(group, Verdict.UNKNOWN, how=CANCELLED))
        else:
            first = instance.deck.card(group[0])
            r = run.decide(_child(instance, group[0]), f"after {first}")
            out.append(CardVerdict(group, r.verdict, r.witness, r.explanation, DECIDED, r.stats.nodes,
                                   r.stats.seconds))
    return out


# -- free assignment: which seats can take each open task ----------------------------
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
    from crewcheck.errors import NotApplicableError
    from crewcheck.solvers.logic.encoding import ENCODERS, Formula, add_symmetry_constraints, add_variables, position_of

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
    from crewcheck.solvers.logic import sat_process
    from crewcheck.solvers.logic.encoding import size_limit

    if sat_process.available() is not None or size_limit(instance) is not None:
        return answer(True)
    from pysat.solvers import Solver  # type: ignore[import-untyped]

    from crewcheck.solvers.logic.export import to_cnf
    from crewcheck.solvers.logic.sat import SatSolver

    pos = position_of(instance)
    model = Formula()
    v = add_variables(model, pos)
    for add in ENCODERS:
        if add is not add_symmetry_constraints:
            add(model, v, pos)
    cnf = to_cnf(model, assume=[v.task[k] for k in pos.tasks])
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


# -- review ---------------------------------------------------------------------------
def review(instance: Instance, *, backend: str | None = None, timeout: float | None = None,
           cancel: Cancel | None = None, progress: Progress | None = None, explain: bool = True) -> Review:
    """Where the game in ``instance.history`` stopped being winnable.

    Finds the first card after which the deal could no longer be won (by bisection over
    the positions of the game, see the module docstring) and analyses the position
    before it (:func:`analyse`): its winnable classes are the cards that would have kept
    the game winnable. A deal that was never winnable gets the back-end's reason or,
    with ``explain``, a smallest set of tasks that cannot all be completed (the ``sat``
    back-end's minimised core).

    Parameters are those of :func:`analyse`; ``timeout`` is per decision.

    Examples
    --------
    >>> from crewcheck.formats.notation import parse_deal
    >>> game = parse_deal("B1 B2 B4 | B3 G1 G2 ; trump - ; lead 0 ; tasks B3@1 ; strict/fixed ; played B4 B3")
    >>> r = review(game, backend="exhaustive")
    >>> r.start.value, r.losing, [str(game.card(v.cards[0])) for v in r.alternatives.winning]
    ('winnable', 0, ['B1'])
    """
    t0 = time.perf_counter()
    run = _Run(backend, timeout, cancel, progress)
    history = instance.history
    n = len(history)
    base = instance.with_history(())
    prefixes = [base] * (n + 1)
    known: dict[int, Verdict] = {}
    results: dict[int, Result] = {}
    lines: dict[int, Result] = {}  # a decided (or inherited) winning result per known-winnable prefix

    def at(k: int) -> Instance:
        if k and prefixes[k] is base:
            prefixes[k] = base.with_history(history[:k])
        return prefixes[k]

    def decide_at(k: int) -> Verdict:
        r = run.decide(at(k), f"the position after {k} card(s)" if k else "the deal")
        known[k] = r.verdict
        results[k] = r
        if r.verdict is Verdict.WINNABLE:
            lines[k] = r
        return r.verdict

    def follow(k: int) -> int:
        """Skip ahead along the winning line found at ``k`` while the game followed it."""
        w = lines[k].witness
        line = w.plays if w is not None else ()
        j = k
        while j < n and j < len(line) and line[j] == history[j]:
            j += 1
            known[j] = Verdict.WINNABLE
            lines[j] = lines[k]
        return j

    explanation = None
    losing = None
    gap = None
    alternatives = None
    with shared():
        start = decide_at(0)
        run.total = 3 + n.bit_length()
        lo, hi = 0, None
        if start is Verdict.WINNABLE:
            lo = follow(0)
            if lo < n:
                end_verdict = decide_at(n)
                if end_verdict is Verdict.WINNABLE:
                    lo = n
                elif end_verdict is Verdict.UNWINNABLE:
                    hi = n
            lo, hi, gap = _bisect(lo, hi, decide_at, follow)
        end = known.get(n, Verdict.UNKNOWN)
        if hi is not None and gap is None:
            losing = hi - 1
            end = Verdict.UNWINNABLE
            if not run.cancelled():
                first_lost = lines.get(losing)
                alternatives = analyse(at(losing), backend=backend, timeout=timeout, cancel=cancel,
                                       progress=_shifted(progress, run), position=first_lost,
                                       tasks=False)
                run.decisions += alternatives.decisions
                run.nodes += alternatives.nodes
        elif start is Verdict.UNWINNABLE:
            end = Verdict.UNWINNABLE
    if start is Verdict.UNWINNABLE:
        explanation = results[0].explanation or _explanation(base, run, explain)
    steps = _steps(instance, known, start, end, losing, gap)
    return Review(instance, steps, start, end, losing, alternatives, explanation, gap,
                  ", ".join(sorted(run.names)), time.perf_counter() - t0, run.decisions, run.nodes)


def _bisect(lo: int, hi: int | None, decide_at: Callable[[int], Verdict],
            follow: Callable[[int], int]) -> tuple[int, int | None, tuple[int, int] | None]:
    """Narrow ``lo`` (known winnable) and ``hi`` (known unwinnable) to neighbours; an
    undecided midpoint is stepped over, and if nothing between is decided the loss is
    reported as a gap ``(lo, hi)``."""
    if hi is None:
        return lo, None, None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        verdict = decide_at(mid)
        probe = mid
        while verdict is Verdict.UNKNOWN and probe + 1 < hi:
            probe += 1
            verdict = decide_at(probe)
        if verdict is Verdict.UNKNOWN:
            probe = mid
            while verdict is Verdict.UNKNOWN and probe - 1 > lo:
                probe -= 1
                verdict = decide_at(probe)
        if verdict is Verdict.WINNABLE:
            lo = follow(probe)
        elif verdict is Verdict.UNWINNABLE:
            hi = probe
        else:
            return lo, hi, (lo, hi - 1)
    return lo, hi, None


def _shifted(progress: Progress | None, run: _Run) -> Progress | None:
    if progress is None:
        return None
    base = run.decisions

    def shifted(done: int, total: int, what: str) -> None:
        progress(base + done, base + total, what)

    return shifted


def _explanation(base: Instance, run: _Run, explain: bool) -> str | None:
    """Why the deal can never be won: the decision's own reason, else (``explain``) the
    minimised core of the ``sat`` back-end, within the per-decision time limit (10 s
    when there is none)."""
    if not explain or run.cancelled():
        return None
    from crewcheck.solvers import registry

    if registry.missing("sat") is not None:
        return None
    r = decide(base, backend="sat", budget=Budget(seconds=run.timeout or 10.0, cancel=run.cancel))
    run.decisions += 1
    return r.explanation if r.verdict is Verdict.UNWINNABLE else None


def _steps(instance: Instance, known: dict[int, Verdict], start: Verdict, end: Verdict,
           losing: int | None, gap: tuple[int, int] | None) -> tuple[Step, ...]:
    """Each card with the verdicts before and after it, decided or implied by monotonicity."""
    n = len(instance.history)
    won_until = max((k for k, v in known.items() if v is Verdict.WINNABLE), default=-1)
    lost_from = min((k for k, v in known.items() if v is Verdict.UNWINNABLE), default=n + 1)
    if losing is not None:
        won_until, lost_from = losing, losing + 1

    def verdict(k: int) -> Verdict:
        if k <= won_until:
            return Verdict.WINNABLE
        if k >= lost_from:
            return Verdict.UNWINNABLE
        return known.get(k, Verdict.UNKNOWN)

    state = play_variant(instance).initial_state()
    steps = []
    for i, card in enumerate(instance.history):
        seat = state.to_play if state.to_play is not None else instance.holder[card]
        trick = state.tricks_played + 1
        steps.append(Step(i, card, seat, trick, verdict(i), verdict(i + 1)))
        state = state.apply(card)
    return tuple(steps)


# -- text --------------------------------------------------------------------------
def summary(r: Review) -> str:
    """The review in one line, verdict first (``crewcheck review`` prints it first).

    ``"lost at trick 5: seat 3 played Y9 (card 18 of the game); G6 = G8 or R2 = R3 kept it
    winnable"``, ``"never winnable: ..."``, ``"won: the game was never lost"``,
    ``"still winnable after all 12 cards"``, ``"no card played yet: the deal is winnable"``.
    """
    inst = r.instance
    n = len(r.steps)
    if n == 0 and r.start is not Verdict.UNKNOWN:
        why = f": {r.explanation}" if r.explanation else ""
        return f"no card played yet: the deal is {r.start.value}{why}"
    if r.start is Verdict.UNWINNABLE:
        return "never winnable" + (f": {r.explanation}" if r.explanation else "")
    if r.start is Verdict.UNKNOWN:
        return "unknown: the deal was not decided in the time limit"
    if r.losing is not None:
        step = r.steps[r.losing]
        kept = [cards_text(inst, v.cards) for v in r.alternatives.winning] if r.alternatives else []
        tail = ""
        if kept:
            tail = f"; {', '.join(kept[:-1])} or {kept[-1]} kept it winnable" if len(kept) > 1 \
                else f"; {kept[0]} kept it winnable"
        return (f"lost at trick {step.trick}: seat {step.seat} played {inst.card(step.card)} "
                f"(card {step.index + 1} of the game){tail}")
    if r.gap is not None:
        return (f"lost between card {r.gap[0] + 1} and card {r.gap[1] + 1} of the game "
                "(the positions between were not decided in the time limit)")
    if r.end is Verdict.WINNABLE and play_state(inst).end is not None:
        return "won: the game was never lost"
    if r.end is Verdict.WINNABLE:
        return f"still winnable after all {n} cards"
    return f"undecided: winnable at the start, not decided after the {n} cards"


# -- JSON forms -----------------------------------------------------------------------
ANALYSIS_SCHEMA = "crewcheck-analysis/1"
REVIEW_SCHEMA = "crewcheck-review/1"


def cards_text(instance: Instance, cards: Sequence[CardIndex]) -> str:
    """``"B3 = B4"``: a class of equivalent cards."""
    return " = ".join(str(instance.deck.card(c)) for c in cards)


def witness_to_list(instance: Instance, witness: Witness) -> list[dict[str, object]]:
    """A winning game as tricks ``{"lead", "cards", "winner"}`` (the ``decide --json`` form)."""
    deck = instance.deck
    return [{"lead": t.leader, "cards": [str(deck.card(c)) for c in t.cards], "winner": t.winner}
            for t in witness.tricks]


def result_to_dict(instance: Instance, result: Result) -> dict[str, object]:
    """A decision's fields as ``crewcheck decide --json`` writes them (schema
    ``crewcheck-result/1``); ``next`` adds the winning continuation from the position."""
    w = result.witness
    assignment = None
    if w is not None and w.assignment is not None:
        assignment = [{"card": str(instance.deck.card(t.card)), "seat": s}
                      for t, s in zip(instance.tasks, w.assignment)]
    return {
        "schema": "crewcheck-result/1",
        "verdict": result.verdict.value,
        "backend": result.backend,
        "rules": {"order_rule": result.rules.order_rule, "assignment": result.rules.assignment},
        "seconds": round(result.stats.seconds, 6),
        "witness": None if w is None else witness_to_list(instance, w),
        "history_tricks": None if w is None else w.history_tricks,
        "assignment": assignment,
        "stats": {"nodes": result.stats.nodes, **dict(result.stats.extra)},
        "explanation": result.explanation,
        "next": None if w is None else [str(instance.deck.card(c)) for c in w.plays[len(instance.history):]],
    }


def analysis_to_dict(a: Analysis) -> dict[str, object]:
    """The JSON form of an analysis (schema ``crewcheck-analysis/1``)."""
    inst = a.instance
    n = len(inst.history)
    cards = []
    for v in a.cards:
        cards.append({
            "cards": [str(inst.deck.card(c)) for c in v.cards],
            "verdict": v.verdict.value,
            "how": v.how,
            "next": None if v.witness is None else [str(inst.deck.card(c)) for c in v.witness.plays[n:]],
            "witness": None if v.witness is None else witness_to_list(inst, v.witness),
            "explanation": v.explanation,
            "seconds": round(v.seconds, 6),
            "nodes": v.nodes,
        })
    tasks = None
    if a.tasks is not None:
        tasks = [{"card": str(inst.deck.card(inst.tasks[t.task].card)), "seats": list(t.seats),
                  "unknown": list(t.unknown)} for t in a.tasks]
    state = play_state(inst)
    return {
        "schema": ANALYSIS_SCHEMA,
        "verdict": a.position.verdict.value,
        "to_play": a.to_play,
        "trick": state.tricks_played + 1,
        "history": n,
        "cards": cards,
        "tasks": tasks,
        "position": result_to_dict(inst, a.position),
        "seconds": round(a.seconds, 6),
        "decisions": a.decisions,
        "nodes": a.nodes,
    }


def review_to_dict(r: Review) -> dict[str, object]:
    """The JSON form of a review (schema ``crewcheck-review/1``)."""
    inst = r.instance
    losing = None
    if r.losing is not None:
        step = r.steps[r.losing]
        kept = [] if r.alternatives is None else [[str(inst.deck.card(c)) for c in v.cards]
                                                  for v in r.alternatives.winning]
        losing = {"index": step.index, "trick": step.trick, "seat": step.seat,
                  "card": str(inst.deck.card(step.card)), "kept_winnable": kept}
    return {
        "schema": REVIEW_SCHEMA,
        "start": r.start.value,
        "end": r.end.value,
        "losing": losing,
        "gap": None if r.gap is None else list(r.gap),
        "explanation": r.explanation,
        "steps": [{"index": s.index, "trick": s.trick, "seat": s.seat, "card": str(inst.deck.card(s.card)),
                   "before": s.before.value, "after": s.after.value} for s in r.steps],
        "alternatives": None if r.alternatives is None else analysis_to_dict(r.alternatives),
        "backend": r.backend,
        "seconds": round(r.seconds, 6),
        "decisions": r.decisions,
        "nodes": r.nodes,
    }


def history_index(data: object, field: str) -> int | None:
    """The index in the game (0 = first card) of the card at ``field`` of a deal file
    (``"played[2].cards[1]"``, ``"current.cards[0]"``), or ``None``: used to say which
    card of a pasted game is illegal."""
    import re

    if not isinstance(data, dict) or not isinstance(data.get("hands"), list):
        return None
    p = len(data["hands"])
    m = re.fullmatch(r"played\[(\d+)\]\.cards\[(\d+)\]", field)
    if m:
        return int(m.group(1)) * p + int(m.group(2))
    m = re.fullmatch(r"current\.cards\[(\d+)\]", field)
    played = data.get("played")
    if m and isinstance(played, list):
        return len(played) * p + int(m.group(1))
    return None
