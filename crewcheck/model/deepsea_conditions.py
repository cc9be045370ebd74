"""Condition kinds for the task cards of *Mission Deep Sea* that the older kinds cannot say.

Each kind is one small frozen class with the protocol of :mod:`crewcheck.model.conditions`
(``start`` / ``step`` / ``judge``, ``named``, ``problems``, ``describe``), registered in
:data:`~crewcheck.model.condition_base.CONDITION_KINDS` when this module is imported (as
:mod:`crewcheck.model.conditions` does). Each has two independent twins elsewhere: the
replay checker's judge (:mod:`crewcheck.model.deepsea_replay`, which shares no code with
this module) and the encoders' clauses (:mod:`crewcheck.solvers.logic.deepsea_clauses`).

=================================  ==========================================================
kind                               says
=================================  ==========================================================
``wins_cards``                     the seat wins ``count`` cards of a suit and/or value
                                   (exactly, at least or at most)
``compares_cards_won``             the seat's count of one suit against another suit's
``wins_trick_where``               the seat wins a trick whose cards pass tests (the winning
                                   card, a card beside it, only some cards, the total value,
                                   as many of two suits)
``wins_consecutive_tricks``        a run of tricks: at least / at most / exactly ``count``
                                   in a row, ``only``: and no other trick
``wins_no_tricks_at``              the seat wins none of the listed tricks
``wins_as_many_tricks_as``         the seat ends with as many tricks as another seat
``wins_more_than_the_rest``        the seat wins more tricks than all other seats together
``wins_all_cards_of_a_suit``       the seat wins every card of at least one suit
``leads_no_cards``                 the seat never leads a card of the suit
=================================  ==========================================================

*When a kind holds early.* The game stops once every task is done and every condition
HOLDS, so HOLDS must mean "holds whatever the rest of the game" and the replay checker
must find the same trick. Every kind here says HOLDS by a rule written in its docstring
and in the checker's judge in the same words (counts of cards still in hands, tricks
left), so the two stop at the same trick; BROKEN is only a sound shortcut.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from types import SimpleNamespace
from typing import ClassVar, cast

from crewcheck.model.cards import CardIndex, Mask
from crewcheck.model.condition_base import (
    BOOL, BROKEN, CARDS, CHOOSE, CHOOSE_ANY, CMP, COUNT, HOLDS, OPEN, SEAT, SUIT, TRICKS, VALUE, Condition,
    Judgement, SeatRef, Table, TrickRef, TrickView, TwoSeatTally, is_choice, register,
)

__all__ = [
    "DEEPSEA_KINDS", "WinsCards", "ComparesCardsWon", "WinsTrickWhere", "WinsConsecutiveTricks", "WinsNoTricksAt",
    "WinsAsManyTricksAs", "WinsMoreThanTheRest", "WinsAllCardsOfASuit", "LeadsNoCards",
]


def _seat(s: SeatRef) -> str:
    if s == CHOOSE:
        return "the chosen crew member"
    return f"the seat chosen as {str(s)[len(CHOOSE_ANY):]!r}" if is_choice(s) else f"seat {s}"


def _mask(cards: tuple[CardIndex, ...] | None) -> Mask:
    m = 0
    for c in cards or ():
        m |= 1 << c
    return m


def _checked(cond: Condition, inst: Table, skip: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The shared field checks (:meth:`Condition.problems`), leaving out fields at
    ``None`` and those in ``skip``."""
    kept = {f: t for f, t in cond.FIELDS.items() if f not in skip and getattr(cond, f) is not None}
    view = SimpleNamespace(FIELDS=kept, **{f: getattr(cond, f) for f in kept})
    return Condition.problems(cast(Condition, view), inst)


def _compare(n: int, cmp: str, count: int) -> bool:
    return n == count if cmp == "==" else n >= count if cmp == ">=" else n <= count


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


@register("wins_cards")
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
        out = _checked(self, inst, skip=("count",))
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
        return f"{_seat(self.seat)} wins {word} {self.count} {what}"


@register("compares_cards_won")
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
        return _compare(a, self.cmp, b + self.margin) and a >= self.at_least

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
        out = _checked(self, inst, skip=("margin", "at_least"))
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
        return f"{_seat(self.seat)} wins {said}{least}"


@register("wins_trick_where")
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
        if self.won_with is not None and not _mask(self.won_with) >> trick.winning & 1:
            return False
        if self.holding is not None and not trick.played & _mask(self.holding) & ~(1 << trick.winning):
            return False
        if self.only is not None and trick.played & ~_mask(self.only):
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
        if tricks_left == 0 or (self.won_with is not None and left & _mask(self.won_with) == 0):
            return BROKEN
        return OPEN

    def named(self, inst: Table) -> Mask:
        if self.total_min is not None or self.total_max is not None:
            return inst.deck.full_mask
        return _mask(self.won_with) | _mask(self.holding) | _mask(self.only)

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = _checked(self, inst, skip=("total_min", "total_max"))
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
        return f"{_seat(self.seat)} wins a trick " + ("; ".join(tests) or "(any)")


@register("wins_consecutive_tricks")
@dataclass(frozen=True)
class WinsConsecutiveTricks(Condition):
    """``seat``'s longest run of tricks won in a row is ``cmp`` ``count``; ``only`` (with
    ``==``): and it wins no trick outside that run.

    HOLDS, for ``>=`` without ``only``, once such a run was won; otherwise once no trick
    is left and the test passes.
    """

    seat: SeatRef
    count: int
    cmp: str = ">="
    only: bool = False
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "count": COUNT, "cmp": CMP, "only": BOOL}

    def start(self, inst: Table) -> Hashable:
        return (0, 0, 0)  # (current run, longest run, runs)

    def step(self, inst: Table, memo: tuple[int, int, int], trick: TrickView) -> Hashable:
        cur, best, runs = memo
        if trick.winner != self.seat:
            return (0, best, runs)
        return (cur + 1, max(best, cur + 1), runs + (cur == 0))

    def test(self, best: int, runs: int) -> bool:
        return _compare(best, self.cmp, self.count) and (not self.only or runs <= 1)

    def judge(self, inst: Table, memo: tuple[int, int, int], left: Mask, tricks_left: int) -> Judgement:
        cur, best, runs = memo
        if self.cmp == ">=" and not self.only and best >= self.count:
            return HOLDS
        if tricks_left == 0:
            return HOLDS if self.test(best, runs) else BROKEN
        if self.cmp != ">=" and best > self.count:
            return BROKEN
        if self.only and runs > 1:
            return BROKEN
        if self.cmp != "<=" and max(best, cur + tricks_left) < self.count:
            return BROKEN
        return OPEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = _checked(self, inst)
        if self.only and self.cmp != "==":
            out.append(("only", "'only' goes with cmp '=='"))
        return out

    def describe(self, inst: Table) -> str:
        word = {"==": "exactly", ">=": "at least", "<=": "at most"}[self.cmp]
        extra = " and no other trick" if self.only else ""
        return f"{_seat(self.seat)} wins {word} {self.count} trick(s) in a row (longest run){extra}"


@register("wins_no_tricks_at")
@dataclass(frozen=True)
class WinsNoTricksAt(Condition):
    """``seat`` wins none of the listed tricks (numbers from 1, or ``"last"``).

    HOLDS once every listed trick is played (``"last"``: once no trick is left).
    """

    seat: SeatRef
    tricks: tuple[TrickRef, ...]
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "tricks": TRICKS}

    def start(self, inst: Table) -> Hashable:
        return False

    def step(self, inst: Table, memo: bool, trick: TrickView) -> Hashable:
        listed = trick.number in self.tricks or (trick.last and "last" in self.tricks)
        return memo or (listed and trick.winner == self.seat)

    def judge(self, inst: Table, memo: bool, left: Mask, tricks_left: int) -> Judgement:
        if memo:
            return BROKEN
        played = inst.tricks - tricks_left
        if tricks_left == 0 or ("last" not in self.tricks and all(int(t) <= played for t in self.tricks)):
            return HOLDS
        return OPEN

    def describe(self, inst: Table) -> str:
        return f"{_seat(self.seat)} wins none of trick(s) {', '.join(str(t) for t in self.tricks)}"


@register("wins_as_many_tricks_as")
@dataclass(frozen=True)
class WinsAsManyTricksAs(TwoSeatTally):
    """``seat`` ends with as many tricks as ``other``. HOLDS only once no trick is left."""

    def judge(self, inst: Table, memo: tuple[int, int], left: Mask, tricks_left: int) -> Judgement:
        a, b = memo
        if tricks_left == 0:
            return HOLDS if a == b else BROKEN
        return BROKEN if abs(a - b) > tricks_left else OPEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = super().problems(inst)
        if self.seat == self.other and not is_choice(self.seat):
            out.append(("other", "a seat always wins as many tricks as itself"))
        return out

    def describe(self, inst: Table) -> str:
        return f"{_seat(self.seat)} wins as many tricks as {_seat(self.other)}"


@register("wins_more_than_the_rest")
@dataclass(frozen=True)
class WinsMoreThanTheRest(Condition):
    """``seat`` wins more tricks than all other seats together: more than half of the
    game's tricks. HOLDS once it has won more than half."""

    seat: SeatRef
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT}

    def step(self, inst: Table, memo: int, trick: TrickView) -> Hashable:
        return memo + (trick.winner == self.seat)

    def judge(self, inst: Table, memo: int, left: Mask, tricks_left: int) -> Judgement:
        if 2 * memo > inst.tricks:
            return HOLDS
        return BROKEN if 2 * (memo + tricks_left) <= inst.tricks else OPEN

    def describe(self, inst: Table) -> str:
        return f"{_seat(self.seat)} wins more tricks than all other seats together"


@register("wins_all_cards_of_a_suit")
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
        return f"{_seat(self.seat)} wins every card of some {which}"


@register("leads_no_cards")
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
        return f"{_seat(self.seat)} leads no {self.suit} card"


DEEPSEA_KINDS: tuple[str, ...] = (
    "wins_cards", "compares_cards_won", "wins_trick_where", "wins_consecutive_tricks", "wins_no_tricks_at",
    "wins_as_many_tricks_as", "wins_more_than_the_rest", "wins_all_cards_of_a_suit", "leads_no_cards",
)
"""The kinds of this module, by JSON name."""
