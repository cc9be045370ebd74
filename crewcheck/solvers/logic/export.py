"""Pure CNF from a :class:`~crewcheck.solvers.logic.encoding.Formula`: DIMACS, SMT-LIB 2, models.

What it is
    :func:`to_cnf` expands every recorded constraint into clauses: enforcement literals
    become negated literals of the clause; ``exactly_one`` is a clause plus an
    at-most-one (pairwise up to :data:`PAIRWISE_MAX` literals, otherwise Sinz's
    sequential counter); ``at_most`` / ``at_least`` are Sinz's sequential counter [1]_
    (``O(n·k)`` clauses and auxiliaries), whose overflow clauses carry the enforcement
    literals so a conditional bound stays conditional. :func:`write_dimacs` adds a
    comment header naming every variable (``c var 17 play_t0_s1_c5 = trick 1: seat 1
    plays G7``); :func:`write_smt2` writes the same clauses as an SMT-LIB 2 ``QF_UF``
    script with named Booleans; :func:`parse_model` reads a SAT solver's ``v ...`` lines
    (or a bare list of literals) or an SMT solver's ``(model (define-fun ...))`` back.
Exact
    Yes: the CNF is equisatisfiable with the formula, and every model of the CNF
    restricted to the formula's variables is a model of the formula.

References
----------
.. [1] C. Sinz, "Towards an Optimal CNF Encoding of Boolean Cardinality Constraints",
   CP 2005.
"""

from __future__ import annotations

import re
import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TextIO

from crewcheck.errors import InvalidInputError
from crewcheck.solvers.base import BudgetExceeded, Deadline, discard
from crewcheck.solvers.logic.formula import CHECK_EVERY, Constraint, Formula, IDPool, Lit
from crewcheck.solvers.logic.position import Encoding

__all__ = ["CNF", "ClauseFormula", "PAIRWISE_MAX", "to_cnf", "write_dimacs", "write_smt2", "parse_model", "describe_var"]

PAIRWISE_MAX = 6
"""At-most-one over more literals than this uses a sequential counter instead of pairs."""


@dataclass
class CNF:
    """Clauses over the formula's variables and the auxiliaries of the expansion."""

    pool: IDPool
    clauses: list[list[Lit]] = field(default_factory=list)
    formula_vars: int = 0
    """Variables ``1..formula_vars`` belong to the formula; later ones are auxiliaries."""

    @property
    def nv(self) -> int:
        return self.pool.top


def to_cnf(formula: Formula, *, assume: Iterable[Lit] = (), deadline: Deadline | None = None) -> CNF:
    """Expand ``formula`` into clauses; ``assume`` literals are added as unit clauses.
    ``deadline`` is checked as it goes (:class:`~crewcheck.solvers.base.BudgetExceeded`)."""
    pool = formula.pool
    cnf = CNF(pool, formula_vars=pool.top)
    out = cnf.clauses

    def aux(n: int) -> Lit:
        first = pool.top + 1
        pool.add_auxiliaries(n)
        return first

    try:
        for n, con in enumerate(formula.constraints):
            _expand(con, aux, out)
            if deadline is not None and not n % CHECK_EVERY:
                deadline.check()
    except BudgetExceeded:
        discard(out)
        raise
    for lit in assume:
        out.append([lit])
    return cnf


def _expand(con: Constraint, aux: Callable[[int], Lit], out: list[list[Lit]]) -> None:
    """``con`` as clauses appended to ``out``; ``aux(n)`` hands out ``n`` new
    auxiliaries, consecutive ids from the one it returns."""
    neg = [-e for e in con.enforce]
    lits = list(con.lits)
    kind = con.kind
    if kind == "or":
        out.append(neg + lits)
    elif kind == "and":
        out.extend(neg + [lit] for lit in lits)
    elif kind == "exactly_one":
        out.append(neg + lits)
        _at_most(lits, 1, neg, aux, out)
    elif kind == "at_most_one":
        _at_most(lits, 1, neg, aux, out)
    elif kind == "at_most":
        _at_most(lits, con.bound, neg, aux, out)
    elif kind == "at_least":
        _at_most([-x for x in lits], len(lits) - con.bound, neg, aux, out)
    else:  # pragma: no cover - Constraint.kind is a Literal
        raise AssertionError(kind)


def _at_most(lits: list[Lit], k: int, neg: list[Lit], aux: Callable[[int], Lit], out: list[list[Lit]]) -> None:
    """Sinz's sequential counter for sum(lits) <= k, its overflow clauses guarded by
    ``neg``; ``aux(n)`` hands out the counter's ``(n - 1) * k`` auxiliaries."""
    n = len(lits)
    if k >= n:
        return
    if k < 0:
        out.append(list(neg))
        return
    if k == 0:
        out.extend(neg + [-x] for x in lits)
        return
    if k == 1 and n <= PAIRWISE_MAX:
        for i in range(n):
            for j in range(i + 1, n):
                out.append(neg + [-lits[i], -lits[j]])
        return
    # s(i, j) = base + i * k + j: at least j+1 of lits[0..i] are true (forced upwards only).
    base = aux((n - 1) * k)
    add = out.append
    add([-lits[0], base])
    for j in range(1, k):
        add([-(base + j)])
    for i in range(1, n - 1):
        x = -lits[i]
        cur = base + i * k
        prev = cur - k
        add([x, cur])
        add([-prev, cur])
        for j in range(1, k):
            add([x, -(prev + j - 1), cur + j])
            add([-(prev + j), cur + j])
        add(neg + [x, -(prev + k - 1)])
    add(neg + [-lits[n - 1], -(base + (n - 2) * k + k - 1)])


class ClauseFormula(Formula):
    """A formula written straight as clauses: each clause is written as it is added,
    exactly as :func:`to_cnf` expands it, and no constraint is kept (:attr:`constraints`
    stays empty).

    The reference of the engine's SAT process, which builds the CNF this way where its
    compiled kernel does not (:mod:`crewcheck.solvers.logic.cnf_build`), and the writer of
    the formula of deals apart in their conditions
    (:mod:`crewcheck.solvers.logic.condition_choices`): without the constraint objects and
    their second pass the build takes about 60 % of the time. :meth:`cnf` returns the
    clauses of ``to_cnf(formula)``, clause for clause and with the same variable ids: the
    cardinalities, whose auxiliaries are numbered after the formula's own variables, are
    noted where they were added and expanded there by :meth:`cnf`, once those are all
    made. No deadline is checked while it is built.
    """

    def __init__(self) -> None:
        super().__init__()
        self.clauses: list[list[Lit]] = []
        self._later: list[tuple[int, Constraint]] = []
        """The cardinalities, each with the number of clauses written before it."""

    def add_bool_or(self, lits: Iterable[Lit], *, enforce: Iterable[Lit] = ()) -> None:
        clause = [-e for e in enforce]
        clause.extend(lits)
        self.clauses.append(clause)

    def add_bool_and(self, lits: Iterable[Lit], *, enforce: Iterable[Lit] = ()) -> None:
        neg = [-e for e in enforce]
        self.clauses.extend(neg + [lit] for lit in lits)

    def add_implication(self, a: Lit, b: Lit) -> None:
        self.clauses.append([-a, b])

    def _add(self, con: Constraint) -> None:  # the cardinalities (the other kinds are above)
        self._later.append((len(self.clauses), con))

    def cnf(self, *, assume: Iterable[Lit] = ()) -> CNF:
        """The clauses, the cardinalities expanded in their places with auxiliaries
        numbered after the formula's variables, then ``assume`` as unit clauses; call
        once, when every constraint is added."""
        pool = self.pool
        top = pool.top
        written = self.clauses
        out: list[list[Lit]] = []
        done = 0

        def aux(n: int) -> Lit:
            first = pool.top + 1
            pool.add_auxiliaries(n)
            return first

        for at, con in self._later:
            out.extend(itertools.islice(written, done, at))
            _expand(con, aux, out)
            done = at
        out.extend(itertools.islice(written, done, None))
        out.extend([lit] for lit in assume)
        self.clauses, self._later = out, []
        return CNF(pool, out, formula_vars=top)


# -- writers ---------------------------------------------------------------------------
def describe_var(enc: Encoding, var: int) -> str:
    """A reading of variable ``var`` in game terms (``"trick 3: seat 1 plays G7"``)."""
    key = enc.formula.pool.key(var)
    inst = enc.position.instance
    card = inst.deck.card
    kind = key[0]
    if kind == "choice":
        choice = enc.branches[int(key[1])].choice  # type: ignore[call-overload]
        parts = [choice.describe(inst)] if not choice.is_empty() else []
        if choice.direction is not None:
            parts.append(f"distress signal to the {'left' if choice.direction == 1 else 'right'}")
        return f"the crew's choice {key[1]}: {'; '.join(p for p in parts if p) or 'as dealt'}"
    if kind == "in":
        branch = enc.branches[int(key[1])]  # type: ignore[call-overload]
        assert branch.encoding is not None
        inner = branch.encoding.formula.pool.id(tuple(key[2:]))
        return f"under choice {key[1]}: {describe_var(branch.encoding, inner)}"
    if kind == "pass":
        return f"distress signal: seat {key[1]} passes {card(int(key[2]))}"  # type: ignore[call-overload]
    if kind == "played":
        return f"trick {int(key[1]) + 1}: {card(int(key[2]))} is played"  # type: ignore[call-overload]
    if kind == "play":
        t, s, c = key[1:]
        return f"trick {int(t) + 1}: seat {s} plays {card(int(c))}"  # type: ignore[call-overload]
    if kind == "done":
        return f"{card(int(key[2]))} played by trick {int(key[1]) + 1}"  # type: ignore[call-overload]
    if kind == "higher":
        return f"trick {int(key[1]) + 1}: a card above {card(int(key[2]))} is in it"  # type: ignore[call-overload]
    if kind == "trumped":
        return f"trick {int(key[1]) + 1}: a trump is in it"  # type: ignore[call-overload]
    if kind == "win":
        return f"trick {int(key[1]) + 1}: {card(int(key[2]))} wins it"  # type: ignore[call-overload]
    if kind == "winner":
        return f"trick {int(key[1]) + 1}: seat {key[2]} wins it"  # type: ignore[call-overload]
    if kind == "lead":
        return f"trick {int(key[1]) + 1}: seat {key[2]} leads it"  # type: ignore[call-overload]
    if kind == "led":
        return f"trick {int(key[1]) + 1}: led suit is {inst.deck.suits[int(key[2])]}"  # type: ignore[call-overload]
    if kind == "owner":
        return f"task {card(inst.tasks[int(key[1])].card)} goes to seat {key[2]}"  # type: ignore[call-overload]
    if kind == "task":
        return f"task {card(inst.tasks[int(key[1])].card)} is required (assumption)"  # type: ignore[call-overload]
    if kind == "completed":
        return (f"task {card(inst.tasks[int(key[2])].card)} is required and done "  # type: ignore[call-overload]
                f"by trick {int(key[1]) + 1}")  # type: ignore[call-overload]
    if kind == "cond_aux":
        return f"condition {key[1]}: auxiliary {key[2]} {key[3]} {key[4]} (crewcheck.solvers.logic.condition_clauses)"
    return "auxiliary (cardinality counter)"


def write_dimacs(enc: Encoding, cnf: CNF, out: TextIO, *, source: str = "") -> None:
    """DIMACS CNF with a comment header mapping the formula's variables to the game."""
    pos = enc.position
    out.write("c crewcheck encoding of: can this deal be won? (de Jong's SAT encoding, generalised)\n")
    if source:
        out.write(f"c deal: {source}\n")
    out.write(f"c tricks {pos.first + 1}..{pos.end} (1-based); {pos.instance.players} seats; "
              f"{len(pos.tasks)} open tasks; rules {pos.instance.rules}\n")
    aux = (f"; {cnf.formula_vars + 1}..{cnf.nv} are cardinality auxiliaries"
           if cnf.nv > cnf.formula_vars else "")
    if enc.branches:
        out.write(f"c the crew chooses before play: {len(enc.branches)} choices, exactly one choice<i> "
                  f"is true; v<i>_ variables belong to choice i\n")
    out.write(f"c variables 1..{cnf.formula_vars} are named below{aux}\n")
    out.write("c satisfiable <=> winnable; decode a model with: crewcheck decode DEAL.json MODEL\n")
    for var in range(1, cnf.formula_vars + 1):
        out.write(f"c var {var} {enc.formula.pool.name(var)} = {describe_var(enc, var)}\n")
    out.write(f"p cnf {cnf.nv} {len(cnf.clauses)}\n")
    for clause in cnf.clauses:
        out.write(" ".join(map(str, clause)))
        out.write(" 0\n")


def write_smt2(enc: Encoding, cnf: CNF, out: TextIO, *, source: str = "") -> None:
    """The same clauses as an SMT-LIB 2 script over named Booleans (logic ``QF_UF``)."""
    pool = cnf.pool
    out.write("; crewcheck encoding of: can this deal be won? sat <=> winnable\n")
    if source:
        out.write(f"; deal: {source}\n")
    out.write("(set-logic QF_UF)\n(set-option :produce-models true)\n")
    for var in range(1, cnf.nv + 1):
        out.write(f"(declare-const {pool.name(var)} Bool)\n")

    def lit(x: Lit) -> str:
        name = pool.name(abs(x))
        return name if x > 0 else f"(not {name})"

    for clause in cnf.clauses:
        if len(clause) == 1:
            out.write(f"(assert {lit(clause[0])})\n")
        elif not clause:
            out.write("(assert false)\n")
        else:
            out.write(f"(assert (or {' '.join(lit(x) for x in clause)}))\n")
    out.write("(check-sat)\n(get-model)\n")


_DEFINE = re.compile(r"\(define-fun\s+(\S+)\s+\(\)\s+Bool\s+(true|false)\s*\)")


def parse_model(text: str, enc: Encoding) -> dict[int, bool] | None:
    """Variable values from a solver's output; ``None`` if it says unsatisfiable.

    Accepts SAT-competition output (``s SATISFIABLE`` / ``v 1 -2 ... 0``), a bare list of
    signed literals, or an SMT-LIB model (``(define-fun play_t0_s1_c5 () Bool true)``).
    Raises :class:`InvalidInputError` if nothing readable is found.
    """
    if re.search(r"^\s*(s\s+)?UNSAT(ISFIABLE)?\s*$", text, re.M | re.I):
        return None
    pool = enc.formula.pool
    if "define-fun" in text:
        ids = {pool.name(v): v for v in range(1, pool.top + 1)}
        values: dict[int, bool] = {}
        for name, val in _DEFINE.findall(text):
            if name in ids:
                values[ids[name]] = val == "true"
        if not values:
            raise InvalidInputError("no Boolean of the encoding is defined in the model")
        return values
    values = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line[0] in "cs":
            continue
        if line.startswith("v"):
            line = line[1:]
        for tok in line.split():
            try:
                x = int(tok)
            except ValueError:
                raise InvalidInputError(f"expected signed literals, got {tok!r}") from None
            if x:
                values[abs(x)] = x > 0
    if not values:
        raise InvalidInputError("no model found (expected 'v' lines or signed literals)")
    return values
