"""Witteveen §5 grid job (crewcheck.claims.witteveen.ranking_job): chunks, shared work, determinism."""

from __future__ import annotations

import pytest

from crewcheck.claims.witteveen import ranking_job as job


def test_the_full_design_is_the_thesis_grid_block_by_block() -> None:
    """20 task counts x 1000 deals in blocks of 50; the first 20 chunks are block 0 of every
    count, so a grid stopped part-way is balanced across the counts."""
    chunks = job.chunks("full")
    assert len(chunks) == 20 * 20 and sum(c["deals"] for c in chunks) == 20_000
    assert [c["tasks"] for c in chunks[:20]] == list(range(1, 21)) and {c["first"] for c in chunks[:20]} == {0}
    assert [c["first"] for c in chunks[20:40]] == [50] * 20
    assert len({tuple(sorted(c.items())) for c in chunks}) == len(chunks)
    assert all(c["budget"] == 1000 and c["seed"] == 0 for c in chunks)
    assert len(job.PAIRS) == 36 and job.PAIRS[0] == ("random", "random") and job.PAIRS[35] == ("mcts-smart",) * 2


@pytest.mark.parametrize(("tasks", "i"), [(1, 0), (3, 1), (4, 2), (6, 0)])
def test_shared_work_gives_the_games_of_separate_pairs(tasks: int, i: int) -> None:
    """Sharing the task phase per task agent and the play phase per assignment changes no
    pair's outcome (small budget, to keep the test short)."""
    key = job.deal_key(0, tasks, i)
    assert job.play_deal(key, tasks, budget=40) == job.play_deal_plain(key, tasks, budget=40)


def test_a_chunk_is_deterministic() -> None:
    """The same chunk gives the same record, one integer per deal."""
    params = {"seed": 0, "tasks": 2, "first": 3, "deals": 2, "budget": 30}
    one = job.ranking_chunk(params)
    assert one == job.ranking_chunk(params) and len(one["wins"]) == 2
    assert all(0 <= w < 1 << 36 for w in one["wins"])
    assert one["wins"][0] == job.play_deal(job.deal_key(0, 2, 3), 2, budget=30)


def test_won_reads_a_pairs_bit() -> None:
    bits = 1 << job.PAIRS.index(("tactical", "pmc")) | 1
    assert job.won(bits, ("tactical", "pmc")) and job.won(bits, ("random", "random"))
    assert not job.won(bits, ("pmc", "pmc"))
