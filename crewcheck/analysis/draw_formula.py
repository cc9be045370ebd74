"""Mission 12's draws after one first trick as variables of one SAT formula: many draws per call.

What it is
    The position after a first trick (a fresh deal, :func:`crewcheck.analysis.draw_positions.after_draw`
    with no draw) is encoded once with the draw as variables: the distress signal's
    passes (:class:`~crewcheck.solvers.logic.position.Passing`) with every card of a hand
    passable and the direction of the draw (seat ``s``'s card goes to seat ``s + 1``), so
    ``pass(s, c)`` says "``c`` is the card drawn from seat ``s``". One incremental solver
    (PySAT) answers questions about *families* of draws: a family is a box, one set of
    cards per seat, given as assumptions (``not pass(s, c)`` for the cards left out).

    * Satisfiable: a draw of the family and a winning line after it (decoded and
      replayed by the caller's classes, which carry the line over to other draws).
    * Unsatisfiable: *every* draw of the family is lost, in one call.

    A draw known to be lost is widened into such a family (:meth:`DrawFormula.decide`):
    first the seats whose drawn card matters at all (the core of the draw's own
    assumptions), then, seat by seat, a whole suit and then single cards are let in
    while the family stays unsatisfiable. Every draw known to be won is blocked by a
    clause, so an unsatisfiable family may hold won draws: it proves the *others* lost,
    and with no assumption at all it proves every draw not yet won lost.
Exact
    Yes: a model is a winning line (it is replayed before it is used), and a family is
    declared lost only on an unsatisfiable answer of the formula restricted to it, the
    won draws blocked (``tests/analysis/test_draw_formula.py`` checks both against the
    oracle, draw by draw).
Cost
    One formula per first trick (the encoding of the position plus one ``pass`` variable
    per card and one ``played`` variable per card and trick); each call is a few tens
    of milliseconds on a Classic deal, against a search of a losing draw that often
    takes longer; widening a lost draw takes up to :data:`WIDEN_CALLS` calls of at most
    :data:`WIDEN_CONFLICTS` conflicts each.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from itertools import product
from typing import Any

from crewcheck.model.cards import CardIndex, Mask, iter_bits
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Deadline
from crewcheck.solvers.logic.decode import decode, passes_of
from crewcheck.solvers.logic.encoding import ENCODERS
from crewcheck.solvers.logic.export import to_cnf
from crewcheck.solvers.logic.formula import Formula, Lit
from crewcheck.solvers.logic.position import Encoding, Passing, add_variables, position_of

__all__ = ["Decided", "DrawFormula", "FamilyCounts", "WIDEN_CALLS", "WIDEN_CONFLICTS", "SOLVER", "family_draws", "draw_encoding"]

SOLVER = "glucose42"
"""The PySAT solver: incremental, with cores over assumptions, and it can be interrupted
when the time runs out (CaDiCaL cannot be, in PySAT)."""

WIDEN_CONFLICTS = 1_000
"""Conflicts one widening call may take; a call that needs more widens nothing."""

WIDEN_CALLS = 24
"""The most calls spent widening one lost draw into a lost family."""

Draw = tuple[CardIndex, ...]
Line = tuple[CardIndex, ...]


@dataclass
class FamilyCounts:
    """What the formulas of an analysis did (deterministic, unlike their time)."""

    formulas: int = 0
    """Formulas built (one per first trick that needed one)."""
    calls: int = 0
    """SAT calls."""
    won: int = 0
    """Draws won by a model."""
    families: int = 0
    """Families found lost (unsatisfiable calls that decided draws)."""
    lost: int = 0
    """Draws answered by those families (lost without a search of their own)."""


def draw_encoding(base: Instance) -> Encoding:
    """The encoding of "some draw after ``base`` (the position after a first trick, no
    draw yet) can be won", the draw as ``pass`` variables (module docstring)."""
    pos = position_of(base)
    p = base.players
    own = tuple(base.hands)
    passing = Passing(own, own, 1)
    pos = replace(pos, passing=passing, hands=tuple(own[s] | own[passing.giver(s)] for s in range(p)))
    formula = Formula()
    v = add_variables(formula, pos)
    for add in ENCODERS:
        add(formula, v, pos)
    return Encoding(pos, formula, v)


def family_draws(box: Sequence[Mask]) -> Iterator[Draw]:
    """Every draw of the family ``box`` (one set of cards per seat)."""
    return product(*(tuple(iter_bits(m)) for m in box))


@dataclass(frozen=True)
class Decided:
    """A draw decided by the formula: its winning ``line``, or (``line`` ``None``) a lost
    ``family`` that holds it (every draw of it lost, or won and blocked before)."""

    draw: Draw
    line: Line | None
    family: tuple[Mask, ...] | None = None


class DrawFormula:
    """The draws after one first trick in one incremental SAT solver (module docstring).
    Draws and lines are in ``base``'s card indices."""

    def __init__(self, base: Instance, counts: FamilyCounts, deadline: Deadline | None = None,
                 solver: str = SOLVER) -> None:
        from pysat.solvers import Solver  # type: ignore[import-untyped]

        self.base = base
        self.counts = counts
        self.deadline = deadline or Deadline(Budget())
        self.enc = draw_encoding(base)
        cnf = to_cnf(self.enc.formula, assume=self.enc.assumptions)
        self.sat: Any = Solver(name=solver, bootstrap_with=cnf.clauses)
        self.hands = tuple(base.hands)
        self.passes = self.enc.vars.passes
        counts.formulas += 1

    def close(self) -> None:
        self.sat.delete()

    def _solve(self, assumptions: list[Lit], conflicts: int = -1) -> bool | None:
        """The solver's answer under ``assumptions`` within ``conflicts`` (``-1``: no
        limit) and the deadline; ``None`` when either ran out."""
        from crewcheck.solvers.logic.sat import SatSolver

        self.counts.calls += 1
        self.sat.conf_budget(conflicts)
        if self.deadline.until is None and self.deadline.cancel is None:
            return self.sat.solve_limited(assumptions=assumptions)  # type: ignore[no-any-return]
        return SatSolver._solve_until(self.sat, assumptions, self.deadline, None)

    def _model(self) -> tuple[Draw, Line]:
        model: dict[int, bool] = {abs(x): x > 0 for x in self.sat.get_model() or ()}

        def value(x: Lit) -> bool:
            return model.get(x, False)

        line, _ = decode(self.enc, value)
        return passes_of(self.enc, value), line

    def block(self, draw: Sequence[CardIndex]) -> None:
        """Leave ``draw`` (known to be won) out of every later question."""
        self.sat.add_clause([-self.passes[(s, c)] for s, c in enumerate(draw)])

    def winning(self, draw: Sequence[CardIndex] | None = None, conflicts: int = -1) -> Decided | bool | None:
        """A winning draw not blocked (``draw`` itself if given) and its line; ``False``
        when there is none (with no ``draw``: every draw not blocked is lost); ``None``
        when the deadline passed or the call took more than ``conflicts`` conflicts
        (``-1``: no limit)."""
        got = self._solve([] if draw is None else [self.passes[(s, c)] for s, c in enumerate(draw)], conflicts)
        if got is None:
            return None
        if not got:
            return False
        self.counts.won += 1
        return Decided(*self._model())

    def decide(self, draw: Sequence[CardIndex]) -> Decided | None:
        """Whether ``draw`` is won: with its winning line, or, lost, widened into a lost
        family that holds it (:meth:`widen`); ``None`` when the deadline passed."""
        got = self._solve([self.passes[(s, c)] for s, c in enumerate(draw)])
        if got is None:
            return None
        if got:
            self.counts.won += 1
            return Decided(*self._model())
        core = set(self.sat.get_core() or ())
        return self.widen(draw, [self.passes[(s, c)] not in core for s, c in enumerate(draw)])

    def widen(self, draw: Sequence[CardIndex], free: Sequence[bool] | None = None) -> Decided | None:
        """The lost ``draw`` widened into a lost family that holds it: every draw of the
        family is lost or was blocked (won). ``free``: the seats whose drawn card is known
        not to matter. A seat's whole hand is tried first, then the drawn card's suit,
        then one card at a time, each try a call of at most :data:`WIDEN_CONFLICTS`
        conflicts (a try that needs more widens nothing), :data:`WIDEN_CALLS` tries in
        all; ``None`` when the deadline passed."""
        p = len(self.hands)
        deck = self.base.deck
        box = [self.hands[s] if free is not None and free[s] else 1 << c for s, c in enumerate(draw)]
        tries = [*((s, self.hands[s]) for s in range(p)),
                 *((s, self.hands[s] & deck.suit_mask(deck.suit_of(c))) for s, c in enumerate(draw)),
                 *((s, 1 << c) for s in range(p) for c in iter_bits(self.hands[s]))]
        calls = 0
        for s, extra in tries:
            if extra & ~box[s] == 0 or calls >= WIDEN_CALLS:
                continue
            trial = [*box[:s], box[s] | extra, *box[s + 1:]]
            calls += 1
            got = self._solve(self._outside(trial), WIDEN_CONFLICTS)
            if got is None and self.deadline.expired():
                return None
            if got is False:
                box = trial
        self.sat.add_clause([self.passes[(s, c)] for s in range(p) for c in iter_bits(self.hands[s] & ~box[s])])
        self.counts.families += 1
        return Decided(tuple(draw), None, tuple(box))

    def _outside(self, box: Sequence[Mask]) -> list[Lit]:
        """The assumptions of the family ``box``: no card outside it is drawn."""
        return [-self.passes[(s, c)] for s in range(len(self.hands)) for c in iter_bits(self.hands[s] & ~box[s])]
