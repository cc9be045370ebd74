"""The position the encoding is about (:class:`Position`, the facts after the history),
its variables (:class:`Variables`, created in a fixed order by :func:`add_variables` so
ids are reproducible) and the :class:`Encoding` that ties them to a :class:`Formula`."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field, replace

from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model.derived import quotas_left
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.variants import Choice
from crewcheck.solvers.logic.formula import Formula, Lit

__all__ = ["Passing", "Position", "position_of", "Variables", "add_variables", "Encoding", "Branch"]


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
    quota_options: tuple[tuple[int, ...], ...] = ()
    """Free assignment, deals that differ only in their task counts encoded in one
    formula (:func:`crewcheck.solvers.logic.choices.decide_counts`): the counts each
    seat may still take under each option; exactly one option holds (its selector is
    the variable ``("quota_option", j)``). Empty: :attr:`quotas` alone."""
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

    @property
    def covers(self) -> dict[CardIndex, CardIndex]:
        """Covered card -> the card on it, for the covers still in play (the card on top
        not played in a complete trick of the history; :attr:`Instance.covered`)."""
        cards = self.cards
        return {low: high for low, high in self.instance.covered if cards >> high & 1}


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

    A deal that leaves the crew a choice (:mod:`crewcheck.solvers.logic.choices`) has
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
        """One literal per open task, all to be assumed true (see
        :func:`~crewcheck.solvers.logic.cores.minimise_core`); none for a deal with
        choices (each branch requires its tasks itself)."""
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
    members: tuple[tuple[Choice, Instance], ...] = ()
    """Choices apart only in their task counts, encoded together in this branch (their
    counts under the selectors of :attr:`Position.quota_options`, in this order); empty
    for a branch of one choice."""


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
