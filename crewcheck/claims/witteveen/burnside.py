"""Counting 2-player 1-task games up to suit permutation (Witteveen §3.2).

A *game* here is Witteveen's Definition 3.2 generalised to ``suits`` suits of
``values`` values: a task card ``t`` (owned by player 1) and the set of cards
``P1`` dealt to player 1, with ``|P1| = ceil(N / 2)`` for ``N = suits * values``
(player 2 gets the rest). The symmetric group on the suits acts on games by
relabelling suits.

Two independent computations are provided:

* :func:`fixed_points` counts the games left invariant by one suit permutation
  from its cycle structure alone: the task suit must be a fixed point, and
  ``P1`` must be a union of "same value set on every suit of a cycle" blocks,
  so the hand count is the coefficient of ``x^h`` in
  ``prod_cycles (1 + x^len)^values``. Burnside's lemma then gives the orbit
  count (:func:`burnside_orbits`).
* :func:`brute_force_orbits` enumerates every game of a small deck, applies all
  suit permutations and counts distinct canonical forms (minimum code). It also
  counts fixed points per permutation by direct comparison.

Notes
-----
Cost: :func:`fixed_points` is polynomial; :func:`brute_force_orbits` is
``O(suits! * N * C(N, h))`` and is meant for ``N <= 20``.

References
----------
.. [1] M. Witteveen, seed ``000``, §3.2, Lemma 3.11, Thm 3.12, Lemma 3.13.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np


def cycles(perm: Sequence[int]) -> list[list[int]]:
    """Return the cycles of a permutation given as an image list.

    Examples
    --------
    >>> cycles([1, 0, 2, 3])
    [[0, 1], [2], [3]]
    """
    seen: set[int] = set()
    out: list[list[int]] = []
    for start in range(len(perm)):
        if start in seen:
            continue
        cyc = [start]
        seen.add(start)
        j = perm[start]
        while j != start:
            cyc.append(j)
            seen.add(j)
            j = perm[j]
        out.append(cyc)
    return out


def cycle_type(perm: Sequence[int]) -> tuple[int, ...]:
    """Return the sorted cycle lengths, longest first (e.g. ``(2, 1, 1)``)."""
    return tuple(sorted((len(c) for c in cycles(perm)), reverse=True))


def hand_size(suits: int, values: int) -> int:
    """Return the size of player 1's hand, ``ceil(suits * values / 2)``."""
    return (suits * values + 1) // 2


def _poly_mul(a: list[int], b: list[int]) -> list[int]:
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def fixed_points(perm: Sequence[int], values: int) -> int:
    """Count games invariant under the suit permutation `perm`.

    Parameters
    ----------
    perm : sequence of int
        Image list of a permutation of the suits ``0..s-1``.
    values : int
        Number of values per suit.

    Returns
    -------
    int
        ``|X^g|``: (task cards in fixed suits) times the number of invariant
        hands of size ``ceil(N/2)``.

    Examples
    --------
    >>> fixed_points([0, 1, 2, 3], 9) == 36 * math.comb(36, 18)
    True
    """
    suits = len(perm)
    h = hand_size(suits, values)
    poly = [1]
    for cyc in cycles(perm):
        block = [0] * (len(cyc) * values + 1)
        for i in range(values + 1):
            block[i * len(cyc)] = math.comb(values, i)
        poly = _poly_mul(poly, block)
    hands = poly[h] if h < len(poly) else 0
    tasks = values * sum(1 for s in range(suits) if perm[s] == s)
    return tasks * hands


def fixed_points_by_cycle_type(suits: int, values: int) -> dict[tuple[int, ...], tuple[int, int]]:
    """Return ``{cycle type: (number of permutations, fixed points each)}``.

    Raises
    ------
    AssertionError
        If two permutations of one cycle type have different counts (an
        internal invariant: conjugate permutations fix equally many games).
    """
    out: dict[tuple[int, ...], tuple[int, int]] = {}
    for perm in itertools.permutations(range(suits)):
        ct = cycle_type(perm)
        fp = fixed_points(perm, values)
        if ct in out:
            count, prev = out[ct]
            assert prev == fp, "conjugate permutations must fix equally many games"
            out[ct] = (count + 1, fp)
        else:
            out[ct] = (1, fp)
    return out


def burnside_sum(suits: int, values: int) -> int:
    """Return ``sum_g |X^g|`` over all suit permutations."""
    return sum(fixed_points(p, values) for p in itertools.permutations(range(suits)))


def burnside_orbits(suits: int, values: int) -> int:
    """Return the number of games up to suit permutation, by Burnside's lemma.

    Raises
    ------
    AssertionError
        If the sum is not divisible by the group order (it always is).
    """
    total = burnside_sum(suits, values)
    order = math.factorial(suits)
    assert total % order == 0
    return total // order


def total_games(suits: int, values: int) -> int:
    """Return the number of games without any symmetry filtering."""
    n = suits * values
    return n * math.comb(n, hand_size(suits, values))


def task_suit_fixed_games(suits: int, values: int) -> int:
    """Return the number of games whose task lies in one given suit (Lemma 3.13)."""
    n = suits * values
    return values * math.comb(n, hand_size(suits, values))


def all_hands(n_cards: int, size: int) -> np.ndarray:
    """Return every ``n_cards``-bit mask with `size` bits set, ascending (int64)."""
    if n_cards > 26:
        raise ValueError(f"deck of {n_cards} cards is too large to enumerate")
    masks = np.arange(1 << n_cards, dtype=np.int64)
    pop = np.zeros_like(masks)
    m = masks.copy()
    while m.any():
        pop += m & 1
        m >>= 1
    hands: np.ndarray = masks[pop == size]
    return hands


def _permute_masks(masks: np.ndarray, perm: Sequence[int], values: int) -> np.ndarray:
    full = (1 << values) - 1
    out = np.zeros_like(masks)
    for s, image in enumerate(perm):
        out |= ((masks >> (s * values)) & full) << (image * values)
    return out


def brute_force_orbits(suits: int, values: int) -> tuple[int, int, dict[tuple[int, ...], list[int]]]:
    """Count games and orbits by explicit enumeration and canonicalisation.

    Returns
    -------
    games : int
        Number of games enumerated.
    orbits : int
        Number of distinct canonical forms (minimum code over all relabellings).
    fixed : dict
        ``{cycle type: [fixed-point count of each permutation of that type]}``,
        counted by comparing each game with its image.
    """
    n = suits * values
    hands = all_hands(n, hand_size(suits, values))
    tasks = np.arange(n, dtype=np.int64)
    task_col = np.repeat(tasks, hands.size)
    hand_col = np.tile(hands, n)
    codes = (task_col << n) | hand_col
    canon = codes.copy()
    fixed: dict[tuple[int, ...], list[int]] = {}
    for perm in itertools.permutations(range(suits)):
        pt = np.array([perm[t // values] * values + t % values for t in range(n)], dtype=np.int64)
        image = (pt[task_col] << n) | _permute_masks(hand_col, perm, values)
        np.minimum(canon, image, out=canon)
        fixed.setdefault(cycle_type(perm), []).append(int(np.count_nonzero(image == codes)))
    return int(codes.size), int(np.unique(canon).size), fixed
