"""What the clauses of every condition kind share: a false clause, a count against a
bound, the seat of a concrete deal, the memo as an int, auxiliary variables, the check
that the memo already breaks a condition, and "the seat wins this card here"."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from crewcheck.model.cards import Mask, iter_bits
from crewcheck.model.conditions import BROKEN
from crewcheck.model.instance import Seat
from crewcheck.solvers.logic.formula import Formula, Lit
from crewcheck.solvers.logic.position import Position, Variables

__all__ = ["ConditionClauses", "false", "count", "concrete_seat", "memo_int", "aux", "broken", "won"]

ConditionClauses = Callable[[Formula, Variables, Position, Any, Hashable, int], None]
"""``clauses(model, v, pos, condition, memo, j)``: the clauses of condition ``j`` of the
deal, whose memo after the history is ``memo``."""


def false(model: Formula, j: int) -> None:
    """Condition ``j`` cannot hold: a variable and its negation, both asserted."""
    x = model.new_bool(("false", f"condition{j}"))
    model.add_bool_or([x])
    model.add_bool_or([-x])


def count(model: Formula, lits: list[Lit], cmp: str, k: int, j: int) -> None:
    """``sum(lits) cmp k`` (``cmp``: ``==``, ``>=``, ``<=``), false when no count can."""
    if cmp in ("==", "<="):
        if k < 0:
            false(model, j)
        elif k < len(lits):
            model.add_at_most(lits, k)
    if cmp in ("==", ">="):
        if k > len(lits):
            false(model, j)
        elif k > 0:
            model.add_at_least(lits, k)


def concrete_seat(s: object) -> Seat:
    """A seat field of a concrete deal (the crew's choices are expanded before encoding)."""
    assert isinstance(s, int), "choices are expanded before encoding"
    return s


def memo_int(memo: Hashable) -> int:
    assert isinstance(memo, int)
    return memo


def aux(model: Formula, j: int, what: str, a: int, b: int = 0) -> Lit:
    """An auxiliary variable of condition ``j``, named ``cond{j}_{what}_{a}_{b}``."""
    return model.new_bool(("cond_aux", j, what, a, b))


def broken(model: Formula, pos: Position, cond: Any, memo: Hashable, j: int) -> bool:
    """Add a false clause and say so when the memo already breaks the condition (never
    before a distress signal's passes: the deal's own hands, and so its trick count, are
    not yet those of the game)."""
    if pos.passing is None and cond.judge(pos.instance, memo, pos.cards, len(pos.tricks)) is BROKEN:
        false(model, j)
        return True
    return False


def won(model: Formula, v: Variables, pos: Position, seat: Seat, cards: Mask, j: int) -> list[Lit]:
    """One literal per card of ``cards`` in hands: the seat wins it (the card is played,
    by the last trick, in a trick the seat wins). A card is played once, so a count of
    cards won counts these, one per card, not one per trick and card."""
    out = []
    last = pos.end - 1
    for c in iter_bits(cards & pos.cards):
        x = aux(model, j, "won", c)
        model.add_implication(x, v.done[(last, c)])
        for t in pos.tricks:
            w, pb = v.winner[(t, seat)], v.played_by(t, c)
            model.add_bool_or([w], enforce=[x, pb])
            model.add_bool_or([x], enforce=[pb, w])
        out.append(x)
    return out
