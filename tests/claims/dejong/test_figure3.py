"""de Jong's Figure 3: the chunk that deals and decides."""

from __future__ import annotations

from crewcheck.claims.dejong.figure3 import dejong_chunk


def test_dejong_chunk_on_a_small_deck() -> None:
    """The Figure 3 chunk deals, assigns and decides (oracle, 16-card deck)."""
    params = {"objectives": "fixed", "tasks": 2, "seed": 1, "index": 0, "size": 2, "backend": "exhaustive",
              "sizes": {"B": 3, "G": 3, "P": 3, "Y": 3, "R": 4}, "timeout": 30}
    out = dejong_chunk(params)
    assert out["winnable"] + out["unwinnable"] + out["unknown"] == 2
