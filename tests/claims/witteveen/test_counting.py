"""Counting claims: Burnside vs brute force, holdings count vs formulas."""

from __future__ import annotations

import math

import pytest

from crewcheck.claims.witteveen import burnside, characterisation


@pytest.mark.parametrize("suits,values", [(4, 1), (4, 2), (4, 3), (4, 4), (3, 1), (3, 2), (3, 3), (2, 3)])
def test_burnside_matches_brute_force_orbits(suits: int, values: int) -> None:
    """Burnside from cycle structure equals explicit orbit counting, per permutation too."""
    games, orbits, fixed = burnside.brute_force_orbits(suits, values)
    assert games == burnside.total_games(suits, values)
    assert orbits == burnside.burnside_orbits(suits, values)
    formula = burnside.fixed_points_by_cycle_type(suits, values)
    for ct, counts in fixed.items():
        assert set(counts) == {formula[ct][1]}


@pytest.mark.parametrize("values", [1, 2, 3, 4, 9])
def test_permutations_moving_every_suit_fix_no_game(values: int) -> None:
    """4-cycles and double swaps move the task suit, so they fix nothing (the paper's 9 · 0)."""
    by_type = burnside.fixed_points_by_cycle_type(4, values)
    assert by_type[(4,)] == (6, 0)
    assert by_type[(2, 2)] == (3, 0)


def test_three_cycle_term_of_thm_3_12() -> None:
    """The 3-cycle fixed-point count is 192,024 per permutation, not 469,875,168 / 8."""
    (count, fp) = burnside.fixed_points_by_cycle_type(4, 9)[(3, 1)]
    assert count == 8 and fp == 9 * sum(math.comb(9, i) * math.comb(9, 18 - 3 * i) for i in range(3, 7))
    assert burnside.burnside_orbits(4, 9) == 13_677_426_756


@pytest.mark.parametrize("n", range(1, 10))
def test_holdings_count_covers_every_game(n: int) -> None:
    """The per-suit convolution counts every game exactly once: n · C(4n, 2n)."""
    assert characterisation.count_classes(n)["games"] == n * math.comb(4 * n, 2 * n)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_holdings_count_matches_direct_classification(n: int) -> None:
    """Class counts from the convolution equal classifying every game one by one."""
    counts = dict.fromkeys(characterisation.CLASSES, 0)
    full = (1 << n) - 1
    for hand in burnside.all_hands(4 * n, 2 * n):
        for tv in range(1, n + 1):
            cls = characterisation.losing_class([(int(hand) >> (s * n)) & full for s in range(4)], 0, tv, n)
            if cls is not None:
                counts[cls] += 1
    got = characterisation.count_classes(n)
    assert all(got[c] == counts[c] for c in counts)


def test_paper_sums_evaluate_to_the_count() -> None:
    """The sums (4)-(7), evaluated, equal the independent holdings count at n = 9."""
    sums = characterisation.paper_sums()
    counts = characterisation.count_classes(9)
    assert all(sums[c] == counts[c] for c in characterisation.CLASSES)
