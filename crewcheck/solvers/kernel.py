"""The search kernel: plain-Python functions that numba compiles unchanged.

Every function here is ordinary Python on ints and int sequences (lists or int64
numpy arrays), with no calls outside this module. :func:`compiled` returns the same
functions compiled with ``numba.njit(cache=True)`` (numba imported lazily, on first
use); :func:`twin` returns them as they are. The tests run both on the same inputs and
compare every output.

Conventions (all values are Python ints / int64):

* a card is an index ``0..N-1`` (suit-major, ascending value; ``N <= 63`` so a set
  of cards fits a signed 64-bit mask);
* ``hands[s]`` is the mask of cards seat ``s`` still holds; the union of the hands at a
  trick boundary (with the leader and, under free assignment, the seats' remaining task
  quotas) determines the rest of the game, because every card's holder is fixed by
  the deal and the tasks done are exactly the task cards no longer held;
* ``seq`` holds the cards of the game from the search's root: the cards of the trick
  in progress at the root first, then one card per search depth;
* task ``i`` has card ``tcard[i]``, seat ``tseat[i]`` (``-1`` under free
  assignment), token kind ``tkind[i]`` (0 none, 1 absolute, 2 relative, 3 last) and
  rank ``trank[i]``; ``card_task[c]`` is the task on card ``c`` or ``-1``.

The search is an iterative depth-first search over single card plays with an explicit
stack (see :func:`search` and the back-end's module docstring,
:mod:`crewcheck.solvers.search`).
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType, SimpleNamespace
from typing import Any

__all__ = [
    "MAXM", "STAT_NODES", "STAT_TT_HITS", "STAT_TT_STORES", "STAT_CUTS", "STAT_DEPTH", "STAT_SIZE",
    "WIN", "LOSE", "OUT_OF_NODES", "popcount", "lowbit_index", "order_ok", "can_beat",
    "search", "twin", "compiled", "is_loaded", "KERNEL_FUNCTIONS",
]

MAXM = 64
"""Room for moves per search depth (at most one per card)."""

LOSE = 0
WIN = 1
OUT_OF_NODES = 2

STAT_NODES = 0
STAT_TT_HITS = 1
STAT_TT_STORES = 2
STAT_CUTS = 3
"""Positions refuted by a cheap test (a task that can no longer be won, too few tricks)."""
STAT_DEPTH = 4
"""Length of the winning line (WIN only)."""
STAT_SIZE = 8

PRED = 64
"""Offset in ``boundary_dead``'s scratch array of the per-task precedence sets."""

_DEBRUIJN = 0x03F79D71B4CB0A89
_DB_TABLE = [0] * 64
for _i in range(64):
    _DB_TABLE[((((1 << _i) * _DEBRUIJN) >> 58) & 63)] = _i
DB_TABLE: tuple[int, ...] = tuple(_DB_TABLE)
del _i, _DB_TABLE


def popcount(x: int) -> int:
    """Number of set bits of a non-negative int below 2**63."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


def lowbit_index(x: int) -> int:
    """Index of the lowest set bit of ``x > 0`` (de Bruijn multiplication).

    Only bits 58..63 of the 64-bit product are used, which are the same whether the
    product wraps (numba int64) or not (Python int).
    """
    return DB_TABLE[((((x & -x) * 0x03F79D71B4CB0A89) >> 58) & 63)]


def order_ok(done: int, group: int, ntasks: int, tkind: Any, trank: Any, strict: int) -> bool:
    """Whether completing the tasks in ``group`` after those in ``done`` respects the tokens.

    The kernel twin of :func:`crewcheck.model.rules.order_violation` (``None`` there is
    ``True`` here); see that function for the two readings.
    """
    if group == 0:
        return True
    before = popcount(done)
    after = before + popcount(group)
    count = 0
    kinds = 0
    lo = 1 << 30
    hi = -1
    for i in range(ntasks):
        k = tkind[i]
        if k == 0 or (done >> i) & 1:
            continue
        ing = (group >> i) & 1
        r = trank[i]
        if k == 1:
            inblock = 1 if (before < r and r <= after) else 0
            if ing != inblock:
                return False
        elif k == 3:
            if ing and after != ntasks:
                return False
        elif ing:
            for j in range(ntasks):
                if tkind[j] == 2 and not (done >> j) & 1 and not (group >> j) & 1 and trank[j] < r:
                    return False
        if ing:
            count += 1
            kinds |= 1 << k
            if r < lo:
                lo = r
            if r > hi:
                hi = r
    if strict and count > 1:
        if kinds != 2 and kinds != 4:  # mixed kinds, or "omega" with another token
            return False
        if hi - lo != count - 1:
            return False
    return True


def can_beat(hand: int, led: int, best_suit: int, best_card: int, trump: int, suit_mask: Any) -> bool:
    """Whether a seat holding ``hand`` has a legal card that beats ``best_card`` (of
    ``best_suit``) in a trick led in suit ``led``."""
    follow = hand & suit_mask[led]
    if follow != 0:
        if best_suit == led:
            return bool((follow >> (best_card + 1)) != 0)
        return False
    if trump < 0:
        return False
    trumps = hand & suit_mask[trump]
    if best_suit == trump:
        return bool((trumps >> (best_card + 1)) != 0)
    return bool(trumps != 0)


def gen_moves(depth: int, seat: int, hands: Any, p: int, seq: Any, ts: int, tlen: int, leader: int,
              free: int, quota: Any, tseat: Any, card_task: Any, suit_of: Any, suit_mask: Any,
              trump: int, task_cards: int, moves: Any, scores: Any, seed: int, shaping: int) -> int:
    """Write the moves to try at ``depth`` into ``moves[depth*MAXM ...]``, best first.

    Legal plays of the seat on turn (any card of any hand for a free first lead), one
    card per class of equivalent cards (same seat and suit, nothing still in play
    between them, none a task card), ordered by a task-aware score. Under free
    assignment the score prefers, while a trick is in progress, the current winner with
    the most tasks still to take (never one without room for the trick's task cards);
    ``shaping != 0`` is the alternative ordering of the restarts: under fixed assignment a
    bonus for shaping plays, under free assignment the quota preference left out.
    """
    base = depth * MAXM
    inplay = 0
    for s in range(p):
        inplay |= hands[s]
    trick_mask = 0
    for i in range(tlen):
        trick_mask |= 1 << seq[ts + i]
    live = inplay | trick_mask
    if seat < 0:
        legal = inplay
    else:
        legal = hands[seat]
        if tlen > 0:
            f = legal & suit_mask[suit_of[seq[ts]]]
            if f != 0:
                legal = f
    # state of the trick so far
    led = -1
    best_card = -1
    best_suit = -1
    cw = -1
    owner = -1  # fixed: seat that must win this trick (-1 none, -2 conflict)
    if tlen > 0:
        led = suit_of[seq[ts]]
        best = 0
        best_card = seq[ts]
        best_suit = led
        for i in range(1, tlen):
            c = seq[ts + i]
            s = suit_of[c]
            if s == best_suit and c > best_card:
                best = i
                best_card = c
            elif s == trump and best_suit != trump:
                best = i
                best_card = c
                best_suit = s
        cw = (leader + best) % p
        if not free:
            for i in range(tlen):
                ti = card_task[seq[ts + i]]
                if ti >= 0:
                    if owner == -1:
                        owner = tseat[ti]
                    elif owner != tseat[ti]:
                        owner = -2
    n = 0
    prev = -1
    prev_holder = -1
    m = legal
    while m != 0:
        low = m & -m
        m ^= low
        c = lowbit_index(low)
        holder = seat
        if seat < 0:
            for s in range(p):
                if (hands[s] >> c) & 1:
                    holder = s
        sc = suit_of[c]
        if (prev >= 0 and suit_of[prev] == sc and prev_holder == holder and card_task[c] < 0
                and card_task[prev] < 0):
            between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
            if (between & live) == 0:
                prev = c
                continue
        prev = c
        prev_holder = holder
        # score the move
        score = 0
        ti = card_task[c]
        higher_live = (inplay & suit_mask[sc]) >> (c + 1)
        if tlen == 0:
            if ti >= 0:
                if free:
                    if higher_live == 0:
                        score = 20 if quota[holder] > 0 else -20
                    else:
                        score = 5
                elif tseat[ti] == holder:
                    score = 60 if higher_live == 0 else 10
                else:
                    w = tseat[ti]
                    score = 30 if ((hands[w] & suit_mask[sc]) >> (c + 1)) != 0 else -10
            elif higher_live == 0 and not free:
                # a top card: draws out the suit; good when its seat owns tasks held by others in it
                t = task_cards & inplay & suit_mask[sc] & ~hands[holder]
                while t != 0:
                    lb = t & -t
                    t ^= lb
                    if tseat[card_task[lowbit_index(lb)]] == holder:
                        score = 40
                        break
        else:
            beats = False
            if sc == best_suit:
                beats = c > best_card
            elif sc == trump and best_suit != trump:
                beats = True
            newcw = holder if beats else cw
            if free and shaping == 0:
                # prefer the winner with the most tasks still to take, never one without
                # room for the trick's task cards
                gnew = 1 if ti >= 0 else 0
                for i in range(tlen):
                    if card_task[seq[ts + i]] >= 0:
                        gnew += 1
                if quota[newcw] < gnew:
                    score = -30
                else:
                    score = 10 + 4 * quota[newcw]
            need = owner
            if ti >= 0 and not free:
                if need == -1:
                    need = tseat[ti]
                elif need >= 0 and need != tseat[ti]:
                    need = -2
            if need >= 0:
                if newcw == need:
                    score = 50
                    if ti >= 0:
                        score += 20
                else:
                    score = -50
            elif need == -2:
                score = -100
        if ti < 0 and not free and shaping != 0:
            # shaping plays: shed a card that stops a seat's own low task card from ever
            # winning its suit, or empty the suit of a task card its seat must trump
            t = task_cards & inplay & suit_mask[sc]
            while t != 0:
                lb = t & -t
                t ^= lb
                tc = lowbit_index(lb)
                w = tseat[card_task[tc]]
                if (hands[w] >> tc) & 1:
                    if w != holder and c > tc and (hands[holder] & suit_mask[sc] & (lb - 1)) == 0:
                        score += shaping
                        break
                elif w == holder and c < tc and trump >= 0 and sc != trump:
                    if ((hands[w] & suit_mask[sc]) >> (tc + 1)) == 0 and (hands[w] & suit_mask[trump]) != 0:
                        score += shaping
                        break
        if seed != 0 and depth < 8:
            # a restart: shuffle the order of the first two tricks' plays
            score = score * 2 + ((((c + 1) * 0x9E3779B1 + (depth + 1) * 0x85EBCA77 + seed * 0xC2B2AE3D)
                                  >> 9) & 63) - 32
        moves[base + n] = c
        scores[base + n] = score
        # insertion: higher score first, then lower card first (stable)
        j = n
        while j > 0 and scores[base + j - 1] < score:
            moves[base + j] = moves[base + j - 1]
            scores[base + j] = scores[base + j - 1]
            j -= 1
        moves[base + j] = c
        scores[base + j] = score
        n += 1
    return n


def trick_best(seq: Any, ts: int, n: int, suit_of: Any, trump: int) -> int:
    """Position of the best of the ``n`` cards ``seq[ts:ts+n]`` (the first is the lead):
    the highest trump if one was played, else the highest card of the led suit."""
    best = 0
    best_card = seq[ts]
    best_suit = suit_of[best_card]
    for i in range(1, n):
        c = seq[ts + i]
        s = suit_of[c]
        if s == best_suit and c > best_card:
            best = i
            best_card = c
        elif s == trump and best_suit != trump:
            best = i
            best_card = c
            best_suit = s
    return best


def trick_dead(hands: Any, p: int, seq: Any, ts: int, tlen: int, leader: int, free: int, quota: Any,
               tseat: Any, card_task: Any, suit_of: Any, suit_mask: Any, trump: int) -> bool:
    """Whether the trick in progress (``1 <= tlen < p`` cards) can no longer end well:
    a task card in it whose seat has played and is not winning, or cannot overtake."""
    led = suit_of[seq[ts]]
    best = trick_best(seq, ts, tlen, suit_of, trump)
    best_card = seq[ts + best]
    best_suit = suit_of[best_card]
    cw = (leader + best) % p
    g = 0
    owner = -1
    for i in range(tlen):
        ti = card_task[seq[ts + i]]
        if ti < 0:
            continue
        g += 1
        if free:
            continue
        w = tseat[ti]
        if owner == -1:
            owner = w
        elif owner != w:
            return True
    if g == 0:
        return False
    if not free:
        if owner == cw:
            return False
        if (owner - leader + p) % p < tlen:
            return True  # the owner has played and does not win
        return not can_beat(hands[owner], led, best_suit, best_card, trump, suit_mask)
    # free: some seat that can still end up winning must have room for g tasks
    if quota[cw] >= g:
        return False
    for k in range(tlen, p):
        s = (leader + k) % p
        if quota[s] >= g and can_beat(hands[s], led, best_suit, best_card, trump, suit_mask):
            return False
    return True


TS_MAX = 4
"""Most trumps in play for which :func:`trump_split_dead` is tried (its work grows as n**n)."""


def trump_split_dead(hands: Any, p: int, left: int, trumps: int, quota: Any, tricks: int) -> bool:
    """Free assignment, no task among the trumps in play (``trumps``): whether the cards
    that are no task cannot be shared out so that every seat's tricks come out whole.

    A seat taking q more tasks in t tricks takes p * t - q cards that are no task. If P
    more tricks are played, each seat plays all its task cards and P minus that many
    cards that are no task, trumps or plain; a trick holding trumps goes, with all of
    them, to the seat that played the highest; plain cards may go anywhere (a
    relaxation). Tries every P, every choice of trumps played and every partition of
    them into tricks (at most one per seat in a trick), and asks whether the plain cards
    played can make every seat's count whole. The check of
    :func:`crewcheck.model.analysis.refutation` at the root (there with up to 8 trumps).
    Seats and sizes are packed 4 and 8 bits to an int (no arrays).
    """
    n = popcount(trumps)
    if n > TS_MAX:
        return False
    seats = 0  # holder of the k-th lowest trump in play, 4 bits each
    t = trumps
    k = 0
    while t != 0:
        lb = t & -t
        t ^= lb
        for s in range(p):
            if (hands[s] & lb) != 0:
                seats |= s << (4 * k)
        k += 1
    amax = 0
    for s in range(p):
        a = popcount(hands[s] & left)
        if a > amax:
            amax = a
    for played_tricks in range(amax, tricks + 1):
        for sub in range(1 << n):
            fits = True
            plain = 0  # plain cards played
            for s in range(p):
                cnt = 0
                for j in range(n):
                    if (sub >> j) & 1 and ((seats >> (4 * j)) & 15) == s:
                        cnt += 1
                y = played_tricks - popcount(hands[s] & left) - cnt
                if y < 0 or y > popcount(hands[s] & ~left & ~trumps):
                    fits = False
                    break
                plain += y
            if not fits:
                continue
            # the played trumps, highest first: their seats, 4 bits each
            m = 0
            pseats = 0
            for j in range(n - 1, -1, -1):
                if (sub >> j) & 1:
                    pseats |= ((seats >> (4 * j)) & 15) << (4 * m)
                    m += 1
            codes = 1
            for j in range(m):
                codes *= m
            for code in range(codes):
                # code's base-m digits put the j-th highest played trump in group d_j;
                # only restricted growth strings (d_0 = 0, d_j <= 1 + max before) count
                x = code
                ngroups = 0
                gmask = 0  # seats in each group, 8 bits each
                gwin = 0  # winner of each group (the seat of its first, highest, trump)
                gsize = 0  # size of each group, 8 bits each
                valid = True
                for j in range(m):
                    d = x % m
                    x //= m
                    sj = (pseats >> (4 * j)) & 15
                    if d > ngroups:
                        valid = False
                        break
                    if d == ngroups:
                        ngroups += 1
                        gwin |= sj << (4 * d)
                    if (gmask >> (8 * d + sj)) & 1:
                        valid = False
                        break
                    gmask |= 1 << (8 * d + sj)
                    gsize += 1 << (8 * d)
                if not valid:
                    continue
                need = 0  # the fewest plain cards that make every seat's count whole
                for s in range(p):
                    r = 0
                    g = 0
                    for d in range(ngroups):
                        if ((gwin >> (4 * d)) & 15) == s:
                            r += (gsize >> (8 * d)) & 255
                            g += 1
                    extra = (p - (quota[s] + r) % p) % p
                    short = g - (quota[s] + r + extra) // p
                    need += extra
                    if short > 0:
                        need += p * short
                if need <= plain:
                    return False
    return True


def boundary_dead(hands: Any, p: int, free: int, task_cards: int, tseat: Any, card_task: Any,
                  suit_of: Any, suit_mask: Any, trump: int, own_mask: Any, quota: Any,
                  release: Any, leader: int, has_tokens: int, tkind: Any, trank: Any) -> bool:
    """Cheap refutation at a trick boundary: a hand holds more task cards than tricks
    remain (two cards of one hand are never in one trick), or under fixed assignment a
    task whose seat holds no card that could ever win a trick with it."""
    inplay = 0
    tricks = 1 << 30
    for s in range(p):
        inplay |= hands[s]
        n = popcount(hands[s])
        if n < tricks:
            tricks = n
    left = task_cards & inplay
    if left == 0:
        return False
    need = 0
    for s in range(p):
        n = popcount(hands[s] & left)
        if n > need:
            need = n
    if need > tricks:
        return True
    need = 0
    if free:
        # every seat with quota left wins a trick of its own, taking at most p task cards
        for s in range(p):
            need += (quota[s] + p - 1) // p
    else:
        # a trick completes tasks of one seat only, and the tasks of one seat whose cards
        # one hand holds need different tricks
        for w in range(p):
            most = 0
            for h in range(p):
                n = popcount(hands[h] & own_mask[w])
                if n > most:
                    most = n
            need += most
    if need > tricks:
        return True
    if free:
        # Counting modulo the players: a trick holds p cards, each a task or not, so a seat
        # that still takes q tasks in t tricks has m = p * t - q cards that are no task in
        # them: m = (-q) mod p at least. A seat without trumps wins no trick holding a
        # trump, so its m comes from non-task cards of the other suits. All these cards
        # must be in play, and the tricks left hold at most p * tricks - |left| of them.
        nontask = inplay & ~task_cards
        n_all = popcount(nontask)
        n_colour = n_all
        if trump >= 0:
            n_colour = popcount(nontask & ~suit_mask[trump])
        sum_r = 0
        sum_r_trumpless = 0
        for s in range(p):
            r = (p - quota[s] % p) % p
            if r == 0:
                continue
            sum_r += r
            if trump >= 0 and (hands[s] & suit_mask[trump]) == 0:
                sum_r_trumpless += r
        if sum_r > n_all or sum_r > p * tricks - popcount(left) or sum_r_trumpless > n_colour:
            return True
        # the same count with the trumps placed: each trick holding trumps goes, with all
        # of them, to the highest (trump_split_dead)
        if trump >= 0 and (left & suit_mask[trump]) == 0:
            if trump_split_dead(hands, p, left, inplay & suit_mask[trump], quota, tricks):
                return True
    # lead reachability (crewcheck.model.analysis): seats that can still win a trick are
    # the leader and, closing over them as leaders, seats that can beat a card they
    # could lead; every seat still owing a task must be among them
    owing = 0
    for w in range(p):
        if free:
            if quota[w] > 0:
                owing |= 1 << w
        elif (own_mask[w] & left) != 0:
            owing |= 1 << w
    reach = 1 << leader
    if (owing & ~reach) != 0:
        grown = True
        while grown:
            grown = False
            for ld in range(p):
                if not (reach >> ld) & 1:
                    continue
                for s in range(p):
                    if (reach >> s) & 1:
                        continue
                    hs = hands[s]
                    has_trump = trump >= 0 and (hs & suit_mask[trump]) != 0
                    for su in range(len(suit_mask)):
                        led = hands[ld] & suit_mask[su]
                        if led == 0:
                            continue
                        mine = hs & suit_mask[su]
                        if (mine >> (lowbit_index(led) + 1)) != 0 or (has_trump and su != trump):
                            reach |= 1 << s
                            grown = True
                            break
        if (owing & ~reach) != 0:
            return True
    if free:
        return False
    # Release times: the earliest trick (1 = the next one) that can complete each task.
    # Precedence: a seat's own task card that is not a trump must win its trick itself, so
    # a seat that holds no card of its suit it may duck with (lower, and no task card of
    # another seat) must have played every card of that suit before; the task cards among
    # those complete earlier tricks. release[PRED + i] is the set of tasks that come
    # before task i; a cycle is a contradiction.
    nsuits = len(suit_mask)
    duck = ~task_cards
    t = left
    while t != 0:
        lb = t & -t
        t ^= lb
        c = lowbit_index(lb)
        ti = card_task[c]
        w = tseat[ti]
        hw = hands[w]
        sc = suit_of[c]
        sm = suit_mask[sc]
        above = sm & ~((1 << (c + 1)) - 1)
        e = 1
        pm = 0
        if (hw >> c) & 1:
            # w wins with c itself: every other seat that cannot duck under c must first
            # play all its cards of c's suit (one per trick)
            if sc != trump:
                for o in range(p):
                    ho = hands[o] & sm
                    if o != w and ho != 0 and (ho & (lb - 1) & (duck | own_mask[w])) == 0:
                        n = popcount(ho)
                        if n + 1 > e:
                            e = n + 1
                        u = ho & task_cards
                        while u != 0:
                            lb2 = u & -u
                            u ^= lb2
                            pm |= 1 << card_task[lowbit_index(lb2)]
        else:
            h = 0
            for o in range(p):
                if (hands[o] >> c) & 1:
                    h = o
            has_trump = trump >= 0 and (hw & suit_mask[trump]) != 0
            if sc == trump:
                # only a higher trump takes a trump
                if (hw & above) == 0:
                    return True
            elif (hw & above) == 0:
                # w trumps a lead of c's suit once void in it, or wins a trick on which
                # h, void in the led suit, discards c
                e = 1 << 30
                if has_trump:
                    e = popcount(hw & sm) + 1
                for lsuit in range(nsuits):
                    if lsuit == sc:
                        continue
                    if (hw & suit_mask[lsuit]) != 0 or has_trump:
                        n = popcount(hands[h] & suit_mask[lsuit]) + 1
                        if n < e:
                            e = n
        if e > tricks:
            return True
        release[ti] = e
        release[PRED + ti] = pm
    # close the precedence over chains (a task before itself: dead), raising release times
    grown = True
    while grown:
        grown = False
        t = left
        while t != 0:
            lb = t & -t
            t ^= lb
            ti = card_task[lowbit_index(lb)]
            pm = release[PRED + ti]
            if pm == 0:
                continue
            acc = pm
            e = release[ti]
            u = pm
            while u != 0:
                lb2 = u & -u
                u ^= lb2
                j = lowbit_index(lb2)
                acc |= release[PRED + j]
                if release[j] + 1 > e:
                    e = release[j] + 1
            if (acc >> ti) & 1 or e > tricks:
                return True
            if acc != pm or e != release[ti]:
                release[PRED + ti] = acc
                release[ti] = e
                grown = True
    if has_tokens:
        # the order the tokens ask for against the order precedence forces: task j strictly
        # before task i (j in i's closed set) must be allowed to complete before it
        ndone = popcount(task_cards) - popcount(left)
        t = left
        while t != 0:
            lb = t & -t
            t ^= lb
            ti = card_task[lowbit_index(lb)]
            pm = release[PRED + ti]
            if pm == 0:
                continue
            if tkind[ti] == 1 and ndone + popcount(pm) > trank[ti] - 1:
                return True  # more tasks before it than its absolute rank allows
            u = pm
            while u != 0:
                lb2 = u & -u
                u ^= lb2
                j = lowbit_index(lb2)
                kj = tkind[j]
                if kj == 3:
                    return True  # "last" before another task
                if kj != 0 and kj == tkind[ti] and trank[j] > trank[ti]:
                    return True  # two absolute or two relative tokens out of order
    # Hall: the tasks released at trick e or later need, per owner, as many tricks as one
    # hand holds of them (a trick completes one seat's tasks and takes one card per hand),
    # all among the last tricks - e + 1
    seen = 0  # the distinct release times above 1 (each needs one check)
    t = left
    while t != 0:
        lb = t & -t
        t ^= lb
        e = release[card_task[lowbit_index(lb)]]
        if e > 1:
            seen |= 1 << e
    while seen != 0:
        lb = seen & -seen
        seen ^= lb
        e = lowbit_index(lb)
        need = 0
        for w in range(p):
            most = 0
            for h in range(p):
                n = 0
                u = hands[h] & own_mask[w] & left
                while u != 0:
                    lb2 = u & -u
                    u ^= lb2
                    if release[card_task[lowbit_index(lb2)]] >= e:
                        n += 1
                if n > most:
                    most = n
            need += most
        if need > tricks - e + 1:
            return True
    return False


KEY_WORDS = 5
"""Words of a position key in the refutation table."""


def position_key(hands: Any, p: int, leader: int, quota: Any, free: int, canon: int, holder: Any,
                 suit_mask: Any, card_task: Any, key: Any) -> None:
    """Write the key of the trick-boundary position into ``key[0:KEY_WORDS]``.

    ``canon = 0``: the exact position (cards held, leader, quotas). ``canon = 1``
    (at most 4 seats, 8 suits of at most 15 cards): the position up to relabelling
    cards within a suit by rank among the cards still in play. Per suit, the holder
    and task flag of each card still held, in rank order, plus the set of task cards
    still held: two positions with the same key are the same game with cards renamed
    (suit, relative order, holder and task kept), so one is won iff the other is.
    """
    inplay = 0
    for s in range(p):
        inplay |= hands[s]
    q = 0
    if free:
        for s in range(p):
            q |= quota[s] << (6 * s)
    if canon == 0:
        key[0] = inplay
        key[1] = (leader + 1) | (q << 4)
        key[2] = 0
        key[3] = 0
        key[4] = 0
        return
    words0 = 0
    words1 = 0
    words2 = 0
    counts = 0
    tasks_left = 0
    pos = 0
    for su in range(len(suit_mask)):
        m = inplay & suit_mask[su]
        counts |= popcount(m) << (4 * su)
        while m != 0:
            lb = m & -m
            m ^= lb
            c = lowbit_index(lb)
            ti = card_task[c]
            code = holder[c] * 2
            if ti >= 0:
                code += 1
                tasks_left |= 1 << ti
            word = pos // 20
            shift = 3 * (pos - 20 * word)
            if word == 0:
                words0 |= code << shift
            elif word == 1:
                words1 |= code << shift
            else:
                words2 |= code << shift
            pos += 1
    key[0] = words0
    key[1] = words1
    key[2] = words2
    key[3] = counts | ((leader + 1) << 32) | (q << 36)
    key[4] = tasks_left


def tt_slot(key: Any, tt_mask: int) -> int:
    """Slot of a position key in the refutation table (xor-shift hash)."""
    h = 0
    for i in range(KEY_WORDS):
        x = key[i]
        h = (h * 31 + (x ^ (x >> 21) ^ (x >> 42))) & 0xFFFFFFFFFFFF
    return (h ^ (h >> 20)) & tt_mask


TT_STRIDE = 8
"""Words per slot of the refutation table: the key (:data:`KEY_WORDS`), the idle tricks
allowed, the generation, one spare; a slot is one 64-byte cache line and a pair of slots
never straddles a page, so a probe touches one line and a store at most one new page."""
TT_ALLOW = KEY_WORDS
TT_GEN = KEY_WORDS + 1


def tt_refuted(key: Any, tt: Any, gen: int, tt_mask: int, allow: int) -> bool:
    """Whether the table says the position was refuted with at least ``allow`` idle tricks
    allowed. The table is two-way set-associative: a key may sit in either slot of its pair."""
    slot = tt_slot(key, tt_mask) & ~1
    for e in range(2):
        base = (slot + e) * TT_STRIDE
        if tt[base + TT_GEN] != gen or tt[base + TT_ALLOW] < allow:
            continue
        same = True
        for i in range(KEY_WORDS):
            if tt[base + i] != key[i]:
                same = False
                break
        if same:
            return True
    return False


def tt_store(key: Any, tt: Any, gen: int, tt_mask: int, allow: int) -> None:
    """Record the position as refuted: it takes the first slot of its pair, and the entry
    it displaces moves to the second (the older second entry is lost)."""
    base = (tt_slot(key, tt_mask) & ~1) * TT_STRIDE
    if tt[base + TT_GEN] == gen:
        for i in range(TT_STRIDE):
            tt[base + TT_STRIDE + i] = tt[base + i]
    for i in range(KEY_WORDS):
        tt[base + i] = key[i]
    tt[base + TT_ALLOW] = allow
    tt[base + TT_GEN] = gen


def search(hands: Any, p: int, seq: Any, tlen0: int, leader: int, done: int, quota: Any, free: int,
           all_done: int, tseat: Any, tkind: Any, trank: Any, ntasks: int, card_task: Any,
           suit_of: Any, suit_mask: Any, trump: int, strict: int, has_tokens: int, task_cards: int, own_mask: Any,
           canon: int, holder: Any, key: Any,
           tt: Any, gen: int, tt_mask: int, node_limit: int,
           waste_cap: int, seed: int, shaping: int, moves: Any, scores: Any, nmoves: Any, midx: Any, sv_leader: Any,
           sv_seat: Any, sv_done: Any, sv_qg: Any, sv_waste: Any, sv_flag: Any, release: Any,
           stats: Any) -> int:
    """Depth-first search for a winning continuation; returns WIN, LOSE or OUT_OF_NODES.

    ``hands``, ``quota`` and ``seq`` are modified (the caller passes copies). On WIN
    the winning cards are ``seq[tlen0 : tlen0 + stats[STAT_DEPTH]]``. Refuted trick
    boundary positions are stored in the table ``tt`` under generation ``gen``
    (entries of other generations are ignored), so a search cut short by
    ``node_limit`` can be restarted with a larger limit without losing them.

    ``waste_cap`` limits the tricks that complete no task (a large value: no limit).
    A position refuted with ``a`` such tricks still allowed is stored with
    allowance ``a`` and counts as refuted only for searches allowing at most ``a``.
    """
    nodes = 0
    waste = 0
    tlen = tlen0
    depth = 0
    # the root position
    if tlen == 0 and leader >= 0:
        position_key(hands, p, leader, quota, free, canon, holder, suit_mask, card_task, key)
        if tt_refuted(key, tt, gen, tt_mask, waste_cap):
            stats[STAT_TT_HITS] += 1
            return LOSE
        if boundary_dead(hands, p, free, task_cards, tseat, card_task, suit_of, suit_mask, trump,
                         own_mask, quota, release, leader, has_tokens, tkind, trank):
            stats[STAT_CUTS] += 1
            return LOSE
    seat0 = -1 if leader < 0 else (leader + tlen) % p
    nmoves[0] = gen_moves(0, seat0, hands, p, seq, 0, tlen, leader, free, quota, tseat, card_task, suit_of,
                          suit_mask, trump, task_cards, moves, scores, seed, shaping)
    midx[0] = 0
    while True:
        if midx[depth] >= nmoves[depth]:
            # every move failed: refute this position (trick boundaries only) and back up
            if tlen == 0 and leader >= 0:
                position_key(hands, p, leader, quota, free, canon, holder, suit_mask, card_task, key)
                tt_store(key, tt, gen, tt_mask, waste_cap - waste)
                stats[STAT_TT_STORES] += 1
            if depth == 0:
                stats[STAT_NODES] += nodes
                return LOSE
            depth -= 1
            # undo the move made at `depth`
            if sv_flag[depth]:
                done = sv_done[depth]
                waste = sv_waste[depth]
                quota[leader] += sv_qg[depth]
                tlen = p
            tlen -= 1
            hands[sv_seat[depth]] |= 1 << seq[tlen0 + depth]
            leader = sv_leader[depth]
            continue
        c = moves[depth * MAXM + midx[depth]]
        midx[depth] += 1
        # play c
        if leader < 0:
            seat = 0
            for s in range(p):
                if (hands[s] >> c) & 1:
                    seat = s
            sv_leader[depth] = -1
            leader = seat
        else:
            seat = (leader + tlen) % p
            sv_leader[depth] = leader
        sv_seat[depth] = seat
        hands[seat] ^= 1 << c
        pos = tlen0 + depth
        seq[pos] = c
        tlen += 1
        sv_flag[depth] = 0
        nodes += 1
        ts = pos + 1 - tlen
        ok = True
        if tlen == p:
            # the trick is complete: who wins it, which tasks it completes
            w = (leader + trick_best(seq, ts, p, suit_of, trump)) % p
            group = 0
            g = 0
            for i in range(p):
                ti = card_task[seq[ts + i]]
                if ti >= 0:
                    group |= 1 << ti
                    g += 1
                    if not free and tseat[ti] != w:
                        ok = False
            if free and g > quota[w]:
                ok = False
            if ok and has_tokens and g > 0:
                ok = order_ok(done, group, ntasks, tkind, trank, strict)
            if ok:
                sv_flag[depth] = 1
                sv_done[depth] = done
                sv_qg[depth] = g if free else 0
                sv_waste[depth] = waste
                if g == 0:
                    waste += 1
                done |= group
                if free:
                    quota[w] -= g
                leader = w
                tlen = 0
                if done == all_done:
                    stats[STAT_NODES] += nodes
                    stats[STAT_DEPTH] = depth + 1
                    return WIN
                for s in range(p):
                    if hands[s] == 0:
                        ok = False
                if waste > waste_cap:
                    ok = False
                if ok:
                    position_key(hands, p, leader, quota, free, canon, holder, suit_mask, card_task, key)
                    if tt_refuted(key, tt, gen, tt_mask, waste_cap - waste):
                        stats[STAT_TT_HITS] += 1
                        ok = False
                    elif boundary_dead(hands, p, free, task_cards, tseat, card_task, suit_of,
                                       suit_mask, trump, own_mask, quota, release, leader,
                                       has_tokens, tkind, trank):
                        stats[STAT_CUTS] += 1
                        ok = False
                if not ok:
                    # undo the trick completion, then the card (below)
                    done = sv_done[depth]
                    waste = sv_waste[depth]
                    if free:
                        quota[leader] += g
                    tlen = p
        elif trick_dead(hands, p, seq, ts, tlen, leader, free, quota, tseat, card_task, suit_of,
                        suit_mask, trump):
            stats[STAT_CUTS] += 1
            ok = False
        if not ok:
            tlen -= 1
            hands[seat] |= 1 << c
            leader = sv_leader[depth]
            continue
        if nodes >= node_limit:
            stats[STAT_NODES] += nodes
            return OUT_OF_NODES
        depth += 1
        nseat = (leader + tlen) % p
        nmoves[depth] = gen_moves(depth, nseat, hands, p, seq, tlen0 + depth - tlen, tlen, leader, free, quota,
                                  tseat, card_task, suit_of, suit_mask, trump, task_cards, moves, scores, seed, shaping)
        midx[depth] = 0


KERNEL_FUNCTIONS: tuple[str, ...] = (
    "popcount", "lowbit_index", "order_ok", "can_beat", "gen_moves", "trick_best", "trick_dead",
    "trump_split_dead", "boundary_dead",
    "position_key", "tt_slot", "tt_refuted", "tt_store", "search",
)
"""The functions :func:`compiled` compiles (callees before callers)."""

_COMPILED: SimpleNamespace | None = None


def is_loaded() -> bool:
    """Whether :func:`compiled` has already run in this process."""
    return _COMPILED is not None


def twin() -> SimpleNamespace:
    """The kernel functions as plain Python (the reference the compiled kernel is tested against)."""
    g = globals()
    return SimpleNamespace(**{name: g[name] for name in KERNEL_FUNCTIONS})


def compiled() -> SimpleNamespace:
    """The kernel functions compiled by numba (``cache=True``: compiled once per machine).

    Each function is re-created over a namespace in which the names of the other
    kernel functions are bound to their compiled versions, so a compiled function only
    ever calls compiled functions. Raises :class:`ImportError` without numba.
    """
    global _COMPILED
    if _COMPILED is None:
        import numba

        namespace: dict[str, Any] = dict(globals())
        out: dict[str, Callable[..., Any]] = {}
        for name in KERNEL_FUNCTIONS:
            f = globals()[name]
            clone = FunctionType(f.__code__, namespace, f.__name__, f.__defaults__, f.__closure__)
            clone.__qualname__ = f.__qualname__
            clone.__module__ = f.__module__
            jitted = numba.njit(cache=True, nogil=True, error_model="numpy")(clone)
            namespace[name] = jitted
            out[name] = jitted
        _COMPILED = SimpleNamespace(**out)
    return _COMPILED
