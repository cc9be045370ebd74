"""The records the search kernel takes (:func:`crewcheck.solvers.search.kernel.search`):
typed tuples of ints and int arrays that numba passes as one argument each, read by field
name, so a call cannot mix up two of the kernel's forty-odd values by position.
"""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["Limits", "CondArrays", "DealArrays", "TableArrays", "Workspace", "RelaxArrays"]


class Limits(NamedTuple):
    """What one round of the search may spend, and its move ordering."""

    node_limit: int
    """Nodes after which the round stops (OUT_OF_NODES)."""
    waste_cap: int
    """Tricks that complete no task allowed (a large value: no limit)."""
    seed: int
    """Non-zero: a seeded tie-break of the move ordering near the root (restarts)."""
    shaping: int
    """Non-zero: the alternative move ordering of the restarts (see ``gen_moves``)."""


class CondArrays(NamedTuple):
    """The deal's conditions as the kernel judges them (:mod:`~.conditions`); every array
    has one entry per condition, plus one unused (never empty)."""

    n: int
    """Conditions the search judges (0: none)."""
    code: Any
    """The kind of each (``conditions.K_*``)."""
    seat: Any
    """Its seat (``-1``: any seat, where the kind allows it)."""
    other: Any
    """Its second seat."""
    num: Any
    """Its count, margin, value or trick number."""
    flags: Any
    """Its options (comparison, ``in_order``, ``only``, ...)."""
    mask: Any
    """Its cards (a suit, the cards of a value, named cards)."""
    tricks: Any
    """Its listed tricks (bit ``t``: trick ``t``; bit 0: the last)."""
    at: Any
    """Where its further ints start in :attr:`extra` (kinds that need more than a row)."""
    extra: Any
    """The further ints of every condition, one after another (never empty)."""
    shift: Any
    """Bit of its memo in the position key's words 2-4."""
    memo0: Any
    """Its memo at the search's root."""
    value_of: Any
    """Value of each card."""
    players: int
    tricks_total: int
    """Tricks of the whole game."""
    named: int
    """Cards some condition names: never interchangeable with their neighbours."""


class DealArrays(NamedTuple):
    """The deal and the search's root as the kernel reads them (never modified)."""

    players: int
    tlen0: int
    """Cards of the trick in progress at the root."""
    leader: int
    """Seat that led (or leads) the trick in progress; ``-1``: a free first lead."""
    done: int
    """Mask of the tasks done (bit ``i``: task ``i``)."""
    free: int
    """1 under free assignment, else 0."""
    all_done: int
    tseat: Any
    """Seat of each task (``-1`` under free assignment)."""
    tkind: Any
    """Token kind of each task: 0 none, 1 absolute, 2 relative, 3 last."""
    trank: Any
    ntasks: int
    card_task: Any
    """Task on each card, or ``-1``."""
    suit_of: Any
    suit_mask: Any
    trump: int
    """Trump suit, ``-1``: none."""
    strict: int
    """1 for the strict reading of the order tokens, 0 for the lenient one."""
    has_tokens: int
    task_cards: int
    own_mask: Any
    """Task cards of each seat (fixed assignment)."""
    canon: int
    """1: key the refutation table by relative ranks (:func:`kernel.position_key`)."""
    holder: Any
    """Seat dealt each card."""
    covers: Any
    """The deal's covers (JARVIS's columns) as ``covered, covering`` pairs one after
    another, and one unused entry (never empty): :func:`~.rules.playable`."""
    covering: int
    """Cards that cover another: never interchangeable with their neighbours."""
    cond: CondArrays
    """The conditions the search judges."""
    part: int
    """1: the search also keeps the partition table (:mod:`~.partition`)."""


class Workspace(NamedTuple):
    """The kernel's scratch arrays: the table key, the moves and saved state per search
    depth, the release times of the cuts and the statistics."""

    key: Any
    moves: Any
    scores: Any
    nmoves: Any
    midx: Any
    sv_leader: Any
    sv_seat: Any
    sv_done: Any
    sv_qg: Any
    sv_waste: Any
    sv_flag: Any
    release: Any
    cmemo: Any
    """The conditions' memos now."""
    sv_cmemo: Any
    """The conditions' memos before the trick completed at each depth (``depth * n + i``)."""
    rel: Any
    """The relevant cards of the lines refuted so far at each depth (:mod:`~.partition`)."""
    stats: Any
    """Counters, indexed by :data:`kernel.STAT_NODES` and the other ``STAT_*``."""
    frame: Any
    """Where a call that ran out of nodes stopped, indexed by :data:`kernel.FRAME_RESUME`
    and the other ``FRAME_*``: with ``frame[FRAME_RESUME]`` set, the next call goes on
    from there (same ``hands``, ``seq`` and ``quota`` arrays) instead of from the root."""


class TableArrays(NamedTuple):
    """The refutation table as the kernel reads it (:class:`~.table.Table`)."""

    words: Any
    """The slots, :data:`~.table.TT_STRIDE` words each."""
    gen: int
    """The current generation: entries of other generations are ignored."""
    mask: int
    """Slots - 1 (a power of two)."""
    part: Any
    """The partition table's entries (:mod:`~.partition`; one unused set when the search
    keeps none)."""
    part_mask: int
    """Its sets - 1 (a power of two)."""


class RelaxArrays(NamedTuple):
    """The deal as the low-card relaxation plays it
    (:func:`crewcheck.solvers.search.low_cards.relax_search`)."""

    low: int
    """The low cards (:func:`~.low_cards.low_cards`)."""
    loose: int
    """The cards whose covers the relaxation leaves out (:func:`~.low_cards.loose_cards`)."""
    covers: Any
    """The covers that still bind, as in :attr:`DealArrays.covers`."""
    suit_of: Any
    """Suit of each card."""
    suit_mask: Any
    """Cards of each suit."""
    trump: int
    """The trump suit (``-1``: none)."""
