"""pytest-benchmark suite for the exhaustive solve of Witteveen's game (not timed unit tests).

Run with ``PYTHONPATH=. python -m pytest benchmarks/scripts/test_bench_witteveen_exhaustive.py
--benchmark-enable``. Each case decides every game of a few 4 x 9 layouts (task value,
player 1's task-suit holding): the first chunk of task value 1 holds the layouts with the
most exact searches, task value 5 mostly games won by replayed lines. The full run is
72 chunks of 64 layouts (``benchmarks/scripts/run_witteveen_exhaustive.py``).
"""

from __future__ import annotations

import pytest

from crewcheck.claims.witteveen import exhaustive

pytest.importorskip("numba")
pytest.importorskip("pytest_benchmark")

CASES = [(1, 0, 16), (5, 192, 16), (9, 448, 16)]


@pytest.mark.parametrize(("tv", "h0_from", "count"), CASES, ids=[f"tv{t}-h0-{h}+{c}" for t, h, c in CASES])
def test_bench_layouts(benchmark: object, tv: int, h0_from: int, count: int) -> None:
    """Decide every game of `count` layouts (fresh memo and line store each round)."""
    layouts = [(tv, h0) for h0 in range(h0_from, h0_from + count)]
    exhaustive.solve_layouts(9, layouts[:1], compiled=True)  # compile

    def run() -> int:
        out = exhaustive.solve_layouts(9, layouts, compiled=True)
        return int(out["games"])

    games = benchmark(run)  # type: ignore[operator]
    assert games > 0
