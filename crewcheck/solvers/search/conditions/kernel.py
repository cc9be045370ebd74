"""The kernel side of the conditions: step, judge and key (plain Python that numba compiles
unchanged, with the rest of the search)."""

from __future__ import annotations

from typing import Any

from crewcheck.runtime.kernels import lowbit_index, popcount
from crewcheck.solvers.search.conditions.codes import (
    CMP_EQ, CMP_GE, CMP_LE, CONSECUTIVE_ONLY, C_BROKEN, C_HOLDS, C_OPEN, K_ALL_OF_A_SUIT, K_AS_MANY_TRICKS, K_BALANCED,
    K_COMPARES_CARDS, K_CONSECUTIVE, K_EACH_TRUMP, K_LEADS_NO_CARDS, K_NO_TRICKS_AT, K_NO_TRICK_WON_WITH,
    K_TASK_IN_TRICK, K_TRICK_WHERE, K_TRICK_WON_WITH, K_WINS_ALL_CARDS, K_WINS_CARDS, K_WINS_FEWER, K_WINS_NO_CARDS,
    K_WINS_NO_TRICKS, K_WINS_TOGETHER, K_WINS_TRICKS, K_WINS_TRICKS_AT, SEAT_BITS, TALLY_ZERO, WHERE_HOLDING,
    WHERE_SUITS, WHERE_TOTAL, WHERE_WON_WITH,
)
from crewcheck.solvers.search.records import CondArrays


def cond_step(cond: CondArrays, memo: Any, played: int, winner: int, winning: int, number: int,
              last: int, lead_seat: int, lead_card: int) -> None:
    """Advance every memo in ``memo[0:cond.n]`` by one complete trick: the cards
    ``played`` (a mask), won by seat ``winner`` with card ``winning``, led by seat
    ``lead_seat`` with card ``lead_card``; ``number`` counts from 1, ``last``: whether no
    trick follows. The int twin of each kind's ``step``."""
    for i in range(cond.n):
        k = cond.code[i]
        m = memo[i]
        seat = cond.seat[i]
        mask = cond.mask[i]
        if k == K_WINS_NO_TRICKS:
            if winner == seat:
                m = 1
        elif k == K_WINS_TRICKS:
            if winner == seat:
                m += 1
        elif k == K_WINS_FEWER:
            if winner == seat:
                m += 1
            if winner == cond.other[i]:
                m += 256
        elif k == K_WINS_NO_CARDS:
            if winner == seat and (played & mask) != 0:
                m = 1
        elif k == K_WINS_ALL_CARDS:
            if winner != seat and (played & mask) != 0:
                m = 1
        elif k == K_TRICK_WON_WITH:
            if (mask >> winning) & 1 and (seat < 0 or winner == seat):
                m += 1
        elif k == K_NO_TRICK_WON_WITH:
            if (mask >> winning) & 1:
                m = 1
        elif k == K_EACH_TRUMP:
            trumps = played & mask
            if (m & 1) == 0 and trumps != 0:
                if trumps != (1 << winning):
                    m |= 1  # a trump of this trick does not win it
                else:
                    value = cond.value_of[winning]
                    top = m >> 1
                    if cond.flags[i] and value < top:
                        m |= 1
                    elif value > top:
                        m = value << 1
        elif k == K_WINS_TRICKS_AT:
            if m == 0:
                listed = ((cond.tricks[i] >> number) & 1) != 0 or (last != 0 and (cond.tricks[i] & 1) != 0)
                if listed:
                    if winner != seat:
                        m = 1
                    elif (cond.flags[i] & 2) != 0 and (mask >> winning) & 1:
                        m = 1  # won with a trump
                elif (cond.flags[i] & 1) != 0 and winner == seat:
                    m = 1  # "only": a trick not listed
        elif k == K_BALANCED:
            m += 1 << (SEAT_BITS * winner)
            low = 1 << 30
            for s in range(cond.players):
                v = (m >> (SEAT_BITS * s)) & ((1 << SEAT_BITS) - 1)
                if v < low:
                    low = v
            if low > 0:
                for s in range(cond.players):
                    m -= low << (SEAT_BITS * s)
        elif k == K_TASK_IN_TRICK:
            if m == C_OPEN:
                target = last != 0 if cond.num[i] == 0 else number == cond.num[i]
                if (played & mask) != 0:
                    m = C_HOLDS if target else C_BROKEN
                elif target:
                    m = C_BROKEN
        elif k == K_WINS_TOGETHER:
            if m == C_OPEN:
                got = played & mask
                if got != 0:
                    m = C_HOLDS if (got == mask and winner == seat) else C_BROKEN
        elif k == K_WINS_CARDS:
            if winner == seat:
                m += popcount(played & mask)
        elif k == K_COMPARES_CARDS:
            if winner == seat:
                m += popcount(played & mask) + (popcount(played & cond.extra[cond.at[i]]) << 8)
        elif k == K_TRICK_WHERE:
            if m == 0 and winner == seat and _where_passes(cond, i, played, winning):
                m = 1
        elif k == K_CONSECUTIVE:
            cur = m & 255
            if winner != seat:
                m -= cur
            else:
                best = (m >> 8) & 255
                runs = m >> 16
                if cur == 0 and runs < 2:
                    runs += 1  # runs beyond two are as good as two: only "at most one" is tested
                cur += 1
                if cur > best:
                    best = cur
                m = cur | (best << 8) | (runs << 16)
        elif k == K_NO_TRICKS_AT:
            if m == 0 and winner == seat:
                if ((cond.tricks[i] >> number) & 1) != 0 or (last != 0 and (cond.tricks[i] & 1) != 0):
                    m = 1
        elif k == K_AS_MANY_TRICKS:
            if winner == seat:
                m += 1
            if winner == cond.other[i]:
                m -= 1
        elif k == K_ALL_OF_A_SUIT:
            if winner != seat:
                for u in range(cond.other[i]):
                    if (played & cond.extra[cond.at[i] + u]) != 0:
                        m |= 1 << u
        elif k == K_LEADS_NO_CARDS:
            if lead_seat == seat and (mask >> lead_card) & 1:
                m = 1
        memo[i] = m


def _where_passes(cond: CondArrays, i: int, played: int, winning: int) -> bool:
    """Whether a trick (``played``, won with ``winning``) passes the tests of the
    ``wins_trick_where`` condition ``i`` (whoever won it); its further ints: the
    ``holding``, ``only``, ``total_min``, ``total_max`` and the two suits' masks."""
    f = cond.flags[i]
    x = cond.at[i]
    if (f & WHERE_WON_WITH) != 0 and ((cond.mask[i] >> winning) & 1) == 0:
        return False
    if (f & WHERE_HOLDING) != 0 and (played & cond.extra[x] & ~(1 << winning)) == 0:
        return False
    if (played & ~cond.extra[x + 1]) != 0:
        return False
    if (f & WHERE_TOTAL) != 0:
        total = 0
        rest = played
        while rest != 0:
            low = rest & -rest
            rest ^= low
            total += cond.value_of[lowbit_index(low)]
        if total < cond.extra[x + 2] or total > cond.extra[x + 3]:
            return False
    if (f & WHERE_SUITS) != 0:
        a = popcount(played & cond.extra[x + 4])
        if a == 0 or a != popcount(played & cond.extra[x + 5]):
            return False
    return True


def cond_judge(cond: CondArrays, memo: Any, left: int, tricks_left: int) -> int:
    """:data:`C_BROKEN` if some condition can no longer hold, :data:`C_HOLDS` if every one
    holds whatever the remaining ``tricks_left`` tricks bring (``left``: the cards still
    held), else :data:`C_OPEN`. The int twin of each kind's ``judge``."""
    holding = True
    for i in range(cond.n):
        k = cond.code[i]
        m = memo[i]
        n = cond.num[i]
        mask = cond.mask[i]
        j = C_OPEN
        if k == K_WINS_NO_TRICKS:
            if m != 0:
                j = C_BROKEN
            elif tricks_left == 0:
                j = C_HOLDS
        elif k == K_WINS_TRICKS:
            j = _range_judge(m, m + tricks_left, cond.flags[i], n)
        elif k == K_WINS_FEWER:
            a = m & 255
            b = m >> 8
            if a + tricks_left < b:
                j = C_HOLDS
            elif a >= b + tricks_left:
                j = C_BROKEN
        elif k == K_WINS_NO_CARDS or k == K_NO_TRICK_WON_WITH:
            if m != 0:
                j = C_BROKEN
            elif (left & mask) == 0 or tricks_left == 0:
                j = C_HOLDS
        elif k == K_WINS_ALL_CARDS:
            if m != 0:
                j = C_BROKEN
            elif (left & mask) == 0:
                j = C_HOLDS
            elif tricks_left == 0:
                j = C_HOLDS if cond.flags[i] != 0 else C_BROKEN  # flags: played_only
        elif k == K_TRICK_WON_WITH:
            if m >= n:
                j = C_HOLDS
            else:
                more = popcount(left & mask)
                if more > tricks_left:
                    more = tricks_left
                if m + more < n:
                    j = C_BROKEN
        elif k == K_EACH_TRUMP:
            trumps_left = left & mask
            if (m & 1) != 0:
                j = C_BROKEN
            elif trumps_left == 0:
                j = C_HOLDS
            elif tricks_left < popcount(trumps_left) or tricks_left == 0:
                j = C_BROKEN
            elif cond.flags[i] and cond.value_of[lowbit_index(trumps_left & -trumps_left)] < (m >> 1):
                j = C_BROKEN
        elif k == K_WINS_TRICKS_AT:
            if m != 0:
                j = C_BROKEN
            elif tricks_left == 0:
                j = C_HOLDS
            elif (cond.flags[i] & 1) == 0 and (cond.tricks[i] & 1) == 0 and n <= cond.tricks_total - tricks_left:
                j = C_HOLDS  # every listed trick is played (n: the highest listed)
        elif k == K_BALANCED:
            hi = 0
            lo = 1 << 30
            for s in range(cond.players):
                v = (m >> (SEAT_BITS * s)) & ((1 << SEAT_BITS) - 1)
                if v > hi:
                    hi = v
                if v < lo:
                    lo = v
            if hi - lo >= n:
                j = C_BROKEN
            elif tricks_left == 0:
                j = C_HOLDS
        elif k == K_TASK_IN_TRICK or k == K_WINS_TOGETHER:
            j = m
            if m == C_OPEN and tricks_left == 0:
                j = C_BROKEN
        elif k == K_WINS_CARDS:
            j = _range_judge(m, m + (popcount(left & mask) if tricks_left != 0 else 0), cond.flags[i], n)
        elif k == K_COMPARES_CARDS:
            j = _compares_judge(cond, i, m, left, tricks_left)
        elif k == K_TRICK_WHERE:
            if m != 0:
                j = C_HOLDS
            elif tricks_left == 0 or ((cond.flags[i] & WHERE_WON_WITH) != 0 and (left & mask) == 0):
                j = C_BROKEN
        elif k == K_CONSECUTIVE:
            j = _consecutive_judge(cond, i, m, tricks_left)
        elif k == K_NO_TRICKS_AT:
            if m != 0:
                j = C_BROKEN
            elif tricks_left == 0:
                j = C_HOLDS
            elif (cond.tricks[i] & 1) == 0 and n <= cond.tricks_total - tricks_left:
                j = C_HOLDS  # every listed trick is played (n: the highest listed)
        elif k == K_AS_MANY_TRICKS:
            d = m - TALLY_ZERO
            if tricks_left == 0:
                j = C_HOLDS if d == 0 else C_BROKEN
            elif d > tricks_left or -d > tricks_left:
                j = C_BROKEN
        elif k == K_ALL_OF_A_SUIT:
            open_ = n & ~m  # n: the suits that count
            j = C_BROKEN if (open_ == 0 or tricks_left == 0) else C_OPEN
            for u in range(cond.other[i]):
                if (open_ >> u) & 1 and (left & cond.extra[cond.at[i] + u]) == 0:
                    j = C_HOLDS
        elif k == K_LEADS_NO_CARDS:
            if m != 0:
                j = C_BROKEN
            elif tricks_left == 0 or (left & mask) == 0:
                j = C_HOLDS
        if j == C_BROKEN:
            return C_BROKEN
        if j != C_HOLDS:
            holding = False
    return C_HOLDS if holding else C_OPEN


def _cmp_holds(a: int, cmp: int, b: int) -> bool:
    if cmp == CMP_EQ:
        return a == b
    if cmp == CMP_GE:
        return a >= b
    return a <= b


def _range_judge(lo: int, hi: int, cmp: int, n: int) -> int:
    """The judgement of a count that will end between ``lo`` and ``hi`` against ``n``
    under the comparison ``cmp``: :data:`C_HOLDS` if every end holds, :data:`C_BROKEN` if
    none does, else :data:`C_OPEN`."""
    if cmp == CMP_GE:
        if lo >= n:
            return C_HOLDS
        if hi < n:
            return C_BROKEN
    elif cmp == CMP_LE:
        if hi <= n:
            return C_HOLDS
        if lo > n:
            return C_BROKEN
    else:
        if lo == n and hi == n:
            return C_HOLDS
        if lo > n or hi < n:
            return C_BROKEN
    return C_OPEN


def _compares_judge(cond: CondArrays, i: int, m: int, left: int, tricks_left: int) -> int:
    """``compares_cards_won``'s judgement: ``m`` holds the seat's cards of the first suit
    (low byte) and of the second; ``num``: the margin, ``other``: the least count of the
    first suit, ``flags``: the comparison, the masks in ``mask`` and ``extra[at]``."""
    a = m & 255
    b = m >> 8
    margin = cond.num[i]
    least = cond.other[i]
    cmp = cond.flags[i]
    ra = popcount(left & cond.mask[i])
    rb = popcount(left & cond.extra[cond.at[i]])
    if tricks_left == 0 or ra + rb == 0:
        return C_HOLDS if (_cmp_holds(a, cmp, b + margin) and a >= least) else C_BROKEN
    if a + ra < least:
        return C_BROKEN
    if cmp == CMP_GE:
        return C_OPEN if a + ra >= b + margin else C_BROKEN
    if cmp == CMP_LE:
        return C_OPEN if a <= b + rb + margin else C_BROKEN
    low = a
    if least > low:
        low = least
    if b + margin > low:
        low = b + margin
    high = a + ra
    if b + rb + margin < high:
        high = b + rb + margin
    return C_OPEN if low <= high else C_BROKEN


def _consecutive_judge(cond: CondArrays, i: int, m: int, tricks_left: int) -> int:
    """``wins_consecutive_tricks``'s judgement: ``m`` holds the current run (low byte),
    the longest and the number of runs (at most 2); ``num``: the count, ``flags``: the
    comparison and :data:`CONSECUTIVE_ONLY`."""
    cur = m & 255
    best = (m >> 8) & 255
    runs = m >> 16
    n = cond.num[i]
    cmp = cond.flags[i] & 3
    only = (cond.flags[i] & CONSECUTIVE_ONLY) != 0
    if cmp == CMP_GE and not only and best >= n:
        return C_HOLDS
    if tricks_left == 0:
        return C_HOLDS if (_cmp_holds(best, cmp, n) and (not only or runs <= 1)) else C_BROKEN
    if cmp != CMP_GE and best > n:
        return C_BROKEN
    if only and runs > 1:
        return C_BROKEN
    reach = cur + tricks_left
    if best > reach:
        reach = best
    if cmp != CMP_LE and reach < n:
        return C_BROKEN
    return C_OPEN


def cond_key(cond: CondArrays, memo: Any, key: Any) -> None:
    """Add the memos to a position key of the exact layout (``canon = 0``, whose words
    2-4 are free): memo ``i`` at bit ``cond.shift[i]`` of the 189 bits of words 2-4."""
    for i in range(cond.n):
        sh = cond.shift[i]
        word = sh // 63
        key[2 + word] |= memo[i] << (sh - 63 * word)


JUDGE_FUNCTIONS = (_where_passes, cond_step, _cmp_holds, _range_judge, _compares_judge, _consecutive_judge,
                   cond_judge, cond_key)
"""The kernel functions of this module, callees first."""
