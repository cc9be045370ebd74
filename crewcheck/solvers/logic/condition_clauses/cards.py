"""The clauses of the kinds that judge the cards a seat wins, or where given cards fall
(:mod:`crewcheck.model.conditions.cards`)."""

from __future__ import annotations

from collections.abc import Hashable

from crewcheck.model import conditions as C
from crewcheck.model.cards import iter_bits
from crewcheck.solvers.logic.condition_clauses.base import ConditionClauses, aux, broken, concrete_seat, count, false, won
from crewcheck.solvers.logic.formula import Formula
from crewcheck.solvers.logic.position import Position, Variables


def cards_won_by(model: Formula, v: Variables, pos: Position, cond: C.WinsNoCards | C.WinsAllCards,
                 memo: Hashable, j: int) -> None:
    # wins_no_cards: the seat wins none of the target cards; wins_all_cards: all of them
    # (each is played by the last trick, in a trick the seat wins; with played_only, each
    # one that is played is played in a trick the seat wins).
    seat = concrete_seat(cond.seat)
    every = isinstance(cond, C.WinsAllCards)
    last = pos.end - 1
    for c in iter_bits(cond.target(pos.instance) & pos.cards):
        if isinstance(cond, C.WinsAllCards) and not cond.played_only:
            model.add_bool_or([v.done[(last, c)]])
        for t in pos.tricks:
            model.add_bool_or([v.winner[(t, seat)] if every else -v.winner[(t, seat)]],
                              enforce=[v.played_by(t, c)])


def wins_cards(model: Formula, v: Variables, pos: Position, cond: C.WinsCards, memo: Hashable, j: int) -> None:
    # The target cards the seat wins from here on, added to those won, compare with the count.
    if broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, int)
    lits = won(model, v, pos, concrete_seat(cond.seat), cond.target(pos.instance), j)
    count(model, lits, cond.cmp, cond.count - memo, j)


def compares_cards_won(model: Formula, v: Variables, pos: Position, cond: C.ComparesCardsWon, memo: Hashable,
                       j: int) -> None:
    # a + sum(A) cmp b + sum(B) + margin, i.e. sum(A) + sum(not B) cmp margin + b - a + |B|.
    if broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, tuple)
    a, b = int(memo[0]), int(memo[1])
    seat = concrete_seat(cond.seat)
    ma, mb = cond.masks(pos.instance)
    won_a = won(model, v, pos, seat, ma, j)
    won_b = won(model, v, pos, seat, mb, j)
    count(model, won_a + [-x for x in won_b], cond.cmp, cond.margin + b - a + len(won_b), j)
    count(model, won_a, ">=", cond.at_least - a, j)


def wins_all_cards_of_a_suit(model: Formula, v: Variables, pos: Position, cond: C.WinsAllCardsOfASuit,
                             memo: Hashable, j: int) -> None:
    # Some suit another seat won no card of so far, every card of which is played (by the
    # last trick) in a trick the seat wins.
    if broken(model, pos, cond, memo, j):
        return
    assert isinstance(memo, int)
    deck = pos.instance.deck
    seat = concrete_seat(cond.seat)
    last = pos.end - 1
    picks = []
    for u in cond.suits(pos.instance):
        if memo >> u & 1:
            continue
        z = aux(model, j, "suit", u)
        picks.append(z)
        for c in iter_bits(pos.cards & deck.suit_mask(u)):
            model.add_implication(z, v.done[(last, c)])
            for t in pos.tricks:
                model.add_bool_or([v.winner[(t, seat)]], enforce=[z, v.played_by(t, c)])
    model.add_bool_or(picks)


def wins_together(model: Formula, v: Variables, pos: Position, cond: C.WinsTogether, memo: Hashable,
                  j: int) -> None:
    # Some trick holds every one of the cards, and the seat wins it.
    seat = concrete_seat(cond.seat)
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


def task_in_trick(model: Formula, v: Variables, pos: Position, cond: C.TaskInTrick, memo: Hashable,
                  j: int) -> None:
    # The card is played in the given trick.
    target = pos.end - 1 if cond.trick == "last" else int(cond.trick) - 1
    if target < pos.first or not pos.cards >> cond.card & 1:
        false(model, j)
    else:
        model.add_bool_and([v.played_by(target, cond.card)])


CLAUSES: dict[str, ConditionClauses] = {
    "wins_no_cards": cards_won_by,
    "wins_all_cards": cards_won_by,
    "wins_cards": wins_cards,
    "compares_cards_won": compares_cards_won,
    "wins_all_cards_of_a_suit": wins_all_cards_of_a_suit,
    "wins_together": wins_together,
    "task_in_trick": task_in_trick,
}
"""The clauses of each kind of this module, by JSON name."""
