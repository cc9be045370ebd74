"""The independent witness checker (the NP verifier of Reiber §6).

:func:`replay` re-plays a sequence of cards from the start of a deal and reports how
the game went. It shares the card model (:class:`Deck`, :class:`Card`) with the rest of
crewcheck but *not* the move generator: follow-suit, trick winners, task ownership and
the order tokens are re-derived here from the rules text, with cards compared by suit
name and value. A bug in :mod:`.rules` or :mod:`.state` therefore shows up as a
rejected witness instead of hiding in both.

Tokens are judged by building, trick by trick, the linear order of completed tasks
(absolute tokens at their numbered place, ``omega`` at the very end, relative tokens by
rank, untokened tasks in the gaps) and checking it against each token's definition.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from crewcheck.errors import IllegalPlayError
from crewcheck.model.cards import Card

if TYPE_CHECKING:
    from crewcheck.model.instance import Instance

__all__ = ["Termination", "Outcome", "Trick", "replay"]


class Termination(enum.Enum):
    """Why a game ended."""

    ALL_TASKS_DONE = "all tasks done"
    """Won: every task completed by its seat, tokens respected (see ``State._finish_trick``)."""
    TASK_FAILED = "task failed"
    """Lost: a task card was won by another seat (free assignment: by a seat whose quota
    was full)."""
    ORDER_VIOLATED = "order violated"
    """Lost: a task completed against its order token (:func:`rules.order_violation`)."""
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
    """Whether every task was completed."""
    termination: Termination | None
    """Why it ended; ``None`` when the game is still going."""
    failed_task: int | None = None
    """Index of the task that failed, for TASK_FAILED and ORDER_VIOLATED."""
    tricks: tuple[Trick, ...] = ()
    """The complete tricks (filled by :func:`replay`)."""

    def describe(self, instance: Instance) -> str:
        """One line such as ``"lost: task G7 (seat 1) failed"``."""
        if self.termination is None:
            return "not over"
        if self.won:
            return "won: all tasks done"
        if self.failed_task is not None:
            t = instance.tasks[self.failed_task]
            who = "" if t.seat is None else f" (seat {t.seat})"
            return f"lost: {self.termination.value} on task {instance.deck.card(t.card)}{who}"
        return f"lost: {self.termination.value}"


def replay(instance: Instance, plays: Sequence[int], assignment: Sequence[int] | None = None) -> Outcome:
    """Re-play ``plays`` (card indices from the first trick) and return the outcome.

    Parameters
    ----------
    instance
        The deal. Its ``history`` must be a prefix of ``plays``.
    plays
        Every card played, in order, from the first trick of the game.
    assignment
        Free assignment: the seat of each task; must match the draft counts.

    Raises
    ------
    IllegalPlayError
        A card not held by the seat on turn, a failure to follow suit, a play after the
        game ended, a history mismatch, or a bad assignment.
    """
    deck = instance.deck
    cards = deck.cards
    p = len(instance.hands)
    hands = [set(deck.cards_of(h)) for h in instance.hands]
    if tuple(plays[: len(instance.history)]) != instance.history:
        raise IllegalPlayError("the plays do not start with the deal's history")
    owner = _owners(instance, assignment)
    trump = instance.trump
    task_card = [cards[t.card] for t in instance.tasks]
    n_tasks = len(task_card)

    if instance.lead == "any":
        leader = -1
    elif instance.lead == "rocket":
        top = max((c for c in cards if c.suit == trump), key=lambda c: c.value)
        leader = next(s for s in range(p) if top in hands[s])
    else:
        leader = int(instance.lead)

    tricks: list[Trick] = []
    order: list[int] = []  # completed tasks in their linear order
    completed: set[int] = set()
    current: list[Card] = []
    if n_tasks == 0:
        if plays:
            raise IllegalPlayError("the game is won before any card is played (no tasks)")
        return Outcome(True, Termination.ALL_TASKS_DONE)
    for n, index in enumerate(plays):
        if type(index) is not int or not 0 <= index < len(cards):  # numpy ints pass; -1 must not wrap
            if isinstance(index, bool) or not hasattr(index, "__index__") or not 0 <= index.__index__() < len(cards):
                raise IllegalPlayError(f"play {n}: {index!r} is not a card index of this deal "
                                       f"(0..{len(cards) - 1})")
            index = index.__index__()
        card = cards[index]
        if leader == -1:
            leader = next(s for s in range(p) if card in hands[s])
        seat = (leader + len(current)) % p
        if card not in hands[seat]:
            raise IllegalPlayError(f"play {n}: {card} is not in the hand of seat {seat}")
        if current:
            led = current[0].suit
            if card.suit != led and any(c.suit == led for c in hands[seat]):
                raise IllegalPlayError(f"play {n}: seat {seat} must follow {led}, not play {card}")
        hands[seat].remove(card)
        current.append(card)
        if len(current) < p:
            continue
        trumps = [c for c in current if trump is not None and c.suit == trump]
        best = max(trumps or [c for c in current if c.suit == current[0].suit], key=lambda c: c.value)
        winner = (leader + current.index(best)) % p
        tricks.append(Trick(leader, tuple(deck.index(c) for c in current), winner))
        group = [i for i in range(n_tasks) if task_card[i] in current]
        end = _judge(instance, owner, group, winner, order, completed)
        current = []
        leader = winner
        if end is None and len(completed) == n_tasks:
            end = Outcome(True, Termination.ALL_TASKS_DONE)
        if end is None and any(not h for h in hands):
            end = Outcome(False, Termination.OUT_OF_CARDS)
        if end is not None:
            if n + 1 != len(plays):
                raise IllegalPlayError(f"play {n + 1}: the game ended with trick {len(tricks)}")
            return Outcome(end.won, end.termination, end.failed_task, tuple(tricks))
    return Outcome(False, None, None, tuple(tricks))


def _owners(instance: Instance, assignment: Sequence[int] | None) -> list[int]:
    p = len(instance.hands)
    if instance.rules.assignment == "fixed":
        return [int(t.seat) for t in instance.tasks]  # type: ignore[arg-type]
    if assignment is None or len(assignment) != len(instance.tasks):
        raise IllegalPlayError("free assignment: the witness must give one seat per task")
    start = 0
    if instance.lead == "rocket":
        top = max((c for c in instance.deck.cards if c.suit == instance.trump), key=lambda c: c.value)
        start = next(s for s in range(p) if top in instance.deck.cards_of(instance.hands[s]))
    elif instance.lead != "any":
        start = int(instance.lead)
    want = [len(range((s - start) % p, len(instance.tasks), p)) for s in range(p)]
    got = [sum(1 for a in assignment if a == s) for s in range(p)]
    if want != got:
        raise IllegalPlayError(f"free assignment: tasks per seat {got}, the draft gives {want}")
    return list(assignment)


def _kind_rank(token: str | None) -> tuple[str, int]:
    """("number", 3) for "3", ("arrow", 2) for ">>", ("omega", 0)."""
    assert token is not None
    if token.isdigit():
        return "number", int(token)
    return ("arrow", len(token)) if token.startswith(">") else ("omega", 0)


def _judge(instance: Instance, owner: list[int], group: list[int], winner: int,
           order: list[int], completed: set[int]) -> Outcome | None:
    """Record the tasks completed in one trick; return a losing outcome or ``None``."""
    for i in group:
        if owner[i] != winner:
            return Outcome(False, Termination.TASK_FAILED, i)
    if not group:
        return None
    tasks = instance.tasks
    total = len(tasks)
    start = len(order)
    slots: list[int | None] = [None] * len(group)
    rest: list[int] = []
    for i in group:
        tok = tasks[i].token
        if tok is not None and tok.isdigit():
            pos = int(tok) - 1 - start
            if not 0 <= pos < len(group) or slots[pos] is not None:
                return Outcome(False, Termination.ORDER_VIOLATED, i)
            slots[pos] = i
        elif tok == "omega":
            if start + len(group) != total or slots[-1] is not None:
                return Outcome(False, Termination.ORDER_VIOLATED, i)
            slots[-1] = i
        else:
            rest.append(i)
    rest.sort(key=lambda i: (tasks[i].token is None, len(tasks[i].token or "")))
    it = iter(rest)
    slots = [s if s is not None else next(it) for s in slots]
    order.extend(int(s) for s in slots)  # type: ignore[arg-type]
    completed.update(group)
    # every token against the order built so far
    for i, t in enumerate(tasks):
        tok = t.token
        if tok is None:
            continue
        if tok.isdigit():
            at = order.index(i) + 1 if i in completed else None
            if (at is not None and at != int(tok)) or (at is None and int(tok) <= len(order)):
                return Outcome(False, Termination.ORDER_VIOLATED, i)
        elif tok == "omega":
            if i in completed and len(order) != total:
                return Outcome(False, Termination.ORDER_VIOLATED, i)
        else:
            for j in completed:
                other = tasks[j].token
                if other and other.startswith(">") and len(other) > len(tok) and (
                    i not in completed or order.index(i) > order.index(j)
                ):
                    return Outcome(False, Termination.ORDER_VIOLATED, i)
    if instance.rules.order_rule == "strict":
        tokened = sorted((_kind_rank(tasks[i].token), i) for i in group if tasks[i].token is not None)
        for ((kind_a, rank_a), _), ((kind_b, rank_b), i) in zip(tokened, tokened[1:]):
            if kind_a != kind_b or kind_b == "omega" or rank_b != rank_a + 1:
                return Outcome(False, Termination.ORDER_VIOLATED, i)
    return None
