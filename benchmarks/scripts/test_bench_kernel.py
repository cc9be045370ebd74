"""pytest-benchmark suite for the search kernel on fixed deals (not timed unit tests).

Run with ``PYTHONPATH=. python -m pytest benchmarks/scripts/test_bench_kernel.py --benchmark-enable``;
compare runs with ``--benchmark-autosave`` / ``--benchmark-compare`` so regressions
show. The deals are fixed corpus deals (seeded, see :mod:`benchmarks.scripts.corpus`), chosen
to cover an easy win, a hard win, refutations (4p-fixed-k12/22 searches 155,000 nodes;
4p-fixed-k20/0 is refuted at the root by the cheap bounds, so it times the set-up and
those bounds; 4p-fixed-k08-tokens/0 searches ~6.7 million), three players and free
assignment.
"""

from __future__ import annotations

import pytest

from benchmarks.scripts.corpus import Cell, load_cell
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.search import SearchSolver

pytest.importorskip("numba")
pytest.importorskip("pytest_benchmark")

CASES = [
    ("4p-fixed-k04", 0),
    ("4p-fixed-k06", 2),
    ("4p-fixed-k10", 1),
    ("4p-fixed-k12", 22),
    ("4p-fixed-k20", 0),
    ("3p-fixed-k04", 0),
    ("4p-free-k12", 0),
    ("3p-free-k25", 0),
    ("4p-fixed-k08-tokens", 0),
]


@pytest.mark.parametrize(("cell", "index"), CASES, ids=[f"{c}-{i}" for c, i in CASES])
def test_bench_search(benchmark: object, cell: str, index: int) -> None:
    """Time one decision of the compiled search on a fixed corpus deal."""
    inst = load_cell(Cell.parse(cell))[index]
    solver = SearchSolver()
    solver.decide(inst, budget=Budget(seconds=10))  # load the compiled kernel
    answer = benchmark(solver.decide, inst, budget=Budget(seconds=10))  # type: ignore[operator]
    assert answer.verdict is not Verdict.UNKNOWN
