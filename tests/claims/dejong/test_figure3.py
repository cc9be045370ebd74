"""de Jong's Figure 3: the chunk that deals and decides."""

from __future__ import annotations

import random

import pytest

from crewcheck.claims.dejong import figure3
from crewcheck.claims.dejong.figure3 import _deal_dict, deal_instance, dejong_chunk
from crewcheck.formats.deal_json import from_dict


def test_dejong_chunk_on_a_small_deck() -> None:
    """The Figure 3 chunk deals, assigns and decides (oracle, 16-card deck)."""
    params = {"objectives": "fixed", "tasks": 2, "seed": 1, "index": 0, "size": 2, "backend": "exhaustive",
              "sizes": {"B": 3, "G": 3, "P": 3, "Y": 3, "R": 4}, "timeout": 30}
    out = dejong_chunk(params)
    assert out["winnable"] + out["unwinnable"] + out["unknown"] == 2


@pytest.mark.parametrize("objectives", ["fixed", "free"])
def test_direct_instance_equals_the_deal_file_reader(objectives: str) -> None:
    """The chunk's direct construction gives exactly the instance the validating reader gives."""
    rng = random.Random(5)
    sizes = {"B": 9, "G": 9, "P": 9, "Y": 9, "R": 4}
    for k in (1, 7, 23, 36):
        deal = _deal_dict(rng, sizes, 4, k, objectives)
        assert deal_instance(deal) == from_dict(deal)


def test_full_chunks_are_the_figure_at_its_size() -> None:
    """Full mode: 10,000 deals for every count, no time limit; the statement's counts and
    the rest of the curve together are every count 1..36."""
    for objectives in ("free", "fixed"):
        deciding = figure3.DECIDING[objectives]
        rest = tuple(k for k in figure3.FULL_COUNTS if k not in deciding)
        chunks = figure3._chunks("full", objectives, "engine", deciding) + figure3._chunks("full", objectives,
                                                                                          "engine", rest)
        assert all(c["timeout"] is None for c in chunks)
        per_k: dict[int, int] = {}
        for c in chunks:
            per_k[c["tasks"]] = per_k.get(c["tasks"], 0) + c["size"]
        assert per_k == {k: figure3.FULL_DEALS for k in range(1, 37)}
    assert figure3.DECIDING["free"] == tuple(range(2, 24))
