"""A third, naive DRUP checker for the tests: whole-formula passes of unit propagation,
no watched literals, no arrays. It follows the same rules as
:mod:`crewcheck.certificates.rup` (duplicate literals are one; a deletion removes the
latest present copy of the clause unless the clause has a literal true under the
top-level propagation; a deletion of no present clause is ignored) and shares no code
with it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def propagate(clauses: Iterable[Sequence[int]], assumed: Iterable[int]) -> set[int] | None:
    """The literals unit propagation makes true from ``assumed``; ``None`` on a conflict."""
    clauses = [list(c) for c in clauses]
    true: set[int] = set()
    for lit in assumed:
        if -lit in true:
            return None
        true.add(lit)
    changed = True
    while changed:
        changed = False
        for clause in clauses:
            if any(lit in true for lit in clause):
                continue
            open_ = [lit for lit in clause if -lit not in true]
            if not open_:
                return None
            if len(open_) == 1:
                true.add(open_[0])
                changed = True
    return true


def is_rup(clauses: Iterable[Sequence[int]], lemma: Sequence[int]) -> bool:
    """Whether ``lemma`` follows from ``clauses`` by unit propagation."""
    return propagate(clauses, [-lit for lit in set(lemma)]) is None


def check(formula: Sequence[Sequence[int]], steps: Sequence[tuple[bool, Sequence[int]]]) -> tuple[str, int]:
    """``("accepted", j)``, ``("not rup", j)`` or ``("no empty clause", len(steps))`` for
    a proof given as ``(is_deletion, clause)`` steps (``j``: the index of the step)."""
    clauses: list[tuple[int, ...]] = []
    alive: list[bool] = []
    deletable: dict[tuple[int, ...], list[int]] = {}

    def add(key: tuple[int, ...]) -> None:
        deletable.setdefault(key, []).append(len(clauses))
        clauses.append(key)
        alive.append(True)

    for clause in formula:
        add(tuple(sorted(set(clause))))
    for j, (is_deletion, clause) in enumerate(steps):
        key = tuple(sorted(set(clause)))
        present = [c for c, a in zip(clauses, alive) if a]
        if is_deletion:
            ids = deletable.get(key)
            if ids:
                i = ids.pop()
                top = propagate(present, [])
                if top is not None and not any(lit in top for lit in key):
                    alive[i] = False
            continue
        if not is_rup(present, key):
            return "not rup", j
        if not key:
            return "accepted", j
        add(key)
    return "no empty clause", len(steps)
