"""Conditions in the search: the deal's special rules (:mod:`crewcheck.model.conditions`)
as ints the kernel steps and judges at every trick boundary.

What it is
    Each condition kind the search knows has one row in :data:`SEARCH_KINDS`: a
    :class:`SearchKind` with the kind's kernel code, how its fields become the row's ints
    (:meth:`SearchKind.encode`), how the model's memo becomes one int (:meth:`SearchKind.memo`)
    and how many bits that int takes in the refutation table's key
    (:meth:`SearchKind.bits`). The kernel side is two plain-Python functions that numba
    compiles with the rest of the search (:mod:`crewcheck.runtime.kernels`):
    :func:`cond_step` advances every condition's memo by one complete trick, and
    :func:`cond_judge` says whether one is broken (the position is lost), all hold (the
    game is won once the tasks are done) or some is still open; :func:`cond_key` writes
    the memos into the position key, so that a refuted position is only ever reused with
    the same memos. They are the int twins of each kind's ``step`` and ``judge`` and are
    tested against them on random games, kind by kind.
Rules covered
    Every kind of :mod:`crewcheck.model.conditions`, those of *Mission Deep Sea*
    included (``wins_more_than_the_rest`` is
    ``wins_tricks`` ``>=`` more than half the tricks; ``leads_no_cards``, a restriction of
    the seat's leads, is judged at the trick's end and cut by :func:`cond_trick_dead`
    right after the lead). A kind without a row is not judged
    by the search: :func:`build` leaves it out when asked to (``relax=True``) and says so,
    so the search decides a *relaxation* of the deal (more lines win). Its UNWINNABLE is
    then a proof, its winning line is only a candidate that :mod:`crewcheck.solvers.engine`
    replays on the real deal, and the SAT side of the engine decides the rest.
Exact
    Yes for the kinds with a row: the kernel's memos are the model's (up to a
    normalisation that keeps what the future depends on: the balance of tricks and
    ``wins_as_many_tricks_as`` keep the differences, ``wins_consecutive_tricks`` counts
    runs up to two), the judgement the same, and the cuts of the search are about tasks,
    which a won game completes whatever its conditions. Cards a condition names (by card
    or value) are never treated as interchangeable with their neighbours. A deal keys its
    refutation table by relative ranks (cards renamed within a suit) only when every
    condition is *renamable* (:attr:`SearchKind.renamable`: it sees the cards only through
    their suits and who wins each trick, as ``wins_no_tricks`` or a whole suit's
    ``wins_all_cards`` do) and its memos fit the key's third word above the cards it holds; otherwise by the exact
    cards held.
Cost
    One loop over the conditions per complete trick and per key; nothing per card.

Modules
    ``codes``: the kinds' codes and the flags of their rows; ``kernel``: :func:`cond_step`,
    :func:`cond_judge`, :func:`cond_key`; ``cuts``: :func:`cond_trick_dead` and
    :func:`cond_boundary_dead`; ``table``: :data:`SEARCH_KINDS`, :func:`build`,
    :func:`unknown_kinds`; ``rewrites``: conditions the search decides as tasks
    (:func:`tasks_in_disguise`, :func:`winning_card_arms`).

Adding a kind
    Give it a new code (the next free ``K_*`` in ``codes``), its branches in
    :func:`cond_step` and :func:`cond_judge` (``kernel``), and a :class:`SearchKind` row in
    :data:`SEARCH_KINDS` (``table``; ints beyond the row's six go to
    :attr:`SearchKind.extra`); the property tests in
    ``tests/solvers/search/test_conditions.py`` pick it up from the strategies' kinds.
    Until then a deal with that kind is decided by the SAT side (and the search refutes
    its relaxation); see ``docs/performance.md``, "Conditions in the
    search".
"""

from __future__ import annotations

from crewcheck.solvers.search.conditions.codes import C_BROKEN, C_HOLDS, C_OPEN, KEY_BITS
from crewcheck.solvers.search.conditions.cuts import COND_CUT_FUNCTIONS, cond_boundary_dead, cond_trick_dead
from crewcheck.solvers.search.conditions.kernel import JUDGE_FUNCTIONS, cond_judge, cond_key, cond_step
from crewcheck.solvers.search.conditions.rewrites import ARMS_MAX, tasks_in_disguise, winning_card_arms
from crewcheck.solvers.search.conditions.table import (
    SEARCH_KINDS, SearchKind, build, describe_relaxation, renamable, unknown_kinds,
)

__all__ = [
    "SearchKind", "SEARCH_KINDS", "KEY_BITS", "build", "unknown_kinds", "renamable", "describe_relaxation",
    "cond_step", "cond_judge", "cond_key", "cond_trick_dead", "cond_boundary_dead", "tasks_in_disguise", "winning_card_arms", "ARMS_MAX",
    "COND_FUNCTIONS", "C_OPEN", "C_HOLDS", "C_BROKEN",
]

COND_FUNCTIONS = (*JUDGE_FUNCTIONS, *COND_CUT_FUNCTIONS)
"""The kernel functions of this package (their callees, the bit helpers, come first in the kernel)."""
