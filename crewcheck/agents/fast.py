"""Bridge between the agents' Python objects and the playout kernel.

:func:`kernel` returns the playout kernel's functions compiled (numba, imported on first
use); :func:`twin` returns the same functions as plain Python, the reference the tests
compare the compiled kernel with (both built by :mod:`crewcheck.runtime.kernels`). :class:`Tables` holds the static arrays of one game
(suit of each card, suit masks, task cards) and :func:`pack` builds the kernel state.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np

from crewcheck.agents import kernel as _source
from crewcheck.model.cards import Deck

__all__ = ["kernel", "twin", "is_compiled", "Tables", "pack", "seed_state"]


def kernel() -> SimpleNamespace:
    """The playout kernel's functions, numba-compiled when numba is installed (else the twin)."""
    try:
        return _source.compiled()
    except ImportError:  # pragma: no cover - the plain twin runs instead
        return _source.twin()


def twin() -> SimpleNamespace:
    """The playout kernel's functions as plain Python (no numba)."""
    return _source.twin()


def is_compiled(k: SimpleNamespace) -> bool:
    """Whether ``k`` (from :func:`kernel`) is the compiled kernel."""
    return k.playouts is not twin().playouts


class Tables(NamedTuple):
    """Static arrays of one game: the record every function of the kernel takes as ``game``
    (a named tuple, which numba passes as one argument)."""

    players: int
    ntasks: int
    trump: int
    """Trump suit index, -1 for none."""
    suit_of: Any
    suit_mask: Any
    task_card: Any

    @classmethod
    def build(cls, deck: Deck, players: int, trump: int | None, task_cards: Sequence[int]) -> Tables:
        if deck.size > 62:
            raise ValueError(f"the playout kernel handles at most 62 cards, this deck has {deck.size}")
        return cls(players, len(task_cards), -1 if trump is None else trump,
                   np.array(deck.suit_of_table, dtype=np.int64),
                   np.array(deck.suit_masks, dtype=np.int64),
                   np.array(task_cards, dtype=np.int64))


def pack(tables: Tables, hands: Sequence[int], owners: Sequence[int], commander: int,
         leader: int, trick: Sequence[int], done: int, tricks: int, status: int = 0) -> Any:
    """The kernel state array (layout in :mod:`crewcheck.agents.kernel`)."""
    p, t = tables.players, tables.ntasks
    st = np.zeros(8 + 2 * p + t, dtype=np.int64)
    st[0] = sum(1 for o in owners if o >= 0)
    st[1] = leader
    st[2] = len(trick)
    st[3] = done
    st[4] = tricks
    st[5] = status
    st[6] = commander
    st[8:8 + p] = hands
    st[8 + p:8 + p + len(trick)] = trick
    st[8 + 2 * p:8 + 2 * p + t] = owners
    if t == 0 and status == 0:
        st[5] = 1
    return st


def seed_state(seed: int) -> Any:
    """A kernel random state (one-element array) from an int seed."""
    return np.array([seed & 0xFFFFFFFF], dtype=np.int64)
