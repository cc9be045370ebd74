"""Thm 3.23: the complement-and-swap map between S2 and S4."""

from __future__ import annotations

import random

import numpy as np
import pytest

from crewcheck.claims.witteveen import bijection
from crewcheck.claims.witteveen.characterisation import count_classes, losing_class


@pytest.mark.parametrize("n", [3, 4, 5, 9])
def test_classify_many_is_a_twin_of_losing_class(n: int) -> None:
    """The vectorised classifier equals the plain one on random games."""
    rng = random.Random(n)
    hands = np.array([sum(1 << c for c in rng.sample(range(4 * n), 2 * n)) for _ in range(400)], dtype=np.int64)
    for tv in range(1, n + 1):
        got = bijection.classify_many(hands, tv, n)
        want = [losing_class([(int(h) >> (s * n)) & ((1 << n) - 1) for s in range(4)], 0, tv, n) for h in hands]
        assert [bijection.CLASS_CODES[int(g)] for g in got] == want


@pytest.mark.parametrize("n", range(2, 8))
def test_map_is_a_bijection(n: int) -> None:
    """Every S2 game maps into S4 and back; the enumerations have the counted sizes."""
    counts = count_classes(n)
    for cls in ("S2", "S4"):
        r = bijection.check_direction(cls, n)
        assert r["games"] == counts[cls]
        assert r["wrong_class"] == r["wrong_image"] == r["not_involution"] == 0


@pytest.mark.slow
def test_map_is_a_bijection_at_nine() -> None:
    """The full n = 9 check (about 2.2e8 games, ~2 minutes)."""
    for cls in ("S2", "S4"):
        r = bijection.check_direction(cls, 9)
        assert r["games"] == 112_402_080
        assert r["wrong_class"] == r["wrong_image"] == r["not_involution"] == 0
