"""The clauses of the kinds that judge the card that wins a trick
(:mod:`crewcheck.model.conditions.winning_card`)."""

from __future__ import annotations

from collections.abc import Hashable

from crewcheck.model import conditions as C
from crewcheck.model.cards import iter_bits
from crewcheck.model.conditions import cards_mask
from crewcheck.solvers.logic.condition_clauses.base import ConditionClauses, aux, broken, concrete_seat, count, false, memo_int
from crewcheck.solvers.logic.formula import Formula
from crewcheck.solvers.logic.position import Position, Variables


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
            model.add_implication(y, v.winner[(t, concrete_seat(cond.seat))])
        ys.append(y)
    count(model, ys, ">=", cond.count - memo_int(memo), j)


def no_trick_won_with(model: Formula, v: Variables, pos: Position, cond: C.NoTrickWonWith, memo: Hashable,
                      j: int) -> None:
    # No trick is won by one of the named cards.
    for t in pos.tricks:
        for c in iter_bits(cond.named(pos.instance) & pos.cards):
            model.add_bool_and([-v.win[(t, c)]])


def each_trump_wins_a_trick(model: Formula, v: Variables, pos: Position, cond: C.EachTrumpWinsATrick,
                            memo: Hashable, j: int) -> None:
    # Every trump still in play is played, and wins its trick; in order: lowest first.
    deck, trump = pos.instance.deck, pos.instance.trump_suit
    assert trump is not None
    last = pos.end - 1
    mine = list(iter_bits(pos.cards & deck.suit_mask(trump)))
    top = memo[1]  # type: ignore[index]
    if cond.in_order and mine and deck.card(mine[0]).value < top:
        false(model, j)
    for c in mine:
        model.add_bool_or([v.done[(last, c)]])
        for t in pos.tricks:
            model.add_implication(v.played_by(t, c), v.win[(t, c)])
    if cond.in_order:
        for a, b in zip(mine, mine[1:]):  # a lower trump before a higher one
            for t in pos.tricks:
                earlier = [v.done[(t - 1, a)]] if t > pos.first else []
                model.add_bool_or(earlier, enforce=[v.played_by(t, b)])


def wins_trick_where(model: Formula, v: Variables, pos: Position, cond: C.WinsTrickWhere, memo: Hashable,
                     j: int) -> None:
    # Some trick left is won by the seat and passes every test (y_t: "this is it").
    if broken(model, pos, cond, memo, j):
        return
    inst = pos.instance
    deck = inst.deck
    seat = concrete_seat(cond.seat)
    cards = pos.cards
    ys = []
    for t in pos.tricks:
        y = aux(model, j, "trick", t)
        ys.append(y)
        model.add_implication(y, v.winner[(t, seat)])
        if cond.won_with is not None:
            model.add_bool_or([v.win[(t, c)] for c in cond.won_with if cards >> c & 1], enforce=[y])
        if cond.holding is not None:
            beside = []
            for c in cond.holding:
                if cards >> c & 1:
                    z = aux(model, j, "beside", t, c)
                    model.add_implication(z, v.played_by(t, c))
                    model.add_bool_and([-v.win[(t, c)]], enforce=[z])
                    beside.append(z)
            model.add_bool_or(beside, enforce=[y])
        if cond.only is not None:
            allowed = cards_mask(cond.only)
            for c in iter_bits(cards & ~allowed):
                model.add_bool_and([-v.played_by(t, c)], enforce=[y])
        if cond.total_min is not None or cond.total_max is not None:
            # the trick's total in unary: units[s, k] = "seat s's card here is worth k or more"
            units = []
            for s in range(inst.players):
                hand = list(iter_bits(pos.hands[s]))
                for k in range(1, max((deck.card(c).value for c in hand), default=0) + 1):
                    e = aux(model, j, "value", t, s * 64 + k)
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


CLAUSES: dict[str, ConditionClauses] = {
    "trick_won_with": trick_won_with,
    "no_trick_won_with": no_trick_won_with,
    "each_trump_wins_a_trick": each_trump_wins_a_trick,
    "wins_trick_where": wins_trick_where,
}
"""The clauses of each kind of this module, by JSON name."""
