"""The winnability question as Boolean constraints, shared by the logic back-ends.

What the encoding is
    de Jong's SAT encoding of winnability [1]_ (§4, expressions (4)-(11); free
    objectives (12)-(15)), written once against a small solver-neutral builder,
    :class:`Formula`, and generalised to everything the model covers. The variables
    start from de Jong's three families:

    ``play_t{t}_s{s}_c{c}``
        seat ``s`` plays card ``c`` in trick ``t`` (de Jong's :math:`x^p_{t,i}`, with the
        card index instead of "the i-th card of p");
    ``led_t{t}_u{u}``
        the led (requested) suit of trick ``t`` is ``u`` (:math:`r^s_t`);
    ``winner_t{t}_s{s}``
        seat ``s`` wins trick ``t`` (:math:`w^p_t`),

    plus a sound symmetry breaking (interchangeable cards of one hand are played lowest
    first), two implied blocks that CDCL solvers profit from (precedence and counting,
    below) and auxiliaries that keep every block linear in the number of cards instead of
    quadratic: ``done_t{t}_c{c}`` (card ``c`` was played in trick ``t`` or earlier),
    ``higher_t{t}_c{c}`` (a higher card of ``c``'s suit is in trick ``t``),
    ``trumped_t{t}`` (a trump is in trick ``t``), ``win_t{t}_c{c}`` (card ``c`` wins
    trick ``t``), ``lead_t{t}_s{s}`` (seat ``s`` leads trick ``t``; for ``t`` after the
    first it *is* ``winner_t{t-1}_s{s}``), ``owner_k{k}_s{s}`` (free assignment: task
    ``k`` goes to seat ``s``, de Jong's :math:`o^p_{(q,i)}`), ``task_k{k}`` (task ``k`` is
    required: the assumption literal used for unsat cores) and ``completed_t{t}_k{k}``
    (task ``k`` is required and done by trick ``t``; only with number tokens).

Implied constraints (measured)
    *Precedence* (:func:`add_precedence_constraints`, the search's rule from
    :func:`crewcheck.solvers.kernel.boundary_dead`): a seat's own task card that is no
    trump must win its trick itself; another seat holding cards of its suit whose lower
    cards of that suit are all tasks of other seats cannot follow under it, so it has
    played all of them in earlier tricks. *Counting*
    (:func:`add_count_constraints`): by the end of its n-th trick left a seat has
    played at most n cards (first half of each hand only). On the 40 fixed-assignment
    corpus deals slowest for Glucose 4.2 (``benchmarks/hard_sat_ids.txt``) the two cut
    Glucose's conflicts from 1.18 M to 0.75 M and its solve time from 55 s to 36 s
    (worst deal 14.2 s -> 10.0 s); CaDiCaL 1.9.5: 1.56 M -> 0.97 M conflicts (docs/
    encoding.md, "Encoding strengthenings (measured)", which also lists the
    candidates that did not pay).

Rule features
    Trumps or none; any number of seats, suits and values; unequal hands (the game has
    as many tricks as the smallest hand, so longer hands keep cards that are never
    played: de Jong's second term of (9) makes every task card be played); the three
    first-lead modes (a seat, ``"rocket"`` = the holder of the top trump, ``"any"``: a
    free ``lead`` variable per seat); order tokens (``"1"``-``"5"``, ``">"``-``">>>>"``,
    ``"omega"``) in both readings (``strict`` / ``lenient``, see
    :mod:`crewcheck.model.rules`); fixed or free assignment with the draft's per-seat
    counts (a sequential-counter cardinality constraint, not de Jong's binomial
    encoding (13), which needs :math:`\\binom{|O|}{n_p+1}` clauses and runs out of memory
    at 36 tasks); and mid-game positions (the complete tricks of the history are gone,
    the trick in progress is trick ``t0`` with its cards fixed).

    *The game is won by trick T.* The encoding plays every remaining trick, like de
    Jong's. This is exact although the real game stops the moment the last task is
    done: once every task card has been won by its seat no constraint mentions the
    later tricks, and some legal way to play them always exists. The decoder cuts the
    line after the trick that completes the last task.

Exact
    Yes: satisfiable if and only if the position after the history can be won; a model
    decodes (:func:`decode`) to a winning continuation and, under free assignment, the
    seat of every task. Under a subset of the ``task_k`` assumptions the formula is the
    same deal with only those tasks (tokens judged among them; free assignment: each
    seat takes *at most* its draft count), which is what unsat-core explanations report.

Cost
    With ``T`` tricks left, ``N`` cards in hands, ``p`` seats, ``s`` suits and ``n``
    tasks: ``O(T·N)`` variables, and ``O(T·N·h)`` clauses (``h`` = cards per suit in a
    hand, from follow-suit) plus ``O(T·n²)`` for relative / last tokens, ``O(n²·T)`` for
    number tokens, ``O(n·p)`` for free assignment, ``O(n·p·T)`` for precedence and
    ``O(N·T)`` counter auxiliaries for counting. A Classic 4-player deal is about
    2,000 variables and 10,000 clauses.

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew", Leiden
   bachelor thesis, §4 (seed ``001``).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Literal

from crewcheck.errors import BackendError, IllegalPlayError, InvalidDealError
from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model import conditions as C
from crewcheck.model.conditions import HOLDS
from crewcheck.model.derived import quotas_left
from crewcheck.model.instance import Instance, Seat, seats_from
from crewcheck.model.tasks import TokenKind, token_kind
from crewcheck.model.variants import Choice, passed_hands
from crewcheck.solvers.base import BudgetExceeded, Deadline, discard

__all__ = [
    "IDPool", "Constraint", "Formula", "Position", "Variables", "Encoding",
    "position_of", "size_limit", "MAX_VARIABLES", "encode", "decode", "describe_tasks", "explain_core", "minimise_core",
    "Passing", "passes_of", "key_name", "CHECK_EVERY", "Branch", "first_violated", "variables_estimate",
]

Lit = int
"""A literal: a positive variable id, or its negation (PySAT / DIMACS convention)."""

_NAMES: dict[str, str] = {
    "play": "play_t{}_s{}_c{}",
    "done": "done_t{}_c{}",
    "higher": "higher_t{}_c{}",
    "trumped": "trumped_t{}",
    "win": "win_t{}_c{}",
    "winner": "winner_t{}_s{}",
    "lead": "lead_t{}_s{}",
    "led": "led_t{}_u{}",
    "owner": "owner_k{}_s{}",
    "task": "task_k{}",
    "completed": "completed_t{}_k{}",
    "aux": "aux{}",
    "cond": "cond{}_t{}",
    "balance": "balance{}_t{}_s{}_ge{}",
    "false": "false_{}",
    "pass": "pass_s{}_c{}",
    "played": "played_t{}_c{}",
    "choice": "choice{}",
}


class IDPool:
    """Variable ids for domain tuples, as PySAT's ``IDPool``: ``pool.id(("play", 0, 1, 5))``.

    Ids start at 1 and are handed out in first-request order, so the same deal always
    gets the same numbering (``crewcheck decode`` relies on it).
    """

    def __init__(self) -> None:
        self._ids: dict[tuple[object, ...], int] = {}
        self._keys: list[tuple[object, ...]] = [()]

    def id(self, key: tuple[object, ...]) -> int:
        """The id of ``key``, allocating a new one on first use."""
        got = self._ids.get(key)
        if got is None:
            got = self._ids[key] = len(self._keys)
            self._keys.append(key)
        return got

    def key(self, var: int) -> tuple[object, ...]:
        """The domain tuple of variable ``var``."""
        return self._keys[var]

    def name(self, var: int) -> str:
        """The readable name of ``var``, e.g. ``"play_t0_s1_c5"``."""
        return key_name(self._keys[var])

    @property
    def top(self) -> int:
        """The largest id handed out."""
        return len(self._keys) - 1

    def __contains__(self, key: object) -> bool:
        return key in self._ids


def key_name(key: tuple[object, ...]) -> str:
    """The readable name of a variable's domain tuple; ``("in", i, *key)`` is ``key``
    in the encoding of the crew's choice ``i`` (:mod:`crewcheck.solvers.encoding_choices`)."""
    if key[0] == "in":
        return f"v{key[1]}_{key_name(key[2:])}"
    return _NAMES[str(key[0])].format(*key[1:])


CHECK_EVERY = 2048
"""Constraints added between two looks at a build's deadline."""

Kind = Literal["or", "and", "exactly_one", "at_most_one", "at_most", "at_least"]


@dataclass(frozen=True, slots=True)
class Constraint:
    """One constraint of a :class:`Formula`, in the vocabulary CP-SAT uses.

    ``enforce`` are enforcement literals (CP-SAT's ``only_enforce_if``): the constraint
    holds when all of them are true.
    """

    kind: Kind
    lits: tuple[Lit, ...]
    bound: int = 0
    """``k`` of ``at_most`` / ``at_least``."""
    enforce: tuple[Lit, ...] = ()


@dataclass
class Formula:
    """A solver-neutral model: Boolean variables and constraints over literals.

    Encoders call ``add_*`` methods much as they would on an OR-Tools ``CpModel``; each
    back-end translates the recorded constraints natively (Z3 ``AtMost``, CP-SAT
    ``add_exactly_one``), and :mod:`crewcheck.solvers.encoding_cnf` expands them into
    pure CNF for DIMACS and PySAT.
    """

    pool: IDPool = field(default_factory=IDPool)
    constraints: list[Constraint] = field(default_factory=list)
    deadline: Deadline | None = None
    """Checked every :data:`CHECK_EVERY` constraints while the formula is built:
    :class:`~crewcheck.solvers.base.BudgetExceeded` once it has expired (a large deal's
    encoding takes seconds to build)."""

    def _add(self, con: Constraint) -> None:
        self.constraints.append(con)
        if self.deadline is not None and not len(self.constraints) % CHECK_EVERY:
            self.deadline.check()

    def new_bool(self, key: tuple[object, ...]) -> Lit:
        return self.pool.id(key)

    def add_bool_or(self, lits: Iterable[Lit], *, enforce: Iterable[Lit] = ()) -> None:
        """At least one of ``lits`` (a clause)."""
        self._add(Constraint("or", tuple(lits), 0, tuple(enforce)))

    def add_bool_and(self, lits: Iterable[Lit], *, enforce: Iterable[Lit] = ()) -> None:
        """All of ``lits``."""
        self._add(Constraint("and", tuple(lits), 0, tuple(enforce)))

    def add_implication(self, a: Lit, b: Lit) -> None:
        """``a`` implies ``b``."""
        self._add(Constraint("and", (b,), 0, (a,)))

    def add_exactly_one(self, lits: Iterable[Lit]) -> None:
        self._add(Constraint("exactly_one", tuple(lits)))

    def add_at_most_one(self, lits: Iterable[Lit]) -> None:
        self._add(Constraint("at_most_one", tuple(lits)))

    def add_at_most(self, lits: Iterable[Lit], k: int, *, enforce: Iterable[Lit] = ()) -> None:
        """At most ``k`` of ``lits`` are true."""
        self._add(Constraint("at_most", tuple(lits), k, tuple(enforce)))

    def add_at_least(self, lits: Iterable[Lit], k: int, *, enforce: Iterable[Lit] = ()) -> None:
        """At least ``k`` of ``lits`` are true."""
        self._add(Constraint("at_least", tuple(lits), k, tuple(enforce)))


# -- the position --------------------------------------------------------------------
@dataclass(frozen=True)
class Passing:
    """The distress signal's passes, in one direction: seat ``s`` passes one card of
    ``out[s]`` (none when ``out[s]`` is empty: it holds only trumps) to seat
    ``(s + direction) % players``."""

    own: tuple[Mask, ...]
    """The hands before the passes."""
    out: tuple[Mask, ...]
    """Per seat, the cards it may pass (its cards that are no trump)."""
    direction: int
    """``+1`` to the left (the next seat), ``-1`` to the right."""

    def giver(self, s: Seat) -> Seat:
        """The seat that passes to ``s``."""
        return (s - self.direction) % len(self.own)


@dataclass(frozen=True)
class Position:
    """The facts about the position after the history that the encoders need."""

    instance: Instance
    first: int
    """Absolute index of the first trick to encode (complete tricks in the history)."""
    end: int
    """One past the last trick (:attr:`Instance.tricks`)."""
    leader: Seat | None
    """Leader of trick :attr:`first`; ``None`` when the first lead is still free."""
    fixed: dict[Seat, CardIndex]
    """Cards already played to the trick in progress, by seat."""
    hands: tuple[Mask, ...]
    """Cards each seat can play from trick :attr:`first` on (its hand plus its card in
    the trick in progress)."""
    tasks: tuple[int, ...]
    """Indices of the tasks still to do."""
    done_count: int
    """Tasks completed in the history."""
    quotas: tuple[int, ...] | None
    """Free assignment: how many more tasks each seat may take."""
    history_owners: tuple[Seat, ...] | None
    """Free assignment: the seat of every task (``-1`` for the tasks still open)."""
    memos: tuple[Hashable, ...] = ()
    """Each condition's memo after the history's complete tricks."""
    passing: Passing | None = None
    """A distress signal still to give (before the first card): every seat passes one
    card that is no trump to its neighbour; :attr:`hands` are then the cards each seat
    *may* hold, and the ``pass`` variables say which it does."""

    @property
    def tricks(self) -> range:
        return range(self.first, self.end)

    @property
    def cards(self) -> Mask:
        m = 0
        for h in self.hands:
            m |= h
        return m


def position_of(instance: Instance, *, direction: int | None = None) -> Position:
    """The :class:`Position` after ``instance.history`` (which must not end the game).

    ``direction``: a distress signal in that direction comes first (``instance`` has no
    history; its hands are those before the passes; see :class:`Passing`).
    """
    if direction is not None:
        return _passing_position(instance, direction)
    state = instance.state()
    p = instance.players
    fixed: dict[Seat, CardIndex] = {}
    if state.trick:
        assert state.leader is not None
        for pos, card in enumerate(state.trick):
            fixed[(state.leader + pos) % p] = card
    hands = tuple(state.hands[s] | (1 << fixed[s] if s in fixed else 0) for s in range(p))
    open_tasks = tuple(i for i in range(len(instance.tasks)) if not state.done >> i & 1)
    quotas = quotas_left(state)
    return Position(instance, state.tricks_played, instance.tricks, state.leader, fixed, hands,
                    open_tasks, state.done.bit_count(), quotas, state.owners, state.memos)


def _passing_position(instance: Instance, direction: int) -> Position:
    if instance.history:
        raise ValueError("a distress signal comes before the first card")
    p = instance.players
    trumps = 0 if instance.trump_suit is None else instance.deck.suit_mask(instance.trump_suit)
    own = tuple(instance.hands)
    out = tuple(h & ~trumps for h in own)
    passing = Passing(own, out, direction)
    hands = tuple(own[s] | out[passing.giver(s)] for s in range(p))
    # hand sizes after the passes: one card out (if it has one), one in (if its giver has one)
    sizes = [own[s].bit_count() - (out[s] != 0) + (out[passing.giver(s)] != 0) for s in range(p)]
    base = position_of(instance)
    return replace(base, end=base.first + min(sizes), hands=hands, passing=passing)


@dataclass
class Variables:
    """The encoding's variables in dicts keyed by index tuples (OR-Tools sample style)."""

    play: dict[tuple[int, Seat, CardIndex], Lit] = field(default_factory=dict)
    done: dict[tuple[int, CardIndex], Lit] = field(default_factory=dict)
    higher: dict[tuple[int, CardIndex], Lit] = field(default_factory=dict)
    trumped: dict[int, Lit] = field(default_factory=dict)
    win: dict[tuple[int, CardIndex], Lit] = field(default_factory=dict)
    winner: dict[tuple[int, Seat], Lit] = field(default_factory=dict)
    lead: dict[tuple[int, Seat], Lit] = field(default_factory=dict)
    led: dict[tuple[int, int], Lit] = field(default_factory=dict)
    owner: dict[tuple[int, Seat], Lit] = field(default_factory=dict)
    task: dict[int, Lit] = field(default_factory=dict)
    completed: dict[tuple[int, int], Lit] = field(default_factory=dict)
    passes: dict[tuple[Seat, CardIndex], Lit] = field(default_factory=dict)
    """Distress signal: seat ``s`` passes card ``c``."""

    def holds(self, pos: Position, s: Seat, c: CardIndex) -> Lit | None:
        """The literal "seat ``s`` holds card ``c``" after a distress signal's passes;
        ``None`` when it holds it in every case (no passing, or a trump of its own)."""
        passing = pos.passing
        if passing is None:
            return None
        if passing.out[s] >> c & 1:
            return -self.passes[(s, c)]
        if passing.own[s] >> c & 1:
            return None
        return self.passes[(passing.giver(s), c)]

    def played_by(self, t: int, c: CardIndex) -> Lit:
        """``play`` literal of card ``c`` in trick ``t`` whatever the seat."""
        return self._by_card[(t, c)]

    def __post_init__(self) -> None:
        self._by_card: dict[tuple[int, CardIndex], Lit] = {}


@dataclass
class Encoding:
    """A position, its :class:`Formula` and variables, and the task assumptions.

    A deal that leaves the crew a choice (:mod:`crewcheck.solvers.encoding_choices`) has
    one :class:`Branch` per choice: the formula is "exactly one ``choice{i}`` is true,
    and the encoding of choice ``i`` holds"; :attr:`position` and :attr:`vars` are then
    those of the first branch, for headers only.
    """

    position: Position
    formula: Formula
    vars: Variables
    branches: tuple[Branch, ...] = ()

    @property
    def assumptions(self) -> list[Lit]:
        """One literal per open task, all to be assumed true (see :func:`minimise_core`);
        none for a deal with choices (each branch requires its tasks itself)."""
        if self.branches:
            return []
        return [self.vars.task[k] for k in self.position.tasks]


@dataclass(frozen=True)
class Branch:
    """One of the crew's choices inside a deal's encoding."""

    choice: Choice
    """What the crew chose (the distress passes are read from a model)."""
    instance: Instance
    """The deal under that choice (before any distress passes)."""
    selector: Lit
    """``choice{i}``: this choice is taken."""
    encoding: Encoding | None
    """The choice's own encoding (its variables renamed by :attr:`ids`); ``None`` when
    the history has already ended the game under this choice."""
    ids: tuple[int, ...] = ()
    """Variable ``x`` of :attr:`encoding` is variable ``ids[x]`` of the whole formula."""


# -- the encoders ------------------------------------------------------------------
def add_variables(model: Formula, pos: Position) -> Variables:
    """Create every variable, in a fixed order (so ids are reproducible)."""
    v = Variables()
    inst, p = pos.instance, pos.instance.players
    for t in pos.tricks:
        for s in range(p):
            for c in iter_bits(pos.hands[s]):
                v.play[(t, s, c)] = v._by_card[(t, c)] = model.new_bool(("play", t, s, c))
    if pos.passing is not None:
        for s in range(p):
            for c in iter_bits(pos.passing.out[s]):
                v.passes[(s, c)] = model.new_bool(("pass", s, c))
        # a card two seats may hold: "played in trick t" is its own variable
        for t in pos.tricks:
            for c in iter_bits(pos.cards):
                if sum(pos.hands[s] >> c & 1 for s in range(p)) > 1:
                    v._by_card[(t, c)] = model.new_bool(("played", t, c))
    for t in pos.tricks:
        for u in range(len(inst.deck.suits)):
            v.led[(t, u)] = model.new_bool(("led", t, u))
        for s in range(p):
            v.winner[(t, s)] = model.new_bool(("winner", t, s))
    for t in pos.tricks:
        for c in iter_bits(pos.cards):
            v.done[(t, c)] = model.new_bool(("done", t, c))
            v.higher[(t, c)] = model.new_bool(("higher", t, c))
            v.win[(t, c)] = model.new_bool(("win", t, c))
        if inst.trump_suit is not None:
            v.trumped[t] = model.new_bool(("trumped", t))
    for s in range(p):
        v.lead[(pos.first, s)] = model.new_bool(("lead", pos.first, s))
        for t in range(pos.first + 1, pos.end):
            v.lead[(t, s)] = v.winner[(t - 1, s)]
    for k in pos.tasks:
        v.task[k] = model.new_bool(("task", k))
    if pos.quotas is not None:
        for k in pos.tasks:
            for s in range(p):
                v.owner[(k, s)] = model.new_bool(("owner", k, s))
    return v


def add_play_constraints(model: Formula, v: Variables, pos: Position) -> None:
    p = pos.instance.players
    # Each seat plays exactly one of its cards in every trick (de Jong (4), first two terms).
    for t in pos.tricks:
        for s in range(p):
            model.add_exactly_one(v.play[(t, s, c)] for c in iter_bits(pos.hands[s]))
    if pos.passing is not None:
        _add_passing_constraints(model, v, pos)
    # Cards already played to the trick in progress stay where they are.
    for s, c in pos.fixed.items():
        model.add_bool_and([v.play[(pos.first, s, c)]])
    # done_t_c: card c was played in trick t or earlier (defined both ways).
    for c in iter_bits(pos.cards):
        for t in pos.tricks:
            now, done = v.played_by(t, c), v.done[(t, c)]
            model.add_implication(now, done)
            if t == pos.first:
                model.add_implication(done, now)
            else:
                before = v.done[(t - 1, c)]
                model.add_implication(before, done)
                model.add_bool_or([before, now], enforce=[done])
                # A card is played at most once (de Jong (4), third term).
                model.add_implication(now, -before)
    # Redundant but decisive for refutations: a seat plays exactly one card per trick, so
    # by the end it has played as many cards as there are tricks; with a hand as long as
    # the game every card is played. (CDCL cannot derive this pigeonhole count itself.)
    last = pos.end - 1
    if pos.passing is not None:  # (the hands are not known: not implied)
        return
    for s in range(p):
        model.add_at_least([v.done[(last, c)] for c in iter_bits(pos.hands[s])], pos.end - pos.first)


def _add_passing_constraints(model: Formula, v: Variables, pos: Position) -> None:
    """A distress signal: every seat with a card that is no trump passes exactly one; a
    seat plays only cards it holds after the passes; ``played_t_c`` of a card two seats
    may hold is "one of them plays it in trick t"."""
    assert pos.passing is not None
    p = pos.instance.players
    for s in range(p):
        mine = [v.passes[(s, c)] for c in iter_bits(pos.passing.out[s])]
        if mine:
            model.add_exactly_one(mine)
    for t in pos.tricks:
        for s in range(p):
            for c in iter_bits(pos.hands[s]):
                hold = v.holds(pos, s, c)
                if hold is not None:
                    model.add_implication(v.play[(t, s, c)], hold)
        for c in iter_bits(pos.cards):
            by = [v.play[(t, s, c)] for s in range(p) if pos.hands[s] >> c & 1]
            if len(by) > 1:
                x = v.played_by(t, c)
                for y in by:
                    model.add_implication(y, x)
                model.add_bool_or(by, enforce=[x])


def add_symmetry_constraints(model: Formula, v: Variables, pos: Position) -> None:
    if pos.passing is not None:  # (the hands are not known before the passes)
        return
    inst = pos.instance
    deck = inst.deck
    # What a card "is" for the rules: a plain card, a task of a given seat (fixed), or a
    # task of whoever wins it (free); a tokened task is unique.
    kind: dict[CardIndex, object] = {}
    task_of: dict[CardIndex, int] = {}
    for k in pos.tasks:
        task = inst.tasks[k]
        kind[task.card] = ("task", k) if task.token is not None else ("seat", task.seat)
        task_of[task.card] = k
    for cond in inst.conditions:  # cards a condition tells apart are unique too
        for c in iter_bits(cond.named(inst)):
            kind[c] = ("task", -1 - c)
    fixed = 0
    for c in pos.fixed.values():
        fixed |= 1 << c
    cards = pos.cards
    # Symmetry breaking (sound, not a rule): two cards of one suit in one hand, of the same
    # kind, with no card of any other hand between them, are interchangeable (every trick
    # compares them alike against every other card and scores them alike), so some
    # winning line, if one exists, plays the lower one first: the higher is done only once
    # the lower is.
    for s in range(inst.players):
        for u in range(len(deck.suits)):
            mine = [c for c in iter_bits(pos.hands[s] & deck.suit_mask(u)) if not fixed >> c & 1]
            for a, b in zip(mine, mine[1:]):
                gap = ((1 << b) - 1) & ~((1 << (a + 1)) - 1)
                ka, kb = kind.get(a), kind.get(b)
                if cards & gap or ka != kb or (ka is not None and ka[0] == "task"):  # type: ignore[index]
                    continue
                # (two task cards are alike only while both tasks are required: under a
                # subset of the task assumptions one of them may be a plain card)
                guard = [v.task[task_of[c]] for c in (a, b) if c in task_of]
                for t in pos.tricks:
                    model.add_bool_or([v.done[(t, a)]], enforce=[v.done[(t, b)], *guard])


def add_lead_constraints(model: Formula, v: Variables, pos: Position) -> None:
    p = pos.instance.players
    # The first trick is led by the known leader, or by exactly one seat when the lead is free.
    if pos.leader is None:
        model.add_exactly_one(v.lead[(pos.first, s)] for s in range(p))
    else:
        model.add_bool_and([v.lead[(pos.first, pos.leader)]])
        model.add_bool_and([-v.lead[(pos.first, s)] for s in range(p) if s != pos.leader])
    # Later tricks are led by the winner of the trick before (v.lead aliases v.winner).


def add_led_suit_constraints(model: Formula, v: Variables, pos: Position) -> None:
    deck = pos.instance.deck
    # The led suit of a trick is the suit of the card its leader plays (de Jong (7)).
    for t in pos.tricks:
        for s in range(pos.instance.players):
            for c in iter_bits(pos.hands[s]):
                model.add_bool_or([v.led[(t, deck.suit_of(c))]], enforce=[v.lead[(t, s)], v.play[(t, s, c)]])
        # A trick has exactly one led suit.
        model.add_exactly_one(v.led[(t, u)] for u in range(len(deck.suits)))


def add_follow_suit_constraints(model: Formula, v: Variables, pos: Position) -> None:
    deck = pos.instance.deck
    # A seat may play off the led suit only if every card it held of that suit is
    # already played (de Jong (8), with done_t_c for the disjunction over earlier tricks).
    for t in pos.tricks:
        for s in range(pos.instance.players):
            hand = pos.hands[s]
            for c in iter_bits(hand):
                for u in range(len(deck.suits)):
                    if u == deck.suit_of(c):
                        continue
                    for other in iter_bits(hand & deck.suit_mask(u)):
                        gone = [v.done[(t - 1, other)]] if t > pos.first else []
                        hold = v.holds(pos, s, other)  # (after a distress signal's passes)
                        held = [] if hold is None else [hold]
                        model.add_bool_or(gone, enforce=[v.play[(t, s, c)], v.led[(t, u)], *held])


def add_winner_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    deck, trump = inst.deck, inst.trump_suit
    cards = pos.cards
    for t in pos.tricks:
        # higher_t_c: some higher card of c's suit is in the trick (a ladder down each suit).
        for u in range(len(deck.suits)):
            above: Lit | None = None
            above_card: CardIndex | None = None
            for c in reversed(list(iter_bits(cards & deck.suit_mask(u)))):
                h = v.higher[(t, c)]
                if above is None:
                    model.add_bool_and([-h])
                else:
                    assert above_card is not None
                    model.add_implication(v.played_by(t, above_card), h)
                    model.add_implication(above, h)
                    # (and only then: full definitions propagate the winner directly)
                    model.add_bool_or([v.played_by(t, above_card), above], enforce=[h])
                above, above_card = h, c
        # trumped_t: a trump is in the trick.
        if trump is not None:
            for c in iter_bits(cards & deck.suit_mask(trump)):
                model.add_implication(v.played_by(t, c), v.trumped[t])
            model.add_bool_or([v.played_by(t, c) for c in iter_bits(cards & deck.suit_mask(trump))],
                              enforce=[v.trumped[t]])
        # A card wins its trick only if it is played and no higher card of its suit is in
        # the trick; a non-trump also needs to be of the led suit with no trump played
        # (de Jong (5)-(6)).
        for c in iter_bits(cards):
            u = deck.suit_of(c)
            needs = [v.played_by(t, c), -v.higher[(t, c)]]
            if u != trump:
                needs.append(v.led[(t, u)])
                if trump is not None:
                    needs.append(-v.trumped[t])
            model.add_bool_and(needs, enforce=[v.win[(t, c)]])
            # ... and a card meeting those conditions does win.
            model.add_bool_or([v.win[(t, c)]], enforce=needs)
        # Some card wins every trick (de Jong (5), second term); the conditions above
        # leave only the best card, so exactly one does.
        model.add_bool_or(v.win[(t, c)] for c in iter_bits(cards))
        # Redundant: exactly one seat wins each trick.
        model.add_exactly_one(v.winner[(t, s)] for s in range(inst.players))
        # A seat wins the trick if and only if one of its cards does.
        for s in range(inst.players):
            mine = [v.win[(t, c)] for c in iter_bits(pos.hands[s])]
            for c, w in zip(iter_bits(pos.hands[s]), mine):
                if pos.passing is not None and v.holds(pos, s, c) is not None:
                    model.add_bool_or([v.winner[(t, s)]], enforce=[w, v.play[(t, s, c)]])
                else:
                    model.add_implication(w, v.winner[(t, s)])
            model.add_bool_or(mine, enforce=[v.winner[(t, s)]])


def add_task_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    last = pos.end - 1
    for k in pos.tasks:
        task, need = inst.tasks[k], v.task[k]
        # Every task card is played before the game ends (de Jong (9), second term: with
        # unequal hands some cards are never played).
        model.add_bool_or([v.done[(last, task.card)]], enforce=[need])
        # The trick holding a task card is won by the task's seat (de Jong (9)) ...
        for t in pos.tricks:
            now = v.played_by(t, task.card)
            if task.seat is not None:
                model.add_bool_or([v.winner[(t, task.seat)]], enforce=[need, now])
            else:
                # ... or, under free assignment, by the seat the task goes to (de Jong (15)).
                # The task goes to the seat that wins its trick (so the quotas propagate
                # from the play, not from a guessed assignment).
                for s in range(inst.players):
                    model.add_bool_or([v.winner[(t, s)]], enforce=[need, now, v.owner[(k, s)]])
                    model.add_bool_or([v.owner[(k, s)]], enforce=[need, now, v.winner[(t, s)]])


def add_assignment_constraints(model: Formula, v: Variables, pos: Position) -> None:
    if pos.quotas is None:
        return
    p = pos.instance.players
    # Free assignment: every required task goes to exactly one seat (de Jong (13), second term).
    for k in pos.tasks:
        model.add_at_most_one(v.owner[(k, s)] for s in range(p))
        model.add_bool_or([v.owner[(k, s)] for s in range(p)], enforce=[v.task[k]])
    # Each seat takes at most its draft count, minus the tasks it already won (de Jong
    # (13), first term, as one cardinality constraint instead of one clause per subset).
    for s in range(p):
        model.add_at_most([v.owner[(k, s)] for k in pos.tasks], pos.quotas[s])
    # Redundant: with every task required, each seat takes exactly its count.
    everything = [v.task[k] for k in pos.tasks]
    for s in range(p):
        model.add_at_least([v.owner[(k, s)] for k in pos.tasks], pos.quotas[s], enforce=everything)


def add_order_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    kinds = {k: token_kind(tok) for k in pos.tasks if (tok := inst.tasks[k].token) is not None}
    if not kinds:
        return
    card = {k: inst.tasks[k].card for k in pos.tasks}
    # An "omega" task is completed last: every other required task is done by its trick.
    # A relative task (">>") is completed no earlier than those with fewer arrows.
    for i, (kind, rank) in kinds.items():
        for j in pos.tasks:
            if j == i:
                continue
            before = kind is TokenKind.LAST or (
                kind is TokenKind.RELATIVE and j in kinds
                and kinds[j][0] is TokenKind.RELATIVE and kinds[j][1] < rank)
            if before:
                for t in pos.tricks:
                    model.add_bool_or([v.done[(t, card[j])]],
                                      enforce=[v.task[i], v.task[j], v.played_by(t, card[i])])
    # A numbered task "k" is the k-th task completed: fewer than k tasks are done before
    # its trick and at least k by the end of it (tasks of one trick share a block).
    if any(kind is TokenKind.ABSOLUTE for kind, _ in kinds.values()):
        for t in pos.tricks:
            for j in pos.tasks:
                c = v.completed[(t, j)] = model.new_bool(("completed", t, j))
                model.add_bool_and([v.task[j], v.done[(t, card[j])]], enforce=[c])
                model.add_bool_or([c], enforce=[v.task[j], v.done[(t, card[j])]])
        for i, (kind, rank) in kinds.items():
            if kind is not TokenKind.ABSOLUTE:
                continue
            want = rank - pos.done_count
            for t in pos.tricks:
                cond = [v.task[i], v.played_by(t, card[i])]
                if t > pos.first:
                    model.add_at_most([v.completed[(t - 1, j)] for j in pos.tasks if j != i],
                                      want - 1, enforce=cond)
                elif want - 1 < 0:
                    model.add_bool_or([], enforce=cond)
                model.add_at_least([v.completed[(t, j)] for j in pos.tasks], want, enforce=cond)
    # Strict reading: tokened tasks completed in one trick must have tokens of one kind
    # (never "omega") with consecutive ranks, so no rank between them may be missing.
    if inst.rules.order_rule != "strict":
        return
    by_rank = {(kind, rank): k for k, (kind, rank) in kinds.items()}
    tokened = sorted(kinds)
    for a, i in enumerate(tokened):
        for j in tokened[a + 1:]:
            (ki, ri), (kj, rj) = kinds[i], kinds[j]
            pair = [v.task[i], v.task[j]]
            clash = ki is not kj or ki is TokenKind.LAST
            between: list[int | None] = [] if clash else [
                by_rank.get((ki, r)) for r in range(min(ri, rj) + 1, max(ri, rj))]
            for t in pos.tricks:
                together = pair + [v.played_by(t, card[i]), v.played_by(t, card[j])]
                if clash or None in between:
                    model.add_bool_or([], enforce=together)
                    continue
                for m in between:
                    assert m is not None
                    model.add_bool_and([v.task[m], v.played_by(t, card[m])], enforce=together)


def add_precedence_constraints(model: Formula, v: Variables, pos: Position) -> None:
    if pos.passing is not None:  # (implied only when the hands are known)
        return
    inst = pos.instance
    deck, trump = inst.deck, inst.trump_suit
    task_at = {inst.tasks[k].card: k for k in pos.tasks}
    # Redundant (implied, not a rule), the search's precedence (kernel.boundary_dead): a
    # seat's own task card c that is no trump must win its trick itself, so c's suit is
    # led and no higher card of it is in the trick. Another seat holding cards of c's
    # suit must follow with a lower one, and every lower one it holds is a task of some
    # seat other than c's (a card it cannot give away to c's seat), then it cannot: it
    # has played all its cards of c's suit before c's trick (so not before trick
    # first + that many). Enforced by c's task and the tasks of the lower cards (without
    # them a lower card is a plain one to duck with).
    for k in pos.tasks:
        w, c = inst.tasks[k].seat, inst.tasks[k].card
        u = deck.suit_of(c)
        if w is None or u == trump or not pos.hands[w] >> c & 1:
            continue
        for o in range(inst.players):
            mine = list(iter_bits(pos.hands[o] & deck.suit_mask(u)))
            if o == w or not mine:
                continue
            lower = [task_at.get(x) for x in mine if x < c]
            if any(j is None or inst.tasks[j].seat == w for j in lower):
                continue  # o can duck under c
            guard = [v.task[k]] + [v.task[j] for j in lower if j is not None]
            for t in pos.tricks:
                cond = guard + [v.play[(t, w, c)]]
                if t - pos.first < len(mine):
                    model.add_bool_or([], enforce=cond)
                else:
                    model.add_bool_and([v.done[(t - 1, x)] for x in mine], enforce=cond)


def add_count_constraints(model: Formula, v: Variables, pos: Position) -> None:
    # Redundant (implied counting): a seat plays one card a trick, so by the end of the
    # n-th trick left it has played at most n of its cards. CDCL cannot count this
    # itself (pigeonhole); it is what turns "these cards must all be gone before that
    # trick" (precedence, follow suit) into a conflict. Only for the first half of each
    # hand, where the bound is tightest and the counter (cards x bound) cheapest: over
    # every trick it cost more propagation than it saved.
    if pos.passing is not None:  # (the hands are not known before the passes)
        return
    for s in range(pos.instance.players):
        hand = list(iter_bits(pos.hands[s]))
        for t in pos.tricks:
            n = t - pos.first + 1
            if 2 * n <= len(hand):
                model.add_at_most([v.done[(t, c)] for c in hand], n)


# -- conditions ----------------------------------------------------------------------
def _false(model: Formula, why: str) -> None:
    x = model.new_bool(("false", why))
    model.add_bool_or([x])
    model.add_bool_or([-x])


def _at_most(model: Formula, lits: list[Lit], k: int, why: str) -> None:
    if k < 0:
        _false(model, why)
    elif k < len(lits):
        model.add_at_most(lits, k)


def _at_least(model: Formula, lits: list[Lit], k: int, why: str) -> None:
    if k > len(lits):
        _false(model, why)
    elif k > 0:
        model.add_at_least(lits, k)


def add_condition_constraints(model: Formula, v: Variables, pos: Position) -> None:
    """Each condition of the deal, over the tricks left, from its memo after the history
    (:mod:`crewcheck.model.conditions`). Every trick is played, as for the tasks: a
    condition that holds early holds whatever follows (the engine's HOLDS is sound), and
    one that breaks early is false at the end, so judging the full game is exact."""
    inst = pos.instance
    deck, trump = inst.deck, inst.trump_suit
    cards, tricks, last = pos.cards, list(pos.tricks), pos.end - 1
    left = len(tricks)
    for j, (cond, memo) in enumerate(zip(inst.conditions, pos.memos)):
        why = f"condition{j}"
        if cond.judge(inst, memo, cards, left) is HOLDS:
            continue
        if isinstance(cond, C.WinsNoTricks):
            seat = _seat(cond.seat)
            for t in tricks:
                model.add_bool_and([-v.winner[(t, seat)]])
        elif isinstance(cond, C.WinsTricks):
            seat, done = _seat(cond.seat), _int(memo)
            lits = [v.winner[(t, seat)] for t in tricks]
            if cond.cmp in ("==", "<="):
                _at_most(model, lits, cond.count - done, why)
            if cond.cmp in ("==", ">="):
                _at_least(model, lits, cond.count - done, why)
        elif isinstance(cond, C.WinsFewerTricksThan):
            assert isinstance(memo, tuple)
            a, b = int(memo[0]), int(memo[1])
            seat, other = _seat(cond.seat), _seat(cond.other)
            lits = [v.winner[(t, seat)] for t in tricks] + [-v.winner[(t, other)] for t in tricks]
            _at_most(model, lits, left + b - a - 1, why)
        elif isinstance(cond, (C.WinsNoCards, C.WinsAllCards)):
            seat = _seat(cond.seat)
            every = isinstance(cond, C.WinsAllCards)
            for c in iter_bits(cond.target(inst) & cards):
                if every:
                    model.add_bool_or([v.done[(last, c)]])
                for t in tricks:
                    model.add_bool_or([v.winner[(t, seat)] if every else -v.winner[(t, seat)]],
                                      enforce=[v.played_by(t, c)])
        elif isinstance(cond, C.NoTrickWonWith):
            for t in tricks:
                for c in iter_bits(cond.named(inst) & cards):
                    model.add_bool_and([-v.win[(t, c)]])
        elif isinstance(cond, C.TrickWonWith):
            valued = [c for c in iter_bits(cond.named(inst) & cards) if cond.trump or deck.suit_of(c) != trump]
            ys = []
            for t in tricks:
                y = model.new_bool(("cond", j, t))
                model.add_bool_or([v.win[(t, c)] for c in valued], enforce=[y])
                if cond.seat is not None:
                    model.add_implication(y, v.winner[(t, _seat(cond.seat))])
                ys.append(y)
            _at_least(model, ys, cond.count - _int(memo), why)
        elif isinstance(cond, C.EachTrumpWinsATrick):
            assert trump is not None
            mine = list(iter_bits(cards & deck.suit_mask(trump)))
            top = memo[1]  # type: ignore[index]
            if cond.in_order and mine and deck.card(mine[0]).value < top:
                _false(model, why)
            for c in mine:
                model.add_bool_or([v.done[(last, c)]])
                for t in tricks:
                    model.add_implication(v.played_by(t, c), v.win[(t, c)])
            if cond.in_order:
                for a, b in zip(mine, mine[1:]):  # a lower trump before a higher one
                    for t in tricks:
                        earlier = [v.done[(t - 1, a)]] if t > pos.first else []
                        model.add_bool_or(earlier, enforce=[v.played_by(t, b)])
        elif isinstance(cond, C.WinsTricksAt):
            seat = _seat(cond.seat)
            listed = {last if x == "last" else int(x) - 1 for x in cond.tricks}
            for t in tricks:
                if t in listed:
                    model.add_bool_and([v.winner[(t, seat)]])
                    if cond.not_with_trump and trump is not None:
                        for c in iter_bits(cards & deck.suit_mask(trump)):
                            model.add_bool_and([-v.win[(t, c)]])
                elif cond.only:
                    model.add_bool_and([-v.winner[(t, seat)]])
        elif isinstance(cond, C.BalancedTricks):
            _add_balance(model, v, pos, cond.margin, memo, j)  # type: ignore[arg-type]
        elif isinstance(cond, C.TaskInTrick):
            target = last if cond.trick == "last" else int(cond.trick) - 1
            if target < pos.first or not cards >> cond.card & 1:
                _false(model, why)
            else:
                model.add_bool_and([v.played_by(target, cond.card)])
        elif isinstance(cond, C.WinsTogether):
            seat = _seat(cond.seat)
            ys = []
            for t in tricks:
                y = model.new_bool(("cond", j, t))
                for c in cond.cards:
                    if cards >> c & 1:
                        model.add_implication(y, v.played_by(t, c))
                    else:
                        model.add_bool_and([-y])
                model.add_implication(y, v.winner[(t, seat)])
                ys.append(y)
            model.add_bool_or(ys)
        else:  # pragma: no cover - CONDITION_KINDS and this block move together
            raise AssertionError(f"no clauses for condition kind {cond.kind!r}")


def _seat(s: object) -> Seat:
    assert isinstance(s, int), "choices are expanded before encoding"
    return s


def _int(memo: Hashable) -> int:
    assert isinstance(memo, int)
    return memo


def _add_balance(model: Formula, v: Variables, pos: Position, margin: int, start: tuple[int, ...],
                 j: int) -> None:
    """Nobody ``margin`` tricks ahead, after every trick: a unary counter of the tricks
    each seat wins from here (``ge[s][k]``: at least ``k``), both directions defined."""
    p = pos.instance.players
    ge: dict[tuple[int, int], Lit] = {}  # (seat, k) -> "at least k so far", for the current t
    n = 0
    for t in pos.tricks:
        n += 1
        now: dict[tuple[int, int], Lit] = {}
        for s in range(p):
            w = v.winner[(t, s)]
            for k in range(1, n + 1):
                x = model.new_bool(("balance", j, t, s, k))
                before = ge.get((s, k))  # None: "at least k" was false before this trick
                prev = ge[(s, k - 1)] if k > 1 else None  # None: "at least 0", true
                # x <-> before or (prev and w)
                if before is not None:
                    model.add_implication(before, x)
                model.add_bool_or([x], enforce=[w] if prev is None else [prev, w])
                model.add_bool_or([w] if before is None else [before, w], enforce=[x])
                if prev is not None:
                    model.add_bool_or([prev] if before is None else [before, prev], enforce=[x])
                now[(s, k)] = x
        ge = now
        for s in range(p):
            for o in range(p):
                if s == o:
                    continue
                d = margin - 1 - start[s] + start[o]  # wins_s - wins_o <= d from here
                for k in range(1, n + 1):
                    need = k - d
                    if need <= 0:
                        continue
                    if need > n:
                        model.add_bool_and([-ge[(s, k)]])
                    else:
                        model.add_bool_or([ge[(o, need)]], enforce=[ge[(s, k)]])


ENCODERS: tuple[Callable[[Formula, Variables, Position], None], ...] = (
    add_play_constraints,
    add_symmetry_constraints,
    add_lead_constraints,
    add_led_suit_constraints,
    add_follow_suit_constraints,
    add_winner_constraints,
    add_task_constraints,
    add_precedence_constraints,
    add_count_constraints,
    add_assignment_constraints,
    add_order_constraints,
    add_condition_constraints,
)
"""Every constraint block, in the order they are added."""


ENCODED_KINDS: frozenset[str] = frozenset({
    "wins_no_tricks", "wins_tricks", "wins_fewer_tricks_than", "wins_no_cards", "wins_all_cards",
    "trick_won_with", "no_trick_won_with", "each_trump_wins_a_trick", "wins_tricks_at",
    "balanced_tricks", "task_in_trick", "wins_together",
})
"""The condition kinds :func:`add_condition_constraints` encodes, listed by name: a kind
added to :mod:`crewcheck.model.conditions` is refused by the logic back-ends and the
engine (and decided by the oracle) until it has its clauses here."""

MAX_VARIABLES = 2_000_000
"""The logic back-ends refuse deals whose encoding would need more variables than this."""


def variables_estimate(instance: Instance) -> int:
    """About how many variables the encoding of ``instance`` needs: (cards in hands) x
    (tricks left) x 4 (play, done, higher, win)."""
    p = instance.players
    done = len(instance.history) // p
    cards = sum(h.bit_count() for h in instance.hands) - done * p
    return 4 * cards * max(0, instance.tricks - done)


def size_limit(instance: Instance, *, branches: int = 1) -> str | None:
    """``None`` if the encoding of ``instance`` has a workable size, else why not (one line).

    The variables are about (tricks left) x (cards in hands) x 4 (play, done, higher, win),
    times ``branches`` (the crew's choices held in one formula).
    """
    estimate = variables_estimate(instance) * branches
    if estimate > MAX_VARIABLES:
        p = instance.players
        done = len(instance.history) // p
        cards = sum(h.bit_count() for h in instance.hands) - done * p
        left = max(0, instance.tricks - done)
        times = f" x {branches:,} choices" if branches > 1 else ""
        return (f"the encoding would need about {estimate:,} variables ({cards} cards x "
                f"{left} tricks{times}); the logic back-ends stop at {MAX_VARIABLES:,}")
    return None


def encode(instance: Instance, *, deadline: Deadline | None = None, direction: int | None = None) -> Encoding:
    """The :class:`Encoding` of "the position after ``instance.history`` can be won".

    ``deadline``: checked while the formula is built
    (:class:`~crewcheck.solvers.base.BudgetExceeded` once expired). ``direction``: a
    distress signal in that direction comes first (:func:`position_of`). A deal that
    leaves the crew other choices is encoded by
    :func:`crewcheck.solvers.encoding_choices.encode_deal`.

    Examples
    --------
    >>> from crewcheck.formats.deal_json import loads
    >>> enc = encode(loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}'))
    >>> enc.formula.pool.name(enc.vars.play[(0, 0, 0)]), len(enc.assumptions)
    ('play_t0_s0_c0', 1)
    """
    pos = position_of(instance, direction=direction)
    model = Formula(deadline=deadline)
    try:
        if deadline is not None:
            deadline.check()
        v = add_variables(model, pos)
        for add in ENCODERS:
            add(model, v, pos)
            if deadline is not None:
                deadline.check()
    except BudgetExceeded:
        discard(model.constraints)  # (freeing them is not the caller's time)
        raise
    return Encoding(pos, model, v)


# -- decoding ------------------------------------------------------------------------
def decode(enc: Encoding, value: Callable[[Lit], bool]) -> tuple[tuple[CardIndex, ...], tuple[Seat, ...] | None]:
    """The winning continuation and (free assignment) task seats in a model.

    ``value(var)`` is the model's value of a variable. The line is cut when the game
    ends (the trick that completes the last task), as the rules stop there.
    """
    pos, v = enc.position, enc.vars
    inst, p = pos.instance, pos.instance.players
    line: list[CardIndex] = []
    leader = pos.leader
    if leader is None:
        leader = _the_seat(p, lambda s: value(v.lead[(pos.first, s)]), f"the leader of trick {pos.first + 1}")
    played: dict[int, dict[Seat, CardIndex]] = {t: {} for t in pos.tricks}
    for (t, s, c), var in v.play.items():
        if value(var):
            played[t][s] = c
    for t in pos.tricks:
        by_seat = played[t]
        for s in seats_from(leader, p):
            if t == pos.first and s in pos.fixed:
                continue
            if s not in by_seat:
                raise BackendError(f"the model has no card for seat {s} in trick {t + 1}")
            line.append(by_seat[s])
        leader = _the_seat(p, lambda s: value(v.winner[(t, s)]), f"the winner of trick {t + 1}")
    if pos.passing is not None:
        try:
            inst = replace(inst, hands=passed_hands(inst, pos.passing.direction, passes_of(enc, value)),
                           distress=None)
        except InvalidDealError as e:
            raise BackendError(f"the model's distress passes make no deal: {e}") from None
    state = inst.state()
    plays: list[CardIndex] = []
    for c in line:
        if state.is_terminal():
            break
        try:
            state = state.apply(c)
        except IllegalPlayError as e:
            raise BackendError(f"the model decodes to an illegal line: {e}") from None
        plays.append(c)
    assignment = None
    if pos.quotas is not None:
        seats = list(pos.history_owners or (-1,) * len(inst.tasks))
        for k in pos.tasks:
            seats[k] = _the_seat(p, lambda s: value(v.owner[(k, s)]), f"the seat of task {k}")
        assignment = tuple(seats)
    return tuple(plays), assignment


def _the_seat(players: int, is_it: Callable[[Seat], bool], what: str) -> Seat:
    """The one seat ``is_it`` says yes to (a model of the encoding has exactly one)."""
    for s in range(players):
        if is_it(s):
            return s
    raise BackendError(f"the model names no seat as {what}")


def passes_of(enc: Encoding, value: Callable[[Lit], bool]) -> tuple[CardIndex, ...]:
    """A distress signal's passes in a model: the card each seat passes (``-1``: none)."""
    passing = enc.position.passing
    assert passing is not None
    out = []
    for s in range(len(passing.own)):
        given = [c for c in iter_bits(passing.out[s]) if value(enc.vars.passes[(s, c)])]
        out.append(given[0] if given else -1)
    return tuple(out)


def describe_tasks(instance: Instance, tasks: Iterable[int]) -> str:
    """``"G7@1, P9@0"``: tasks as card@seat (card alone under free assignment)."""
    out = []
    for k in sorted(tasks):
        t = instance.tasks[k]
        text = str(instance.deck.card(t.card))
        if t.seat is not None:
            text += f"@{t.seat}"
        if t.token is not None:
            text += f"[{t.token}]"
        out.append(text)
    return ", ".join(out)


def explain_core(instance: Instance, core: Sequence[int]) -> str:
    """The explanation for a minimised core of tasks (``"tasks G7@1, P9@0 cannot all be completed"``)."""
    if not core:
        return "the position cannot be won whatever the tasks"
    what = describe_tasks(instance, core)
    if len(core) == 1:
        return f"task {what} cannot be completed"
    return f"tasks {what} cannot all be completed"


def minimise_core(core: Sequence[int], is_unsat: Callable[[list[int]], Sequence[int] | bool | None],
                  expired: Callable[[], bool] = lambda: False) -> list[int]:
    """Shrink an unsatisfiable set of assumptions by deletion.

    ``is_unsat(subset)`` answers whether the formula is unsatisfiable under ``subset``:
    falsy for satisfiable or unknown, ``True``, or better the solver's new core (a subset
    of ``subset``), which then replaces the working set. Each member is dropped in turn if
    the rest stays unsatisfiable; the result is minimal unless ``expired()`` cut the loop
    short.
    """
    keep = list(core)
    i = 0
    while i < len(keep):
        if expired():
            break
        trial = keep[:i] + keep[i + 1:]
        got = is_unsat(trial)
        if got is True:
            keep = trial
        elif got:
            smaller = set(got)
            # members confirmed necessary (before i) are in every core of a subset
            keep = [k for k in trial if k in smaller]
        else:
            i += 1
    return keep


def first_violated(formula: Formula, value: Callable[[int], bool]) -> Constraint | None:
    """The first constraint of ``formula`` that the assignment ``value(var)`` breaks, or
    ``None`` when it is a model (checked before decoding a model given from outside)."""

    def val(x: Lit) -> bool:
        return bool(value(x)) if x > 0 else not value(-x)

    for con in formula.constraints:
        if con.enforce and not all(val(e) for e in con.enforce):
            continue
        n = sum(1 for x in con.lits if val(x))
        ok = {"or": n >= 1, "and": n == len(con.lits), "exactly_one": n == 1, "at_most_one": n <= 1,
              "at_most": n <= con.bound, "at_least": n >= con.bound}[con.kind]
        if not ok:
            return con
    return None


def iter_lits(c: Constraint) -> Iterator[Lit]:
    yield from c.lits
    yield from c.enforce
