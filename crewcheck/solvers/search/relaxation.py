"""The low-card relaxation (:mod:`crewcheck.solvers.search.low_cards`) run beside the search:
:class:`LowCards` runs it a slice at a time, :func:`relaxation_lost` to the end of a budget.

A slice is one call of the kernel's :func:`~crewcheck.solvers.search.low_cards.relax_search`
from the deal's position; the relaxation's own table of lost trick boundaries carries over
between slices (one generation per :class:`LowCards`), so a slice goes on where the last
one stopped instead of starting afresh.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crewcheck.model.instance import Instance
from crewcheck.solvers.search import conditions as search_conditions
from crewcheck.solvers.search import kernel as _kernel
from crewcheck.solvers.search.low_cards import (
    RELAX_LOSE, RELAX_WIN, live_covers, loose_cards, low_cards, relax_work_size,
)
from crewcheck.solvers.search.records import RelaxArrays
from crewcheck.solvers.search.table import KEY_WORDS, PURE_TABLE_BITS, TABLE_BITS, begin, table

__all__ = ["LowCards", "relaxation_lost", "LOW_CARD_NODES", "LOW_CARD_SLICE", "LOW_CARD_TABLE"]

LOW_CARD_NODES = 400_000
"""Trick boundaries the search lets the relaxation visit on one deal, by default."""
LOW_CARD_SLICE = 5_000
"""Trick boundaries of one kernel call (the hook ``expired`` is polled between calls)."""
LOW_CARD_TABLE = "low cards"
"""The relaxation's table of lost boundaries: a table of its own
(:func:`~crewcheck.solvers.search.table.table`'s ``use``), never the search's, whose entries
carry idle tricks; as large as the search's (with a quarter of the slots, logbook mission 46
with 3 players and seed 132 took ten times the boundaries)."""


def _ints(compiled: bool) -> Callable[[list[int]], Any]:
    if compiled:
        import numpy as np

        return lambda values: np.array(values, dtype=np.int64)
    return list


class LowCards:
    """The low-card relaxation of ``inst`` (from the position after its history), run by
    :meth:`run` a budget at a time. :attr:`verdict`: ``True`` once it is lost (so is the
    deal), ``False`` once it is won (it proves nothing), ``None`` while open or when it
    does not apply (:attr:`applies`). ``compiled``: the compiled kernel if numba is there,
    else (or if false) the plain twin."""

    def __init__(self, inst: Instance, compiled: bool = True) -> None:
        self.low = low_cards(inst)
        self.verdict: bool | None = None
        self.spent = 0
        self.applies = False
        if self.low == 0:
            return
        state = inst.state()
        self.applies = not state.trick and state.end is None
        if not self.applies:
            return
        self.kernel: Any = _kernel.twin()
        self.compiled = False
        if compiled:
            try:
                self.kernel, self.compiled = _kernel.compiled(), True
            except ImportError:
                pass
        arr = _ints(self.compiled)
        self.arr = arr
        self.hands = list(state.hands)
        self.deal = RelaxArrays(
            low=self.low, loose=loose_cards(inst, state.hands, self.low),
            covers=arr([c for pair in live_covers(inst, state.hands) for c in pair] + [-1]),
            suit_of=arr(list(inst.deck.suit_of_table)), suit_mask=arr(list(inst.deck.suit_masks)),
            trump=-1 if inst.trump_suit is None else inst.trump_suit)
        self.cond = search_conditions.build(inst, state, self.compiled)
        self.tricks = min(h.bit_count() for h in state.hands)
        self.players = inst.players
        self.table = table(self.compiled, TABLE_BITS if self.compiled else PURE_TABLE_BITS, LOW_CARD_TABLE)
        begin(self.table, (LOW_CARD_TABLE, inst.deck, state.hands, state.memos, inst.trump, inst.conditions,
                           inst.covered))
        self.leaders = list(range(inst.players)) if state.leader is None else [state.leader]

    def run(self, nodes: int, expired: Callable[[], bool] | None = None) -> bool | None:
        """Go on for at most ``nodes`` more trick boundaries (in slices of
        :data:`LOW_CARD_SLICE`, stopping early once ``expired()`` says so); the verdict."""
        if not self.applies:
            return None
        stop = self.spent + nodes
        arr = self.arr
        while self.verdict is None and self.spent < stop:
            work = arr([0] * relax_work_size(self.tricks, self.players, self.cond.n))
            status = self.kernel.relax_search(
                arr(self.hands), self.leaders[0], self.cond, self.deal, self.table.arrays(),
                min(LOW_CARD_SLICE, stop - self.spent), work, arr([0] * (self.cond.n + 1)), arr([0] * KEY_WORDS))
            self.spent += int(work[0])
            if status == RELAX_WIN:
                self.verdict = False
            elif status == RELAX_LOSE:
                self.leaders.pop(0)  # every first leader lost: the relaxation is lost
                if not self.leaders:
                    self.verdict = True
            elif expired is not None and expired():
                break
        return self.verdict


def relaxation_lost(inst: Instance, nodes: int = LOW_CARD_NODES, *, compiled: bool = True,
                    expired: Callable[[], bool] | None = None) -> tuple[bool | None, int]:
    """Whether the low-card relaxation of ``inst`` (from the position after its history)
    cannot be won (``True`` proves the deal lost), and the trick boundaries it visited.
    ``None``: it does not apply (no low cards, a trick in progress, the game over), or
    ``nodes`` boundaries (or ``expired()``, polled between slices) ran out first;
    ``False``: the relaxation can be won."""
    relax = LowCards(inst, compiled)
    return relax.run(nodes, expired), relax.spent
