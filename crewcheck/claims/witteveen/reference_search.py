"""An independent exact decider for Witteveen's 2-player 1-task game.

Used by the ledger as a second opinion next to the project's solvers, so that
the characterisation claims (Thm 3.15, 3.18) are checked by a search that
shares no code with either the characterisation or ``crewcheck.solvers``.

Rules (Witteveen Def 3.8-3.9, *not* the rulebook): 2 players, no trumps,
player 1 leads the first trick, the winner of a trick leads the next, a
player must follow the led suit when able, and the single task card ``t`` is
owned by player 1. The game is won when player 1 wins the trick containing
``t``; it is cooperative with perfect information, so a game is winnable when
some sequence of legal plays wins.

Algorithm: depth-first search over ``(hand1, hand2, leader)`` with a memo of
positions already shown losing, and the usual equivalence of touching cards:
within a suit, cards of one hand that are adjacent among the cards still in
play (the task card excepted) are interchangeable, so only the lowest of each
run is tried. Exact (sound and complete). Worst case exponential in the hand
size; fast on ``4 x 9`` decks in practice.

References
----------
.. [1] M. Witteveen, seed ``000``, §3.1, Def 3.8-3.9.
"""

from __future__ import annotations

import sys
from typing import TypeAlias

Mask: TypeAlias = int
CardIndex: TypeAlias = int


def _candidates(hand: Mask, other: Mask, allowed: Mask, task: CardIndex, values: int) -> list[CardIndex]:
    """Lowest card of each run of touching cards of `hand` within `allowed`.

    `other` must include the card already led to the trick, if any: it
    separates the follower's cards below it from those above it.
    """
    out: list[CardIndex] = []
    live = hand | other
    prev_taken = False  # previous live card of this suit was a candidate run of hand
    prev_suit = -1
    m = allowed
    while m:
        low = m & -m
        c = low.bit_length() - 1
        m ^= low
        suit = c // values
        # Find the previous live card of the same suit below c.
        below = live & ((1 << c) - 1) & (((1 << values) - 1) << (suit * values))
        if c != task and below and suit == prev_suit and prev_taken:
            p = below.bit_length() - 1
            if (hand >> p) & 1 and p != task:
                continue  # touches the previous card of the same hand: equivalent
        out.append(c)
        prev_taken = True
        prev_suit = suit
    return out


_TABLES: dict[tuple[int, int], list[int]] = {}


def _pattern_table(values: int, task_bit: int = 0) -> list[int]:
    """Table ``[(live << values) | mine] -> owner-string code`` for one suit.

    The code lists the owners of the live cards lowest value first behind a
    sentinel 1 bit, two bits per card: ``01`` player 1, ``10`` player 2, ``11``
    the task card. Only the relative order of live cards matters for play.
    """
    cached = _TABLES.get((values, task_bit))
    if cached is not None:
        return cached
    table = [0] * (1 << (2 * values))
    for live in range(1 << values):
        mine = live
        while True:
            code = 1
            for v in range(values):
                bit = 1 << v
                if live & bit:
                    code = (code << 2) | (3 if bit == task_bit else (1 if mine & bit else 2))
            table[(live << values) | mine] = code
            if mine == 0:
                break
            mine = (mine - 1) & live
    _TABLES[(values, task_bit)] = table
    return table


def is_winnable(hand1: Mask, hand2: Mask, task: CardIndex, values: int, suits: int) -> bool:
    """Decide whether player 1 can win the trick containing `task`.

    Parameters
    ----------
    hand1, hand2 : int
        Card masks of player 1 and player 2 (card index ``suit * values + value - 1``).
    task : int
        Index of the task card (owned by player 1).
    values, suits : int
        Deck shape.

    Examples
    --------
    Two suits of one value: P1 holds suit 0 (the task), P2 holds suit 1.
    P1 leads the task and P2 cannot follow, so P1 wins.

    >>> is_winnable(0b01, 0b10, 0, 1, 2)
    True
    """
    suit_masks = [((1 << values) - 1) << (s * values) for s in range(suits)]
    task_suit = task // values
    lost: set[tuple[int, ...]] = set()

    table = _pattern_table(values)
    task_bit = 1 << (task % values)
    crit_table = _pattern_table(values, task_bit)
    full = (1 << values) - 1
    shifts = [s * values for s in range(suits) if s != task_suit]
    crit_shift = task_suit * values

    def go(h1: Mask, h2: Mask, leader: int) -> bool:
        # Only the relative order of the cards still in play matters, and the
        # non-critical suits are interchangeable (no trumps): canonical key.
        live = h1 | h2
        others = sorted(table[(((live >> sh) & full) << values) | ((h1 >> sh) & full)] for sh in shifts)
        crit = crit_table[(((live >> crit_shift) & full) << values) | ((h1 >> crit_shift) & full)]
        key = (leader, crit, *others)
        if key in lost:
            return False
        lead_hand, follow_hand = (h1, h2) if leader == 0 else (h2, h1)
        for c in _candidates(lead_hand, follow_hand, lead_hand, task, values):
            suit = c // values
            follow_suit = follow_hand & suit_masks[suit]
            allowed = follow_suit if follow_suit else follow_hand
            for d in _candidates(follow_hand, lead_hand, allowed, task, values):
                if d // values == suit and d > c:
                    winner = 1 - leader
                else:
                    winner = leader
                if c == task or d == task:
                    if winner == 0:
                        return True
                    continue
                if leader == 0:
                    n1, n2 = h1 ^ (1 << c), h2 ^ (1 << d)
                else:
                    n1, n2 = h1 ^ (1 << d), h2 ^ (1 << c)
                if go(n1, n2, winner):
                    return True
        lost.add(key)
        return False

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 200))
    return go(hand1, hand2, 0)


def is_winnable_plain(hand1: Mask, hand2: Mask, task: CardIndex, values: int, suits: int) -> bool:
    """Same as :func:`is_winnable` without the touching-cards reduction (the oracle)."""
    suit_masks = [((1 << values) - 1) << (s * values) for s in range(suits)]
    lost: set[tuple[int, int, int]] = set()

    def cards(m: Mask) -> list[int]:
        return [i for i in range(m.bit_length()) if m >> i & 1]

    def go(h1: Mask, h2: Mask, leader: int) -> bool:
        if (h1, h2, leader) in lost:
            return False
        lead_hand, follow_hand = (h1, h2) if leader == 0 else (h2, h1)
        for c in cards(lead_hand):
            suit = c // values
            allowed = follow_hand & suit_masks[suit] or follow_hand
            for d in cards(allowed):
                winner = 1 - leader if (d // values == suit and d > c) else leader
                if c == task or d == task:
                    if winner == 0:
                        return True
                    continue
                n1, n2 = (h1 ^ (1 << c), h2 ^ (1 << d)) if leader == 0 else (h1 ^ (1 << d), h2 ^ (1 << c))
                if go(n1, n2, winner):
                    return True
        lost.add((h1, h2, leader))
        return False

    return go(hand1, hand2, 0)


def reference_decider(hand1: Mask, task: CardIndex, values: int, suits: int) -> bool:
    """:func:`is_winnable` as a decider ``(hand1, task, values, suits) -> winnable``:
    player 2 holds the rest of the deck."""
    full = (1 << (values * suits)) - 1
    return is_winnable(hand1, full ^ hand1, task, values, suits)
