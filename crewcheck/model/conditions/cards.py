"""The kinds that judge the cards a seat wins, or where given cards fall.

=============================  =====  ===================================================
kind                           box    says
=============================  =====  ===================================================
``wins_no_cards``              L      the seat wins no card of a suit (of that value only)
``wins_all_cards``             L      the seat wins every card of a suit (played)
``wins_cards``                 D      the seat wins ``count`` cards of a suit and/or value
``compares_cards_won``         D      the seat's count of one suit against another suit's
``wins_all_cards_of_a_suit``   D      the seat wins every card of at least one suit
``wins_together``              L      the seat wins the given cards in one trick
``task_in_trick``              L      a card is played in a given trick
=============================  =====  ===================================================

(box: L the logbook, D *Mission Deep Sea*.)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from crewcheck.model.cards import CardIndex, Mask
from crewcheck.model.conditions.base import (
    BOOL, BROKEN, CARD, CARDS, CMP, COUNT, DEEP_SEA, HOLDS, OPEN, SEAT, SUIT, TRICK, VALUE, Condition, Judgement,
    SeatRef, Table, TrickRef, TrickView, compare, field_problems, register, seat_words, value_mask,
)

__all__ = [
    "WinsNoCards", "WinsAllCards", "WinsCards", "ComparesCardsWon", "WinsAllCardsOfASuit", "WinsTogether",
    "TaskInTrick",
]


class _CardsWonBy(Condition):
    """Shared by the two kinds about the cards of a suit that a seat wins."""

    def target(self, inst: Table) -> Mask:
        raise NotImplementedError

    def start(self, inst: Table) -> Hashable:
        return False


@register("wins_no_cards")
@dataclass(frozen=True)
class WinsNoCards(_CardsWonBy):
    """``seat`` wins no card of ``suit`` (of that ``value`` only, if given)."""

    seat: SeatRef
    suit: str
    value: int | None = None
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "suit": SUIT, "value": VALUE}

    def target(self, inst: Table) -> Mask:
        s = inst.deck.suit_index(self.suit)
        m = inst.deck.suit_mask(s)
        if self.value is not None:
            m &= value_mask(inst, self.value)
        return m

    def step(self, inst: Table, memo: bool, trick: TrickView) -> Hashable:
        return memo or (trick.winner == self.seat and trick.played & self.target(inst) != 0)

    def named(self, inst: Table) -> Mask:
        return 0 if self.value is None else self.target(inst)

    def judge(self, inst: Table, memo: bool, left: Mask, tricks_left: int) -> Judgement:
        if memo:
            return BROKEN
        return HOLDS if left & self.target(inst) == 0 or tricks_left == 0 else OPEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = super().problems(inst)
        if not out and self.value is not None and self.suit in inst.deck.suits and self.target(inst) == 0:
            out.append(("value", f"the deal has no card {self.suit}{self.value}"))
        return out

    def describe(self, inst: Table) -> str:
        what = f"{self.suit}{self.value}" if self.value is not None else f"{self.suit} card"
        return f"{seat_words(self.seat)} wins no {what}"


@register("wins_all_cards")
@dataclass(frozen=True)
class WinsAllCards(_CardsWonBy):
    """``seat`` wins every card of ``suit``; ``played_only``: every card of ``suit`` that
    is played (a card still in a hand after the last trick, as with three players, is no
    failure: Board Game Arena's reading of logbook mission 46)."""

    seat: SeatRef
    suit: str
    played_only: bool = False
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "suit": SUIT, "played_only": BOOL}

    def target(self, inst: Table) -> Mask:
        return inst.deck.suit_mask(inst.deck.suit_index(self.suit))

    def step(self, inst: Table, memo: bool, trick: TrickView) -> Hashable:
        return memo or (trick.winner != self.seat and trick.played & self.target(inst) != 0)

    def judge(self, inst: Table, memo: bool, left: Mask, tricks_left: int) -> Judgement:
        if memo:
            return BROKEN
        if left & self.target(inst) == 0:
            return HOLDS
        if tricks_left == 0:  # cards of the suit stay unplayed
            return HOLDS if self.played_only else BROKEN
        return OPEN

    def describe(self, inst: Table) -> str:
        extra = " that is played" if self.played_only else ""
        return f"{seat_words(self.seat)} wins every {self.suit} card{extra}"


@register("wins_cards", box=DEEP_SEA)
@dataclass(frozen=True)
class WinsCards(Condition):
    """``seat`` wins ``count`` cards (``cmp``: ``==``, ``>=`` or ``<=``) of ``suit``, of
    ``value``, or of both. A ``value`` without a ``suit`` counts the cards of that value
    that are no trump ("a number on a card means the colour cards").

    HOLDS when the count can no longer leave the range: with ``n`` won and ``r`` target
    cards still in hands (none once no trick is left), ``>=``: ``n >= count``; ``<=``:
    ``n + r <= count``; ``==``: ``n == n + r == count``.
    """

    seat: SeatRef
    count: int
    cmp: str = ">="
    suit: str | None = None
    value: int | None = None
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "count": COUNT, "cmp": CMP, "suit": SUIT, "value": VALUE}

    def target(self, inst: Table) -> Mask:
        deck = inst.deck
        m = 0
        for i, card in enumerate(deck.cards):
            if self.suit is not None and card.suit != self.suit:
                continue
            if self.value is not None and card.value != self.value:
                continue
            if self.suit is None and card.suit == inst.trump:
                continue
            m |= 1 << i
        return m

    def step(self, inst: Table, memo: int, trick: TrickView) -> Hashable:
        return memo + (trick.played & self.target(inst)).bit_count() if trick.winner == self.seat else memo

    def judge(self, inst: Table, memo: int, left: Mask, tricks_left: int) -> Judgement:
        lo = memo
        hi = memo + ((left & self.target(inst)).bit_count() if tricks_left else 0)
        n = self.count
        if self.cmp == ">=":
            return HOLDS if lo >= n else (BROKEN if hi < n else OPEN)
        if self.cmp == "<=":
            return HOLDS if hi <= n else (BROKEN if lo > n else OPEN)
        return HOLDS if lo == hi == n else (BROKEN if lo > n or hi < n else OPEN)

    def named(self, inst: Table) -> Mask:
        return 0 if self.value is None else self.target(inst)

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = field_problems(self, inst, skip=("count",))
        if self.suit is None and self.value is None:
            out.append(("suit", "give a suit, a value or both"))
        elif not out and self.target(inst) == 0:
            out.append(("value" if self.value is not None else "suit", "no such card is in the deal"))
        return out

    def describe(self, inst: Table) -> str:
        word = {"==": "exactly", ">=": "at least", "<=": "at most"}[self.cmp]
        if self.suit is not None and self.value is not None:
            what = f"{self.suit}{self.value}"
        elif self.suit is not None:
            what = f"{self.suit} card(s)"
        else:
            what = f"colour {self.value}(s)"
        return f"{seat_words(self.seat)} wins {word} {self.count} {what}"


@register("compares_cards_won", box=DEEP_SEA)
@dataclass(frozen=True)
class ComparesCardsWon(Condition):
    """At the end, ``seat``'s cards of ``suit`` (``a``) and of ``than_suit`` (``b``)
    satisfy ``a cmp b + margin`` and ``a >= at_least``.

    HOLDS once no trick is left, or no card of either suit is in hands, and the test
    passes.
    """

    seat: SeatRef
    suit: str
    than_suit: str
    cmp: str = ">="
    margin: int = 0
    at_least: int = 0
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "suit": SUIT, "than_suit": SUIT, "cmp": CMP,
                                           "margin": COUNT, "at_least": COUNT}

    def masks(self, inst: Table) -> tuple[Mask, Mask]:
        deck = inst.deck
        return deck.suit_mask(deck.suit_index(self.suit)), deck.suit_mask(deck.suit_index(self.than_suit))

    def start(self, inst: Table) -> Hashable:
        return (0, 0)

    def step(self, inst: Table, memo: tuple[int, int], trick: TrickView) -> Hashable:
        if trick.winner != self.seat:
            return memo
        a, b = self.masks(inst)
        return (memo[0] + (trick.played & a).bit_count(), memo[1] + (trick.played & b).bit_count())

    def test(self, a: int, b: int) -> bool:
        return compare(a, self.cmp, b + self.margin) and a >= self.at_least

    def judge(self, inst: Table, memo: tuple[int, int], left: Mask, tricks_left: int) -> Judgement:
        a, b = memo
        ma, mb = self.masks(inst)
        ra, rb = (left & ma).bit_count(), (left & mb).bit_count()
        if tricks_left == 0 or ra + rb == 0:
            return HOLDS if self.test(a, b) else BROKEN
        if a + ra < self.at_least:
            return BROKEN
        if self.cmp == ">=":
            return OPEN if a + ra >= b + self.margin else BROKEN
        if self.cmp == "<=":
            return OPEN if a <= b + rb + self.margin else BROKEN
        low, high = max(a, self.at_least, b + self.margin), min(a + ra, b + rb + self.margin)
        return OPEN if low <= high else BROKEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = field_problems(self, inst, skip=("margin", "at_least"))
        if self.suit == self.than_suit:
            out.append(("than_suit", "compare two different suits"))
        return out

    def describe(self, inst: Table) -> str:
        a, b, m = f"{self.suit} cards", f"{self.than_suit} cards", self.margin
        if m == 0:
            rel = {"==": "as many", ">=": "at least as many", "<=": "at most as many"}[self.cmp]
            said = f"{rel} {a} as {b}"
        elif m == 1 and self.cmp == ">=":
            said = f"more {a} than {b}"
        else:
            word = {"==": "exactly", ">=": "at least", "<=": "at most"}[self.cmp]
            said = f"{word} {m} more {a} than {b}"
        least = f", at least {self.at_least}" if self.at_least else ""
        return f"{seat_words(self.seat)} wins {said}{least}"


@register("wins_all_cards_of_a_suit", box=DEEP_SEA)
@dataclass(frozen=True)
class WinsAllCardsOfASuit(Condition):
    """``seat`` wins every card of at least one suit (the trump suit only if ``trump``).

    HOLDS once some such suit has no card left in hands and every card of it fell in a
    trick the seat won.
    """

    seat: SeatRef
    trump: bool = False
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "trump": BOOL}

    def suits(self, inst: Table) -> list[int]:
        return [u for u, name in enumerate(inst.deck.suits) if self.trump or name != inst.trump]

    def start(self, inst: Table) -> Hashable:
        return 0  # suits (bit u) a card of which another seat won

    def step(self, inst: Table, memo: int, trick: TrickView) -> Hashable:
        if trick.winner == self.seat:
            return memo
        for u in range(len(inst.deck.suits)):
            if trick.played & inst.deck.suit_mask(u):
                memo |= 1 << u
        return memo

    def judge(self, inst: Table, memo: int, left: Mask, tricks_left: int) -> Judgement:
        open_ = [u for u in self.suits(inst) if not memo >> u & 1]
        if any(left & inst.deck.suit_mask(u) == 0 for u in open_):
            return HOLDS
        return BROKEN if not open_ or tricks_left == 0 else OPEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = super().problems(inst)
        if not self.suits(inst):
            out.append(("trump", "the deal has no suit but the trump suit"))
        return out

    def describe(self, inst: Table) -> str:
        which = "suit" if self.trump else "suit that is no trump"
        return f"{seat_words(self.seat)} wins every card of some {which}"


@register("wins_together")
@dataclass(frozen=True)
class WinsTogether(Condition):
    """``seat`` wins all of ``cards`` in one trick."""

    seat: SeatRef
    cards: tuple[CardIndex, ...]
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "cards": CARDS}

    def start(self, inst: Table) -> Hashable:
        return OPEN

    def named(self, inst: Table) -> Mask:
        m = 0
        for c in self.cards:
            m |= 1 << c
        return m

    def step(self, inst: Table, memo: Judgement, trick: TrickView) -> Hashable:
        if memo is not OPEN:
            return memo
        want = 0
        for c in self.cards:
            want |= 1 << c
        got = trick.played & want
        if got == 0:
            return OPEN
        return HOLDS if got == want and trick.winner == self.seat else BROKEN

    def judge(self, inst: Table, memo: Judgement, left: Mask, tricks_left: int) -> Judgement:
        return BROKEN if memo is OPEN and tricks_left == 0 else memo

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = super().problems(inst)
        if len(self.cards) > inst.players:
            out.append(("cards", f"{len(self.cards)} cards cannot fall in one trick of {inst.players}"))
        seats = [inst.holder[c] for c in self.cards]
        if len(set(seats)) != len(seats):
            out.append(("cards", "two of these cards are in one hand, so they never fall in one trick"))
        return out

    def describe(self, inst: Table) -> str:
        names = " and ".join(str(inst.deck.card(c)) for c in self.cards)
        return f"{seat_words(self.seat)} wins {names}" + (" in one trick" if len(self.cards) > 1 else "")


@register("task_in_trick")
@dataclass(frozen=True)
class TaskInTrick(Condition):
    """``card`` is played in trick ``trick`` (a number from 1, or ``"last"``)."""

    card: CardIndex
    trick: TrickRef = "last"
    FIELDS: ClassVar[Mapping[str, str]] = {"card": CARD, "trick": TRICK}

    def start(self, inst: Table) -> Hashable:
        return OPEN

    def named(self, inst: Table) -> Mask:
        return 1 << self.card

    def step(self, inst: Table, memo: Judgement, trick: TrickView) -> Hashable:
        if memo is not OPEN:
            return memo
        target = trick.last if self.trick == "last" else trick.number == self.trick
        if trick.played >> self.card & 1:
            return HOLDS if target else BROKEN
        return BROKEN if target else OPEN

    def judge(self, inst: Table, memo: Judgement, left: Mask, tricks_left: int) -> Judgement:
        if memo is OPEN and tricks_left == 0:
            return BROKEN  # the card was never played
        return memo

    def describe(self, inst: Table) -> str:
        where = "the last trick" if self.trick == "last" else f"trick {self.trick}"
        return f"{inst.deck.card(self.card)} is played in {where}"
