"""The Deep Sea condition kinds (:mod:`crewcheck.model.deepsea_conditions`) as clauses:
one function per kind, collected in :data:`DEEPSEA_CLAUSES` and merged into
:data:`crewcheck.solvers.logic.condition_clauses.CONDITION_CLAUSES`.

As for the other kinds, every remaining trick is played and each condition is judged on
the whole game, from its memo after the history's complete tricks: a condition the
memo already breaks is false. Auxiliary variables are named ``cond{j}_{what}_{a}_{b}``
(condition ``j`` of the deal):

``won``
    ``won_t_c``: seat wins card ``c`` in trick ``t`` (``play`` of ``c`` and ``winner``);
``trick``
    ``trick_t_0``: trick ``t`` is the trick a ``wins_trick_where`` asks for;
``beside``
    ``beside_t_c``: ``c`` is in trick ``t`` and does not win it;
``value``
    ``value_{t}_{s*64+k}``: seat ``s``'s card in trick ``t`` is worth ``k`` or more (the
    trick's total is the number of these that are true: a cardinality constraint);
``run``
    ``run_s_0``: the run of tricks starts at trick ``s``;
``suit``
    ``suit_u_0``: the seat wins every card of suit ``u``.

Cost: ``O(T·n)`` variables and clauses per condition for ``n`` named cards and ``T``
tricks left, ``O(T·p·v)`` for a total (``v`` the highest value); runs ``O(T·count)``.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from crewcheck.model import deepsea_conditions as D
from crewcheck.model.cards import Mask, iter_bits
from crewcheck.model.conditions import BROKEN
from crewcheck.model.instance import Seat
from crewcheck.solvers.logic.formula import Formula, Lit
from crewcheck.solvers.logic.position import Position, Variables

__all__ = ["DEEPSEA_CLAUSES"]


def _false(model: Formula, j: int) -> None:
    x = model.new_bool(("false", f"condition{j}"))
    model.add_bool_or([x])
    model.add_bool_or([-x])


def _seat(s: object) -> Seat:
    assert isinstance(s, int), "choices are expanded before encoding"
    return s


def _var(model: Formula, j: int, what: str, a: int, b: int = 0) -> Lit:
    return model.new_bool(("dsea", j, what, a, b))


def _broken(model: Formula, pos: Position, cond: Any, memo: Hashable, j: int) -> bool:
    """Add a false clause and say so when the memo already breaks the condition (never
    before a distress signal's passes: the deal's own hands, and so its trick count, are
    not yet those of the game)."""
    if pos.passing is None and cond.judge(pos.instance, memo, pos.cards, len(pos.tricks)) is BROKEN:
        _false(model, j)
        return True
    return False


def _count(model: Formula, lits: list[Lit], cmp: str, k: int, j: int) -> None:
    """``sum(lits) cmp k``."""
    if cmp in ("==", "<="):
        if k < 0:
            _false(model, j)
        elif k < len(lits):
            model.add_at_most(lits, k)
    if cmp in ("==", ">="):
        if k > len(lits):
            _false(model, j)
        elif k > 0:
            model.add_at_least(lits, k)


def _won(model: Formula, v: Variables, pos: Position, seat: Seat, cards: Mask, j: int) -> list[Lit]:
    """One literal per (trick left, card of ``cards`` in hands): the seat wins it there."""
    out = []
    for t in pos.tricks:
        w = v.winner[(t, seat)]
        for c in iter_bits(cards & pos.cards):
            y = _var(model, j, "won", t, c)
            pb = v.played_by(t, c)
            model.add_implication(y, pb)
            model.add_implication(y, w)
            model.add_bool_or([y], enforce=[pb, w])
            out.append(y)
    return out


def wins_cards(model: Formula, v: Variables, pos: Position, cond: D.WinsCards, memo: Hashable, j: int) -> None:
    # The target cards the seat wins from here on, added to those won, compare with the count.
    if _broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, int)
    lits = _won(model, v, pos, _seat(cond.seat), cond.target(pos.instance), j)
    _count(model, lits, cond.cmp, cond.count - memo, j)


def compares_cards_won(model: Formula, v: Variables, pos: Position, cond: D.ComparesCardsWon, memo: Hashable,
                       j: int) -> None:
    # a + sum(A) cmp b + sum(B) + margin, i.e. sum(A) + sum(not B) cmp margin + b - a + |B|.
    if _broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, tuple)
    a, b = int(memo[0]), int(memo[1])
    seat = _seat(cond.seat)
    ma, mb = cond.masks(pos.instance)
    won_a = _won(model, v, pos, seat, ma, j)
    won_b = _won(model, v, pos, seat, mb, j)
    _count(model, won_a + [-x for x in won_b], cond.cmp, cond.margin + b - a + len(won_b), j)
    _count(model, won_a, ">=", cond.at_least - a, j)


def wins_trick_where(model: Formula, v: Variables, pos: Position, cond: D.WinsTrickWhere, memo: Hashable,
                     j: int) -> None:
    # Some trick left is won by the seat and passes every test (y_t: "this is it").
    if _broken(model, pos, cond, memo, j):
        return
    inst = pos.instance
    deck = inst.deck
    seat = _seat(cond.seat)
    cards = pos.cards
    ys = []
    for t in pos.tricks:
        y = _var(model, j, "trick", t)
        ys.append(y)
        model.add_implication(y, v.winner[(t, seat)])
        if cond.won_with is not None:
            model.add_bool_or([v.win[(t, c)] for c in cond.won_with if cards >> c & 1], enforce=[y])
        if cond.holding is not None:
            beside = []
            for c in cond.holding:
                if cards >> c & 1:
                    z = _var(model, j, "beside", t, c)
                    model.add_implication(z, v.played_by(t, c))
                    model.add_bool_and([-v.win[(t, c)]], enforce=[z])
                    beside.append(z)
            model.add_bool_or(beside, enforce=[y])
        if cond.only is not None:
            allowed = D._mask(cond.only)
            for c in iter_bits(cards & ~allowed):
                model.add_bool_and([-v.played_by(t, c)], enforce=[y])
        if cond.total_min is not None or cond.total_max is not None:
            # the trick's total in unary: units[s, k] = "seat s's card here is worth k or more"
            units = []
            for s in range(inst.players):
                hand = list(iter_bits(pos.hands[s]))
                for k in range(1, max((deck.card(c).value for c in hand), default=0) + 1):
                    e = _var(model, j, "value", t, s * 64 + k)
                    worth = [v.play[(t, s, c)] for c in hand if deck.card(c).value >= k]
                    model.add_bool_or(worth, enforce=[e])
                    for x in worth:
                        model.add_implication(x, e)
                    units.append(e)
            if cond.total_min is not None:
                model.add_at_least(units, cond.total_min, enforce=[y])
            if cond.total_max is not None:
                model.add_at_most(units, cond.total_max, enforce=[y])
        if cond.suit is not None and cond.other_suit is not None:
            sa = [v.played_by(t, c) for c in iter_bits(cards & deck.suit_mask(deck.suit_index(cond.suit)))]
            sb = [v.played_by(t, c) for c in iter_bits(cards & deck.suit_mask(deck.suit_index(cond.other_suit)))]
            model.add_at_least(sa, 1, enforce=[y])
            both = sa + [-x for x in sb]
            model.add_at_least(both, len(sb), enforce=[y])
            model.add_at_most(both, len(sb), enforce=[y])
    model.add_bool_or(ys)


def wins_consecutive_tricks(model: Formula, v: Variables, pos: Position, cond: D.WinsConsecutiveTricks,
                            memo: Hashable, j: int) -> None:
    # Tricks first-cur .. first-1 are the run in progress (won, from the memo); windows of
    # ``count`` (or ``count + 1``) tricks may start there.
    if _broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, tuple)
    cur, best, runs = (int(x) for x in memo)
    seat = _seat(cond.seat)
    first, end, n = pos.first, pos.end, cond.count
    w = {t: v.winner[(t, seat)] for t in pos.tricks}
    if cond.only:  # cmp "==": every trick the seat wins lies in one run of n
        if runs == 0:
            if n == 0:
                model.add_bool_and([-x for x in w.values()])
                return
            starts = []
            for s in range(first, end - n + 1):
                y = _var(model, j, "run", s)
                starts.append(y)
                model.add_bool_and([w[t] for t in range(s, s + n)], enforce=[y])
            if not starts:
                _false(model, j)
                return
            model.add_exactly_one(starts)
            for t in pos.tricks:
                model.add_bool_or([_var(model, j, "run", s) for s in range(max(first, t - n + 1), min(t, end - n) + 1)],
                                  enforce=[w[t]])
        elif cur > 0:  # the run goes on to exactly n
            stop = first + n - cur
            if stop > end:
                _false(model, j)
                return
            for t in pos.tricks:
                model.add_bool_and([w[t] if t < stop else -w[t]])
        else:  # the run is over: nothing more
            model.add_bool_and([-x for x in w.values()])
        return
    if cond.cmp in (">=", "==") and best < n:
        starts = []
        for s in range(first - cur, end - n + 1):
            y = _var(model, j, "run", s + cur)  # (offset: ids stay non-negative)
            starts.append(y)
            model.add_bool_and([w[t] for t in range(max(s, first), s + n)], enforce=[y])
        if not starts:
            _false(model, j)
            return
        model.add_bool_or(starts)
    if cond.cmp in ("<=", "=="):
        for s in range(first - cur, end - n):
            window = [-w[t] for t in range(max(s, first), s + n + 1)]
            model.add_bool_or(window)


def wins_no_tricks_at(model: Formula, v: Variables, pos: Position, cond: D.WinsNoTricksAt, memo: Hashable,
                      j: int) -> None:
    # The seat wins none of the listed tricks still to play.
    if _broken(model, pos, cond, memo, j):
        return
    seat = _seat(cond.seat)
    listed = {pos.end - 1 if x == "last" else int(x) - 1 for x in cond.tricks}
    for t in pos.tricks:
        if t in listed:
            model.add_bool_and([-v.winner[(t, seat)]])


def wins_as_many_tricks_as(model: Formula, v: Variables, pos: Position, cond: D.WinsAsManyTricksAs,
                           memo: Hashable, j: int) -> None:
    # a + sum(mine) == b + sum(theirs), i.e. sum(mine) + sum(not theirs) == T + b - a.
    if _broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, tuple)
    a, b = int(memo[0]), int(memo[1])
    seat, other = _seat(cond.seat), _seat(cond.other)
    lits = [v.winner[(t, seat)] for t in pos.tricks] + [-v.winner[(t, other)] for t in pos.tricks]
    _count(model, lits, "==", len(pos.tricks) + b - a, j)


def wins_more_than_the_rest(model: Formula, v: Variables, pos: Position, cond: D.WinsMoreThanTheRest,
                            memo: Hashable, j: int) -> None:
    # More than half of the game's tricks (pos.end: after a distress signal the game may be shorter).
    if _broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, int)
    lits = [v.winner[(t, _seat(cond.seat))] for t in pos.tricks]
    _count(model, lits, ">=", pos.end // 2 + 1 - memo, j)


def wins_all_cards_of_a_suit(model: Formula, v: Variables, pos: Position, cond: D.WinsAllCardsOfASuit,
                             memo: Hashable, j: int) -> None:
    # Some suit another seat won no card of so far, every card of which is played (by the
    # last trick) in a trick the seat wins.
    if _broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, int)
    deck = pos.instance.deck
    seat = _seat(cond.seat)
    last = pos.end - 1
    picks = []
    for u in cond.suits(pos.instance):
        if memo >> u & 1:
            continue
        z = _var(model, j, "suit", u)
        picks.append(z)
        for c in iter_bits(pos.cards & deck.suit_mask(u)):
            model.add_implication(z, v.done[(last, c)])
            for t in pos.tricks:
                model.add_bool_or([v.winner[(t, seat)]], enforce=[z, v.played_by(t, c)])
    model.add_bool_or(picks)


def leads_no_cards(model: Formula, v: Variables, pos: Position, cond: D.LeadsNoCards, memo: Hashable,
                   j: int) -> None:
    # The seat does not both lead a trick and play a card of the suit in it.
    if _broken(model, pos, cond, memo, j):
        return
    deck = pos.instance.deck
    seat = _seat(cond.seat)
    suit = deck.suit_mask(deck.suit_index(cond.suit))
    for t in pos.tricks:
        for c in iter_bits(pos.hands[seat] & suit):
            model.add_bool_or([-v.play[(t, seat, c)], -v.lead[(t, seat)]])


DEEPSEA_CLAUSES: dict[str, Any] = {
    "wins_cards": wins_cards,
    "compares_cards_won": compares_cards_won,
    "wins_trick_where": wins_trick_where,
    "wins_consecutive_tricks": wins_consecutive_tricks,
    "wins_no_tricks_at": wins_no_tricks_at,
    "wins_as_many_tricks_as": wins_as_many_tricks_as,
    "wins_more_than_the_rest": wins_more_than_the_rest,
    "wins_all_cards_of_a_suit": wins_all_cards_of_a_suit,
    "leads_no_cards": leads_no_cards,
}
"""The clauses of each kind of :data:`crewcheck.model.deepsea_conditions.DEEPSEA_KINDS`."""
