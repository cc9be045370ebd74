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
from crewcheck.model.instance import Instance, Seat
from crewcheck.model.replay import Outcome, Termination
from crewcheck.model.rules import legal_plays, order_violation, trick_winner

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

    instance: Instance = field(compare=False, hash=False, repr=False)
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

    @classmethod
    def initial(cls, instance: Instance) -> State:
        free = instance.rules.assignment == "free"
        state = cls(instance, instance.hands, instance.first_leader, (), 0,
                    (-1,) * len(instance.tasks) if free else None)
        if not instance.tasks:
            state = replace(state, end=Outcome(True, Termination.ALL_TASKS_DONE))
        return state

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
        if seat is None:
            m = 0
            for h in self.hands:
                m |= h
            return m
        return legal_plays(self.instance.deck, self.hands[seat], self.trick)

    def legal_plays(self) -> CardSet:
        return CardSet(self.instance.deck, self.legal_mask())

    def key(self) -> Hashable:
        """Everything the future depends on, for memo and transposition tables."""
        return (self.hands, self.leader, self.trick, self.done, self.owners)

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
        if not legal_plays(inst.deck, self.hands[seat], self.trick) >> card & 1:
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
        winner = (leader + trick_winner(inst.deck, inst.trump_suit, trick)) % p
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
                counts = inst.task_counts or ()
                taken = sum(1 for o in owners if o == winner)
                if taken >= counts[winner] and end is None:
                    end = Outcome(False, Termination.TASK_FAILED, i)
                owners = owners[:i] + (winner,) + owners[i + 1:]
        if end is None:
            bad = order_violation(inst.tasks, self.done, group, inst.rules.order_rule)
            if bad is not None:
                end = Outcome(False, Termination.ORDER_VIOLATED, bad)
        done = self.done | group
        if end is None and done == (1 << len(inst.tasks)) - 1:
            end = Outcome(True, Termination.ALL_TASKS_DONE)
        if end is None and any(h == 0 for h in hands):
            end = Outcome(False, Termination.OUT_OF_CARDS)
        return State(inst, hands, winner, (), done, owners, self.tricks_played + 1, end)
