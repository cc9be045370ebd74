"""Special-rule conditions: what a mission asks besides "seat s wins card c".

A deal may carry conditions such as "seat 2 wins no trick" or "no trick is won with a
9" (the logbook's special missions, the task cards of *Mission Deep Sea*). Each kind is
one small frozen class here, judged on the game as played, trick by trick:

``start(instance)``
    the condition's *memo* before the first trick: a small hashable value (a count, a
    flag), so that positions with equal memos are equal for the search.
``step(instance, memo, trick)``
    the memo after one more complete trick (:class:`TrickView`).
``judge(instance, memo, left, tricks_left)``
    :data:`HOLDS` when it holds *whatever happens in the remaining tricks*,
    :data:`BROKEN` when it can no longer hold, else :data:`OPEN`. ``left`` is the mask
    of cards still in hands, ``tricks_left`` the number of tricks still to play. After
    the last trick a condition is never OPEN.

The game is lost as soon as a condition is BROKEN, and won once every task is done and
every condition HOLDS. A condition that can only be judged at the end (``wins_no_tricks``,
``balanced_tricks``, ...) keeps the game going to the last trick. Early HOLDS and
BROKEN are *sound* shortcuts (they never change whether a deal can be won, only where
a won game stops), and the replay checker (:mod:`.replay`) re-derives the same stopping
point from the rules text without this module.

Seats may be written ``"choose"``: the crew picks any seat other than the commander
(:mod:`.variants` expands such a deal into one concrete deal per choice). Deciders only
ever see concrete seats.

Adding a kind: a frozen dataclass subclassing :class:`Condition`, decorated with
``@register("kind_name")``, with ``FIELDS`` describing its JSON fields, ``start``,
``step``, ``judge``, ``describe`` and (if it has shape constraints) ``problems``; then
the same kind in :func:`crewcheck.model.replay._condition_holds`. The oracle supports it
at once; encoders opt in by listing the kind.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from crewcheck.model.cards import CardIndex, Deck, Mask
from crewcheck.model.condition_base import (
    BOOL, BROKEN, CARD, CARDS, CHOOSE, CHOOSE_ANY, CMP, CONDITION_KINDS, COUNT, HOLDS, OPEN, OPT_SEAT, SEAT, SUIT,
    TRICK, TRICKS, VALUE, Condition, Judgement, SeatRef, Table, TrickRef, TrickView, condition_from_json,
    TwoSeatTally, condition_to_json, is_choice, register,
)
from crewcheck.model import deepsea_conditions as _deepsea  # noqa: F401  (registers the Deep Sea kinds)

__all__ = [
    "Table", "Judgement", "OPEN", "HOLDS", "BROKEN", "TrickView", "Condition", "CONDITION_KINDS",
    "CHOOSE", "CHOOSE_ANY", "is_choice", "SeatRef", "TrickRef", "register", "condition_from_json", "condition_to_json",
    "WinsNoTricks", "WinsTricks", "WinsFewerTricksThan", "WinsNoCards", "WinsAllCards",
    "TrickWonWith", "NoTrickWonWith", "EachTrumpWinsATrick", "WinsTricksAt",
    "BalancedTricks", "TaskInTrick", "WinsTogether", "Undecided",
]


def _seat(s: SeatRef) -> str:
    if s == CHOOSE:
        return "the chosen crew member"
    return f"the seat chosen as {str(s)[len(CHOOSE_ANY):]!r}" if is_choice(s) else f"seat {s}"


def _value_mask(inst: Table, value: int, trumps: bool = True) -> Mask:
    """The cards of ``value`` (trumps too unless ``trumps`` is false), once per deck."""
    return _cards_of_value(inst.deck, inst.trump, value, trumps)


@lru_cache(maxsize=256)
def _cards_of_value(deck: Deck, trump: str | None, value: int, trumps: bool) -> Mask:
    m = 0
    for i, card in enumerate(deck.cards):
        if card.value == value and (trumps or card.suit != trump):
            m |= 1 << i
    return m


# ---------------------------------------------------------------------------------------
# The kinds
# ---------------------------------------------------------------------------------------

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
        return f"{_seat(self.seat)} wins no trick"


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
        return f"{_seat(self.seat)} wins {word} {self.count} trick(s)"


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
        return f"{_seat(self.seat)} wins fewer tricks than {_seat(self.other)}"


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
            m &= _value_mask(inst, self.value)
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
        return f"{_seat(self.seat)} wins no {what}"


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
        return f"{_seat(self.seat)} wins every {self.suit} card{extra}"


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
        if not _value_mask(inst, self.value, self.trump) >> trick.winning & 1:
            return memo
        return memo + (self.seat is None or trick.winner == self.seat)

    def named(self, inst: Table) -> Mask:
        return _value_mask(inst, self.value)

    def judge(self, inst: Table, memo: int, left: Mask, tricks_left: int) -> Judgement:
        if memo >= self.count:
            return HOLDS
        more = min(tricks_left, (left & _value_mask(inst, self.value, self.trump)).bit_count())
        return BROKEN if memo + more < self.count else OPEN

    def problems(self, inst: Table) -> list[tuple[str, str]]:
        out = super().problems(inst)
        if not out and _value_mask(inst, self.value, self.trump) == 0:
            out.append(("value", f"no card of value {self.value} that is no trump is in the deal"))
        return out

    def describe(self, inst: Table) -> str:
        who = "" if self.seat is None else f" by {_seat(self.seat)}"
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
        return _value_mask(inst, self.value)

    def judge(self, inst: Table, memo: bool, left: Mask, tricks_left: int) -> Judgement:
        if memo:
            return BROKEN
        return HOLDS if left & _value_mask(inst, self.value) == 0 or tricks_left == 0 else OPEN

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
        return f"{_seat(self.seat)} wins {names}{extra}"


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
        return f"{_seat(self.seat)} wins {names}" + (" in one trick" if len(self.cards) > 1 else "")


class Undecided(Condition):
    """Stands in for a condition whose seat the crew has yet to choose, when only the
    rules of play matter (checking a history): it never ends the game before the last
    trick. Not a kind of the deal format."""

    kind = "undecided"

    def __init__(self, of: Condition) -> None:
        self.of = of

    def step(self, inst: Table, memo: Hashable, trick: TrickView) -> Hashable:
        return memo

    def judge(self, inst: Table, memo: Hashable, left: Mask, tricks_left: int) -> Judgement:
        return HOLDS if tricks_left == 0 else OPEN

    def describe(self, inst: Table) -> str:
        return self.of.describe(inst)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Undecided) and other.of == self.of

    def __hash__(self) -> int:
        return hash(("undecided", self.of))
