"""Reiber §3 (Theorem 3.1): deciding β(1, _, _, _), one value per suit, in O(n²).

What it is
    Reiber's algorithm as stated. With k = 1 every suit has one card, so nobody can
    follow suit and the leader wins every trick: only the first leader can complete
    tasks. Return *false* if more than one seat owns tasks; *true* if there are no
    tasks; otherwise compare the largest number of task cards held by one player
    ("the maximum number of objective cards a single player has") with the smallest
    hand: winnable iff the difference is ≤ 0.
    The witness is the proof's line: the task owner leads every trick and each
    player gives one of their task cards per trick (any other card once they have none).
Rule features
    Reiber's model: no trumps, free first lead (``"lead": "any"``), hands of any size,
    the game ends when a hand is empty, fixed task seats, no order tokens, no history.
    Anything else is refused by ``supports()``.
Exact
    Claimed exact by the paper; checked against the exhaustive oracle (differential
    hypothesis test and every deal up to 5 cards, 3 seats and 3 tasks; 6 cards in the slow suite,
    ``tests/solvers/special/test_single_value.py``): no disagreement found.
Cost
    O(n + l) after reading the deal (the paper's O(n²) bound counts set operations).

References
----------
.. [1] F. Reiber, "The Crew: The Quest for Planet Nine is NP-complete", §3, Thm 3.1.
"""

from __future__ import annotations

from typing import ClassVar

from crewcheck.model.cards import iter_bits
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Answer, Budget, Verdict
from crewcheck.solvers.special.requirements import requires
from crewcheck.solvers.special.playout import sequence

__all__ = ["SingleValueSolver", "published_verdict"]

CONDITIONS = dict(history=False, assignment="fixed", trumps=False, tokens=False, values=1, lead=("any",))


def published_verdict(instance: Instance) -> bool:
    """Theorem 3.1's decision, exactly as the text states it."""
    owners = {t.seat for t in instance.tasks}
    if len(owners) > 1:
        return False
    if not instance.tasks:
        return True
    smallest = min(h.bit_count() for h in instance.hands)
    if smallest == 0:
        return False
    held = [0] * instance.players
    for t in instance.tasks:
        held[instance.holder[t.card]] += 1
    return max(held) - smallest <= 0


@requires(**CONDITIONS)
class SingleValueSolver:
    """Reiber §3: one value per suit; see the module docstring."""

    name: ClassVar[str] = "single_value"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        if not published_verdict(instance):
            return Answer(Verdict.UNWINNABLE, explanation=_why_not(instance))
        if not instance.tasks:
            return Answer(Verdict.WINNABLE, plays=())
        owner = instance.tasks[0].seat
        assert owner is not None
        task_cards = instance.task_mask
        need = [[c for c in iter_bits(instance.hands[s] & task_cards)] for s in range(instance.players)]
        spare = [[c for c in iter_bits(instance.hands[s] & ~task_cards)] for s in range(instance.players)]
        rounds = max(len(n) for n in need)
        tricks = []
        for _ in range(rounds):
            trick = {}
            for s in range(instance.players):
                trick[s] = need[s].pop() if need[s] else spare[s].pop()
            tricks.append(trick)
        return Answer(Verdict.WINNABLE, plays=sequence(instance, tricks, owner),
                      extra={"tricks": rounds})


def _why_not(instance: Instance) -> str:
    owners = sorted({t.seat for t in instance.tasks if t.seat is not None})
    if len(owners) > 1:
        return f"seats {owners} own tasks, but only the first leader can win a trick when k = 1"
    held = [0] * instance.players
    for t in instance.tasks:
        held[instance.holder[t.card]] += 1
    return (f"a player holds {max(held)} task cards but the smallest hand has "
            f"{min(h.bit_count() for h in instance.hands)} cards")
