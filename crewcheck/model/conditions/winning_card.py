"""The kinds that judge the card that wins a trick (and what else the trick holds).

=============================  =====  ===================================================
kind                           box    says
=============================  =====  ===================================================
``trick_won_with``             L      at least ``count`` tricks are won by a card of a value
``no_trick_won_with``          L      no trick is won by a card of a value
``each_trump_wins_a_trick``    L      every trump wins a trick (``in_order``: lowest first)
``wins_trick_where``           D      the seat wins a trick whose cards pass tests (the
                                      winning card, a card beside it, only some cards, the
                                      total value, as many of two suits)
=============================  =====  ===================================================

(box: L the logbook, D *Mission Deep Sea*.)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from crewcheck.model.cards import CardIndex, Mask
from crewcheck.model.conditions.base import (
    BOOL, BROKEN, CARDS, COUNT, DEEP_SEA, HOLDS, OPEN, OPT_SEAT, SEAT, SUIT, VALUE, Condition, Judgement, SeatRef,
    Table, TrickView, cards_mask, field_problems, register, seat_words, value_mask,
)

__all__ = [
    "TrickWonWith", "NoTrickWonWith", "EachTrumpWinsATrick", "WinsTrickWhere",
]


@register("trick_won_with")
@dataclass(frozen=True)
class TrickWonWith(Condition):
    """At least ``count`` tricks are won by a card of ``value`` (by ``seat``, if given;
    ``trump=False``: trumps of that value do not count)."""

    value: int
    count: int = 1
    seat: SeatRef | None = None
    trump: bool = True
    FIELDS: ClassVar[Mapping[str, str]] = {"value": VALUE, "count": COUNT, "seat": OPT_SEAT, "trump": BOOL}

    def step(self, inst: Table, memo: int, trick: TrickView) -> Hashable:
        if not value_mask(inst, self.value, self.trump) >> trick.winning & 1:
            return memo
        return memo + (self.seat is None or trick.winner == self.seat)

    def named(self, inst: Table) -> Mask:
        return value_mask(inst, self.value)

    def judge(self, inst: Table, memo: int, left: Mask, tricks_left: int) -> Judgement:
        if memo >= self.count:
            return HOLDS
        more = min(tricks_left, (left & value_mask(inst, self.value, self.trump)).bit_count())
        return BROKEN if memo + more < self.count else OPEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = super().problems(inst)
        if not out and value_mask(inst, self.value, self.trump) == 0:
            out.append(("value", f"no card of value {self.value} that is no trump is in the deal"))
        return out

    def describe(self, inst: Table) -> str:
        who = "" if self.seat is None else f" by {seat_words(self.seat)}"
        kind = "" if self.trump else " (no trump)"
        return f"at least {self.count} trick(s) won{who} with a {self.value}{kind}"


@register("no_trick_won_with")
@dataclass(frozen=True)
class NoTrickWonWith(Condition):
    """No trick is won by a card of ``value``."""

    value: int
    FIELDS: ClassVar[Mapping[str, str]] = {"value": VALUE}

    def start(self, inst: Table) -> Hashable:
        return False

    def step(self, inst: Table, memo: bool, trick: TrickView) -> Hashable:
        return memo or inst.deck.card(trick.winning).value == self.value

    def named(self, inst: Table) -> Mask:
        return value_mask(inst, self.value)

    def judge(self, inst: Table, memo: bool, left: Mask, tricks_left: int) -> Judgement:
        if memo:
            return BROKEN
        return HOLDS if left & value_mask(inst, self.value) == 0 or tricks_left == 0 else OPEN

    def describe(self, inst: Table) -> str:
        return f"no trick won with a {self.value}"


@register("each_trump_wins_a_trick")
@dataclass(frozen=True)
class EachTrumpWinsATrick(Condition):
    """Every trump wins a trick, so a trick won by a trump holds no other trump
    (logbook mission 13); ``in_order``: from the lowest trump up."""

    in_order: bool = False
    FIELDS: ClassVar[Mapping[str, str]] = {"in_order": BOOL}

    def start(self, inst: Table) -> Hashable:
        return (False, 0)  # (broken, highest trump value won so far)

    def named(self, inst: Table) -> Mask:
        return 0 if inst.trump_suit is None else inst.deck.suit_mask(inst.trump_suit)

    def step(self, inst: Table, memo: tuple[bool, int], trick: TrickView) -> Hashable:
        broken, top = memo
        if broken or inst.trump_suit is None:
            return memo
        trumps = trick.played & inst.deck.suit_mask(inst.trump_suit)
        if not trumps:
            return memo
        if trumps != 1 << trick.winning:  # a trump played here does not win it
            return (True, top)
        value = inst.deck.card(trick.winning).value
        if self.in_order and value < top:
            return (True, top)
        return (False, max(top, value))

    def judge(self, inst: Table, memo: tuple[bool, int], left: Mask, tricks_left: int) -> Judgement:
        if memo[0]:
            return BROKEN
        assert inst.trump_suit is not None
        trumps_left = left & inst.deck.suit_mask(inst.trump_suit)
        if trumps_left == 0:
            return HOLDS
        if tricks_left < trumps_left.bit_count() or tricks_left == 0:
            return BROKEN
        if self.in_order:  # a lower trump still to come after a higher one won
            low = inst.deck.card((trumps_left & -trumps_left).bit_length() - 1).value
            if low < memo[1]:
                return BROKEN
        return OPEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        if inst.trump is None:
            return [("kind", "each_trump_wins_a_trick needs a trump suit; this deal has none")]
        return []

    def describe(self, inst: Table) -> str:
        return "each trump wins a trick" + (" in ascending order" if self.in_order else "")


def _names(inst: Table, cards: tuple[CardIndex, ...]) -> str:
    """A card set as "one card of it", in words where the values name it ("a colour card",
    "a colour 1, 3 or 5", "a 2 or 4 (trumps too)"), else by name ("P7", "one of R1 R2")."""
    deck, trump = inst.deck, inst.trump_suit
    chosen = set(cards)
    if not chosen:
        return "no card"
    values = sorted({deck.card(c).value for c in chosen})
    listed = ", ".join(str(v) for v in values[:-1]) + f" or {values[-1]}" if len(values) > 1 else str(values[0])
    every = {i for i in range(deck.size) if deck.card(i).value in values}
    colour = {i for i in every if deck.suit_of(i) != trump}
    if trump is not None and chosen == {i for i in range(deck.size) if deck.suit_of(i) == trump}:
        return "a trump"
    if trump is not None and chosen == colour and len(chosen) > 1:
        colours = {i for i in range(deck.size) if deck.suit_of(i) != trump}
        return "a colour card" if colour == colours else f"a colour {listed}"
    if chosen == every and len(chosen) > 1:
        return f"a {listed}" + (" (trumps too)" if colour != every else "")
    names = " ".join(str(deck.card(c)) for c in cards)
    return names if len(cards) == 1 else f"one of {names}"


@register("wins_trick_where", box=DEEP_SEA)
@dataclass(frozen=True)
class WinsTrickWhere(Condition):
    """``seat`` wins a trick that passes every test given: the winning card is one of
    ``won_with``; the trick holds one of ``holding`` besides the winning card; every card
    of the trick is one of ``only``; the values of its cards add up to ``total_min`` or
    more and ``total_max`` or less; it holds as many cards of ``suit`` as of
    ``other_suit``, at least one.

    HOLDS once such a trick was won (BROKEN when no trick is left, or no card of
    ``won_with`` is in hands).
    """

    seat: SeatRef
    won_with: tuple[CardIndex, ...] | None = None
    holding: tuple[CardIndex, ...] | None = None
    only: tuple[CardIndex, ...] | None = None
    total_min: int | None = None
    total_max: int | None = None
    suit: str | None = None
    other_suit: str | None = None
    FIELDS: ClassVar[Mapping[str, str]] = {
        "seat": SEAT, "won_with": CARDS, "holding": CARDS, "only": CARDS, "total_min": COUNT, "total_max": COUNT,
        "suit": SUIT, "other_suit": SUIT}

    def start(self, inst: Table) -> Hashable:
        return False

    def passes(self, inst: Table, trick: TrickView) -> bool:
        """Whether ``trick`` passes every test (whoever won it)."""
        deck = inst.deck
        if self.won_with is not None and not cards_mask(self.won_with) >> trick.winning & 1:
            return False
        if self.holding is not None and not trick.played & cards_mask(self.holding) & ~(1 << trick.winning):
            return False
        if self.only is not None and trick.played & ~cards_mask(self.only):
            return False
        if self.total_min is not None or self.total_max is not None:
            total = sum(deck.card(c).value for c in trick.cards)
            if (self.total_min is not None and total < self.total_min) or (
                    self.total_max is not None and total > self.total_max):
                return False
        if self.suit is not None and self.other_suit is not None:
            a = (trick.played & deck.suit_mask(deck.suit_index(self.suit))).bit_count()
            b = (trick.played & deck.suit_mask(deck.suit_index(self.other_suit))).bit_count()
            if a == 0 or a != b:
                return False
        return True

    def step(self, inst: Table, memo: bool, trick: TrickView) -> Hashable:
        return memo or (trick.winner == self.seat and self.passes(inst, trick))

    def judge(self, inst: Table, memo: bool, left: Mask, tricks_left: int) -> Judgement:
        if memo:
            return HOLDS
        if tricks_left == 0 or (self.won_with is not None and left & cards_mask(self.won_with) == 0):
            return BROKEN
        return OPEN

    def named(self, inst: Table) -> Mask:
        if self.total_min is not None or self.total_max is not None:
            return inst.deck.full_mask
        return cards_mask(self.won_with) | cards_mask(self.holding) | cards_mask(self.only)

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = field_problems(self, inst, skip=("total_min", "total_max"))
        if (self.suit is None) != (self.other_suit is None):
            out.append(("other_suit" if self.other_suit is None else "suit", "give both suits or neither"))
        elif self.suit is not None and self.suit == self.other_suit:
            out.append(("other_suit", "compare two different suits"))
        return out

    def describe(self, inst: Table) -> str:
        tests = []
        if self.won_with is not None:
            tests.append(f"won with {_names(inst, self.won_with)}")
        if self.holding is not None:
            tests.append(f"holding {_names(inst, self.holding)} besides")
        if self.only is not None:
            tests.append(f"whose cards are each {_names(inst, self.only)}")
        if self.total_min is not None:
            tests.append(f"total value at least {self.total_min}")
        if self.total_max is not None:
            tests.append(f"total value at most {self.total_max}")
        if self.suit is not None:
            tests.append(f"holding as many {self.suit} as {self.other_suit} cards (some)")
        return f"{seat_words(self.seat)} wins a trick " + ("; ".join(tests) or "(any)")
