"""The rules of the game on ints, as the search kernel and its cuts read them.

Plain-Python functions that numba compiles unchanged (see :mod:`crewcheck.runtime.kernels`):
who wins a trick (:func:`trick_best`), whether a seat can still beat the best card of a
trick (:func:`can_beat`), whether the order tokens let a group of tasks complete
next (:func:`order_ok`) and which cards of a hand lie face up (:func:`playable`). Cards, masks and task arrays are as in
:mod:`crewcheck.solvers.search.kernel`.
"""

from __future__ import annotations

from typing import Any

from crewcheck.runtime.kernels import popcount

__all__ = ["order_ok", "can_beat", "trick_best", "playable", "in_play"]


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


def playable(hand: int, covers: Any) -> int:
    """The cards of ``hand`` that no card still in ``hand`` covers: the kernel twin of
    :func:`crewcheck.model.rules.uncovered`. ``covers`` holds the deal's covers as
    ``covered, covering`` pairs, one after another, and one unused entry (``len(covers) //
    2`` pairs; none: the hand as it is). A seat on turn has played no card of the trick
    yet, so these are the cards it may play, and it follows suit only with them."""
    for i in range(len(covers) // 2):
        if (hand >> covers[2 * i + 1]) & 1:
            hand &= ~(1 << covers[2 * i])
    return hand


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


def in_play(hands: Any, p: int) -> tuple[int, int]:
    """The cards still in the hands, and the tricks left (the shortest hand's size)."""
    inplay = 0
    tricks = 1 << 30
    for s in range(p):
        inplay |= hands[s]
        n = popcount(hands[s])
        if n < tricks:
            tricks = n
    return inplay, tricks
