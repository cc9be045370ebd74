"""The position the encoding is about (:class:`Position`, the facts after the history),
its variables (:class:`Variables`, created in a fixed order by :func:`add_variables` so
ids are reproducible) and the :class:`Encoding` that ties them to a :class:`Formula`."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model.derived import quotas_left
from crewcheck.model.instance import Instance, Seat
from crewcheck.solvers.logic.formula import Formula, Lit

__all__ = ["Position", "position_of", "Variables", "add_variables", "Encoding"]


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

    @property
    def tricks(self) -> range:
        return range(self.first, self.end)

    @property
    def cards(self) -> Mask:
        m = 0
        for h in self.hands:
            m |= h
        return m


def position_of(instance: Instance) -> Position:
    """The :class:`Position` after ``instance.history`` (which must not end the game)."""
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

    def played_by(self, t: int, c: CardIndex) -> Lit:
        """``play`` literal of card ``c`` in trick ``t`` whatever the seat."""
        return self._by_card[(t, c)]

    def __post_init__(self) -> None:
        self._by_card: dict[tuple[int, CardIndex], Lit] = {}


@dataclass
class Encoding:
    """A position, its :class:`Formula` and variables, and the task assumptions."""

    position: Position
    formula: Formula
    vars: Variables

    @property
    def assumptions(self) -> list[Lit]:
        """One literal per open task, all to be assumed true (see :func:`minimise_core`)."""
        return [self.vars.task[k] for k in self.position.tasks]


def add_variables(model: Formula, pos: Position) -> Variables:
    """Create every variable, in a fixed order (so ids are reproducible)."""
    v = Variables()
    inst, p = pos.instance, pos.instance.players
    for t in pos.tricks:
        for s in range(p):
            for c in iter_bits(pos.hands[s]):
                v.play[(t, s, c)] = v._by_card[(t, c)] = model.new_bool(("play", t, s, c))
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
