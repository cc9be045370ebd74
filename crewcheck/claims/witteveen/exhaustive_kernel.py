"""Kernel of the exhaustive solve of Witteveen's game: search, certificates, enumeration.

Plain-Python functions on ints and int64 numpy arrays that numba compiles unchanged
(:func:`crewcheck.runtime.kernels.compile_kernel`); :data:`KERNEL_FUNCTIONS` lists them callees
first, and :mod:`crewcheck.claims.witteveen.exhaustive` runs either the compiled kernel
or its plain-Python twin (the tests compare the two). The soundness of every step is
argued in the docstring of :mod:`crewcheck.claims.witteveen.exhaustive`; this module
only says what each function computes.

Card ``suit * n + v`` (value index ``v = 0..n-1``); the task suit is suit 0, a
*layout* is the task value and player 1's task-suit holding, and the three other
suits are player 1's holdings ``h1, h2, h3`` (``n``-bit masks; player 2 holds the
rest of the deck).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from crewcheck.claims.witteveen.kernel import candidates, insert, key_of, lookup
from crewcheck.runtime.kernels import highbit_index, lowbit_index, popcount

MAX_DEPTH = 40
"""Rows of the per-depth scratch buffers (a game has at most ``2n <= 18`` tricks)."""

MAX_KIDS = 192
"""Moves of one relaxed position at most (81 task-suit tricks, 27 void discards, 3 x 13
other leads, with room to spare)."""

WORD_BITS = 32
"""Bits per word of a holding set (int64 words holding 32 bits: no sign trouble)."""

# Indices of the statistics array filled by solve_layout.
STAT_KERNEL_CALLS = 0
STAT_KERNEL_LOSSES = 1
STAT_LINES = 2
STAT_LINES_DROPPED = 3
STAT_RELAXED_SEARCHES = 4
STAT_RELAXED_LOSING = 5
STAT_PAIRS = 6
STAT_ERRORS = 7
STAT_RECORD_OVERFLOW = 8
N_STATS = 9


# -- exact search of one game, with the winning line -----------------------------------------
def go_line(h1: Any, h2: Any, leader: int, task: int, values: int, tables: Any, memo: Any, stamp: int,
            stacks: Any, depth: int, line: Any) -> bool:
    """Whether player 1 can win the task from this position; on success ``line.path[i] =
    (leader, led card, followed card)`` for the tricks ``i >= depth`` of one winning line and
    ``line.plen[0]`` is the line's length. ``memo`` (:class:`~.exhaustive.Memo`, game
    ``stamp``): positions shown losing (canonical keys).

    The depth-first search of :func:`crewcheck.claims.witteveen.kernel.go` (same moves,
    same order), written with an explicit stack (``stacks.st[d]``: the position, its key,
    and the indices of the next lead and follow to try) instead of recursion.
    """
    keys, stamps, count = memo.keys, memo.stamps, memo.state[1:2]
    buf, st = stacks.buf, stacks.st
    path, plen = line.path, line.plen
    base = depth
    d = depth
    st[d, 0] = h1
    st[d, 1] = h2
    st[d, 2] = leader
    entering = True
    while True:
        a1 = st[d, 0]
        a2 = st[d, 1]
        ld = st[d, 2]
        if ld == 0:
            lead_hand = a1
            follow_hand = a2
        else:
            lead_hand = a2
            follow_hand = a1
        lc = buf[d, 0]
        fc = buf[d, 1]
        if entering:
            entering = False
            key = key_of(a1, a2, ld, task, values, tables)
            if lookup(keys, stamps, stamp, key):
                d -= 1
                if d < base:
                    return False
                continue
            st[d, 3] = key
            st[d, 4] = candidates(lead_hand, follow_hand, lead_hand, task, values, lc)
            st[d, 5] = 0
            st[d, 6] = -1
            st[d, 7] = 0
        pushed = False
        while st[d, 5] < st[d, 4]:
            c = lc[st[d, 5]]
            suit = c // values
            if st[d, 6] < 0:
                smask = ((np.int64(1) << values) - 1) << (suit * values)
                fs = follow_hand & smask
                allowed = fs if fs != 0 else follow_hand
                st[d, 6] = candidates(follow_hand, lead_hand, allowed, task, values, fc)
                st[d, 7] = 0
            while st[d, 7] < st[d, 6]:
                e = fc[st[d, 7]]
                st[d, 7] += 1
                if e // values == suit and e > c:
                    winner = 1 - ld
                else:
                    winner = ld
                path[d, 0] = ld
                path[d, 1] = c
                path[d, 2] = e
                if c == task or e == task:
                    if winner == 0:
                        plen[0] = d + 1
                        return True
                    continue
                if ld == 0:
                    st[d + 1, 0] = a1 ^ (np.int64(1) << c)
                    st[d + 1, 1] = a2 ^ (np.int64(1) << e)
                else:
                    st[d + 1, 0] = a1 ^ (np.int64(1) << e)
                    st[d + 1, 1] = a2 ^ (np.int64(1) << c)
                st[d + 1, 2] = winner
                pushed = True
                break
            if pushed:
                break
            st[d, 5] += 1
            st[d, 6] = -1
        if pushed:
            d += 1
            entering = True
            continue
        insert(keys, stamps, stamp, st[d, 3], count)
        d -= 1
        if d < base:
            return False


# -- the relaxed game: other suits as card counts only -----------------------------------------
def relaxed_key(m1: Any, m2: Any, cnt: Any, leader: int, tval: int, values: int, tables: Any) -> Any:
    """Canonical key of a relaxed position: leader, the task suit's owner string with the
    task's place, and the sorted ``(player 1, player 2)`` card counts of the other suits."""
    live = m1 | m2
    crit = tables[tval + 1, (live << values) | m1]
    a = cnt[0] * 16 + cnt[1]
    b = cnt[2] * 16 + cnt[3]
    c = cnt[4] * 16 + cnt[5]
    if a > b:
        a, b = b, a
    if b > c:
        b, c = c, b
    if a > b:
        a, b = b, a
    return ((((crit << 8 | a) << 8 | b) << 8 | c) << 1) | leader


def rlookup(rkeys: Any, rstamps: Any, stamp: int, key: Any) -> int:
    """``1`` / ``0``: the relaxed position ``key`` is known winning / losing; ``-1``: unknown."""
    mask = rkeys.size - 1
    i = (key * np.int64(-7046029254386353131)) >> 20 & mask
    while rstamps[i] == stamp:
        if rkeys[i] >> 1 == key:
            return int(rkeys[i] & 1)
        i = (i + 1) & mask
    return -1


def rinsert(rkeys: Any, rstamps: Any, stamp: int, key: Any, value: int, rcount: Any) -> None:
    """Remember the verdict of a relaxed position (skipped once the table is 70 % full)."""
    mask = rkeys.size - 1
    if rcount[0] * 10 > rkeys.size * 7:
        return
    i = (key * np.int64(-7046029254386353131)) >> 20 & mask
    while rstamps[i] == stamp:
        if rkeys[i] >> 1 == key:
            return
        i = (i + 1) & mask
    rstamps[i] = stamp
    rkeys[i] = (key << 1) | value
    rcount[0] += 1


def relaxed_moves(m1: Any, m2: Any, cnt: Any, leader: int, tval: int, values: int, lc: Any, fc: Any,
                  kids: Any) -> int:
    """Write the positions after each move of the relaxed game into ``kids`` (rows: player
    1's and player 2's task-suit cards, the next leader, the six card counts); return how
    many, or ``-1`` when some move wins the task at once.

    The task suit is played as in the real game (``m1``, ``m2``: the players' task-suit
    cards as value masks, the task at value index ``tval``, touching cards tried once).
    Each other suit ``i`` is only its card counts ``cnt[2i + player]``, and a trick in
    which both players play such a suit may be won by either player (both are moves).
    """
    follower = 1 - leader
    if leader == 0:
        lm = m1
        fm = m2
    else:
        lm = m2
        fm = m1
    task = tval
    n = 0
    # Task-suit leads.
    nl = candidates(lm, fm, lm, task, values, lc)
    for i in range(nl):
        c = lc[i]
        cbit = np.int64(1) << c
        if fm != 0:
            nf = candidates(fm, lm, fm, task, values, fc)
            for k in range(nf):
                d = fc[k]
                dbit = np.int64(1) << d
                winner = follower if d > c else leader
                if c == task or d == task:
                    if winner == 0:
                        return -1
                    continue
                if leader == 0:
                    kids[n, 0] = m1 ^ cbit
                    kids[n, 1] = m2 ^ dbit
                else:
                    kids[n, 0] = m1 ^ dbit
                    kids[n, 1] = m2 ^ cbit
                kids[n, 2] = winner
                for j in range(6):
                    kids[n, 3 + j] = cnt[j]
                n += 1
        else:
            # Follower void in the task suit: discards a card of another suit; leader wins.
            if c == task:
                if leader == 0:
                    return -1
                continue
            for s in range(3):
                if cnt[2 * s + follower] == 0:
                    continue
                if leader == 0:
                    kids[n, 0] = m1 ^ cbit
                    kids[n, 1] = m2
                else:
                    kids[n, 0] = m1
                    kids[n, 1] = m2 ^ cbit
                kids[n, 2] = leader
                for j in range(6):
                    kids[n, 3 + j] = cnt[j]
                kids[n, 3 + 2 * s + follower] -= 1
                n += 1
    # Leads of another suit.
    for s in range(3):
        if cnt[2 * s + leader] == 0:
            continue
        if cnt[2 * s + follower] != 0:
            for w in range(2):
                kids[n, 0] = m1
                kids[n, 1] = m2
                kids[n, 2] = w
                for j in range(6):
                    kids[n, 3 + j] = cnt[j]
                kids[n, 3 + 2 * s] -= 1
                kids[n, 3 + 2 * s + 1] -= 1
                n += 1
            continue
        # Follower void in suit s: discards a task-suit card or a card of a third suit.
        if fm != 0:
            nf = candidates(fm, lm, fm, task, values, fc)
            for k in range(nf):
                d = fc[k]
                dbit = np.int64(1) << d
                if d == task:
                    if leader == 0:
                        return -1
                    continue
                if leader == 0:
                    kids[n, 0] = m1
                    kids[n, 1] = m2 ^ dbit
                else:
                    kids[n, 0] = m1 ^ dbit
                    kids[n, 1] = m2
                kids[n, 2] = leader
                for j in range(6):
                    kids[n, 3 + j] = cnt[j]
                kids[n, 3 + 2 * s + leader] -= 1
                n += 1
        for s2 in range(3):
            if s2 == s or cnt[2 * s2 + follower] == 0:
                continue
            kids[n, 0] = m1
            kids[n, 1] = m2
            kids[n, 2] = leader
            for j in range(6):
                kids[n, 3 + j] = cnt[j]
            kids[n, 3 + 2 * s + leader] -= 1
            kids[n, 3 + 2 * s2 + follower] -= 1
            n += 1
    return n


def relaxed_go(m1: Any, m2: Any, leader: int, tval: int, values: int, tables: Any, rmemo: Any, stamp: int,
               stacks: Any) -> bool:
    """Whether player 1 can win the relaxed game (:func:`relaxed_moves`) from the position
    with the card counts ``stacks.cnts[0]``.

    Depth-first with an explicit stack: ``stacks.kids[d]`` holds the moves of the position
    at depth ``d`` and ``stacks.rst[d] = (key, moves, next move)``. Every position met is
    memoised (won or lost) in ``rmemo`` (game ``stamp``) under :func:`relaxed_key`.
    """
    rkeys, rstamps, rcount = rmemo.keys, rmemo.stamps, rmemo.state[1:2]
    cnts, buf, kids, rst = stacks.cnts, stacks.buf, stacks.kids, stacks.rst
    d = 0
    st_m1 = m1
    st_m2 = m2
    st_leader = leader
    entering = True
    while True:
        if entering:
            entering = False
            cnt = cnts[d]
            key = relaxed_key(st_m1, st_m2, cnt, st_leader, tval, values, tables)
            known = rlookup(rkeys, rstamps, stamp, key)
            if known == 0:
                d -= 1
                if d < 0:
                    return False
                continue
            if known == 1:
                for up in range(d - 1, -1, -1):
                    rinsert(rkeys, rstamps, stamp, rst[up, 0], 1, rcount)
                return True
            rst[d, 0] = key
            nk = relaxed_moves(st_m1, st_m2, cnt, st_leader, tval, values, buf[d, 0], buf[d, 1], kids[d])
            if nk < 0:
                for up in range(d, -1, -1):
                    rinsert(rkeys, rstamps, stamp, rst[up, 0], 1, rcount)
                return True
            rst[d, 1] = nk
            rst[d, 2] = 0
        if rst[d, 2] < rst[d, 1]:
            j = rst[d, 2]
            rst[d, 2] += 1
            row = kids[d, j]
            st_m1 = row[0]
            st_m2 = row[1]
            st_leader = row[2]
            for i in range(6):
                cnts[d + 1, i] = row[3 + i]
            d += 1
            entering = True
            continue
        rinsert(rkeys, rstamps, stamp, rst[d, 0], 0, rcount)
        d -= 1
        if d < 0:
            return False


# -- certificates: the holdings of one suit on which a winning line can be replayed -----------
def line_holdings(path: Any, plen: int, suit: int, values: int, pairs: Any, out: Any) -> None:
    """Set ``out[h] = 1`` for every player-1 holding ``h`` of `suit` (player 2 holding the
    rest of the suit) on which the line's plays in that suit can be realised, else 0.

    The line's plays in the suit are reduced to: ``p`` tricks in which both play the suit
    and player 1's card is higher, ``q`` with player 2's higher, ``s1`` / ``s2`` single
    cards of player 1 / 2 (a lead the other cannot follow, or a discard), and the tricks
    where a player could not follow the suit, each fixing that player's card count in
    the suit to the number of the suit's cards already played. ``pairs[h, p, q]`` says
    whether ``h`` has ``p + q`` disjoint such pairs.
    """
    p = 0
    q = 0
    used1 = 0
    used2 = 0
    need1 = -1  # required card count of player 1 in the suit, -1: free
    bad = False
    for t in range(plen):
        leader = path[t, 0]
        c = path[t, 1]
        d = path[t, 2]
        sc = c // values
        sd = d // values
        if sc == suit and sd == suit:
            if leader == 0:
                p1card = c
                p2card = d
            else:
                p1card = d
                p2card = c
            if p1card > p2card:
                p += 1
            else:
                q += 1
            used1 += 1
            used2 += 1
        elif sc == suit:
            # The follower could not follow: its count in the suit is what it has played.
            if leader == 0:
                used1 += 1
                req = values - used2
            else:
                used2 += 1
                req = used1
            if need1 >= 0 and need1 != req:
                bad = True
            need1 = req
        elif sd == suit:
            if leader == 0:
                used2 += 1
            else:
                used1 += 1
    for h in range(1 << values):
        a = popcount(h)
        ok = not bad and a >= used1 and values - a >= used2 and pairs[h, p, q] == 1
        if need1 >= 0 and a != need1:
            ok = False
        out[h] = 1 if ok else 0


# -- enumeration of one layout -------------------------------------------------------------------
def add_line(path: Any, plen: int, values: int, pairs: Any, lines: Any, words: Any, nlines: Any,
             scratch: Any) -> int:
    """Store the line's three holding sets under every order of the three suits (distinct
    orders only); returns how many were stored (0 when the store is full)."""
    for s in range(3):
        line_holdings(path, plen, s + 1, values, pairs, scratch[s])
    size = 1 << values
    added = 0
    for perm in range(6):
        if perm == 0:
            a, b, c = 0, 1, 2
        elif perm == 1:
            a, b, c = 0, 2, 1
        elif perm == 2:
            a, b, c = 1, 0, 2
        elif perm == 3:
            a, b, c = 1, 2, 0
        elif perm == 4:
            a, b, c = 2, 0, 1
        else:
            a, b, c = 2, 1, 0
        # Skip an order equal to one already stored for this line.
        dup = False
        for prev in range(nlines[0] - added, nlines[0]):
            same = True
            for h in range(size):
                if lines[prev, 0, h] != scratch[a, h] or lines[prev, 1, h] != scratch[b, h] \
                        or lines[prev, 2, h] != scratch[c, h]:
                    same = False
                    break
            if same:
                dup = True
                break
        if dup:
            continue
        if nlines[0] >= lines.shape[0]:
            return added
        k = nlines[0]
        for h in range(size):
            lines[k, 0, h] = scratch[a, h]
            lines[k, 1, h] = scratch[b, h]
            lines[k, 2, h] = scratch[c, h]
        for w in range(words.shape[1]):
            words[k, w] = 0
        for h in range(size):
            if scratch[c, h] != 0:
                words[k, h // WORD_BITS] |= np.int64(1) << (h % WORD_BITS)
        nlines[0] += 1
        added += 1
    return added


def add_games(cell: Any, rest: int, eq_in: int, d_in: int, eq_down: bool, mult_rest: int, mult_eq: int) -> None:
    """Add the games of one pair ``(h1, h2)`` to ``cell`` (the tally's two entries by
    ``down3``): ``rest`` triples of weight ``mult_rest``, the triple ``h3 == h2`` if valid
    (``eq_in``; weight ``mult_eq``, a down-set when ``eq_down``) and the down-set ``h3`` if
    valid and not ``h2`` (``d_in``)."""
    cell[0] += mult_rest * rest
    if eq_in != 0:
        cell[1 if eq_down else 0] += mult_eq
    if d_in != 0:
        cell[1] += mult_rest


def record_loser(h1: int, h2: int, h3: Any, tally: Any) -> None:
    """Write the losing triple into ``tally.record`` (counted as an overflow once it is full)."""
    record, nrecord = tally.record, tally.nrecord
    if nrecord[0] < record.shape[0]:
        record[nrecord[0], 0] = h1
        record[nrecord[0], 1] = h2
        record[nrecord[0], 2] = h3
        nrecord[0] += 1
    elif record.shape[0] > 0:
        tally.stats[STAT_RECORD_OVERFLOW] += 1


def relaxed_class(k1: int, k2: int, k3: int, h0full: Any, tval: int, values: int, tables: Any, rmemo: Any,
                  rstamp: int, stacks: Any) -> tuple[int, int]:
    """Whether the relaxed game proves every game with these card counts in the other suits
    losing (``(1, stamp)``, else ``(0, stamp)``); ``stamp`` is the relaxed memo's game,
    moved on when the memo is 70 % full."""
    rcount = rmemo.state[1:2]
    full = (np.int64(1) << values) - 1
    ka = min(k1, k2, k3)
    kc = max(k1, k2, k3)
    kb = k1 + k2 + k3 - ka - kc
    cnt = stacks.cnts[0]
    cnt[0] = ka
    cnt[1] = values - ka
    cnt[2] = kb
    cnt[3] = values - kb
    cnt[4] = kc
    cnt[5] = values - kc
    if rcount[0] * 10 > rmemo.keys.size * 7:
        rstamp += 1
        rcount[0] = 0
    won = relaxed_go(h0full, full ^ h0full, 0, tval, values, tables, rmemo, rstamp, stacks)
    return (0 if won else 1), rstamp


def solve_layout(tval: int, h0: int, values: int, tables: Any, pairs: Any, popwords: Any, memo: Any, rmemo: Any,
                 stacks: Any, line: Any, store: Any, tally: Any) -> None:
    """Decide every game of one layout (task at value index `tval` of suit 0, player 1's
    task-suit holding `h0`), adding to the tallies.

    Games are the sorted triples ``h1 <= h2 <= h3`` of player 1's other holdings (weight
    6, 3 or 1: the orders of the suits that give distinct games). ``tally.tot`` and
    ``tally.lose`` are indexed ``[|h1|, |h2|, down1, down2, down3]`` (``down``: player 1
    holds the lowest cards of the suit) and count games, weighted. ``memo`` and ``rmemo``:
    the concrete and the relaxed memo (:class:`~.exhaustive.Memo`). ``popwords[k]``: the
    holdings of ``k`` cards as a word set. ``store``: the winning lines found (their
    holding sets). When ``tally.record`` has rows, every losing triple is written there
    (``tally.nrecord[0]`` of them). The records are those of :mod:`~.exhaustive`.
    """
    lines, words, scratch = store.lines, store.words, store.scratch
    tot, lose, stats = tally.tot, tally.lose, tally.stats
    path, plen = line.path, line.plen
    size = 1 << values
    nwords = words.shape[1]
    need = 2 * values - popcount(h0)
    h0full = h0 & ((np.int64(1) << values) - 1)
    deck = (np.int64(1) << (4 * values)) - 1
    nlines = np.zeros(1, dtype=np.int64)
    relaxed = np.full((values + 1, values + 1), -1, dtype=np.int64)
    active = np.zeros(lines.shape[0], dtype=np.int64)
    valid = np.zeros(nwords, dtype=np.int64)
    cover = np.zeros(nwords, dtype=np.int64)
    stamp = memo.state[0]
    count = memo.state[1:2]
    rstamp = rmemo.state[0]
    for h1 in range(size):
        k1 = popcount(h1)
        if k1 > need:
            continue
        down1 = 1 if h1 == (1 << k1) - 1 else 0
        nact = 0
        for ln in range(nlines[0]):
            if lines[ln, 0, h1] != 0:
                active[nact] = ln
                nact += 1
        for h2 in range(h1, size):
            k2 = popcount(h2)
            k3 = need - k1 - k2
            if k3 < 0 or k3 > values:
                continue
            # The triples (h1, h2, h3 >= h2) with |h3| = k3.
            any_valid = False
            for w in range(nwords):
                lo = w * WORD_BITS
                if lo + WORD_BITS <= h2:
                    valid[w] = 0
                    continue
                v = popwords[k3, w]
                if h2 > lo:
                    v &= ~((np.int64(1) << (h2 - lo)) - 1)
                valid[w] = v
                if v != 0:
                    any_valid = True
            if not any_valid:
                continue
            stats[STAT_PAIRS] += 1
            down2 = 1 if h2 == (1 << k2) - 1 else 0
            mult_rest = 6 if h1 < h2 else 3
            mult_eq = 3 if h1 < h2 else 1
            dbit = (1 << k3) - 1  # the down-set holding of the third suit
            # Tally every game of the pair: the triple with h3 == h2 and the one with the
            # third suit a down-set have their own weight or flag.
            nv = 0
            for w in range(nwords):
                nv += popcount(valid[w])
            eq_in = (valid[h2 // WORD_BITS] >> (h2 % WORD_BITS)) & 1
            d_in = 0
            if dbit != h2:
                d_in = (valid[dbit // WORD_BITS] >> (dbit % WORD_BITS)) & 1 if dbit >= h2 else 0
            add_games(tot[k1, k2, down1, down2], nv - eq_in - d_in, eq_in, d_in, h2 == dbit, mult_rest, mult_eq)
            # Count classes the relaxed game proves losing: every game of the pair loses.
            r = relaxed[k1, k2]
            if r < 0:
                r, rstamp = relaxed_class(k1, k2, k3, h0full, tval, values, tables, rmemo, rstamp, stacks)
                relaxed[k1, k2] = r
                relaxed[k2, k1] = r
                stats[STAT_RELAXED_SEARCHES] += 1
                stats[STAT_RELAXED_LOSING] += r
            if r == 1:
                add_games(lose[k1, k2, down1, down2], nv - eq_in - d_in, eq_in, d_in, h2 == dbit, mult_rest,
                          mult_eq)
                if tally.record.shape[0] > 0:
                    for w in range(nwords):
                        m = valid[w]
                        while m != 0:
                            low = m & -m
                            m ^= low
                            record_loser(h1, h2, w * WORD_BITS + lowbit_index(low), tally)
                continue
            # Cover by the stored lines; decide the rest by search.
            for w in range(nwords):
                cover[w] = 0
            for ai in range(nact):
                ln = active[ai]
                if lines[ln, 1, h2] == 0:
                    continue
                rest = False
                for w in range(nwords):
                    cover[w] |= words[ln, w]
                    if valid[w] & ~cover[w] != 0:
                        rest = True
                if not rest:
                    break
            for w in range(nwords):
                m = valid[w] & ~cover[w]
                while m != 0:
                    low = m & -m
                    m ^= low
                    h3 = w * WORD_BITS + lowbit_index(low)
                    if cover[w] & low != 0:
                        continue  # covered by a line found for an earlier h3
                    hand1 = h0full | (np.int64(h1) << values) | (np.int64(h2) << (2 * values)) \
                        | (np.int64(h3) << (3 * values))
                    if count[0] * 10 > memo.keys.size * 7:
                        stamp += 1
                        count[0] = 0
                    stats[STAT_KERNEL_CALLS] += 1
                    plen[0] = 0
                    if go_line(hand1, deck ^ hand1, 0, tval, values, tables, memo, stamp, stacks, 0, line):
                        before = nlines[0]
                        add_line(path, plen[0], values, pairs, lines, words, nlines, scratch)
                        if nlines[0] == before:
                            stats[STAT_LINES_DROPPED] += 1
                        stats[STAT_LINES] += nlines[0] - before
                        # The line must replay on its own game (identity order is stored first).
                        if nlines[0] > before:
                            if lines[before, 0, h1] == 0 or lines[before, 1, h2] == 0 \
                                    or lines[before, 2, h3] == 0:
                                stats[STAT_ERRORS] += 1
                        for ln in range(before, nlines[0]):
                            if lines[ln, 0, h1] != 0:
                                active[nact] = ln
                                nact += 1
                                if lines[ln, 1, h2] != 0:
                                    for w2 in range(nwords):
                                        cover[w2] |= words[ln, w2]
                    else:
                        stats[STAT_KERNEL_LOSSES] += 1
                        mult = mult_eq if h3 == h2 else mult_rest
                        lose[k1, k2, down1, down2, 1 if h3 == dbit else 0] += mult
                        record_loser(h1, h2, h3, tally)
    memo.state[0] = stamp
    rmemo.state[0] = rstamp


KERNEL_FUNCTIONS = (lowbit_index, highbit_index, popcount, key_of, lookup, insert, candidates, go_line,
                    relaxed_key, rlookup, rinsert, relaxed_moves, relaxed_go, line_holdings, add_line, add_games,
                    record_loser, relaxed_class, solve_layout)
"""Every function of the kernel, callees before callers."""
