"""The refutation table of the search: its layout, probe and store (kernel functions),
and its allocation (one per thread).

A position refuted at a trick boundary is stored under its key
(:func:`crewcheck.solvers.search.kernel.position_key`, :data:`KEY_WORDS` words) with
the idle tricks that were still allowed. The table is two-way set-associative, slots of
:data:`TT_STRIDE` words, and every entry carries a generation: entries of another
generation are ignored, so a new deal starts on an empty table without clearing it,
and the rounds of one deal keep their entries by keeping the generation.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Hashable, Iterator
from typing import Any

from crewcheck.solvers.search.partition import PART_BITS, PT_STRIDE, PT_WAYS, PURE_PART_BITS
from crewcheck.solvers.search.records import TableArrays

__all__ = ["KEY_WORDS", "TT_STRIDE", "TT_ALLOW", "TT_GEN", "TABLE_BITS", "PURE_TABLE_BITS", "tt_slot",
           "tt_refuted", "tt_store", "TABLE_FUNCTIONS", "Table", "table", "shared", "begin"]

KEY_WORDS = 5
"""Words of a position key in the refutation table."""
TT_STRIDE = 8
"""Words per slot of the refutation table: the key (:data:`KEY_WORDS`), the idle tricks
allowed, the generation, one spare; a slot is one 64-byte cache line and a pair of slots
never straddles a page, so a probe touches one line and a store at most one new page."""
TT_ALLOW = KEY_WORDS
TT_GEN = KEY_WORDS + 1
TABLE_BITS = 20
"""The refutation table has ``2**TABLE_BITS`` slots (compiled kernel)."""
PURE_TABLE_BITS = 15
"""Slots of the plain-Python kernel's table (a list: kept small so it is quick to make)."""


def tt_slot(key: Any, tt_mask: int) -> int:
    """Slot of a position key in the refutation table (xor-shift hash)."""
    h = 0
    for i in range(KEY_WORDS):
        x = key[i]
        h = (h * 31 + (x ^ (x >> 21) ^ (x >> 42))) & 0xFFFFFFFFFFFF
    return (h ^ (h >> 20)) & tt_mask


def tt_refuted(key: Any, tt: Any, gen: int, tt_mask: int, allow: int) -> bool:
    """Whether the table says the position was refuted with at least ``allow`` idle tricks
    allowed. The table is two-way set-associative: a key may sit in either slot of its pair."""
    slot = tt_slot(key, tt_mask) & ~1
    for e in range(2):
        base = (slot + e) * TT_STRIDE
        if tt[base + TT_GEN] != gen or tt[base + TT_ALLOW] < allow:
            continue
        same = True
        for i in range(KEY_WORDS):
            if tt[base + i] != key[i]:
                same = False
                break
        if same:
            return True
    return False


def tt_store(key: Any, tt: Any, gen: int, tt_mask: int, allow: int) -> None:
    """Record the position as refuted: it takes the first slot of its pair, and the entry
    it displaces moves to the second (the older second entry is lost)."""
    base = (tt_slot(key, tt_mask) & ~1) * TT_STRIDE
    if tt[base + TT_GEN] == gen:
        for i in range(TT_STRIDE):
            tt[base + TT_STRIDE + i] = tt[base + i]
    for i in range(KEY_WORDS):
        tt[base + i] = key[i]
    tt[base + TT_ALLOW] = allow
    tt[base + TT_GEN] = gen


TABLE_FUNCTIONS = (tt_slot, tt_refuted, tt_store)
"""The kernel functions of this module, callees before callers."""


class Table:
    """The refutation table (:data:`TT_STRIDE` words per slot), allocated once per
    thread and kernel kind.

    The compiled kernel's table is an anonymous memory map advised to use huge pages
    where the system allows it (Linux ``madvise``): the table is touched at random, and
    on the virtual machines measured here each first touch of a 4 KiB page cost ~85 us,
    which made the first deals of a process pay up to 0.2 s for a table of 4 KiB pages.
    It is also advised not to be inherited by a fork (``MADV_DONTFORK``): the engine
    forks its SAT child while the search runs, and with the table shared copy-on-write
    every first write of the search to one of its huge pages copied 2 MiB. A forked child
    therefore starts without this process's tables (:func:`_forget_tables`) and makes
    its own if it searches."""

    def __init__(self, bits: int, numpy: bool) -> None:
        size = 1 << bits
        self.mask = size - 1
        self.gen = 0
        self.deal: Hashable = None
        """Inside :func:`shared`: the deal (and key layout) the current generation's
        entries belong to; ``None`` otherwise."""
        self.numpy = numpy
        self._maps: list[Any] = []
        self.words = self._words(size * TT_STRIDE)
        self.part: Any = self._words(PT_WAYS * PT_STRIDE) if numpy else [0] * (PT_WAYS * PT_STRIDE)
        """The partition table (:mod:`~.partition`): one unused set until a search asks for it."""
        self.part_mask = 0

    def _words(self, n: int) -> Any:
        if not self.numpy:
            return [0] * n
        import mmap

        import numpy as np

        m = mmap.mmap(-1, n * 8)
        for advice in ("MADV_HUGEPAGE", "MADV_DONTFORK"):
            if hasattr(mmap, advice):
                try:
                    m.madvise(getattr(mmap, advice))
                except OSError:
                    pass
        self._maps.append(m)
        return np.frombuffer(m, dtype=np.int64)

    def arrays(self, part: bool = False) -> TableArrays:
        """The table as the kernel takes it (its current generation); ``part``: with a
        partition table of :data:`~.partition.PART_BITS` sets (made on first use)."""
        if part and self.part_mask == 0:
            sets = 1 << (PART_BITS if self.numpy else PURE_PART_BITS)
            self.part = self._words(sets * PT_WAYS * PT_STRIDE)
            self.part_mask = sets - 1
        return TableArrays(self.words, self.gen, self.mask, self.part, self.part_mask)


_THREAD = threading.local()
"""Per-thread refutation tables: the compiled kernel runs without the GIL, so two threads
searching at once must never share a table (a torn entry could refute a winnable
position)."""


def _forget_tables() -> None:
    """In a forked child: drop the tables inherited from the parent, whose memory the
    child does not have (``MADV_DONTFORK``); a search in the child makes new ones."""
    _THREAD.tables = {}


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_tables)


def table(compiled: bool, bits: int, use: str = "search") -> Table:
    """This thread's table for the kernel kind and ``use`` (made on first use): the
    search's, or another search's of its own (``"low cards"``: the low-card relaxation)."""
    tables: dict[tuple[bool, int, str], Table] | None = getattr(_THREAD, "tables", None)
    if tables is None:
        tables = _THREAD.tables = {}
    found = tables.get((compiled, bits, use))
    if found is None:
        found = tables[(compiled, bits, use)] = Table(bits, compiled)
    return found


@contextlib.contextmanager
def shared() -> Iterator[None]:
    """Keep this thread's refutation tables across decisions of positions of one deal.

    Outside this block every decision starts a new generation (an empty table). Inside
    it, a decision whose deal (:func:`begin`'s ``deal``) is the one the current generation
    belongs to goes on with its entries: a position refuted while deciding one position
    of a deal is refuted whatever position it was reached from, as when the search
    broadens to its first plays. :mod:`crewcheck.analysis` decides every legal card, and the
    positions along a played game, inside it."""
    depth = getattr(_THREAD, "sharing", 0)
    _THREAD.sharing = depth + 1
    try:
        yield
    finally:
        _THREAD.sharing = depth


def begin(tt: Table, deal: Hashable) -> None:
    """Start a decision of a position of ``deal`` on ``tt``: a new generation, unless
    :func:`shared` is active and the current generation already belongs to ``deal``."""
    sharing = getattr(_THREAD, "sharing", 0) > 0
    if sharing and tt.deal is not None and tt.deal == deal:
        return
    tt.gen += 1
    tt.deal = deal if sharing else None
