"""table.shared(): the search keeps its refutation table across positions of one deal,
and only of one deal."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given, note, settings

from crewcheck import decide
from crewcheck.formats.deal_json import from_dict
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.solvers.base import Budget
from crewcheck.solvers.search import SearchSolver
from crewcheck.solvers.search.driver import SearchOptions
from crewcheck.solvers.search.table import PURE_TABLE_BITS, TABLE_BITS, shared, table
from tests.strategies import instances

DEAL = parse_deal("B1 B4 G2 G3 | B2 B3 G1 G4 ; trump - ; lead 0 ; tasks B4@0 G1@1 ; strict/fixed")
OTHER = parse_deal("B1 B4 G2 G3 | B2 B3 G1 G4 ; trump - ; lead 0 ; tasks B3@0 ; strict/fixed")


def generation_after(instance) -> int:
    SearchSolver(SearchOptions(pure=True)).decide(instance, budget=Budget())
    return table(False, PURE_TABLE_BITS).gen


def test_every_decision_starts_a_new_generation_outside_shared():
    a = generation_after(DEAL)
    assert generation_after(DEAL.with_history((0,))) == a + 1


def test_positions_of_one_deal_keep_the_generation_inside_shared():
    """The first decision in the block starts a generation; later positions of the same
    deal keep it; another deal starts a new one, and so does coming back."""
    with shared():
        a = generation_after(DEAL)
        assert generation_after(DEAL.with_history((0,))) == a
        assert generation_after(DEAL.with_history((3,))) == a
        b = generation_after(OTHER)
        assert b == a + 1
        assert generation_after(DEAL.with_history((0,))) == b + 1
    assert generation_after(DEAL) == b + 2


@given(instances(max_players=3, max_cards=11, max_tasks=3))
@settings(max_examples=30)
def test_sharing_the_table_keeps_every_verdict(inst):
    """Deciding every position after one card, all on one table (search back-end, plain
    kernel), gives the oracle's verdict for each."""
    note(to_notation(inst))
    state = inst.state()
    with shared():
        for card in range(inst.deck.size):
            if not state.legal_mask() >> card & 1:
                continue
            child = inst.with_history((*inst.history, card))
            got = decide(child, backend="search").verdict
            want = decide(child, backend="exhaustive").verdict
            assert got is want, f"search says {got}, exhaustive says {want} after {inst.card(card)}"


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_searches_on_a_table_of_its_own() -> None:
    """The compiled table is not inherited by a fork (``MADV_DONTFORK``): a forked child
    drops the parent's tables and makes its own, so its search still answers (a child that
    used the parent's would die of a segmentation fault)."""
    from crewcheck.solvers.search.driver import load_compiled

    load_compiled()
    line = (Path(__file__).resolve().parents[3] / "benchmarks/corpus/4p-fixed-k12.jsonl").read_text().splitlines()[0]
    deal = from_dict({k: v for k, v in json.loads(line).items() if k != "id"})
    parents = table(True, TABLE_BITS)
    budget = Budget(nodes=200_000)  # enough to store refutations in the table
    SearchSolver().decide(deal, budget=budget)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report whether it got a new table and the verdict
        try:
            fresh = table(True, TABLE_BITS) is not parents
            SearchSolver().decide(deal, budget=budget)
            os.write(write, b"ok" if fresh else b"no")
        finally:
            os._exit(0)
    os.close(write)
    got = os.read(read, 2)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and got == b"ok"
    assert table(True, TABLE_BITS) is parents
