"""Reiber §4 (Theorem 4.1): deciding β(_, 1, _, O*), one suit and owned task cards.

What it is
    Reiber's greedy algorithm as stated. O* means every task card is held by the seat
    that owns the task, so a task is completed exactly when its card wins its trick and
    at most one task is completed per trick (Lemma 4.2: l tricks suffice). Repeatedly
    take an uncompleted task (we take them in the order of the deal's task list: the
    text says "select an objective", any one), let its owner play the task card, and
    let every other player play ``max{c in C_i : x_c < x_co and c not a task card}``,
    the highest non-task card below it (Lemma 4.3). If some player has no such card,
    return *false*; when every task is done, return *true*. The tricks played are the
    witness.
Rule features
    One suit, no trumps, fixed task seats, no order tokens, no history, hands of any
    size. Any first lead is accepted (a seat or ``"any"``): with one suit every card
    follows suit and the highest card wins, so who leads never changes a trick's
    winner; the witness simply starts from the given leader.
Exact
    Claimed exact by the paper; checked against the exhaustive oracle (hypothesis and
    every deal up to 6 cards and 3 seats, ``tests/solvers/special/test_single_suit_owned.py``).
Cost
    O(l · p · n) as implemented (a linear scan per predecessor query instead of the
    paper's fractional cascading; the paper claims O(np + n log n)).

References
----------
.. [1] F. Reiber, "The Crew: The Quest for Planet Nine is NP-complete", §4, Thm 4.1,
   Lemmas 4.2 and 4.3.
"""

from __future__ import annotations

from typing import ClassVar

from crewcheck.model.cards import CardIndex
from crewcheck.model.instance import Instance, Seat
from crewcheck.solvers.base import Answer, Budget, Verdict
from crewcheck.solvers.special.requirements import requires
from crewcheck.solvers.special.playout import sequence

__all__ = ["SingleSuitOwnedSolver", "published_play"]

CONDITIONS = dict(history=False, assignment="fixed", trumps=False, tokens=False, suits=1,
                  lead=("any", "seat"), owned=True)


def published_play(instance: Instance) -> tuple[bool, list[dict[Seat, CardIndex]], str | None]:
    """Run the §4 greedy: (verdict, tricks played, reason for *false*)."""
    hands = list(instance.hands)
    task_cards = instance.task_mask
    tricks: list[dict[Seat, CardIndex]] = []
    for t in instance.tasks:
        owner = t.seat
        assert owner is not None
        trick: dict[Seat, CardIndex] = {owner: t.card}
        hands[owner] &= ~(1 << t.card)
        below = (1 << t.card) - 1  # one suit: lower index = lower value
        for seat in range(instance.players):
            if seat == owner:
                continue
            options = hands[seat] & below & ~task_cards
            if not options:
                return False, tricks, (f"seat {seat} has no non-task card below "
                                       f"{instance.card(t.card)} for the trick of tasks[{instance.tasks.index(t)}]")
            best = options.bit_length() - 1
            trick[seat] = best
            hands[seat] &= ~(1 << best)
        tricks.append(trick)
    return True, tricks, None


@requires(**CONDITIONS)
class SingleSuitOwnedSolver:
    """Reiber §4: one suit, owned task cards; see the module docstring."""

    name: ClassVar[str] = "single_suit_owned"
    exact: ClassVar[bool] = True
    requires: ClassVar[tuple[tuple[str, str], ...]] = ()

    def decide(self, instance: Instance, *, budget: Budget) -> Answer:
        ok, tricks, why = published_play(instance)
        if not ok:
            return Answer(Verdict.UNWINNABLE, explanation=why)
        leader = instance.first_leader
        if leader is None:
            leader = next(iter(tricks[0])) if tricks else 0
        return Answer(Verdict.WINNABLE, plays=sequence(instance, tricks, leader), extra={"tricks": len(tricks)})
