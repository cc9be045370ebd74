"""Compiled twin of :func:`crewcheck.claims.witteveen.reference_search.is_winnable`.

Same game, same algorithm (depth-first search, touching-card reduction, memo
of losing positions under a canonical key), written in the subset of Python
that numba compiles. The memo is an open-addressing hash table of 57-bit keys
(``leader``, the critical suit's owner string and task position, the sorted
owner strings of the other suits), stamped per game so it is never cleared.

numba is a dependency, but the code runs without it: :func:`decider`
returns the compiled kernel when numba imports and the plain-Python search
otherwise. The functions are compiled by :func:`crewcheck.runtime.kernels.compile_kernel`
(machine code cached on disk) and use its bit helpers.
``tests/claims/witteveen/test_kernel.py`` checks the two on the same games.
Only 4-suit decks of at most 9 values are supported by the key layout.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import numpy as np

from crewcheck.claims.witteveen.reference_search import reference_decider
from crewcheck.runtime.kernels import compile_kernel, highbit_index, lowbit_index

TABLE_BITS = 22


def compact_tables(values: int) -> tuple[np.ndarray, np.ndarray]:
    """Tables ``[(live << values) | mine] -> code`` for plain and critical suits.

    Plain code: ``(m << values) | owners`` where ``m`` is the number of live
    cards and ``owners`` has bit ``i`` set when the ``i``-th lowest live card is
    player 1's. Critical code (task at value index ``t``): plain code plus
    ``(pos + 1) << (values + 4)`` with ``pos`` the task's rank among live cards.
    Returned as one array of shape ``(values + 1, 2 ** (2 * values))``: row 0
    plain, row ``t + 1`` critical with the task at value index ``t``.
    """
    size = 1 << (2 * values)
    out = np.zeros((values + 1, size), dtype=np.int64)
    for live in range(1 << values):
        mine = live
        while True:
            m = owners = 0
            pos_of = {}
            for v in range(values):
                if live >> v & 1:
                    if mine >> v & 1:
                        owners |= 1 << m
                    pos_of[v] = m
                    m += 1
            base = (m << values) | owners
            idx = (live << values) | mine
            out[0, idx] = base
            for t in range(values):
                if t in pos_of:
                    out[t + 1, idx] = base | ((pos_of[t] + 1) << (values + 4))
            if mine == 0:
                break
            mine = (mine - 1) & live
    return out, np.zeros(1, dtype=np.int64)


def key_of(h1: Any, h2: Any, leader: int, task: int, values: int, tables: Any) -> Any:
    """The memo key of a position (the layout in the module docstring)."""
    full = (np.int64(1) << values) - 1
    live = h1 | h2
    tsuit = task // values
    tval = task % values
    codes = np.empty(3, dtype=np.int64)
    j = 0
    crit = np.int64(0)
    for s in range(4):
        sh = s * values
        idx = (((live >> sh) & full) << values) | ((h1 >> sh) & full)
        if s == tsuit:
            crit = tables[tval + 1, idx]
        else:
            codes[j] = tables[0, idx]
            j += 1
    # sort three codes
    if codes[0] > codes[1]:
        codes[0], codes[1] = codes[1], codes[0]
    if codes[1] > codes[2]:
        codes[1], codes[2] = codes[2], codes[1]
    if codes[0] > codes[1]:
        codes[0], codes[1] = codes[1], codes[0]
    w = values + 4
    return (((((crit << w) | codes[0]) << w | codes[1]) << w | codes[2]) << 1) | leader


def lookup(keys: Any, stamps: Any, stamp: int, key: Any) -> bool:
    """Whether ``key`` is in the memo of game ``stamp``."""
    mask = keys.size - 1
    i = (key * np.int64(-7046029254386353131)) >> 20 & mask
    while stamps[i] == stamp:
        if keys[i] == key:
            return True
        i = (i + 1) & mask
    return False


def insert(keys: Any, stamps: Any, stamp: int, key: Any, count: Any) -> None:
    """Add ``key`` to the memo of game ``stamp`` (unless the table is 70% full)."""
    mask = keys.size - 1
    if count[0] * 10 > keys.size * 7:
        return  # table too full: skip caching (sound, only slower)
    i = (key * np.int64(-7046029254386353131)) >> 20 & mask
    while stamps[i] == stamp:
        if keys[i] == key:
            return
        i = (i + 1) & mask
    stamps[i] = stamp
    keys[i] = key
    count[0] += 1


def candidates(hand: Any, other: Any, allowed: Any, task: int, values: int, out: Any) -> int:
    """Write into ``out`` the cards of ``allowed`` worth trying, one per run of touching
    cards of ``hand`` (the task card always); returns how many."""
    live = hand | other
    n = 0
    m = allowed
    while m:
        low = m & -m
        c = lowbit_index(low)
        m ^= low
        suit = c // values
        smask = ((np.int64(1) << values) - 1) << (suit * values)
        below = live & (low - 1) & smask
        if c != task and below != 0:
            p = highbit_index(below)
            if (hand >> p) & 1 and p != task:
                continue
        out[n] = c
        n += 1
    return n


def go(h1: Any, h2: Any, leader: int, task: int, values: int, tables: Any, keys: Any, stamps: Any, stamp: int,
       count: Any, buf: Any, depth: int) -> bool:
    """Whether player 1 wins the task from this position (depth-first, memo of losses)."""
    key = key_of(h1, h2, leader, task, values, tables)
    if lookup(keys, stamps, stamp, key):
        return False
    if leader == 0:
        lead_hand = h1
        follow_hand = h2
    else:
        lead_hand = h2
        follow_hand = h1
    lc = buf[depth, 0]
    fc = buf[depth, 1]
    nl = candidates(lead_hand, follow_hand, lead_hand, task, values, lc)
    for i in range(nl):
        c = lc[i]
        suit = c // values
        smask = ((np.int64(1) << values) - 1) << (suit * values)
        fs = follow_hand & smask
        allowed = fs if fs != 0 else follow_hand
        nf = candidates(follow_hand, lead_hand, allowed, task, values, fc)
        for k in range(nf):
            d = fc[k]
            if d // values == suit and d > c:
                winner = 1 - leader
            else:
                winner = leader
            if c == task or d == task:
                if winner == 0:
                    return True
                continue
            if leader == 0:
                n1 = h1 ^ (np.int64(1) << c)
                n2 = h2 ^ (np.int64(1) << d)
            else:
                n1 = h1 ^ (np.int64(1) << d)
                n2 = h2 ^ (np.int64(1) << c)
            if go(n1, n2, winner, task, values, tables, keys, stamps, stamp, count, buf, depth + 1):
                return True
    insert(keys, stamps, stamp, key, count)
    return False


KERNEL_FUNCTIONS = (lowbit_index, highbit_index, key_of, lookup, insert, candidates, go)
"""Every function of the kernel, callees before callers."""


@cache
def _compiled() -> Callable[..., bool] | None:
    """The compiled search (:func:`go`), or ``None`` without numba."""
    try:
        go_compiled: Callable[..., bool] = compile_kernel(KERNEL_FUNCTIONS, cache=True, nogil=True).go
    except ImportError:
        return None
    return go_compiled


class _State:
    def __init__(self) -> None:
        self.keys = np.zeros(1 << TABLE_BITS, dtype=np.int64)
        self.stamps = np.zeros(1 << TABLE_BITS, dtype=np.int64)
        self.count = np.zeros(1, dtype=np.int64)
        self.buf = np.zeros((40, 2, 40), dtype=np.int64)
        self.stamp = 0
        self.tables: dict[int, np.ndarray] = {}


_STATE: _State | None = None


def is_winnable_compiled(hand1: int, task: int, values: int, suits: int) -> bool:
    """Decide one game with the compiled kernel (numba required)."""
    global _STATE
    go = _compiled()
    if go is None:
        raise ImportError("numba is not installed")
    if suits != 4 or values > 9:
        raise ValueError(f"the compiled kernel needs 4 suits of at most 9 values, got {suits} x {values}")
    if _STATE is None:
        _STATE = _State()
    st = _STATE
    if values not in st.tables:
        st.tables[values] = compact_tables(values)[0]
    st.stamp += 1
    st.count[0] = 0
    full = (1 << (values * suits)) - 1
    return bool(go(np.int64(hand1), np.int64(full ^ hand1), 0, task, values, st.tables[values],
                   st.keys, st.stamps, st.stamp, st.count, st.buf, 0))


def decider() -> Callable[[int, int, int, int], bool]:
    """The compiled decider when numba is available, else the plain-Python search."""
    if _compiled() is not None:
        return is_winnable_compiled
    return reference_decider
