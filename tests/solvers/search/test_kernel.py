"""The compiled kernel against its plain-Python twin, on the same generated inputs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crewcheck.model.derived import quotas_left
from crewcheck.model.instance import Instance
from crewcheck.model.rules import order_violation
from crewcheck.model.tasks import TOKENS, Task, token_kind
from crewcheck.solvers.base import Budget
from crewcheck.solvers.search import SearchSolver, cuts, kernel
from tests.solvers.search.twins import same_from_both_kernels, twin_and_compiled
from tests.strategies import instances, own_task_instances, trump_pad_instances

_CODE = {"absolute": 1, "relative": 2, "last": 3}


def test_twins_are_the_plain_and_the_compiled_kernel() -> None:
    """``twin_and_compiled`` really gives the plain-Python functions first (so the tests below run
    the twin on lists), then compiled ones."""
    twins = twin_and_compiled()
    assert twins[0][1] is False and twins[0][0].search is kernel.search
    if len(twins) > 1:
        assert twins[1][1] is True and twins[1][0].search is not kernel.search
        assert hasattr(twins[1][0].search, "py_func")


@st.composite
def _token_sets(draw: st.DrawFn) -> tuple[list[Task], int, int, str]:
    n = draw(st.integers(1, 6))
    toks = draw(st.lists(st.sampled_from(TOKENS), unique=True, max_size=n))
    toks = toks + [None] * (n - len(toks))
    toks = draw(st.permutations(toks))
    tasks = [Task(i, 0, t) for i, t in enumerate(toks)]
    done = draw(st.integers(0, (1 << n) - 1))
    group = draw(st.integers(0, (1 << n) - 1)) & ~done
    rule = draw(st.sampled_from(["strict", "lenient"]))
    return tasks, done, group, rule


@given(_token_sets())
def test_order_ok_matches_rules(case: tuple[list[Task], int, int, str]) -> None:
    """The kernel's token check is the rules' order_violation, in both readings."""
    tasks, done, group, rule = case
    kinds = [0 if t.token is None else _CODE[token_kind(t.token)[0].value] for t in tasks]
    ranks = [0 if t.token is None else token_kind(t.token)[1] for t in tasks]
    want = order_violation(tasks, done, group, rule) is None  # type: ignore[arg-type]
    for k, compiled in twin_and_compiled():
        ks, rs = kinds, ranks
        if compiled:
            import numpy as np

            ks, rs = np.array(kinds, dtype=np.int64), np.array(ranks, dtype=np.int64)
        assert k.order_ok(done, group, len(tasks), ks, rs, 1 if rule == "strict" else 0) == want


@settings(max_examples=30)
@given(instances(max_players=4, max_cards=12, max_tasks=4))
def test_compiled_kernel_matches_twin(inst: Instance) -> None:
    """Same verdict, same line, same node and table counts from both kernels."""
    same_from_both_kernels(inst)


@settings(max_examples=30)
@given(st.one_of(own_task_instances(),
                 instances(max_players=3, max_cards=10, max_tasks=9, free=True, history=False)))
def test_compiled_kernel_matches_twin_on_the_new_cuts(inst: Instance) -> None:
    """The same on deals where the precedence, token-order and modulo-p cuts fire (own
    task cards; free assignment with most cards tasks)."""
    same_from_both_kernels(inst)


@given(trump_pad_instances())
def test_trump_split_matches_the_root_rule(inst: Instance) -> None:
    """The kernel's trump-sharing check (twin and compiled) says dead exactly when the
    root rule of :mod:`crewcheck.solvers.search.refutations` refutes, wherever both apply (trick
    boundary, no trump a task, at most ``TS_MAX`` trumps)."""
    import numpy as np

    from crewcheck.solvers.search.refutations import _trump_split

    state = inst.state()
    trump = inst.trump_suit
    if state.end is not None or state.trick or trump is None:
        return
    trumps_mask = inst.deck.suit_mask(trump)
    left = 0
    for i, t in enumerate(inst.tasks):
        if not state.done >> i & 1:
            left |= 1 << t.card
    inplay = 0
    for h in state.hands:
        inplay |= h
    if left & trumps_mask or (inplay & trumps_mask).bit_count() > cuts.TS_MAX:
        return
    quota = list(quotas_left(state) or ())
    want = _trump_split(state, quota) is not None
    tricks = min(h.bit_count() for h in state.hands)
    for k, compiled in twin_and_compiled():
        hands = np.array(state.hands, dtype=np.int64) if compiled else list(state.hands)
        q = np.array(quota, dtype=np.int64) if compiled else quota
        assert k.trump_split_dead(hands, inst.players, left, inplay & trumps_mask, q, tricks) == want


def _sliced_search(k: Any, compiled: bool, inst: Instance, slice_nodes: int | None) -> tuple[int, list[int], tuple[int, ...]]:
    """One kernel run of ``inst`` (default ordering, no node limit to speak of): in one call, or
    in calls of ``slice_nodes`` nodes each going on from the last (``work.frame``). Returns
    the status, the statistics and the winning cards."""
    from crewcheck.solvers.search.problem import Problem
    from crewcheck.solvers.search.records import Limits
    from crewcheck.solvers.search.table import TABLE_BITS, PURE_TABLE_BITS, Table

    problem = Problem.build(inst, inst.state(), compiled=compiled, canonical=True)
    tt = Table(TABLE_BITS if compiled else PURE_TABLE_BITS, compiled)
    tt.gen = 1
    work = problem.workspace()
    hands, seq, quota = problem.round_arrays()
    total = 1 << 40
    while True:
        step = total if slice_nodes is None else slice_nodes
        status = k.search(hands, seq, quota, Limits(step, 1 << 40, 0, 0), problem.deal, tt.arrays(), work)
        if status != kernel.OUT_OF_NODES or slice_nodes is None:
            break
        work.frame[kernel.FRAME_RESUME] = 1
    stats = [int(x) for x in work.stats]
    line = tuple(int(seq[problem.deal.tlen0 + i]) for i in range(stats[kernel.STAT_DEPTH])) \
        if status == kernel.WIN else ()
    return int(status), stats, line


@settings(max_examples=40)
@given(instances(max_players=4, max_cards=12, max_tasks=4), st.integers(1, 40))
def test_search_resumed_in_slices_is_the_search_in_one_call(inst: Instance, slice_nodes: int) -> None:
    """A search cut into calls of a few nodes, each going on from where the last stopped,
    gives the one call's verdict, winning line and every count (nodes, table hits and
    stores, cuts), in both kernels: cutting a round to poll a cancel hook costs nothing."""
    if inst.state().end is not None:
        return
    from crewcheck.solvers.search.refutations import refutation

    if refutation(inst.state()) is not None:
        return
    for k, compiled in twin_and_compiled():
        whole = _sliced_search(k, compiled, inst, None)
        assert _sliced_search(k, compiled, inst, slice_nodes) == whole


def test_engine_search_counts_match_the_search_without_a_cancel_hook() -> None:
    """The search polled through a cancel hook (as the engine runs it: slices of about
    20 ms) explores exactly the nodes of the search without one, on a corpus deal that
    broadens (more than 2**18 nodes): slices are no rounds of their own."""
    pytest.importorskip("numba")
    from crewcheck.formats.deal_json import loads

    deal = loads((Path(__file__).resolve().parents[3] / "tests" / "data" / "4p-fixed-k10-broadens.json")
                 .read_text(encoding="utf-8"))
    plain = SearchSolver().decide(deal, budget=Budget(nodes=600_000))
    hooked = SearchSolver().decide(deal, budget=Budget(nodes=600_000, cancel=lambda: False))
    assert (hooked.verdict, hooked.nodes, hooked.plays) == (plain.verdict, plain.nodes, plain.plays)
    assert hooked.extra["rounds"] == plain.extra["rounds"]


def test_slices_of_the_least_size_end_with_their_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """However short the slices (here the least, 1024 nodes, as on a slow machine), the
    last slice of a round ends where the round does: the search with a cancel hook
    explores exactly the nodes of the search without one (a slice once rounded up to 1024
    nodes ran past its round's end: 275,560 nodes against 275,173 on this deal)."""
    pytest.importorskip("numba")
    from crewcheck.formats.deal_json import loads
    from crewcheck.solvers.search import driver

    deal = loads((Path(__file__).resolve().parents[3] / "tests" / "data" / "4p-fixed-k10-broadens.json")
                 .read_text(encoding="utf-8"))
    plain = SearchSolver().decide(deal, budget=Budget(nodes=600_000))
    monkeypatch.setattr(driver, "CANCEL_ROUND_SECONDS", 1e-9)
    hooked = SearchSolver().decide(deal, budget=Budget(nodes=600_000, cancel=lambda: False))
    assert (hooked.verdict, hooked.nodes, hooked.plays) == (plain.verdict, plain.nodes, plain.plays)
