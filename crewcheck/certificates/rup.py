"""The proof checker: does a DRUP proof refute a CNF? Forward RUP checking with watched literals.

What it checks
    A *DRUP proof* is a list of steps, one per line: a clause ``l1 l2 ... 0`` (a *lemma*:
    "this clause follows") or ``d l1 l2 ... 0`` (this clause is no longer needed). It
    refutes the CNF ``F`` if every lemma is a *reverse unit propagation* (RUP) consequence
    of the clauses present when it is added (``F``, plus the lemmas before it, minus the
    deleted clauses), and the empty clause is one of the lemmas. A lemma ``C`` is RUP when
    assigning every literal of ``C`` false and propagating unit clauses reaches a
    conflict; then ``C`` follows from the clauses present, so by induction every lemma,
    and in the end the empty clause, follows from ``F``: ``F`` is unsatisfiable.

How
    Forward, in proof order, with the two-watched-literal scheme of CDCL solvers. The
    clauses sit in one flat array (``lits``, the ``c``-th clause at
    ``lits[start[c]:start[c + 1]]``). A clause of two or more literals watches its first
    two: ``watch`` node ``2c + k`` (``k`` = 0, 1) stands in the list of literal
    ``lits[start[c] + k]`` (``head[index(l)]``, then ``after[node]``). The assignment
    made at the top level (units of the clauses present, propagated) is kept between
    steps; a lemma's check assigns its negation above it, propagates, and undoes that.

Deletions
    A deletion is matched to a present clause with the same literals (any order,
    duplicates ignored) when the proof is read; one that matches none is ignored. A
    deletion of a clause with a literal true at the top level is ignored too, as the
    clause may be the reason of a top-level assignment (drat-trim ignores deletions of
    unit clauses for the same reason). Ignoring a deletion only keeps a clause that
    follows from ``F``, so it cannot make a wrong proof pass.

Independence
    This module shares no code with the solvers: it imports only numpy and
    :mod:`crewcheck.runtime.kernels` (numba's build step). The kernel functions below are plain
    Python; :func:`compiled` returns them compiled by numba, :func:`twin` as they are, and
    the tests run both on the same proofs (and a third, naive propagation in the tests).

Cost
    Linear in the proof's size to read, then as much unit propagation as the proof's
    lemmas need (each lemma is checked: forward checking does not skip unused ones).
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import numpy as np

from crewcheck.runtime import kernels

__all__ = ["ProofError", "Proof", "RupOutcome", "read_proof", "check_proof", "KERNEL_FUNCTIONS",
           "twin", "compiled", "ACCEPTED", "NOT_RUP", "NO_EMPTY_CLAUSE"]

ACCEPTED = 0
"""Kernel status: the empty clause was added, every lemma before it is RUP."""
NOT_RUP = 1
"""Kernel status: the lemma of the step returned is not RUP."""
NO_EMPTY_CLAUSE = 2
"""Kernel status: every lemma is RUP but the proof never adds the empty clause."""


class ProofError(ValueError):
    """The proof text cannot be read (a token that is no integer, a clause without its 0)."""


# -- the kernel: plain Python on int arrays, compiled unchanged by numba ------------------
def lit_index(lit: int) -> int:
    """Index of literal ``lit`` in the watch heads: ``2v`` for ``v``, ``2v + 1`` for ``-v``."""
    return 2 * lit if lit > 0 else -2 * lit + 1


def lit_value(assign: Any, lit: int) -> int:
    """1 if ``lit`` is true, -1 if false, 0 if unassigned (``assign[v]`` is ``v``'s value)."""
    return int(assign[lit]) if lit > 0 else -int(assign[-lit])


def enqueue(assign: Any, trail: Any, st: Any, lit: int) -> None:
    """Make ``lit`` true and put it on the trail (``st[0]``: trail length)."""
    assign[abs(lit)] = 1 if lit > 0 else -1
    trail[st[0]] = lit
    st[0] += 1


def propagate(lits: Any, start: Any, alive: Any, head: Any, after: Any, assign: Any, trail: Any,
              st: Any) -> bool:
    """Unit propagation from trail position ``st[1]`` on; ``True`` on a conflict."""
    while st[1] < st[0]:                               # every literal made true not yet looked at
        false_lit = -trail[st[1]]                      # its negation has just become false
        st[1] += 1
        i = lit_index(false_lit)
        prev = -1                                      # the node before ``node`` in list i
        node = head[i]
        while node != -1:                              # every clause watching false_lit
            nxt = after[node]
            c = node >> 1                              # the clause of the node
            k = node & 1                               # which of its two watches it is
            s = start[c]
            if alive[c] == 0:                          # deleted: drop the node from the list
                if prev == -1:
                    head[i] = nxt
                else:
                    after[prev] = nxt
                node = nxt
                continue
            other = lits[s + 1 - k]                    # the clause's other watched literal
            if lit_value(assign, other) == 1:          # clause satisfied: keep watching
                prev = node
                node = nxt
                continue
            moved = False
            for j in range(s + 2, start[c + 1]):       # look for a literal not false
                if lit_value(assign, lits[j]) != -1:
                    lits[s + k] = lits[j]              # it becomes the watched literal k
                    lits[j] = false_lit
                    if prev == -1:                     # unlink the node from list i
                        head[i] = nxt
                    else:
                        after[prev] = nxt
                    n = lit_index(lits[s + k])         # and push it onto the new literal's list
                    after[node] = head[n]
                    head[n] = node
                    moved = True
                    break
            if moved:
                node = nxt
                continue
            prev = node                                # no replacement: the clause is unit or false
            node = nxt
            if lit_value(assign, other) == 0:
                enqueue(assign, trail, st, other)      # unit: its other watch must be true
            else:
                return True                            # every literal false: conflict
    return False


def add_clause(lits: Any, start: Any, alive: Any, head: Any, after: Any, assign: Any, trail: Any,
               st: Any, c: int) -> None:
    """Add clause ``c`` at the top level: watch it, or assign it if unit; ``st[2] = 1`` once
    the top level is in conflict (the empty clause then follows by propagation alone)."""
    s = start[c]
    e = start[c + 1]
    alive[c] = 1
    free = 0                                           # literals not false moved to the front
    for j in range(s, e):
        if lit_value(assign, lits[j]) != -1 and free < 2:
            x = lits[s + free]
            lits[s + free] = lits[j]
            lits[j] = x
            free += 1
    if free == 0:                                      # every literal false (or no literal)
        st[2] = 1
        return
    if e - s >= 2:                                     # watch the first two literals
        for k in range(2):
            n = lit_index(lits[s + k])
            after[2 * c + k] = head[n]
            head[n] = 2 * c + k
    if free == 1 and lit_value(assign, lits[s]) == 0:  # unit under the top level: assign it
        enqueue(assign, trail, st, lits[s])
        if propagate(lits, start, alive, head, after, assign, trail, st):
            st[2] = 1


def is_rup(lits: Any, start: Any, alive: Any, head: Any, after: Any, assign: Any, trail: Any,
           st: Any, c: int) -> bool:
    """Whether clause ``c`` is RUP: its literals all false propagate to a conflict."""
    if st[2] == 1:                                     # the top level is already in conflict
        return True
    mark = st[0]
    implied = False
    for j in range(start[c], start[c + 1]):
        v = lit_value(assign, lits[j])
        if v == 1:                                     # a literal already true: implied
            implied = True
            break
        if v == 0:
            enqueue(assign, trail, st, -lits[j])       # assume the literal false
    if not implied:
        implied = propagate(lits, start, alive, head, after, assign, trail, st)
    for j in range(mark, st[0]):                       # undo everything above the top level
        assign[abs(trail[j])] = 0
    st[0] = mark
    st[1] = mark
    return implied


def run_proof(lits: Any, start: Any, steps: Any, n_formula: int, n_vars: int) -> Any:
    """Check a proof: ``steps[j] >= 0`` adds lemma ``steps[j]``, ``steps[j] < 0`` deletes
    clause ``-steps[j] - 1``. Returns ``[status, step]``: :data:`ACCEPTED` and the step of
    the empty clause, :data:`NOT_RUP` and the failing step, or :data:`NO_EMPTY_CLAUSE`."""
    n_clauses = len(start) - 1
    alive = np.zeros(n_clauses, np.int8)               # 1 while the clause is present
    head = np.full(2 * n_vars + 2, -1, np.int64)       # first watch node of each literal
    after = np.full(2 * n_clauses, -1, np.int64)       # next watch node in the same list
    assign = np.zeros(n_vars + 1, np.int8)             # 1 true, -1 false, 0 unassigned
    trail = np.zeros(n_vars + 1, np.int64)             # literals made true, in order
    st = np.zeros(3, np.int64)                         # trail length, propagated up to, conflict
    out = np.zeros(2, np.int64)
    for c in range(n_formula):                         # the formula's clauses first
        add_clause(lits, start, alive, head, after, assign, trail, st, c)
    for j in range(len(steps)):
        c = steps[j]
        if c < 0:                                      # a deletion
            c = -c - 1
            satisfied = False
            for q in range(start[c], start[c + 1]):
                if lit_value(assign, lits[q]) == 1:
                    satisfied = True
            if not satisfied:                          # (else it may be a reason: kept)
                alive[c] = 0
            continue
        if not is_rup(lits, start, alive, head, after, assign, trail, st, c):
            out[0] = NOT_RUP
            out[1] = j
            return out
        if start[c + 1] == start[c]:                   # the empty clause: refuted
            out[0] = ACCEPTED
            out[1] = j
            return out
        add_clause(lits, start, alive, head, after, assign, trail, st, c)
    out[0] = NO_EMPTY_CLAUSE
    out[1] = len(steps)
    return out


KERNEL_FUNCTIONS = (lit_index, lit_value, enqueue, propagate, add_clause, is_rup, run_proof)
"""The kernel, callees before callers (:func:`crewcheck.runtime.kernels.compile_kernel`)."""


def twin() -> SimpleNamespace:
    """The kernel as plain Python (the reference the tests compare the compiled one with)."""
    return kernels.twin(KERNEL_FUNCTIONS)


def compiled() -> SimpleNamespace:
    """The kernel compiled by numba (machine code cached on disk)."""
    return kernels.compile_kernel(KERNEL_FUNCTIONS, cache=True)


# -- reading a proof ------------------------------------------------------------------------
@dataclass(frozen=True)
class Proof:
    """A DRUP proof read into clauses: the lemmas and deletions, in order."""

    clauses: list[tuple[int, ...]]
    """Every clause of the proof, in order (literals as written)."""
    deleted: list[bool]
    """Whether each clause is a deletion (``d``) rather than a lemma."""
    lines: list[int]
    """The 1-based line of the file on which each clause ends."""


_COMMENT = re.compile(rb"^c[^\n]*$", re.M)


def read_proof(text: bytes, *, first_line: int = 1) -> Proof:
    """Read DRUP text (``c`` comment lines allowed); :class:`ProofError` if malformed.

    ``first_line`` is the file line ``text`` starts on (for messages).
    """
    clauses: list[tuple[int, ...]] = []
    deleted: list[bool] = []
    lines: list[int] = []
    body = _COMMENT.sub(b"", text)                     # comments out, line numbers kept
    clause: list[int] = []                             # literals of the clause being read
    deleting = False                                   # it started with "d"
    line = first_line
    for raw in body.split(b"\n"):
        for token in raw.split():
            if token == b"d":                          # "d" only opens a clause
                if clause or deleting:
                    raise ProofError(f"line {line}: 'd' in the middle of a clause")
                deleting = True
                continue
            try:
                lit = int(token)
            except ValueError:
                raise ProofError(f"line {line}: expected a literal, got {token[:20]!r}") from None
            if abs(lit) >= 2**31:
                raise ProofError(f"line {line}: literal {lit} out of range")
            if lit == 0:                               # 0 closes the clause
                clauses.append(tuple(clause))
                deleted.append(deleting)
                lines.append(line)
                clause = []
                deleting = False
            else:
                clause.append(lit)
        line += 1
    if clause or deleting:                             # a clause left open at the end
        raise ProofError(f"line {line - 1}: the last clause has no closing 0 (truncated file?)")
    return Proof(clauses, deleted, lines)


# -- checking -----------------------------------------------------------------------------
@dataclass(frozen=True)
class RupOutcome:
    """What :func:`check_proof` found."""

    accepted: bool
    message: str
    """One line: why the proof was accepted or rejected."""
    lemmas: int
    """Lemmas in the proof (the empty clause included)."""
    deletions: int
    checked: int
    """Steps checked before the verdict."""
    seconds: float
    line: int = 0
    """The line of the empty clause (accepted) or of the failing lemma; 0 if neither."""


def check_proof(formula: Sequence[Sequence[int]], proof: Proof, *, plain: bool = False) -> RupOutcome:
    """Whether ``proof`` refutes ``formula`` (a list of clauses), by forward RUP checking.

    ``plain=True`` runs the plain-Python twin of the kernel instead of the compiled one.
    """
    t0 = time.perf_counter()
    keys: dict[tuple[int, ...], list[int]] = {}        # clause literals -> ids a deletion may still take
    flat: list[int] = []                               # every clause's literals, one after the other
    start = [0]                                        # clause c is flat[start[c]:start[c + 1]]
    n_vars = 0                                         # the largest variable seen

    def store(clause: Sequence[int]) -> int:
        nonlocal n_vars
        unique = sorted(set(clause))                   # duplicate literals are one literal
        c = len(start) - 1
        flat.extend(unique)
        start.append(len(flat))
        keys.setdefault(tuple(unique), []).append(c)
        if unique:
            n_vars = max(n_vars, abs(unique[0]), abs(unique[-1]))
        return c

    for clause in formula:                             # the CNF: clauses 0 .. len(formula) - 1
        store(clause)
    formula_vars = n_vars
    steps: list[int] = []                              # the kernel's steps (see run_proof)
    step_line: list[int] = []                          # the line of each step, for messages
    lemmas = deletions = 0
    for clause, is_deletion, line in zip(proof.clauses, proof.deleted, proof.lines):
        if is_deletion:
            deletions += 1
            ids = keys.get(tuple(sorted(set(clause))))
            if ids:                                    # a deletion of no present clause is ignored
                steps.append(-ids.pop() - 1)
                step_line.append(line)
        else:                                          # a lemma: a new clause, added when checked
            lemmas += 1
            steps.append(store(clause))
            step_line.append(line)
    if n_vars > formula_vars + len(flat) - start[len(formula)]:
        # fresh variables are allowed, but not more than the proof has literals: the
        # kernel's arrays are as long as the largest variable
        return RupOutcome(False, f"variable {n_vars:,} of the proof is out of range (the CNF has "
                                 f"{formula_vars:,})", lemmas, deletions, 0, time.perf_counter() - t0)
    kernel = twin() if plain else compiled()
    array_type = np.int64
    status, step = (int(x) for x in kernel.run_proof(
        np.array(flat, array_type), np.array(start, array_type), np.array(steps, array_type),
        len(formula), n_vars))
    seconds = time.perf_counter() - t0
    if status == ACCEPTED:
        message = (f"the proof refutes the CNF: {lemmas:,} lemma(s) checked by unit propagation, "
                   f"the empty clause on line {step_line[step]}")
        return RupOutcome(True, message, lemmas, deletions, step + 1, seconds, step_line[step])
    if status == NOT_RUP:
        c = steps[step]
        shown = " ".join(map(str, flat[start[c]:start[c + 1]][:12]))
        more = " ..." if start[c + 1] - start[c] > 12 else ""
        message = f"the lemma on line {step_line[step]} ({shown}{more} 0) does not follow by unit propagation"
        return RupOutcome(False, message, lemmas, deletions, step + 1, seconds, step_line[step])
    return RupOutcome(False, "every lemma follows but the proof never derives the empty clause "
                             "(truncated?)", lemmas, deletions, len(steps), seconds)
