"""The kinds that judge which tricks a seat wins: how many (alone, against another seat,
against the rest), which ones by number, in a run, and how even the tallies stay.

=============================  =====  ===================================================
kind                           box    says
=============================  =====  ===================================================
``wins_no_tricks``             L      the seat wins no trick
``wins_tricks``                L      the seat wins ``count`` tricks (exactly, at least, at most)
``wins_fewer_tricks_than``     L      the seat wins fewer tricks than another seat
``wins_as_many_tricks_as``     D      the seat ends with as many tricks as another seat
``wins_more_than_the_rest``    D      the seat wins more tricks than all other seats together
``wins_tricks_at``             L      the seat wins the listed tricks (``only``: no other)
``wins_no_tricks_at``          D      the seat wins none of the listed tricks
``wins_consecutive_tricks``    D      the seat's longest run of tricks in a row
``balanced_tricks``            L      nobody is ever ``margin`` tricks ahead of another
=============================  =====  ===================================================

(box: L the logbook, D *Mission Deep Sea*; :func:`~.base.register` keeps it on the class.)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from crewcheck.model.cards import Mask
from crewcheck.model.conditions.base import (
    BOOL, BROKEN, CHOOSE, CMP, COUNT, DEEP_SEA, HOLDS, OPEN, SEAT, TRICKS, Condition, Judgement, SeatRef, Table,
    TrickRef, TrickView, compare, field_problems, is_choice, register, seat_words,
)

__all__ = [
    "TwoSeatTally", "WinsNoTricks", "WinsTricks", "WinsFewerTricksThan", "WinsAsManyTricksAs",
    "WinsMoreThanTheRest", "WinsTricksAt", "WinsNoTricksAt", "WinsConsecutiveTricks", "BalancedTricks",
]


@dataclass(frozen=True)
class TwoSeatTally(Condition):
    """A condition on the tricks won by ``seat`` and by ``other``: the memo is the pair
    of their counts so far (a kind adds ``judge`` and ``describe``)."""

    seat: SeatRef
    other: SeatRef
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "other": SEAT}

    def start(self, inst: Table) -> Hashable:
        return (0, 0)

    def step(self, inst: Table, memo: tuple[int, int], trick: TrickView) -> Hashable:
        return (memo[0] + (trick.winner == self.seat), memo[1] + (trick.winner == self.other))


@register("wins_no_tricks")
@dataclass(frozen=True)
class WinsNoTricks(Condition):
    """``seat`` wins no trick (judged at the end)."""

    seat: SeatRef
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT}

    def start(self, inst: Table) -> Hashable:
        return False

    def step(self, inst: Table, memo: bool, trick: TrickView) -> Hashable:
        return memo or trick.winner == self.seat

    def judge(self, inst: Table, memo: bool, left: Mask, tricks_left: int) -> Judgement:
        return BROKEN if memo else (HOLDS if tricks_left == 0 else OPEN)

    def describe(self, inst: Table) -> str:
        return f"{seat_words(self.seat)} wins no trick"


@register("wins_tricks")
@dataclass(frozen=True)
class WinsTricks(Condition):
    """``seat`` wins ``count`` tricks: exactly (``==``), at least or at most."""

    seat: SeatRef
    count: int
    cmp: str = "=="
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "count": COUNT, "cmp": CMP}

    def step(self, inst: Table, memo: int, trick: TrickView) -> Hashable:
        return memo + (trick.winner == self.seat)

    def judge(self, inst: Table, memo: int, left: Mask, tricks_left: int) -> Judgement:
        lo, hi, n = memo, memo + tricks_left, self.count  # the final count lies in lo..hi
        if self.cmp == ">=":
            return HOLDS if lo >= n else (BROKEN if hi < n else OPEN)
        if self.cmp == "<=":
            return HOLDS if hi <= n else (BROKEN if lo > n else OPEN)
        return HOLDS if lo == hi == n else (BROKEN if lo > n or hi < n else OPEN)

    def describe(self, inst: Table) -> str:
        word = {"==": "exactly", ">=": "at least", "<=": "at most"}[self.cmp]
        return f"{seat_words(self.seat)} wins {word} {self.count} trick(s)"


@register("wins_fewer_tricks_than")
@dataclass(frozen=True)
class WinsFewerTricksThan(TwoSeatTally):
    """``seat`` wins fewer tricks than ``other``."""

    def judge(self, inst: Table, memo: tuple[int, int], left: Mask, tricks_left: int) -> Judgement:
        a, b = memo
        if a + tricks_left < b:
            return HOLDS
        return BROKEN if a >= b + tricks_left else OPEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = super().problems(inst)
        if self.seat == self.other and not (self.seat == CHOOSE or is_choice(self.seat)):
            out.append(("other", "a seat cannot win fewer tricks than itself"))
        return out

    def describe(self, inst: Table) -> str:
        return f"{seat_words(self.seat)} wins fewer tricks than {seat_words(self.other)}"


@register("wins_as_many_tricks_as", box=DEEP_SEA)
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
        return f"{seat_words(self.seat)} wins as many tricks as {seat_words(self.other)}"


@register("wins_more_than_the_rest", box=DEEP_SEA)
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
        return f"{seat_words(self.seat)} wins more tricks than all other seats together"


@register("wins_tricks_at")
@dataclass(frozen=True)
class WinsTricksAt(Condition):
    """``seat`` wins the listed tricks (numbers from 1, or ``"last"``); ``only``: and no
    other; ``not_with_trump``: none of the listed tricks is won by a trump."""

    seat: SeatRef
    tricks: tuple[TrickRef, ...]
    only: bool = False
    not_with_trump: bool = False
    FIELDS: ClassVar[Mapping[str, str]] = {"seat": SEAT, "tricks": TRICKS, "only": BOOL,
                                           "not_with_trump": BOOL}

    def start(self, inst: Table) -> Hashable:
        return False

    def _listed(self, number: int, last: bool) -> bool:
        return number in self.tricks or (last and "last" in self.tricks)

    def step(self, inst: Table, memo: bool, trick: TrickView) -> Hashable:
        if memo:
            return True
        if self._listed(trick.number, trick.last):
            if trick.winner != self.seat:
                return True
            return self.not_with_trump and inst.deck.suit_of(trick.winning) == inst.trump_suit
        return self.only and trick.winner == self.seat

    def judge(self, inst: Table, memo: bool, left: Mask, tricks_left: int) -> Judgement:
        if memo:
            return BROKEN
        if tricks_left == 0:
            return HOLDS
        if self.only or "last" in self.tricks:
            return OPEN
        played = inst.tricks - tricks_left
        return HOLDS if all(t <= played for t in self.tricks) else OPEN  # type: ignore[operator]

    def describe(self, inst: Table) -> str:
        numbers = [str(t) for t in self.tricks if t != "last"]
        names = (("trick " if len(numbers) == 1 else "tricks ") + ", ".join(numbers)) if numbers else ""
        if "last" in self.tricks:
            names = f"{names} and the last trick" if names else "the last trick"
        extra = (" and no other" if self.only else "") + (", none with a trump" if self.not_with_trump else "")
        return f"{seat_words(self.seat)} wins {names}{extra}"


@register("wins_no_tricks_at", box=DEEP_SEA)
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
        return f"{seat_words(self.seat)} wins none of trick(s) {', '.join(str(t) for t in self.tricks)}"


@register("wins_consecutive_tricks", box=DEEP_SEA)
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
        return compare(best, self.cmp, self.count) and (not self.only or runs <= 1)

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
        out = field_problems(self, inst)
        if self.only and self.cmp != "==":
            out.append(("only", "'only' goes with cmp '=='"))
        return out

    def describe(self, inst: Table) -> str:
        word = {"==": "exactly", ">=": "at least", "<=": "at most"}[self.cmp]
        extra = " and no other trick" if self.only else ""
        return f"{seat_words(self.seat)} wins {word} {self.count} trick(s) in a row (longest run){extra}"


@register("balanced_tricks")
@dataclass(frozen=True)
class BalancedTricks(Condition):
    """Nobody is ever ``margin`` tricks ahead of another seat."""

    margin: int = 2
    FIELDS: ClassVar[Mapping[str, str]] = {"margin": COUNT}

    def start(self, inst: Table) -> Hashable:
        return (0,) * inst.players

    def step(self, inst: Table, memo: tuple[int, ...], trick: TrickView) -> Hashable:
        return memo[:trick.winner] + (memo[trick.winner] + 1,) + memo[trick.winner + 1:]

    def judge(self, inst: Table, memo: tuple[int, ...], left: Mask, tricks_left: int) -> Judgement:
        if max(memo) - min(memo) >= self.margin:
            return BROKEN
        return HOLDS if tricks_left == 0 else OPEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        return [("margin", "must be at least 1")] if self.margin < 1 else []

    def describe(self, inst: Table) -> str:
        return f"nobody ever {self.margin} tricks ahead of another"
