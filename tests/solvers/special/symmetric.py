"""An exact reference search for the reduction's deals, whose many junk cards are out of
the plain oracle's reach (:func:`tests.oracle.oracle_verdict`).

:func:`symmetric_verdict` is the oracle's plain depth-first search with two sound cuts:

* symmetry: two cards in one hand that are each the only card of their suit, carry no
  task and are not trumps are interchangeable (swapping their suit names maps the game
  onto itself), so only one of them is tried at each turn and the refuted-position
  table keys a hand by its number of such cards;
* trick count (fixed assignment only): a trick is won by one seat, and a task card in
  it must go to its owner, so a trick completes tasks of one owner only; and a seat
  plays one card per trick, so an owner whose k open task cards sit in one hand needs
  k tricks. Summing, over owners with open tasks, the largest such k gives a lower
  bound on the tricks still needed; the game lasts as many more tricks as the smallest
  hand has cards, so a position at a trick boundary where the bound exceeds that is
  lost.

Checked against the plain oracle on small deals in ``test_hampath.py``.
"""

from __future__ import annotations

import sys

from crewcheck.model.cards import iter_bits
from crewcheck.model.instance import Instance
from crewcheck.model.state import State
from crewcheck.solvers.base import Verdict

__all__ = ["symmetric_verdict"]


def _singletons(instance: Instance) -> int:
    deck = instance.deck
    m = 0
    tasks = instance.task_mask
    for s in range(len(deck.suits)):
        mask = deck.suit_mask(s)
        if mask.bit_count() == 1 and not mask & tasks and s != instance.trump_suit:
            m |= mask
    return m


def symmetric_verdict(instance: Instance) -> Verdict:
    """Exact verdict by DFS with the interchangeable-singleton symmetry cut."""
    single = _singletons(instance)
    refuted: set[object] = set()

    def key(state: State) -> object:
        hands = tuple((h & ~single, (h & single).bit_count()) for h in state.hands)
        trick = tuple(c if not single >> c & 1 else -1 for c in state.trick)
        return (hands, state.leader, trick, state.done)

    tasks = instance.tasks
    fixed = instance.rules.assignment == "fixed"
    holder_of = instance.holder

    def hopeless(state: State) -> bool:
        if not fixed or state.trick:
            return False
        need: dict[int, dict[int, int]] = {}
        for i, t in enumerate(tasks):
            if state.done >> i & 1:
                continue
            per = need.setdefault(t.seat, {})  # type: ignore[arg-type]
            h = holder_of[t.card]
            per[h] = per.get(h, 0) + 1
        bound = sum(max(per.values()) for per in need.values())
        return bound > min(h.bit_count() for h in state.hands)

    def win(state: State) -> bool:
        if state.end is not None:
            return state.end.won
        if hopeless(state):
            return False
        k = key(state)
        if k in refuted:
            return False
        legal = state.legal_mask()
        # one representative per hand among its legal singletons
        reps = legal & ~single
        if state.to_play is None:
            for h in state.hands:
                low = h & legal & single
                if low:
                    reps |= low & -low
        else:
            low = legal & single
            if low:
                reps |= low & -low
        for card in iter_bits(reps):
            if win(state.apply(card)):
                return True
        refuted.add(k)
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10_000))
    try:
        return Verdict.WINNABLE if win(instance.state()) else Verdict.UNWINNABLE
    finally:
        sys.setrecursionlimit(limit)
