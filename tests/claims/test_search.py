"""The claims' reference search against its plain twin and the project's oracle."""

from __future__ import annotations

import random

import pytest

from crewcheck.claims import jobs
from crewcheck.claims.burnside import all_hands
from crewcheck.claims.reference_search import is_winnable, is_winnable_plain


@pytest.mark.parametrize("n", [1, 2, 3])
def test_reduced_search_equals_plain_search(n: int) -> None:
    """Touching-card reduction and canonical keys never change the verdict (all 4 x n deals)."""
    full = (1 << (4 * n)) - 1
    for hand in all_hands(4 * n, 2 * n):
        h = int(hand)
        for task in range(4 * n):
            assert is_winnable(h, full ^ h, task, n, 4) == is_winnable_plain(h, full ^ h, task, n, 4)


def test_reduced_search_equals_plain_search_on_random_4x4() -> None:
    """Same on random 4 x 4 deals with any task card."""
    rng = random.Random(4)
    full = (1 << 16) - 1
    for _ in range(300):
        h = sum(1 << c for c in rng.sample(range(16), 8))
        t = rng.randrange(16)
        assert is_winnable(h, full ^ h, t, 4, 4) == is_winnable_plain(h, full ^ h, t, 4, 4)


def test_reference_search_agrees_with_project_oracle() -> None:
    """The claims' search and crewcheck.decide(backend='exhaustive') agree on random 4 x 3 deals."""
    bridge = pytest.importorskip("crewcheck.claims.solver_bridge")
    oracle = bridge.make_decider("exhaustive")
    rng = random.Random(3)
    for _ in range(150):
        h = sum(1 << c for c in rng.sample(range(12), 6))
        t = rng.randrange(3)
        assert oracle(h, t, 3, 4) == jobs.reference_decider(h, t, 3, 4)


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_characterisation_exact_on_small_decks(n: int) -> None:
    """Thm 3.15 / 3.18 (generalised to n values) agree with the search on every 4 x n game."""
    res = jobs.merge(jobs.exhaustive_chunk({"n": n, "tv": tv, "part": 0, "parts": 1}) for tv in range(1, n + 1))
    assert res["A"]["disagree"] == 0 and res["B"]["disagree"] == 0
