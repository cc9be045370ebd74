"""The clauses of the kinds that judge which tricks a seat wins
(:mod:`crewcheck.model.conditions.tricks`)."""

from __future__ import annotations

from collections.abc import Hashable

from crewcheck.model import conditions as C
from crewcheck.model.cards import iter_bits
from crewcheck.solvers.logic.condition_clauses.base import ConditionClauses, aux, broken, concrete_seat, count, false, memo_int
from crewcheck.solvers.logic.formula import Formula, Lit
from crewcheck.solvers.logic.position import Position, Variables


def wins_no_tricks(model: Formula, v: Variables, pos: Position, cond: C.WinsNoTricks, memo: Hashable,
                   j: int) -> None:
    # The seat wins no trick from here on.
    seat = concrete_seat(cond.seat)
    for t in pos.tricks:
        model.add_bool_and([-v.winner[(t, seat)]])


def wins_tricks(model: Formula, v: Variables, pos: Position, cond: C.WinsTricks, memo: Hashable, j: int) -> None:
    # The seat's tricks from here on, added to those already won, compare with the count.
    seat, done = concrete_seat(cond.seat), memo_int(memo)
    lits = [v.winner[(t, seat)] for t in pos.tricks]
    count(model, lits, cond.cmp, cond.count - done, j)


def wins_fewer_tricks_than(model: Formula, v: Variables, pos: Position, cond: C.WinsFewerTricksThan,
                           memo: Hashable, j: int) -> None:
    # The seat ends with fewer tricks than the other seat.
    assert isinstance(memo, tuple)
    a, b = int(memo[0]), int(memo[1])
    seat, other = concrete_seat(cond.seat), concrete_seat(cond.other)
    lits = [v.winner[(t, seat)] for t in pos.tricks] + [-v.winner[(t, other)] for t in pos.tricks]
    count(model, lits, "<=", len(pos.tricks) + b - a - 1, j)


def wins_as_many_tricks_as(model: Formula, v: Variables, pos: Position, cond: C.WinsAsManyTricksAs,
                           memo: Hashable, j: int) -> None:
    # a + sum(mine) == b + sum(theirs), i.e. sum(mine) + sum(not theirs) == T + b - a.
    if broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, tuple)
    a, b = int(memo[0]), int(memo[1])
    seat, other = concrete_seat(cond.seat), concrete_seat(cond.other)
    lits = [v.winner[(t, seat)] for t in pos.tricks] + [-v.winner[(t, other)] for t in pos.tricks]
    count(model, lits, "==", len(pos.tricks) + b - a, j)


def wins_more_than_the_rest(model: Formula, v: Variables, pos: Position, cond: C.WinsMoreThanTheRest,
                            memo: Hashable, j: int) -> None:
    # More than half of the game's tricks (pos.end: after a distress signal the game may be shorter).
    if broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, int)
    lits = [v.winner[(t, concrete_seat(cond.seat))] for t in pos.tricks]
    count(model, lits, ">=", pos.end // 2 + 1 - memo, j)


def wins_tricks_at(model: Formula, v: Variables, pos: Position, cond: C.WinsTricksAt, memo: Hashable,
                   j: int) -> None:
    # The seat wins the listed tricks (not with a trump, if so asked), and only those if ``only``.
    deck, trump = pos.instance.deck, pos.instance.trump_suit
    seat = concrete_seat(cond.seat)
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


def wins_no_tricks_at(model: Formula, v: Variables, pos: Position, cond: C.WinsNoTricksAt, memo: Hashable,
                      j: int) -> None:
    # The seat wins none of the listed tricks still to play.
    if broken(model, pos, cond, memo, j):
        return
    seat = concrete_seat(cond.seat)
    listed = {pos.end - 1 if x == "last" else int(x) - 1 for x in cond.tricks}
    for t in pos.tricks:
        if t in listed:
            model.add_bool_and([-v.winner[(t, seat)]])


def wins_consecutive_tricks(model: Formula, v: Variables, pos: Position, cond: C.WinsConsecutiveTricks,
                            memo: Hashable, j: int) -> None:
    # Tricks first-cur .. first-1 are the run in progress (won, from the memo); windows of
    # ``count`` (or ``count + 1``) tricks may start there.
    if broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, tuple)
    cur, best, runs = (int(x) for x in memo)
    seat = concrete_seat(cond.seat)
    first, end, n = pos.first, pos.end, cond.count
    w = {t: v.winner[(t, seat)] for t in pos.tricks}
    if cond.only:  # cmp "==": every trick the seat wins lies in one run of n
        if runs == 0:
            if n == 0:
                model.add_bool_and([-x for x in w.values()])
                return
            starts = []
            for s in range(first, end - n + 1):
                y = aux(model, j, "run", s)
                starts.append(y)
                model.add_bool_and([w[t] for t in range(s, s + n)], enforce=[y])
            if not starts:
                false(model, j)
                return
            model.add_exactly_one(starts)
            for t in pos.tricks:
                model.add_bool_or([aux(model, j, "run", s) for s in range(max(first, t - n + 1), min(t, end - n) + 1)],
                                  enforce=[w[t]])
        elif cur > 0:  # the run goes on to exactly n
            stop = first + n - cur
            if stop > end:
                false(model, j)
                return
            for t in pos.tricks:
                model.add_bool_and([w[t] if t < stop else -w[t]])
        else:  # the run is over: nothing more
            model.add_bool_and([-x for x in w.values()])
        return
    if cond.cmp in (">=", "==") and best < n:
        starts = []
        for s in range(first - cur, end - n + 1):
            y = aux(model, j, "run", s + cur)  # (offset: ids stay non-negative)
            starts.append(y)
            model.add_bool_and([w[t] for t in range(max(s, first), s + n)], enforce=[y])
        if not starts:
            false(model, j)
            return
        model.add_bool_or(starts)
    if cond.cmp in ("<=", "=="):
        for s in range(first - cur, end - n):
            window = [-w[t] for t in range(max(s, first), s + n + 1)]
            model.add_bool_or(window)


def balanced_tricks(model: Formula, v: Variables, pos: Position, cond: C.BalancedTricks, memo: Hashable,
                    j: int) -> None:
    """Nobody ``margin`` tricks ahead, after every trick. Margin 2 (the reference's
    rule) as rounds (:func:`_balanced_rounds`); any other margin as a unary counter of the
    tricks each seat wins from here (``ge[s][k]``: at least ``k``), both directions defined."""
    margin, start = cond.margin, memo
    assert isinstance(start, tuple)
    if margin == 2:
        _balanced_rounds(model, v, pos, start, j)
        return
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


def _balanced_rounds(model: Formula, v: Variables, pos: Position, start: tuple[int, ...], j: int) -> None:
    """Nobody 2 tricks ahead after any trick, exactly: the seats with the fewest tricks
    (every seat when all are level) win the next tricks, one each, as many tricks as
    they are; then every ``p`` tricks in a row go to ``p`` different seats (the last
    round, cut short by the end, to different seats). Each round: who is not in it wins
    none of its tricks, who is wins at most one, and of a whole round at least one.

    Why exactly: before a round the counts are ``m`` and ``m + 1``; a seat at ``m + 1``
    winning while one is still at ``m`` is 2 ahead, and so is a seat at ``m`` winning
    twice while another is still at ``m``; a round won as said keeps every count at
    ``m`` or ``m + 1`` and ends with all level."""
    p = pos.instance.players
    low = min(start)
    if max(start) - low >= 2:
        false(model, j)
        return
    behind = [s for s in range(p) if start[s] == low]
    tricks = list(pos.tricks)
    rounds = [(tricks[:len(behind)], behind)]
    rounds += [(tricks[b:b + p], list(range(p))) for b in range(len(behind), len(tricks), p)]
    for ts, seats in rounds:
        for s in range(p):
            wins = [v.winner[(t, s)] for t in ts]
            if s not in seats:
                for w in wins:
                    model.add_bool_and([-w])
                continue
            for i, a in enumerate(wins):
                for b in wins[i + 1:]:
                    model.add_bool_or([-a, -b])
            if len(ts) == len(seats):
                model.add_bool_or(wins)


CLAUSES: dict[str, ConditionClauses] = {
    "wins_no_tricks": wins_no_tricks,
    "wins_tricks": wins_tricks,
    "wins_fewer_tricks_than": wins_fewer_tricks_than,
    "wins_as_many_tricks_as": wins_as_many_tricks_as,
    "wins_more_than_the_rest": wins_more_than_the_rest,
    "wins_tricks_at": wins_tricks_at,
    "wins_no_tricks_at": wins_no_tricks_at,
    "wins_consecutive_tricks": wins_consecutive_tricks,
    "balanced_tricks": balanced_tricks,
}
"""The clauses of each kind of this module, by JSON name."""
