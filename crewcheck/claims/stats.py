"""Statistics of the empirical claims: two-sample tests, Holm's correction, intervals.

A published rate is an estimate too: ``p`` over ``n`` games. Asking whether it lies in our
95 % interval treats it as exact: when both sides have the same ``n`` and the reproduction
is perfect, the difference has twice our variance, so each row falls outside with
probability P(|Z| > 1.96 / sqrt 2) = 0.17, and at least one of four rows about half the
time (1 - 0.83 ** 4 = 0.52). So every comparison here is a two-sample test on the
difference, and the p-values of the rows of one published table are corrected together
with Holm's step-down method.

Examples
--------
>>> round(two_sample(470, 10_000, 0.047, 10_000).p_value, 3)
1.0
>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
>>> round(paired_wins(60, 40, 1000).p_value, 4)
0.0455
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["ALPHA", "Comparison", "PairedWins", "wilson", "two_sample", "ratio_test", "paired_wins", "holm"]

ALPHA = 0.05
"""Family-wise significance level of one table's comparisons."""

_Z95 = 1.959963984540054


def _p_two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2.0))


def wilson(k: int, n: int, z: float = _Z95) -> tuple[float, float]:
    """The Wilson score interval of ``k`` successes in ``n`` trials (``(0, 1)`` when ``n = 0``)."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Comparison:
    """Our estimate against a published one."""

    ours: float
    """Our estimate."""
    theirs: float
    """The published estimate."""
    difference: float
    """``ours - theirs`` (for a ratio: ``log(ours / theirs)``)."""
    interval: tuple[float, float]
    """95 % interval of the difference."""
    z: float
    """The test statistic."""
    p_value: float
    """Two-sided p-value, before any correction."""


def two_sample(k: int, n: int, published: float, published_n: int) -> Comparison:
    """Test our ``k / n`` against a published rate estimated from ``published_n`` games.

    The test is the pooled two-proportion z test; the interval of the difference is
    Newcombe's hybrid score interval (from the two Wilson intervals), which behaves at
    rates near 0 where the Wald interval does not.
    """
    if n <= 0 or published_n <= 0:
        raise ValueError("a rate needs at least one game on each side")
    p1, p2 = k / n, published
    k2 = published * published_n
    pooled = (k + k2) / (n + published_n)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n + 1 / published_n))
    z = 0.0 if se == 0 else (p1 - p2) / se
    l1, u1 = wilson(k, n)
    l2, u2 = wilson(round(k2), published_n)
    d = p1 - p2
    lo = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    hi = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return Comparison(p1, p2, d, (lo, hi), z, 1.0 if se == 0 else _p_two_sided(z))


def ratio_test(k_num: int, n_num: int, k_den: int, n_den: int, published_num: float, published_den: float,
               published_n: int) -> Comparison | None:
    """Test our rate ratio ``(k_num / n_num) / (k_den / n_den)`` against a published one whose
    two rates each come from ``published_n`` games: a z test on the difference of the log
    ratios (delta method, independent samples). ``None`` when a count is 0."""
    if min(k_num, k_den) == 0 or min(published_num, published_den) <= 0:
        return None
    ours = (k_num / n_num) / (k_den / n_den)
    theirs = published_num / published_den
    var_ours = (1 - k_num / n_num) / k_num + (1 - k_den / n_den) / k_den
    var_theirs = ((1 - published_num) / (published_num * published_n)
                  + (1 - published_den) / (published_den * published_n))
    d = math.log(ours) - math.log(theirs)
    se = math.sqrt(var_ours + var_theirs)
    z = d / se
    return Comparison(ours, theirs, d, (d - _Z95 * se, d + _Z95 * se), z, _p_two_sided(z))


@dataclass(frozen=True, slots=True)
class PairedWins:
    """Two players' win rates on the same deals (McNemar's test on the discordant deals)."""

    only_a: int
    """Deals ``a`` won and ``b`` lost."""
    only_b: int
    """Deals ``b`` won and ``a`` lost."""
    deals: int
    """Deals played by both."""
    difference: float
    """``a``'s win rate minus ``b``'s."""
    interval: tuple[float, float]
    """95 % interval of the difference (Wald, paired)."""
    p_value: float
    """Two-sided, before any correction (1 when no deal is discordant)."""


def paired_wins(only_a: int, only_b: int, deals: int) -> PairedWins:
    """Compare two players' win rates on the same ``deals``: McNemar's z test on the deals only
    one of them won (a paired test: the deals both won or both lost say nothing of the
    difference), with the paired Wald interval of the difference of the rates."""
    if deals <= 0 or only_a < 0 or only_b < 0 or only_a + only_b > deals:
        raise ValueError(f"discordant deals {only_a} + {only_b} do not fit in {deals} deals")
    d = (only_a - only_b) / deals
    discordant = only_a + only_b
    if discordant == 0:
        return PairedWins(only_a, only_b, deals, 0.0, (0.0, 0.0), 1.0)
    se = math.sqrt(max(0.0, discordant - (only_a - only_b) ** 2 / deals)) / deals
    z = (only_a - only_b) / math.sqrt(discordant)
    return PairedWins(only_a, only_b, deals, d, (d - _Z95 * se, d + _Z95 * se), _p_two_sided(z))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the input order.

    A row is significant at family-wise level ``alpha`` when its adjusted p-value is below
    ``alpha``.
    """
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = round(running, 12)
    return adjusted
