"""The special-rule conditions as clauses: one function per condition kind, found by kind
in :data:`CONDITION_CLAUSES` (the kinds listed there are the ones the logic back-ends and
the engine accept).

Each condition is encoded over the tricks left, from its memo after the history
(:mod:`crewcheck.model.conditions`). Every trick is played, as for the tasks: a
condition that holds early holds whatever follows (the engine's HOLDS is sound), and
one that breaks early is false at the end, so judging the full game is exact.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from crewcheck.model import conditions as C
from crewcheck.model.cards import iter_bits
from crewcheck.model.conditions import HOLDS
from crewcheck.model.instance import Seat
from crewcheck.solvers.logic.deepsea_clauses import DEEPSEA_CLAUSES
from crewcheck.solvers.logic.formula import Formula, Lit
from crewcheck.solvers.logic.position import Position, Variables

__all__ = ["ConditionClauses", "CONDITION_CLAUSES", "add_condition_constraints"]

ConditionClauses = Callable[[Formula, Variables, Position, Any, Hashable, int], None]
"""``clauses(model, v, pos, condition, memo, j)``: the clauses of condition ``j`` of the
deal, whose memo after the history is ``memo``."""


def add_condition_constraints(model: Formula, v: Variables, pos: Position) -> None:
    """Each condition of the deal that does not already hold, by its kind's clauses (all of
    them before a distress signal's passes: the condition is judged on the deal's own
    hands, whose trick count passes by a seat holding only trumps change)."""
    inst = pos.instance
    for j, (cond, memo) in enumerate(zip(inst.conditions, pos.memos)):
        if pos.passing is None and cond.judge(inst, memo, pos.cards, len(pos.tricks)) is HOLDS:
            continue
        CONDITION_CLAUSES[cond.kind](model, v, pos, cond, memo, j)


# -- helpers -------------------------------------------------------------------------
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


def _seat(s: object) -> Seat:
    assert isinstance(s, int), "choices are expanded before encoding"
    return s


def _int(memo: Hashable) -> int:
    assert isinstance(memo, int)
    return memo


def _why(j: int) -> str:
    return f"condition{j}"


# -- one function per kind -----------------------------------------------------------
def wins_no_tricks(model: Formula, v: Variables, pos: Position, cond: C.WinsNoTricks, memo: Hashable,
                   j: int) -> None:
    # The seat wins no trick from here on.
    seat = _seat(cond.seat)
    for t in pos.tricks:
        model.add_bool_and([-v.winner[(t, seat)]])


def wins_tricks(model: Formula, v: Variables, pos: Position, cond: C.WinsTricks, memo: Hashable, j: int) -> None:
    # The seat's tricks from here on, added to those already won, compare with the count.
    seat, done = _seat(cond.seat), _int(memo)
    lits = [v.winner[(t, seat)] for t in pos.tricks]
    if cond.cmp in ("==", "<="):
        _at_most(model, lits, cond.count - done, _why(j))
    if cond.cmp in ("==", ">="):
        _at_least(model, lits, cond.count - done, _why(j))


def wins_fewer_tricks_than(model: Formula, v: Variables, pos: Position, cond: C.WinsFewerTricksThan,
                           memo: Hashable, j: int) -> None:
    # The seat ends with fewer tricks than the other seat.
    assert isinstance(memo, tuple)
    a, b = int(memo[0]), int(memo[1])
    seat, other = _seat(cond.seat), _seat(cond.other)
    lits = [v.winner[(t, seat)] for t in pos.tricks] + [-v.winner[(t, other)] for t in pos.tricks]
    _at_most(model, lits, len(pos.tricks) + b - a - 1, _why(j))


def cards_won_by(model: Formula, v: Variables, pos: Position, cond: C.WinsNoCards | C.WinsAllCards,
                 memo: Hashable, j: int) -> None:
    # wins_no_cards: the seat wins none of the target cards; wins_all_cards: all of them
    # (each is played by the last trick, in a trick the seat wins; with played_only, each
    # one that is played is played in a trick the seat wins).
    seat = _seat(cond.seat)
    every = isinstance(cond, C.WinsAllCards)
    last = pos.end - 1
    for c in iter_bits(cond.target(pos.instance) & pos.cards):
        if isinstance(cond, C.WinsAllCards) and not cond.played_only:
            model.add_bool_or([v.done[(last, c)]])
        for t in pos.tricks:
            model.add_bool_or([v.winner[(t, seat)] if every else -v.winner[(t, seat)]],
                              enforce=[v.played_by(t, c)])


def no_trick_won_with(model: Formula, v: Variables, pos: Position, cond: C.NoTrickWonWith, memo: Hashable,
                      j: int) -> None:
    # No trick is won by one of the named cards.
    for t in pos.tricks:
        for c in iter_bits(cond.named(pos.instance) & pos.cards):
            model.add_bool_and([-v.win[(t, c)]])


def trick_won_with(model: Formula, v: Variables, pos: Position, cond: C.TrickWonWith, memo: Hashable,
                   j: int) -> None:
    # At least ``count`` tricks (less those already won so) are won by a named card (a
    # trump only if the kind allows), by the given seat if one is named.
    inst = pos.instance
    deck, trump = inst.deck, inst.trump_suit
    valued = [c for c in iter_bits(cond.named(inst) & pos.cards) if cond.trump or deck.suit_of(c) != trump]
    ys = []
    for t in pos.tricks:
        y = model.new_bool(("cond", j, t))
        model.add_bool_or([v.win[(t, c)] for c in valued], enforce=[y])
        if cond.seat is not None:
            model.add_implication(y, v.winner[(t, _seat(cond.seat))])
        ys.append(y)
    _at_least(model, ys, cond.count - _int(memo), _why(j))


def each_trump_wins_a_trick(model: Formula, v: Variables, pos: Position, cond: C.EachTrumpWinsATrick,
                            memo: Hashable, j: int) -> None:
    # Every trump still in play is played, and wins its trick; in order: lowest first.
    deck, trump = pos.instance.deck, pos.instance.trump_suit
    assert trump is not None
    last = pos.end - 1
    mine = list(iter_bits(pos.cards & deck.suit_mask(trump)))
    top = memo[1]  # type: ignore[index]
    if cond.in_order and mine and deck.card(mine[0]).value < top:
        _false(model, _why(j))
    for c in mine:
        model.add_bool_or([v.done[(last, c)]])
        for t in pos.tricks:
            model.add_implication(v.played_by(t, c), v.win[(t, c)])
    if cond.in_order:
        for a, b in zip(mine, mine[1:]):  # a lower trump before a higher one
            for t in pos.tricks:
                earlier = [v.done[(t - 1, a)]] if t > pos.first else []
                model.add_bool_or(earlier, enforce=[v.played_by(t, b)])


def wins_tricks_at(model: Formula, v: Variables, pos: Position, cond: C.WinsTricksAt, memo: Hashable,
                   j: int) -> None:
    # The seat wins the listed tricks (not with a trump, if so asked), and only those if ``only``.
    deck, trump = pos.instance.deck, pos.instance.trump_suit
    seat = _seat(cond.seat)
    last = pos.end - 1
    listed = {last if x == "last" else int(x) - 1 for x in cond.tricks}
    for t in pos.tricks:
        if t in listed:
            model.add_bool_and([v.winner[(t, seat)]])
            if cond.not_with_trump and trump is not None:
                for c in iter_bits(pos.cards & deck.suit_mask(trump)):
                    model.add_bool_and([-v.win[(t, c)]])
        elif cond.only:
            model.add_bool_and([-v.winner[(t, seat)]])


def balanced_tricks(model: Formula, v: Variables, pos: Position, cond: C.BalancedTricks, memo: Hashable,
                    j: int) -> None:
    """Nobody ``margin`` tricks ahead, after every trick: a unary counter of the tricks
    each seat wins from here (``ge[s][k]``: at least ``k``), both directions defined."""
    margin, start = cond.margin, memo
    assert isinstance(start, tuple)
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


def task_in_trick(model: Formula, v: Variables, pos: Position, cond: C.TaskInTrick, memo: Hashable,
                  j: int) -> None:
    # The card is played in the given trick.
    target = pos.end - 1 if cond.trick == "last" else int(cond.trick) - 1
    if target < pos.first or not pos.cards >> cond.card & 1:
        _false(model, _why(j))
    else:
        model.add_bool_and([v.played_by(target, cond.card)])


def wins_together(model: Formula, v: Variables, pos: Position, cond: C.WinsTogether, memo: Hashable,
                  j: int) -> None:
    # Some trick holds every one of the cards, and the seat wins it.
    seat = _seat(cond.seat)
    ys = []
    for t in pos.tricks:
        y = model.new_bool(("cond", j, t))
        for c in cond.cards:
            if pos.cards >> c & 1:
                model.add_implication(y, v.played_by(t, c))
            else:
                model.add_bool_and([-y])
        model.add_implication(y, v.winner[(t, seat)])
        ys.append(y)
    model.add_bool_or(ys)


CONDITION_CLAUSES: dict[str, ConditionClauses] = {
    "wins_no_tricks": wins_no_tricks,
    "wins_tricks": wins_tricks,
    "wins_fewer_tricks_than": wins_fewer_tricks_than,
    "wins_no_cards": cards_won_by,
    "wins_all_cards": cards_won_by,
    "trick_won_with": trick_won_with,
    "no_trick_won_with": no_trick_won_with,
    "each_trump_wins_a_trick": each_trump_wins_a_trick,
    "wins_tricks_at": wins_tricks_at,
    "balanced_tricks": balanced_tricks,
    "task_in_trick": task_in_trick,
    "wins_together": wins_together,
    **DEEPSEA_CLAUSES,
}
"""The clauses of each condition kind (:data:`crewcheck.model.conditions.CONDITION_KINDS`
names); a kind missing here is refused by the logic back-ends and the engine."""
