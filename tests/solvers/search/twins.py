"""The search kernel's two forms, for tests that run both on the same inputs, and the
helpers the kernel's tests share (a cut called as the search calls it; the search's
result from both forms)."""

from __future__ import annotations

from typing import Any

import pytest

from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget
from crewcheck.solvers.search import SearchOptions, SearchSolver, kernel
from crewcheck.solvers.search.problem import Problem


def twin_and_compiled() -> list[tuple[Any, bool]]:
    """The plain twin and, with numba, the compiled kernel, each with whether it is compiled
    (the compiled one takes int64 arrays, the twin lists)."""
    out: list[tuple[Any, bool]] = [(kernel.twin(), False)]
    try:
        out.append((kernel.compiled(), True))
    except ImportError:
        pass
    return out


def fires(rule: str, inst: Instance, k: Any, compiled: bool) -> bool | None:
    """Whether ``rule`` (a function of the kernel namespace ``k``) refutes the position of
    ``inst``, called as the search calls it; ``None`` where the search does not call it
    (``trick_dead`` inside a trick, the others at a trick boundary with tasks left, each
    under its assignment and, for the rules on release times, when the rules before them
    in :func:`~crewcheck.solvers.search.cuts.boundary_dead` have not fired)."""
    state = inst.state()
    if state.end is not None or state.leader is None:
        return None
    problem = Problem.build(inst, state, compiled=compiled, canonical=False)
    d = problem.deal
    hands, seq, quota = problem.round_arrays()
    p, free, trump = d.players, d.free, d.trump
    if rule == "trick_dead":
        if not 1 <= d.tlen0 < p:
            return None
        return bool(k.trick_dead(hands, p, seq, 0, d.tlen0, d.leader, free, quota, d.tseat, d.card_task,
                                 d.suit_of, d.suit_mask, trump, d.covers))
    if d.tlen0:
        return None
    inplay = 0
    for h in problem.hands:
        inplay |= h
    tricks = min(h.bit_count() for h in problem.hands)
    left = d.task_cards & inplay
    if left == 0:
        return None
    if rule == "hand_overflow_dead":
        return bool(k.hand_overflow_dead(hands, p, left, tricks))
    if rule == "trick_count_dead":
        return bool(k.trick_count_dead(hands, p, free, d.own_mask, quota, tricks))
    if rule == "boss_trump_dead":
        return bool(k.boss_trump_dead(hands, p, free, inplay, left, d.own_mask, quota, trump, d.suit_mask, tricks))
    if rule == "lead_reach_dead":
        return bool(k.lead_reach_dead(hands, p, free, left, d.own_mask, quota, d.leader, trump, d.suit_mask))
    if free:
        if rule == "nontask_count_dead":
            return bool(k.nontask_count_dead(hands, p, inplay, left, d.task_cards, quota, trump, d.suit_mask,
                                             tricks))
        trumps = 0 if trump < 0 else int(d.suit_mask[trump])
        if rule == "trump_split_dead" and trumps and not left & trumps:
            return bool(k.trump_split_dead(hands, p, left, inplay & trumps, quota, tricks))
        return None
    work = problem.workspace()
    release = work.release
    if k.release_dead(hands, p, left, d.task_cards, d.tseat, d.card_task, d.suit_of, d.suit_mask, trump,
                      d.own_mask, release, tricks, d.covers):
        return True if rule == "release_dead" else None
    if rule == "release_dead":
        return False
    if k.precedence_dead(left, d.card_task, release, tricks):
        return True if rule == "precedence_dead" else None
    if rule == "precedence_dead":
        return False
    if rule == "token_order_dead":
        return bool(k.token_order_dead(left, d.task_cards, d.card_task, d.tkind, d.trank, release)) \
            if d.has_tokens else None
    if rule == "hall_dead":
        return bool(k.hall_dead(hands, p, left, d.own_mask, d.card_task, release, tricks))
    return None


def same_from_both_kernels(inst: Instance) -> None:
    pytest.importorskip("numba")
    if inst.state().end is not None:
        return
    probes = ((0, 50), (1, 200))
    a = SearchSolver(SearchOptions(pure=True, probes=probes)).decide(inst, budget=Budget())
    b = SearchSolver(SearchOptions(probes=probes, warm_start=False)).decide(inst, budget=Budget())
    if "refuted_before_search" in a.extra:
        assert a.verdict == b.verdict
        return
    assert b.extra["compiled"] is True
    assert (a.verdict, a.plays, a.assignment, a.nodes) == (b.verdict, b.plays, b.assignment, b.nodes)
    for key in ("tt_hits", "tt_stores", "cuts", "rounds"):
        assert a.extra[key] == b.extra[key], key
