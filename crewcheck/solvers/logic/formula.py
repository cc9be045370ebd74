"""The solver-neutral model the winnability encoding is written against: Boolean
variables numbered by domain tuples (:class:`IDPool`, as PySAT's) and constraints in the
vocabulary of CP-SAT (:class:`Formula`). Each logic back-end translates the constraints
natively; :mod:`.export` expands them into CNF."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Literal

from crewcheck.solvers.base import Deadline

__all__ = ["Lit", "IDPool", "Kind", "Constraint", "Formula", "key_name", "CHECK_EVERY", "first_violated"]

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
    "cond_aux": "cond{}_{}_{}_{}",
    "balance": "balance{}_t{}_s{}_ge{}",
    "false": "false_{}",
    "pass": "pass_s{}_c{}",
    "played": "played_t{}_c{}",
    "choice": "choice{}",
    "gate": "gate{}",
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
        return self._keys[var] or ("aux", var)

    def add_auxiliaries(self, n: int) -> None:
        """Hand out the next ``n`` ids to auxiliaries (``("aux", id)``) at once, as
        ``id(("aux", top + 1))`` would one by one, without a dictionary entry each: a
        cardinality expansion numbers millions of them, and none is looked up by key."""
        self._keys.extend(itertools.repeat((), n))

    def name(self, var: int) -> str:
        """The readable name of ``var``, e.g. ``"play_t0_s1_c5"``."""
        return key_name(self.key(var))

    @property
    def top(self) -> int:
        """The largest id handed out."""
        return len(self._keys) - 1

    def __contains__(self, key: object) -> bool:
        return key in self._ids


def key_name(key: tuple[object, ...]) -> str:
    """The readable name of a variable's domain tuple; ``("in", i, *key)`` is ``key``
    in the encoding of the crew's choice ``i`` (:mod:`crewcheck.solvers.logic.choices`)."""
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
    ``add_exactly_one``), and :mod:`crewcheck.solvers.logic.export` expands them into
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
