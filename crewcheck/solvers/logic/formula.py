"""The solver-neutral model the winnability encoding is written against: Boolean
variables numbered by domain tuples (:class:`IDPool`, as PySAT's) and constraints in the
vocabulary of CP-SAT (:class:`Formula`). Each logic back-end translates the constraints
natively; :mod:`.export` expands them into CNF."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

__all__ = ["Lit", "IDPool", "Kind", "Constraint", "Formula"]

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
        key = self._keys[var]
        return _NAMES[str(key[0])].format(*key[1:])

    @property
    def top(self) -> int:
        """The largest id handed out."""
        return len(self._keys) - 1

    def __contains__(self, key: object) -> bool:
        return key in self._ids


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
    ``add_exactly_one``), and :mod:`crewcheck.solvers.logic.export` expands them into
    pure CNF for DIMACS and PySAT.
    """

    pool: IDPool = field(default_factory=IDPool)
    constraints: list[Constraint] = field(default_factory=list)

    def new_bool(self, key: tuple[object, ...]) -> Lit:
        return self.pool.id(key)

    def add_bool_or(self, lits: Iterable[Lit], *, enforce: Iterable[Lit] = ()) -> None:
        """At least one of ``lits`` (a clause)."""
        self.constraints.append(Constraint("or", tuple(lits), 0, tuple(enforce)))

    def add_bool_and(self, lits: Iterable[Lit], *, enforce: Iterable[Lit] = ()) -> None:
        """All of ``lits``."""
        self.constraints.append(Constraint("and", tuple(lits), 0, tuple(enforce)))

    def add_implication(self, a: Lit, b: Lit) -> None:
        """``a`` implies ``b``."""
        self.constraints.append(Constraint("and", (b,), 0, (a,)))

    def add_exactly_one(self, lits: Iterable[Lit]) -> None:
        self.constraints.append(Constraint("exactly_one", tuple(lits)))

    def add_at_most_one(self, lits: Iterable[Lit]) -> None:
        self.constraints.append(Constraint("at_most_one", tuple(lits)))

    def add_at_most(self, lits: Iterable[Lit], k: int, *, enforce: Iterable[Lit] = ()) -> None:
        """At most ``k`` of ``lits`` are true."""
        self.constraints.append(Constraint("at_most", tuple(lits), k, tuple(enforce)))

    def add_at_least(self, lits: Iterable[Lit], k: int, *, enforce: Iterable[Lit] = ()) -> None:
        """At least ``k`` of ``lits`` are true."""
        self.constraints.append(Constraint("at_least", tuple(lits), k, tuple(enforce)))
