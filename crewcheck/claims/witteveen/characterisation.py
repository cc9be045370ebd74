"""Witteveen's characterisation of losing 2-player 1-task games, and counts.

Setting (Witteveen Def 3.2, generalised to ``values = n``): 4 suits of ``n``
values, each player holds ``2n`` cards, one task card ``t`` owned by player 1,
no trumps, player 1 leads the first trick. Suit ``r = t_s`` is the critical
suit; ``k_s`` is the number of cards of suit ``s`` player 1 holds;
``T(k) = max(0, 2k - n)`` (Lemma 3.14). A player-1 card *directly wins* a
player-2 card of the same suit with a lower value (Def 3.10).

The losing games split into four disjoint classes (Cor 3.16 and 3.19):

``S1``  t in P1, P2 holds no critical card below t, P1 holds no full suit, P1
        has no directly winning card, and ``2k_r - (n+1) + sum T(k_s) >= 0``.
``S2``  t in P1, P2 holds no critical card below t, P1 holds no full suit, and
        ``2k_r - (n+1) + sum T(k_s) < 0`` (Formula 3).
``S3``  t in P2, P1 holds no critical card above t, P1 holds no full
        non-critical suit, P1 has no directly winning card, and P1 has a
        majority (``2k_s > n``) in some non-critical suit.
``S4``  t in P2, P1 holds no critical card above t, P1 holds no full
        non-critical suit, and P1 has no majority in any non-critical suit.

For ``n = 9`` these are the sets counted by the sums ``S1..S4`` of Thm 3.17
and 3.20. Here they are defined as predicates on a single game
(:func:`losing_class`) and counted by enumerating per-suit holdings and
combining suits (:func:`count_classes`); the paper's sums are evaluated
separately in :func:`paper_sums` and never used by the counts.

References
----------
.. [1] M. Witteveen, seed ``000``, §3.3: Lemma 3.14, Thm 3.15-3.20, Cor 3.21.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from typing import Literal, TypeAlias

LosingClass: TypeAlias = Literal["S1", "S2", "S3", "S4"]
CLASSES: tuple[LosingClass, ...] = ("S1", "S2", "S3", "S4")
SUITS = 4


def discards(k: int, n: int) -> int:
    """Return ``T(k) = max(0, 2k - n)``, Witteveen's Lemma 3.14 generalised."""
    return max(0, 2 * k - n)


def is_down_set(holding: int, k: int) -> bool:
    """Whether player 1 holds exactly the `k` lowest values of a suit.

    That is the case exactly when player 1 has no directly winning card in
    the suit.
    """
    return holding == (1 << k) - 1


def losing_class(holdings: Sequence[int], critical: int, task_value: int, n: int) -> LosingClass | None:
    """Classify one game by the characterisation; ``None`` means winnable.

    Parameters
    ----------
    holdings : sequence of int
        Player 1's holding in each suit as an ``n``-bit mask (bit ``v-1`` set
        when player 1 holds value ``v``).
    critical : int
        The task suit ``r``.
    task_value : int
        The task value ``t_v`` in ``1..n``.
    n : int
        Values per suit.

    Examples
    --------
    Player 1 holds every card of suit 0 (the task suit), so leads the task:

    >>> losing_class([0b111, 0b111, 0b000, 0b000], 0, 1, 3) is None
    True
    """
    ks = [h.bit_count() for h in holdings]
    hr = holdings[critical]
    others = [s for s in range(len(holdings)) if s != critical]
    any_dw = any(not is_down_set(h, k) for h, k in zip(holdings, ks))
    if hr >> (task_value - 1) & 1:
        low = (1 << task_value) - 1
        if hr & low != low or any(k == n for k in ks):
            return None
        slack = 2 * ks[critical] - (n + 1) + sum(discards(ks[s], n) for s in others)
        if slack < 0:
            return "S2"
        return None if any_dw else "S1"
    if hr >> (task_value - 1) or any(ks[s] == n for s in others):
        return None
    if all(2 * ks[s] <= n for s in others):
        return "S4"
    return None if any_dw else "S3"


def count_classes(n: int, *, suits: int = SUITS) -> dict[str, int]:
    """Count the games of each losing class with the task suit fixed.

    Enumerates every holding of the critical suit explicitly, tabulates the
    other suits' holdings by ``(k, directly-winning?)``, and combines the
    non-critical suits with a convolution over the state
    ``(cards, any directly winning, sum T, any full suit, any majority)``.

    Returns
    -------
    dict
        ``{"S1": .., "S2": .., "S3": .., "S4": .., "losing": .., "games": ..}``
        where ``games`` is the total number of games counted (all classes plus
        winnable), a consistency check against ``n * C(4n, 2n)``.
    """
    hand = (suits * n + 1) // 2
    # Histogram of one non-critical suit: (k, has directly winning card) -> holdings.
    single: dict[tuple[int, bool], int] = defaultdict(int)
    for h in range(1 << n):
        k = h.bit_count()
        single[(k, not is_down_set(h, k))] += 1
    # Convolution over the non-critical suits.
    State = tuple[int, bool, int, bool, bool]
    states: dict[State, int] = {(0, False, 0, False, False): 1}
    for _ in range(suits - 1):
        nxt: dict[State, int] = defaultdict(int)
        for (c, dw, t, full, maj), w in states.items():
            for (k, kdw), m in single.items():
                nxt[(c + k, dw or kdw, t + discards(k, n), full or k == n, maj or 2 * k > n)] += w * m
        states = nxt
    counts: dict[str, int] = dict.fromkeys(CLASSES, 0)
    games = 0
    for tv in range(1, n + 1):
        for hr in range(1 << n):
            kr = hr.bit_count()
            dw_r = not is_down_set(hr, kr)
            for (c, dw, t, full, maj), w in states.items():
                if c + kr != hand:
                    continue
                games += w
                any_dw = dw or dw_r
                if hr >> (tv - 1) & 1:  # task card in P1's hand
                    low = (1 << tv) - 1
                    if hr & low != low or full or kr == n:
                        continue
                    if 2 * kr - (n + 1) + t < 0:
                        counts["S2"] += w
                    elif not any_dw:
                        counts["S1"] += w
                else:
                    if hr >> (tv - 1) or full:
                        continue
                    if not maj:
                        counts["S4"] += w
                    elif not any_dw:
                        counts["S3"] += w
    return {**counts, "losing": sum(counts.values()), "games": games}


def _T9(k: int) -> int:
    return max(0, 2 * k - 9)


def paper_sums() -> dict[str, int]:
    """Evaluate the sums (4)-(7) of Thm 3.17 and 3.20 as printed (``n = 9``).

    The summation bounds of (5) are garbled in the text layer of the seed; the
    bounds used here (``t_v = 1..3``, ``k_r = t_v..3``, ``k_a, k_b, k_c =
    5..7``) are the ones derived in the proof of Thm 3.17.
    """
    rng = range
    s1 = sum(
        1
        for tv in rng(1, 9) for kr in rng(tv, 9)
        for ka in rng(0, 9) for kb in rng(0, 9) for kc in rng(0, 9)
        if kr + ka + kb + kc == 18 and 2 * kr - 10 + _T9(ka) + _T9(kb) + _T9(kc) >= 0
    )
    s2 = sum(
        math.comb(9 - tv, kr - tv) * math.comb(9, ka) * math.comb(9, kb) * math.comb(9, kc)
        for tv in rng(1, 4) for kr in rng(tv, 4)
        for ka in rng(5, 8) for kb in rng(5, 8) for kc in rng(5, 8)
        if kr + ka + kb + kc == 18 and 2 * kr - 10 + _T9(ka) + _T9(kb) + _T9(kc) < 0
    )
    s3 = sum(
        1
        for tv in rng(1, 10) for kr in rng(0, tv)
        for ka in rng(0, 9) for kb in rng(0, 9) for kc in rng(0, 9)
        if kr + ka + kb + kc == 18 and (ka >= 5 or kb >= 5 or kc >= 5)
    )
    s4 = sum(
        math.comb(tv - 1, kr) * math.comb(9, ka) * math.comb(9, kb) * math.comb(9, kc)
        for tv in rng(7, 10) for kr in rng(6, tv)
        for ka in rng(2, 5) for kb in rng(2, 5) for kc in rng(2, 5)
        if kr + ka + kb + kc == 18
    )
    return {"S1": s1, "S2": s2, "S3": s3, "S4": s4, "losing": s1 + s2 + s3 + s4}
