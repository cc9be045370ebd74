"""Conditions in the search: the deal's special rules (:mod:`crewcheck.model.conditions`)
as ints the kernel steps and judges at every trick boundary.

What it is
    Each condition kind the search knows has one row in :data:`SEARCH_KINDS`: a
    :class:`SearchKind` with the kind's kernel code, how its fields become the row's ints
    (:meth:`SearchKind.encode`), how the model's memo becomes one int (:meth:`SearchKind.memo`)
    and how many bits that int takes in the refutation table's key
    (:meth:`SearchKind.bits`). The kernel side is two plain-Python functions that numba
    compiles with the rest of the search (:mod:`crewcheck.runtime.kernels`):
    :func:`cond_step` advances every condition's memo by one complete trick, and
    :func:`cond_judge` says whether one is broken (the position is lost), all hold (the
    game is won once the tasks are done) or some is still open; :func:`cond_key` writes
    the memos into the position key, so that a refuted position is only ever reused with
    the same memos. They are the int twins of each kind's ``step`` and ``judge`` and are
    tested against them on random games, kind by kind.
Rules covered
    Every kind of :mod:`crewcheck.model.conditions`, the *Mission Deep Sea* kinds of
    :mod:`crewcheck.model.deepsea_conditions` included (``wins_more_than_the_rest`` is
    ``wins_tricks`` ``>=`` more than half the tricks; ``leads_no_cards``, a restriction of
    the seat's leads, is judged at the trick's end and cut by :func:`cond_trick_dead`
    right after the lead). A kind without a row is not judged
    by the search: :func:`build` leaves it out when asked to (``relax=True``) and says so,
    so the search decides a *relaxation* of the deal (more lines win). Its UNWINNABLE is
    then a proof, its winning line is only a candidate that :mod:`crewcheck.solvers.engine`
    replays on the real deal, and the SAT side of the engine decides the rest.
Exact
    Yes for the kinds with a row: the kernel's memos are the model's (up to a
    normalisation that keeps what the future depends on: the balance of tricks and
    ``wins_as_many_tricks_as`` keep the differences, ``wins_consecutive_tricks`` counts
    runs up to two), the judgement the same, and the cuts of the search are about tasks,
    which a won game completes whatever its conditions. Cards a condition names (by card
    or value) are never treated as interchangeable with their neighbours, and a deal with
    conditions keys its refutation table by the exact cards held, not by relative ranks.
Cost
    One loop over the conditions per complete trick and per key; nothing per card.

Adding a kind
    Give it a new code (the next free ``K_*``), its branches in :func:`cond_step` and
    :func:`cond_judge`, and a :class:`SearchKind` row in :data:`SEARCH_KINDS` (ints beyond
    the row's six go to :attr:`SearchKind.extra`); the property tests in
    ``tests/solvers/search/test_conditions.py`` pick it up from the strategies' kinds. Until then a deal with that kind is decided by the SAT side (and
    the search refutes its relaxation); see ``docs/performance.md``, "Conditions in the
    search".
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from itertools import combinations
from math import comb
from typing import Any

from crewcheck.model import conditions as C
from crewcheck.model import deepsea_conditions as D
from crewcheck.model.condition_base import Condition, Judgement
from crewcheck.model.instance import Instance
from crewcheck.model.rules import Rules
from crewcheck.model.state import State
from crewcheck.model.tasks import Task
from crewcheck.runtime.kernels import highbit_index, lowbit_index, popcount
from crewcheck.solvers.search.records import CondArrays
from crewcheck.solvers.search.rules import can_beat, trick_best

__all__ = [
    "SearchKind", "SEARCH_KINDS", "KEY_BITS", "build", "unknown_kinds", "describe_relaxation", "cond_step", "cond_judge",
    "cond_key", "cond_trick_dead", "cond_boundary_dead", "tasks_in_disguise", "winning_card_arms", "ARMS_MAX", "COND_FUNCTIONS", "C_OPEN", "C_HOLDS", "C_BROKEN",
]

C_OPEN = 0
C_HOLDS = 1
C_BROKEN = 2
"""What :func:`cond_judge` returns: some condition open, all hold, one broken (the
values of :class:`~crewcheck.model.condition_base.Judgement`)."""

K_WINS_NO_TRICKS = 1
K_WINS_TRICKS = 2
K_WINS_FEWER = 3
K_WINS_NO_CARDS = 4
K_WINS_ALL_CARDS = 5
K_TRICK_WON_WITH = 6
K_NO_TRICK_WON_WITH = 7
K_EACH_TRUMP = 8
K_WINS_TRICKS_AT = 9
K_BALANCED = 10
K_TASK_IN_TRICK = 11
K_WINS_TOGETHER = 12
K_WINS_CARDS = 13
K_COMPARES_CARDS = 14
K_TRICK_WHERE = 15
K_CONSECUTIVE = 16
K_NO_TRICKS_AT = 17
K_AS_MANY_TRICKS = 18
K_ALL_OF_A_SUIT = 19
K_LEADS_NO_CARDS = 20

WHERE_HOLDING, WHERE_TOTAL, WHERE_SUITS, WHERE_WON_WITH = 1, 2, 4, 8
"""Flags of ``wins_trick_where``: which of its tests are given."""
CONSECUTIVE_ONLY = 4
"""Flag of ``wins_consecutive_tricks`` (beside the comparison in the low bits)."""
TALLY_ZERO = 128
"""The memo of ``wins_as_many_tricks_as`` when both seats have won as many tricks."""

CMP_EQ, CMP_GE, CMP_LE = 0, 1, 2
_CMP = {"==": CMP_EQ, ">=": CMP_GE, "<=": CMP_LE}
SEAT_BITS = 5
"""Bits per seat of the balance memo (tricks won minus the fewest any seat has won)."""
KEY_BITS = 3 * 63
"""Room for the memos in the position key: three words of 63 bits (no memo straddles two)."""


# ---------------------------------------------------------------------------------------
# Kernel side (plain Python that numba compiles unchanged)
# ---------------------------------------------------------------------------------------

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


def cond_trick_dead(cond: CondArrays, memo: Any, hands: Any, p: int, seq: Any, ts: int, tlen: int, leader: int,
                    suit_of: Any, suit_mask: Any, trump: int) -> bool:
    """The trick in progress, ``seq[ts : ts + tlen]`` (``1 <= tlen < p`` cards, led by
    ``leader``), breaks a condition however it is finished.

    The seats that may still win it are the one winning now and each seat still to
    play that holds a legal card beating the best card so far (a superset: the best
    card only rises). Dead when: ``wins_no_tricks`` of the only such seat;
    ``wins_no_cards`` with a card of its target in the trick and its seat the only
    possible winner; ``wins_all_cards`` with a card of the suit in the trick and its seat
    not a possible winner; ``no_trick_won_with`` when nobody still to play can beat a
    best card of that value; ``wins_tricks_at`` on a listed trick its seat cannot win, or
    (``only``) on another trick only its seat can win; ``each_trump_wins_a_trick`` with
    two trumps in the trick; ``wins_together`` with one of its cards in the trick and its
    seat not a possible winner, or the holder of another of its cards already played;
    ``wins_no_tricks_at`` on a listed trick only its seat can win; ``leads_no_cards``
    when its seat led the trick with a card of its suit; ``wins_trick_where`` not yet met
    when this trick is its last chance and cannot pass (:func:`_where_last_chance_lost`).
    Each is a case of the kind's ``judge`` after the trick, whoever wins it (for
    ``wins_trick_where``: of its judge once no trick is left, as no later trick passes).
    """
    led = suit_of[seq[ts]]
    best = trick_best(seq, ts, tlen, suit_of, trump)
    best_card = seq[ts + best]
    best_suit = suit_of[best_card]
    cw = (leader + best) % p
    played = 0
    for i in range(tlen):
        played |= 1 << seq[ts + i]
    later = 0  # seats still to play that can beat the best card
    before = 1 << 30  # tricks left before this one: the smallest hand counting this trick's cards
    for i in range(p):
        s = (leader + i) % p
        h = popcount(hands[s])
        if i < tlen:
            h += 1
        elif can_beat(hands[s], led, best_suit, best_card, trump, suit_mask):
            later |= 1 << s
        if h < before:
            before = h
    winners = later | (1 << cw)
    number = cond.tricks_total - before + 1
    last = before == 1
    for i in range(cond.n):
        k = cond.code[i]
        seat = cond.seat[i]
        mask = cond.mask[i]
        if k == K_WINS_NO_TRICKS:
            if winners == (1 << seat):
                return True
        elif k == K_WINS_NO_CARDS:
            if (played & mask) != 0 and winners == (1 << seat):
                return True
        elif k == K_WINS_ALL_CARDS:
            if (played & mask) != 0 and (winners >> seat) & 1 == 0:
                return True
        elif k == K_NO_TRICK_WON_WITH:
            if later == 0 and (mask >> best_card) & 1:
                return True
        elif k == K_WINS_TRICKS_AT:
            if memo[i] == 0:
                listed = ((cond.tricks[i] >> number) & 1) != 0 or (last and (cond.tricks[i] & 1) != 0)
                if listed:
                    if (winners >> seat) & 1 == 0:
                        return True
                elif (cond.flags[i] & 1) != 0 and winners == (1 << seat):
                    return True
        elif k == K_EACH_TRUMP:
            if popcount(played & mask) >= 2:
                return True
        elif k == K_NO_TRICKS_AT:
            if memo[i] == 0 and winners == (1 << seat):
                if ((cond.tricks[i] >> number) & 1) != 0 or (last and (cond.tricks[i] & 1) != 0):
                    return True
        elif k == K_LEADS_NO_CARDS:
            if leader == seat and (mask >> seq[ts]) & 1:
                return True
        elif k == K_TRICK_WHERE:
            if memo[i] == 0 and _where_last_chance_lost(cond, i, hands, p, played, winners, best_card, tlen, leader):
                return True
        elif k == K_WINS_TOGETHER:
            if memo[i] == C_OPEN and (played & mask) != 0:
                if (winners >> seat) & 1 == 0:
                    return True
                rest = mask & ~played
                while rest != 0:
                    low = rest & -rest
                    rest ^= low
                    c = lowbit_index(low)
                    held = False
                    for j in range(tlen, p):
                        if (hands[(leader + j) % p] >> c) & 1:
                            held = True
                    if not held:
                        return True  # no seat still to play holds it: it misses this trick
    return False


def _where_last_chance_lost(cond: CondArrays, i: int, hands: Any, p: int, played: int, winners: int,
                            best_card: int, tlen: int, leader: int) -> bool:
    """The trick in progress is the last that can pass the tests of the ``wins_trick_where``
    condition ``i`` (not yet met), and it cannot pass them: it holds a card of ``holding``
    and no other is still held, or a card of ``won_with`` and no other is still held; and
    its seat is not a possible winner, or the best card so far is no card of ``won_with``
    and no seat still to play holds one (the winning card is the best card so far or one
    played later)."""
    f = cond.flags[i]
    x = cond.at[i]
    held = 0
    for s in range(p):
        held |= hands[s]
    last = False
    if (f & WHERE_HOLDING) != 0 and (played & cond.extra[x]) != 0 and (held & cond.extra[x]) == 0:
        last = True
    if (f & WHERE_WON_WITH) != 0 and (played & cond.mask[i]) != 0 and (held & cond.mask[i]) == 0:
        last = True
    if not last:
        return False
    if (winners >> cond.seat[i]) & 1 == 0:
        return True
    if (f & WHERE_WON_WITH) != 0 and ((cond.mask[i] >> best_card) & 1) == 0:
        for j in range(tlen, p):
            if (hands[(leader + j) % p] & cond.mask[i]) != 0:
                return False
        return True
    return False


def cond_boundary_dead(cond: CondArrays, memo: Any, hands: Any, p: int, trump: int, suit_mask: Any,
                       tricks_left: int) -> bool:
    """At a trick boundary, a condition can no longer hold however the game goes on.

    A ``wins_no_tricks`` seat holds the highest trump still in play and must play every
    card it holds (no more cards than tricks left): whenever it plays that trump it wins
    the trick (nobody can beat it, and led or not it beats every other card), so the
    condition breaks. A ``wins_trick_where`` condition not yet met needs a trick still to
    come that passes its tests: dead when its seat holds no card of ``won_with`` (a
    trick's winning card is its winner's own), when no card of ``holding`` is still
    held, when some seat holds no card of ``only`` (every card of the trick must be one),
    or when no card of one of its two suits is still held (the trick holds at least one
    of each). Its ``judge`` never says HOLDS before such a trick, so the game cannot be
    won.
    """
    for i in range(cond.n):
        k = cond.code[i]
        if k == K_WINS_NO_TRICKS and trump >= 0:
            seat = cond.seat[i]
            if popcount(hands[seat]) > tricks_left:
                continue
            trumps = 0
            for s in range(p):
                trumps |= hands[s]
            trumps &= suit_mask[trump]
            if trumps != 0 and (hands[seat] >> highbit_index(trumps)) & 1:
                return True
        elif k == K_TRICK_WHERE and memo[i] == 0:
            f = cond.flags[i]
            x = cond.at[i]
            only = cond.extra[x + 1]
            held = 0
            for s in range(p):
                held |= hands[s]
                if only != -1 and (hands[s] & only) == 0:
                    return True  # a seat with no card of `only`
            if (f & WHERE_WON_WITH) != 0 and (hands[cond.seat[i]] & cond.mask[i]) == 0:
                return True  # the winning card is the winner's own
            if (f & WHERE_HOLDING) != 0 and (held & cond.extra[x]) == 0:
                return True
            if (f & WHERE_SUITS) != 0 and ((held & cond.extra[x + 4]) == 0 or (held & cond.extra[x + 5]) == 0):
                return True
    return False


COND_FUNCTIONS = (_where_passes, cond_step, _cmp_holds, _range_judge, _compares_judge, _consecutive_judge,
                  cond_judge, cond_key, _where_last_chance_lost, cond_trick_dead, cond_boundary_dead)
"""The kernel functions of this module (their callees, the bit helpers, come first in the kernel)."""


# ---------------------------------------------------------------------------------------
# Python side: the table of kinds
# ---------------------------------------------------------------------------------------

Row = tuple[int, int, int, int, int, int]
"""``(seat, other, num, flags, mask, tricks)`` of one condition (unused fields 0; see :class:`CondArrays`)."""


def _count_bits(inst: Instance) -> int:
    return max(1, inst.tricks.bit_length())


def _judgement(memo: Hashable) -> int:
    return int(memo) if isinstance(memo, Judgement) else 0


def _flag(memo: Hashable) -> int:
    return 1 if memo else 0


def _int(memo: Hashable) -> int:
    assert isinstance(memo, int)
    return memo


def _suit_mask(inst: Instance, suit: str) -> int:
    return inst.deck.suit_mask(inst.deck.suit_index(suit))


def _trump_mask(inst: Instance) -> int:
    return 0 if inst.trump_suit is None else inst.deck.suit_mask(inst.trump_suit)


def _cards(cards: tuple[int, ...]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _trick_bits(refs: tuple[C.TrickRef, ...]) -> tuple[int, int]:
    """The listed tricks as a mask (bit t: trick t; bit 0: the last), and the highest number."""
    m, top = 0, 0
    for t in refs:
        if t == "last":
            m |= 1
        else:
            m |= 1 << int(t)
            top = max(top, int(t))
    return m, top


def _balance(memo: Hashable) -> int:
    counts: tuple[int, ...] = memo  # type: ignore[assignment]
    low = min(counts)
    return sum((v - low) << (SEAT_BITS * s) for s, v in enumerate(counts))


@dataclass(frozen=True)
class SearchKind:
    """How the search judges one condition kind (one row of :data:`SEARCH_KINDS`)."""

    code: int
    """The kind's code in :func:`cond_step` and :func:`cond_judge`."""
    encode: Callable[[Any, Instance], Row]
    """The condition's fields as ``(seat, other, num, flags, mask, tricks)``."""
    memo: Callable[[Hashable], int]
    """The model's memo (``Condition.step``'s value) as the kernel's int."""
    bits: Callable[[Any, Instance], int]
    """Bits the kernel's memo can take (its room in the position key)."""
    fits: Callable[[Any, Instance], bool] = lambda cond, inst: True
    """Whether the kernel's ints can hold this condition on ``inst`` (else: not judged here)."""
    extra: Callable[[Any, Instance], tuple[int, ...]] = lambda cond, inst: ()
    """Its further ints, for a kind that needs more than a row (at ``cond.extra[cond.at[i]]``)."""


_NO_TOTAL = 1 << 40
"""Beyond any total of a trick's values (an unbounded ``total_min`` / ``total_max``)."""


def _where_row(c: D.WinsTrickWhere, inst: Instance) -> Row:
    flags = ((WHERE_WON_WITH if c.won_with is not None else 0) | (WHERE_HOLDING if c.holding is not None else 0)
             | (WHERE_TOTAL if c.total_min is not None or c.total_max is not None else 0)
             | (WHERE_SUITS if c.suit is not None and c.other_suit is not None else 0))
    assert isinstance(c.seat, int), "a concrete deal (the crew's choices made)"
    return (c.seat, 0, 0, flags, _cards(c.won_with or ()), 0)


def _where_extra(c: D.WinsTrickWhere, inst: Instance) -> tuple[int, ...]:
    """``holding``, ``only`` (-1: every card), ``total_min``, ``total_max``, the two suits' masks."""
    both = c.suit is not None and c.other_suit is not None
    return (_cards(c.holding or ()), -1 if c.only is None else _cards(c.only),
            -_NO_TOTAL if c.total_min is None else c.total_min, _NO_TOTAL if c.total_max is None else c.total_max,
            _suit_mask(inst, c.suit) if both and c.suit is not None else 0,
            _suit_mask(inst, c.other_suit) if both and c.other_suit is not None else 0)


def _one(cond: Any, inst: Instance) -> int:
    return 1


def _two(cond: Any, inst: Instance) -> int:
    return 2


def _count(cond: Any, inst: Instance) -> int:
    return _count_bits(inst)


SEARCH_KINDS: dict[str, SearchKind] = {
    "wins_no_tricks": SearchKind(
        K_WINS_NO_TRICKS, lambda c, inst: (c.seat, 0, 0, 0, 0, 0), _flag, _one),
    "wins_tricks": SearchKind(
        K_WINS_TRICKS, lambda c, inst: (c.seat, 0, c.count, _CMP[c.cmp], 0, 0), _int, _count),
    "wins_fewer_tricks_than": SearchKind(
        K_WINS_FEWER, lambda c, inst: (c.seat, c.other, 0, 0, 0, 0),
        lambda m: m[0] | m[1] << 8,  # type: ignore[index]
        lambda c, inst: 16, lambda c, inst: inst.tricks < 256),
    "wins_no_cards": SearchKind(
        K_WINS_NO_CARDS, lambda c, inst: (c.seat, 0, 0, 0, c.target(inst), 0), _flag, _one),
    "wins_all_cards": SearchKind(
        K_WINS_ALL_CARDS,
        lambda c, inst: (c.seat, 0, 0, 1 if c.played_only else 0, c.target(inst), 0),
        _flag, _one),
    "trick_won_with": SearchKind(
        K_TRICK_WON_WITH,
        lambda c, inst: (-1 if c.seat is None else c.seat, 0, c.count, 0,
                         C._value_mask(inst, c.value, c.trump), 0), _int, _count),
    "no_trick_won_with": SearchKind(
        K_NO_TRICK_WON_WITH, lambda c, inst: (0, 0, 0, 0, C._value_mask(inst, c.value), 0), _flag, _one),
    "each_trump_wins_a_trick": SearchKind(
        K_EACH_TRUMP, lambda c, inst: (0, 0, 0, 1 if c.in_order else 0, _trump_mask(inst), 0),
        lambda m: _flag(m[0]) | m[1] << 1,  # type: ignore[index]
        lambda c, inst: 1 + max(v for vals in inst.deck.values for v in vals).bit_length()),
    "wins_tricks_at": SearchKind(
        K_WINS_TRICKS_AT,
        lambda c, inst: (c.seat, 0, _trick_bits(c.tricks)[1],
                         (1 if c.only else 0) | (2 if c.not_with_trump else 0), _trump_mask(inst),
                         _trick_bits(c.tricks)[0]), _flag, _one,
        lambda c, inst: inst.tricks < 62),
    "balanced_tricks": SearchKind(
        K_BALANCED, lambda c, inst: (0, 0, c.margin, 0, 0, 0), _balance,
        lambda c, inst: SEAT_BITS * inst.players,
        lambda c, inst: inst.tricks < (1 << SEAT_BITS) and SEAT_BITS * inst.players <= 62),
    "task_in_trick": SearchKind(
        K_TASK_IN_TRICK, lambda c, inst: (0, 0, 0 if c.trick == "last" else c.trick, 0, 1 << c.card, 0),
        _judgement, _two),
    "wins_together": SearchKind(
        K_WINS_TOGETHER, lambda c, inst: (c.seat, 0, 0, 0, _cards(c.cards), 0), _judgement, _two),
    "wins_cards": SearchKind(
        K_WINS_CARDS, lambda c, inst: (c.seat, 0, c.count, _CMP[c.cmp], c.target(inst), 0), _int,
        lambda c, inst: max(1, c.target(inst).bit_count().bit_length())),
    "compares_cards_won": SearchKind(
        K_COMPARES_CARDS, lambda c, inst: (c.seat, c.at_least, c.margin, _CMP[c.cmp], c.masks(inst)[0], 0),
        lambda m: m[0] | m[1] << 8,  # type: ignore[index]
        lambda c, inst: 16, lambda c, inst: all(m.bit_count() < 256 for m in c.masks(inst)),
        lambda c, inst: (c.masks(inst)[1],)),
    "wins_trick_where": SearchKind(K_TRICK_WHERE, _where_row, _flag, _one, extra=_where_extra),
    "wins_consecutive_tricks": SearchKind(
        K_CONSECUTIVE,
        lambda c, inst: (c.seat, 0, c.count, _CMP[c.cmp] | (CONSECUTIVE_ONLY if c.only else 0), 0, 0),
        lambda m: m[0] | m[1] << 8 | min(m[2], 2) << 16,  # type: ignore[index]
        lambda c, inst: 18, lambda c, inst: inst.tricks < 256),
    "wins_no_tricks_at": SearchKind(
        K_NO_TRICKS_AT, lambda c, inst: (c.seat, 0, _trick_bits(c.tricks)[1], 0, 0, _trick_bits(c.tricks)[0]),
        _flag, _one, lambda c, inst: inst.tricks < 62),
    "wins_as_many_tricks_as": SearchKind(
        K_AS_MANY_TRICKS, lambda c, inst: (c.seat, c.other, 0, 0, 0, 0),
        lambda m: m[0] - m[1] + TALLY_ZERO,  # type: ignore[index]
        lambda c, inst: 8, lambda c, inst: inst.tricks < TALLY_ZERO),
    "wins_more_than_the_rest": SearchKind(  # at least half the tricks and one more: wins_tricks ">="
        K_WINS_TRICKS, lambda c, inst: (c.seat, 0, inst.tricks // 2 + 1, CMP_GE, 0, 0), _int, _count),
    "wins_all_cards_of_a_suit": SearchKind(
        K_ALL_OF_A_SUIT,
        lambda c, inst: (c.seat, len(inst.deck.suits), sum(1 << u for u in c.suits(inst)), 0, 0, 0), _int,
        lambda c, inst: len(inst.deck.suits), lambda c, inst: len(inst.deck.suits) <= 62,
        lambda c, inst: tuple(inst.deck.suit_masks)),
    "leads_no_cards": SearchKind(
        K_LEADS_NO_CARDS, lambda c, inst: (c.seat, 0, 0, 0, _suit_mask(inst, c.suit), 0), _flag, _one),
}
"""Every condition kind the search judges itself, by its JSON name."""


_RELATIVE = (">", ">>", ">>>", ">>>>")


def tasks_in_disguise(instance: Instance) -> Instance | None:
    """The same deal with the conditions that are tasks in disguise written as tasks, or
    ``None`` when there is none (or the deal does not allow it).

    ``wins_all_cards(seat, suit)`` (not ``played_only``) is exactly one task per card of
    the suit for ``seat``: each is won by the seat, the game cannot be won before the last is, and it is lost
    when another seat wins one or one stays unplayed. ``each_trump_wins_a_trick`` is one
    task per trump for its holder: the holder wins the trick of its trump exactly when
    that trump wins it (a seat plays one card per trick), and two trumps in one trick
    fail the lower one's task; ``in_order`` adds the relative tokens ``>``, ``>>``, ...
    from the lowest trump up (at most four trumps, no other token in the deal). The
    search's cuts about tasks (precedence, release times, lead reachability) then apply.
    Only under fixed assignment or with no tasks (the deal becomes fixed), with no
    distress signal, no card a task of two seats, and no absolute or last (omega) token
    (those count every task: a task added before or after would move it; relative tokens
    order only the tasks that carry them); the winning lines are the same.
    """
    if instance.distress is not None or not instance.conditions:
        return None
    if any(t.token is not None and set(t.token) != {">"} for t in instance.tasks):
        return None
    if instance.tasks and instance.rules.assignment != "fixed":
        return None
    tasks = list(instance.tasks)
    owner = {t.card: t.seat for t in tasks}
    kept: list[Condition] = []
    changed = False
    for cond in instance.conditions:
        new: list[Task] = []
        if isinstance(cond, C.WinsAllCards) and isinstance(cond.seat, int) and not cond.played_only:
            target = cond.target(instance)
            new = [Task(c, cond.seat) for c in range(instance.deck.size) if target >> c & 1]
        elif isinstance(cond, C.EachTrumpWinsATrick) and instance.trump_suit is not None:
            mask = _trump_mask(instance)
            trumps = [c for c in range(instance.deck.size) if mask >> c & 1]
            if cond.in_order and (len(trumps) > len(_RELATIVE) or any(t.token is not None for t in tasks)):
                kept.append(cond)
                continue
            new = [Task(c, instance.holder[c], _RELATIVE[i] if cond.in_order else None)
                   for i, c in enumerate(trumps)]
        else:
            kept.append(cond)
            continue
        if any(t.card in owner and (owner[t.card] != t.seat or t.token is not None) for t in new):
            kept.append(cond)
            continue
        for t in new:
            if t.card not in owner:
                owner[t.card] = t.seat
                tasks.append(t)
        changed = True
    if not changed:
        return None
    return replace(instance, tasks=tuple(tasks), conditions=tuple(kept), quota=None,
                   rules=Rules(instance.rules.order_rule, "fixed"))


ARMS_MAX = 24
"""The most deals :func:`winning_card_arms` splits a deal into."""


def winning_card_arms(instance: Instance) -> list[Instance] | None:
    """Deals that together are equivalent to ``instance`` (winnable iff one is), each
    easier for the search, or ``None``.

    ``trick_won_with`` (``count`` tricks won with a card of ``value``, by ``seat`` if
    given) holds exactly when some ``count`` cards of that value (of the seat's, if given)
    each win their trick; a card wins its trick exactly when its holder wins that trick
    (a seat plays one card per trick), which is a task for the holder. So the deal is
    winnable iff, for some choice of the cards still needed among those still held or in
    the trick in progress, the deal with the condition replaced by those tasks is: a
    winning line of the deal has such cards (the first ones to win), and ends no earlier
    than the line of the choice, whose other conditions and tasks are the deal's. Under fixed assignment or with no
    tasks (the arms are fixed), no distress signal, at most :data:`ARMS_MAX` choices.
    """
    if instance.distress is not None or not instance.conditions:
        return None
    if instance.tasks and instance.rules.assignment != "fixed":
        return None
    state = instance.state()
    if state.end is not None:
        return None
    left = 0  # cards still to win a trick: held, or in the trick in progress
    for h in state.hands:
        left |= h
    for c in state.trick:
        left |= 1 << c
    owner = {t.card: t.seat for t in instance.tasks}
    for i, (cond, memo) in enumerate(zip(instance.conditions, state.memos)):
        if not isinstance(cond, C.TrickWonWith) or (cond.seat is not None and not isinstance(cond.seat, int)):
            continue
        need = cond.count - int(memo)  # type: ignore[call-overload]
        mask = C._value_mask(instance, cond.value, cond.trump) & left
        cards = [c for c in range(instance.deck.size) if mask >> c & 1
                 and (cond.seat is None or instance.holder[c] == cond.seat)]
        if need <= 0 or need > len(cards) or comb(len(cards), need) > ARMS_MAX:
            continue
        rest = instance.conditions[:i] + instance.conditions[i + 1:]
        arms = []
        for chosen in combinations(cards, need):
            if any(c in owner and owner[c] != instance.holder[c] for c in chosen):
                continue  # another seat's task: it never wins its own trick
            tasks = instance.tasks + tuple(Task(c, instance.holder[c]) for c in chosen if c not in owner)
            arms.append(replace(instance, tasks=tasks, conditions=rest, quota=None,
                                rules=Rules(instance.rules.order_rule, "fixed")))
        return arms
    return None


def unknown_kinds(instance: Instance) -> list[str]:
    """The kinds of ``instance``'s conditions the search cannot judge (sorted, no repeats):
    no row in :data:`SEARCH_KINDS`, a row whose ints cannot hold it on this deal, or more
    memo bits than the position key has room for."""
    out: set[str] = set()
    bits = 0
    for cond in instance.conditions:
        row = SEARCH_KINDS.get(cond.kind)
        if row is None or not row.fits(cond, instance):
            out.add(cond.kind)
            continue
        need = row.bits(cond, instance)
        if bits // 63 != (bits + need - 1) // 63:
            bits = (bits // 63 + 1) * 63  # a memo never straddles two words
        bits += need
        if bits > KEY_BITS:
            out.add(cond.kind)
    return sorted(out)


def _arrays(compiled: bool) -> Callable[[list[int]], Any]:
    if compiled:
        import numpy as np

        return lambda values: np.array(values, dtype=np.int64)
    return list


def build(instance: Instance, state: State, compiled: bool, *, relax: bool = False) -> CondArrays:
    """The kernel's record of ``instance``'s conditions, with their memos at ``state``.

    ``relax``: leave out the conditions :func:`unknown_kinds` names (the search then
    decides a relaxation); otherwise such a condition raises :class:`ValueError`.
    """
    unknown = set(unknown_kinds(instance))
    if unknown and not relax:
        raise ValueError(f"the search does not judge the condition kind(s) {', '.join(sorted(unknown))}")
    rows: list[tuple[int, Row]] = []
    memos: list[int] = []
    extra: list[int] = []
    at: list[int] = []
    for cond, memo in zip(instance.conditions, state.memos):
        if cond.kind in unknown:
            continue
        kind = SEARCH_KINDS[cond.kind]
        rows.append((kind.code, kind.encode(cond, instance)))
        memos.append(kind.memo(memo))
        at.append(len(extra))
        extra.extend(kind.extra(cond, instance))
    shifts: list[int] = []
    bits = 0
    for cond in instance.conditions:
        if cond.kind in unknown:
            continue
        need = SEARCH_KINDS[cond.kind].bits(cond, instance)
        if bits // 63 != (bits + need - 1) // 63:
            bits = (bits // 63 + 1) * 63
        shifts.append(bits)
        bits += need
    named = 0
    for cond in instance.conditions:
        named |= cond.named(instance)
    return _record(instance, rows, shifts, memos, named, compiled, at, extra)


def _record(instance: Instance, rows: list[tuple[int, Row]], shifts: list[int], memos: list[int], named: int,
            compiled: bool, at: list[int], extra: list[int]) -> CondArrays:
    arr = _arrays(compiled)
    pad = [0]  # never an empty array: one numba type for every deal

    def col(j: int) -> Any:
        return arr([r[1][j] for r in rows] + pad)

    return CondArrays(
        n=len(rows),
        code=arr([r[0] for r in rows] + pad),
        seat=col(0), other=col(1), num=col(2), flags=col(3), mask=col(4), tricks=col(5),
        at=arr(at + pad), extra=arr(extra + pad),
        shift=arr(shifts + pad),
        memo0=arr(memos + pad),
        value_of=arr([card.value for card in instance.deck.cards]),
        players=instance.players,
        tricks_total=instance.tricks,
        named=named,
    )


def describe_relaxation(instance: Instance) -> str | None:
    """``None`` when the search judges every condition of ``instance``, else which kinds it leaves out."""
    unknown = unknown_kinds(instance)
    if not unknown:
        return None
    return f"the search leaves out the condition kind(s) {', '.join(unknown)} (a relaxation)"
