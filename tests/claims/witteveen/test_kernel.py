"""The compiled search kernel against its plain-Python twin."""

from __future__ import annotations

import random

import pytest

from crewcheck.claims.witteveen.burnside import all_hands
from crewcheck.claims.witteveen.reference_search import reference_decider

pytest.importorskip("numba")

from crewcheck.claims.witteveen.kernel import is_winnable_compiled


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 9])
def test_kernel_equals_python_search(n: int) -> None:
    """Compiled and plain-Python reference searches agree on random 4 x n games, any task."""
    rng = random.Random(100 + n)
    for _ in range(200 if n < 9 else 60):
        hand = sum(1 << c for c in rng.sample(range(4 * n), 2 * n))
        task = rng.randrange(4 * n)
        assert is_winnable_compiled(hand, task, n, 4) == reference_decider(hand, task, n, 4)


def test_kernel_on_a_losing_nine_value_game() -> None:
    """A known S2 game at n = 9 (task B1 in player 1's hand) is losing for both."""
    hold = [0b1101, 0b101100011, 0b1110110, 0b110101001]
    hand = sum(x << (9 * s) for s, x in enumerate(hold))
    assert is_winnable_compiled(hand, 0, 9, 4) is False


@pytest.mark.parametrize("n", [2, 3])
def test_kernel_equals_python_search_exhaustively(n: int) -> None:
    """Every 4 x n deal and every task card (task in either hand): same verdict."""
    for hand in all_hands(4 * n, 2 * n):
        for task in range(4 * n):
            assert is_winnable_compiled(int(hand), task, n, 4) == reference_decider(int(hand), task, n, 4)


def test_kernel_on_the_led_card_regressions() -> None:
    """The compiled kernel gets the 4 x 5 regression games right (winnable)."""
    for hand, tv in [(109795, 1), (114017, 1), (232803, 1), (240739, 1), (363875, 1), (109795, 2)]:
        assert is_winnable_compiled(hand, tv - 1, 5, 4) is True
