"""The clauses of the kinds that judge who leads a trick with what
(:mod:`crewcheck.model.conditions.leads`)."""

from __future__ import annotations

from collections.abc import Hashable

from crewcheck.model import conditions as C
from crewcheck.model.cards import iter_bits
from crewcheck.solvers.logic.condition_clauses.base import ConditionClauses, broken, concrete_seat
from crewcheck.solvers.logic.formula import Formula
from crewcheck.solvers.logic.position import Position, Variables


def leads_no_cards(model: Formula, v: Variables, pos: Position, cond: C.LeadsNoCards, memo: Hashable,
                   j: int) -> None:
    # The seat does not both lead a trick and play a card of the suit in it.
    if broken(model, pos, cond, memo, j):
        return
    deck = pos.instance.deck
    seat = concrete_seat(cond.seat)
    suit = deck.suit_mask(deck.suit_index(cond.suit))
    for t in pos.tricks:
        for c in iter_bits(pos.hands[seat] & suit):
            model.add_bool_or([-v.play[(t, seat, c)], -v.lead[(t, seat)]])


CLAUSES: dict[str, ConditionClauses] = {
    "leads_no_cards": leads_no_cards,
}
"""The clauses of each kind of this module, by JSON name."""
