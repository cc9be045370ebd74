"""The rules engine: an immutable game state and the move that advances it.

:class:`State` is a frozen value. :meth:`State.apply` returns a new state; nothing
mutable crosses this API. The engine implements free assignment *lazily*: a task card
won by a seat that still has room in its quota becomes that seat's task. A winning line
under some assignment with the right counts is exactly a winning line of the lazy
engine, since every task is completed (and so assigned) in a win. The exhaustive oracle
does not rely on that argument: it enumerates assignments explicitly.
"""

from __future__ import annotations

import operator
from collections.abc import Hashable
from dataclasses import dataclass, field, replace

from crewcheck.errors import IllegalPlayError
from crewcheck.model.cards import CardIndex, CardSet, Mask
from crewcheck.model.conditions import BROKEN, HOLDS, TrickView
from crewcheck.model.deal import Deal, Seat
from crewcheck.model.outcome import Outcome, Termination
from crewcheck.model.rules import legal_plays, order_violation, trick_winner, uncovered

__all__ = ["State"]


def _card_index(card: object, size: int) -> int:
    """``card`` as a card index ``0..size-1`` (numpy ints too); :class:`IllegalPlayError`
    for anything else (a negative index must not wrap around, ``True`` is not card 1)."""
    if not isinstance(card, bool):
        try:
            index = operator.index(card)  # type: ignore[arg-type]
        except TypeError:
            index = -1
        if 0 <= index < size:
            return index
    raise IllegalPlayError(f"{card!r} is not a card index of this deal (0..{size - 1})")


@dataclass(frozen=True, slots=True)
class State:
    """A position: the cards left, whose lead, the trick so far, the tasks done."""

    instance: Deal = field(compare=False, hash=False, repr=False)
    """The deal this state belongs to."""
    hands: tuple[Mask, ...]
    """Cards still held, per seat."""
    leader: Seat | None
    """Leader of the current trick; ``None`` before a free first lead."""
    trick: tuple[CardIndex, ...]
    """Cards played to the current trick, leader first."""
    done: Mask
    """Completed tasks, as a bitmask over task indices."""
    owners: tuple[Seat, ...] | None
    """Free assignment only: the seat each task went to (``-1`` while open)."""
    tricks_played: int = 0
    """Complete tricks so far."""
    end: Outcome | None = None
    """The outcome once the game is over."""
    memos: tuple[Hashable, ...] = ()
    """Each condition's memo (:mod:`crewcheck.model.conditions`)."""

    @classmethod
    def initial(cls, instance: Deal) -> State:
        """The state before the first card. Conditions with a ``"choose"`` seat must have
        been expanded first (:mod:`crewcheck.model.variants`)."""
        if not all(c.is_concrete() for c in instance.conditions):
            raise ValueError("a deal with a 'choose' seat has no single state; expand its variants first")
        lazy = instance.rules.assignment != "fixed"
        memos = tuple(c.start(instance) for c in instance.conditions)
        state = cls(instance, instance.hands, instance.first_leader, (), 0,
                    (-1,) * len(instance.tasks) if lazy else None, memos=memos)
        left = 0
        for h in instance.hands:
            left |= h
        end = state._judge_conditions(memos, left, min(h.bit_count() for h in instance.hands), 0)
        return replace(state, end=end) if end is not None else state

    # -- queries --------------------------------------------------------------------
    @property
    def to_play(self) -> Seat | None:
        """Seat whose turn it is (``None``: any seat may lead the first trick)."""
        if self.leader is None:
            return None
        return (self.leader + len(self.trick)) % self.instance.players

    def is_terminal(self) -> bool:
        return self.end is not None

    def outcome(self) -> Outcome | None:
        """The outcome if the game is over, else ``None``."""
        return self.end

    def legal_mask(self) -> Mask:
        """Legal plays as a mask (empty when the game is over)."""
        if self.end is not None:
            return 0
        seat = self.to_play
        covers = self.instance.covered
        if seat is None:
            m = 0
            for h in self.hands:
                m |= uncovered(h, covers)
            return m
        return legal_plays(self.instance.deck, uncovered(self.hands[seat], covers), self.trick)

    def legal_plays(self) -> CardSet:
        return CardSet(self.instance.deck, self.legal_mask())

    def key(self) -> Hashable:
        """Everything the future depends on, for memo and transposition tables."""
        return (self.hands, self.leader, self.trick, self.done, self.owners, self.memos)

    def _judge_conditions(self, memos: tuple[Hashable, ...], left: Mask, tricks_left: int,
                          done: Mask) -> Outcome | None:
        """The end of the game the conditions call for, if any (tasks judged already)."""
        inst = self.instance
        holding = True
        for i, (cond, memo) in enumerate(zip(inst.conditions, memos)):
            j = cond.judge(inst, memo, left, tricks_left)
            if j is BROKEN:
                return Outcome(False, Termination.CONDITION_BROKEN, failed_condition=i)
            holding = holding and j is HOLDS
        if holding and done == (1 << len(inst.tasks)) - 1:
            return Outcome(True, Termination.ALL_TASKS_DONE)
        return None

    def _may_take(self, owners: tuple[Seat, ...], seat: Seat) -> bool:
        """Whether ``seat`` may take one more task (lazy assignment, every mode)."""
        inst = self.instance
        mode = inst.rules.assignment
        taken = sum(1 for o in owners if o == seat)
        if mode == "decision":
            return seat != inst.commander and all(o in (-1, seat) for o in owners)
        if mode == "distribution":
            k, p = len(inst.tasks), inst.players
            low, extra = divmod(k, p)
            if taken < low:
                return True
            at_top = sum(1 for s in range(p) if sum(1 for o in owners if o == s) > low)
            return extra > 0 and taken == low and at_top < extra
        counts = inst.task_counts or ()
        return taken < counts[seat]

    # -- the move -------------------------------------------------------------------
    def apply(self, card: CardIndex) -> State:
        """Play ``card``; raise :class:`IllegalPlayError` if the rules forbid it."""
        inst = self.instance
        if type(card) is not int or not 0 <= card < inst.deck.size:
            card = _card_index(card, inst.deck.size)
        name = str(inst.deck.card(card))
        if self.end is not None:
            raise IllegalPlayError(f"cannot play {name!r}: the game is over")
        seat = self.to_play
        if seat is None:
            seat = inst.holder[card]
        if not self.hands[seat] >> card & 1:
            raise IllegalPlayError(f"{name!r} is not in the hand of seat {seat}, whose turn it is")
        free = uncovered(self.hands[seat], inst.covered)
        if not free >> card & 1:
            above = next(str(inst.deck.card(h)) for c, h in inst.covered if c == card)
            raise IllegalPlayError(f"{name!r} lies under {above!r}, which seat {seat} has not played "
                                   "in an earlier trick")
        if not legal_plays(inst.deck, free, self.trick) >> card & 1:
            led = inst.deck.card(self.trick[0])
            raise IllegalPlayError(f"seat {seat} must follow suit {led.suit!r}, not play {name!r}")
        hands = list(self.hands)
        hands[seat] &= ~(1 << card)
        leader = seat if self.leader is None else self.leader
        trick = self.trick + (card,)
        if len(trick) < inst.players:
            return replace(self, hands=tuple(hands), leader=leader, trick=trick)
        return self._finish_trick(tuple(hands), leader, trick)

    def _finish_trick(self, hands: tuple[Mask, ...], leader: Seat, trick: tuple[CardIndex, ...]) -> State:
        inst = self.instance
        p = inst.players
        pos = trick_winner(inst.deck, inst.trump_suit, trick)
        winner = (leader + pos) % p
        played = 0
        for c in trick:
            played |= 1 << c
        group = 0
        owners = self.owners
        end: Outcome | None = None
        for i, task in enumerate(inst.tasks):
            if not played >> task.card & 1:
                continue
            group |= 1 << i
            if owners is None:
                if task.seat != winner and end is None:
                    end = Outcome(False, Termination.TASK_FAILED, i)
            else:
                if not self._may_take(owners, winner) and end is None:
                    end = Outcome(False, Termination.TASK_FAILED, i)
                owners = owners[:i] + (winner,) + owners[i + 1:]
        if end is None:
            bad = order_violation(inst.tasks, self.done, group, inst.rules.order_rule)
            if bad is not None:
                end = Outcome(False, Termination.ORDER_VIOLATED, bad)
        done = self.done | group
        memos = self.memos
        tricks_left = min(h.bit_count() for h in hands)
        if inst.conditions:
            view = TrickView(self.tricks_played + 1, trick, played, winner, trick[pos], tricks_left == 0)
            memos = tuple(c.step(inst, m, view) for c, m in zip(inst.conditions, memos))
        if end is None:
            left = 0
            if inst.conditions:  # only conditions look at the cards left
                for h in hands:
                    left |= h
            end = self._judge_conditions(memos, left, tricks_left, done)
        if end is None and tricks_left == 0:
            end = Outcome(False, Termination.OUT_OF_CARDS)
        return State(inst, hands, winner, (), done, owners, self.tricks_played + 1, end, memos)
