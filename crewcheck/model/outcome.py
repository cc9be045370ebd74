"""How a game ends: :class:`Outcome`, :class:`Termination` and :class:`Trick`.

The result types shared by the rules engine (:mod:`.state`) and the independent witness
checker (:mod:`.replay`). Both depend on this module and neither on the other, so the
trust boundary between the engine and its checker stays a one-way street.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from crewcheck.model.deal import Deal

__all__ = ["Termination", "Outcome", "Trick"]


class Termination(enum.Enum):
    """Why a game ended."""

    ALL_TASKS_DONE = "all tasks done"
    """Won: every task completed by its seat, tokens respected, and every condition
    holds whatever happens next (see ``State._finish_trick``)."""
    TASK_FAILED = "task failed"
    """Lost: a task card was won by another seat (free assignment: by a seat whose quota
    was full)."""
    ORDER_VIOLATED = "order violated"
    """Lost: a task completed against its order token (:func:`rules.order_violation`)."""
    CONDITION_BROKEN = "condition broken"
    """Lost: a special-rule condition can no longer hold (:mod:`.conditions`)."""
    OUT_OF_CARDS = "out of cards"
    """Lost: a hand ran empty with tasks left."""


@dataclass(frozen=True, slots=True)
class Trick:
    """One complete trick: who led, the cards in play order, who won."""

    leader: int
    cards: tuple[int, ...]
    winner: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended (or that it has not)."""

    won: bool
    """Whether every task and condition was fulfilled."""
    termination: Termination | None
    """Why it ended; ``None`` when the game is still going."""
    failed_task: int | None = None
    """Index of the task that failed, for TASK_FAILED and ORDER_VIOLATED."""
    tricks: tuple[Trick, ...] = ()
    """The complete tricks (filled by :func:`replay`)."""
    failed_condition: int | None = None
    """Index of the condition that broke, for CONDITION_BROKEN."""

    def describe(self, instance: Deal) -> str:
        """One line such as ``"lost: task G7 (seat 1) failed"``."""
        if self.termination is None:
            return "not over"
        if self.won:
            if instance.conditions and not instance.tasks:
                return "won: every condition holds"
            return "won: all tasks done" + (", every condition holds" if instance.conditions else "")
        if self.failed_task is not None:
            t = instance.tasks[self.failed_task]
            who = "" if t.seat is None else f" (seat {t.seat})"
            return f"lost: {self.termination.value} on task {instance.deck.card(t.card)}{who}"
        if self.failed_condition is not None:
            c = instance.conditions[self.failed_condition]
            return f"lost: {self.termination.value}: {c.describe(instance)}"
        return f"lost: {self.termination.value}"
