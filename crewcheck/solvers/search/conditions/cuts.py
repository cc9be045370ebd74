"""The conditions' cuts: a trick in progress, or a trick boundary, that breaks a condition
however the game goes on (plain Python that numba compiles unchanged)."""

from __future__ import annotations

from typing import Any

from crewcheck.runtime.kernels import highbit_index, lowbit_index, popcount
from crewcheck.solvers.search.conditions.codes import (
    C_OPEN, K_EACH_TRUMP, K_LEADS_NO_CARDS, K_NO_TRICKS_AT, K_NO_TRICK_WON_WITH, K_TRICK_WHERE, K_WINS_ALL_CARDS,
    K_WINS_NO_CARDS, K_WINS_NO_TRICKS, K_WINS_TOGETHER, K_WINS_TRICKS_AT, WHERE_HOLDING, WHERE_SUITS, WHERE_WON_WITH,
)
from crewcheck.solvers.search.records import CondArrays
from crewcheck.solvers.search.rules import can_beat, playable, trick_best


def cond_trick_dead(cond: CondArrays, memo: Any, hands: Any, p: int, seq: Any, ts: int, tlen: int, leader: int,
                    suit_of: Any, suit_mask: Any, trump: int, covers: Any) -> bool:
    """The trick in progress, ``seq[ts : ts + tlen]`` (``1 <= tlen < p`` cards, led by
    ``leader``), breaks a condition however it is finished.

    The seats that may still win it are the one winning now and each seat still to
    play that holds a legal card beating the best card so far (a superset: the best
    card only rises; a legal card is a face-up one, :func:`~..rules.playable`, and a
    seat follows suit with those only). Dead when: ``wins_no_tricks`` of the only such seat;
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
        elif can_beat(playable(hands[s], covers), led, best_suit, best_card, trump, suit_mask):
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


COND_CUT_FUNCTIONS = (_where_last_chance_lost, cond_trick_dead, cond_boundary_dead)
"""The kernel functions of this module, callees first."""
