"""The kinds that judge who leads a trick, and with what.

=============================  =====  ===================================================
kind                           box    says
=============================  =====  ===================================================
``leads_no_cards``             D      the seat never leads a card of the suit
=============================  =====  ===================================================

(box: D *Mission Deep Sea*.)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from crewcheck.model.cards import Mask
from crewcheck.model.conditions.base import (
    BROKEN, DEEP_SEA, HOLDS, OPEN, SEAT, SUIT, Condition, Judgement, SeatRef, Table, TrickView, register, seat_words,
)

__all__ = [
    "LeadsNoCards",
]


@register("leads_no_cards", box=DEEP_SEA)
@dataclass(frozen=True)
class LeadsNoCards(Condition):
    """``seat`` never leads (opens a trick with) a card of ``suit``.

    HOLDS once no trick is left or no card of the suit is in hands.
    """

    seat: SeatRef
    suit: str
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "suit": SUIT}

    def start(self, inst: Table) -> Hashable:
        return False

    def step(self, inst: Table, memo: bool, trick: TrickView) -> Hashable:
        if memo:
            return True
        leader = (trick.winner - trick.cards.index(trick.winning)) % inst.players
        return leader == self.seat and inst.deck.card(trick.cards[0]).suit == self.suit

    def judge(self, inst: Table, memo: bool, left: Mask, tricks_left: int) -> Judgement:
        if memo:
            return BROKEN
        if tricks_left == 0 or left & inst.deck.suit_mask(inst.deck.suit_index(self.suit)) == 0:
            return HOLDS
        return OPEN

    def describe(self, inst: Table) -> str:
        return f"{seat_words(self.seat)} leads no {self.suit} card"
