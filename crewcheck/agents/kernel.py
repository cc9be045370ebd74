"""Playout kernel: the agents' hot loop on a flat int64 state, compiled with numba.

What it is
    A complete-information game of The Crew (task-taking phase, then play) as one
    ``int64`` array ``st`` that the functions here mutate in place: random legal moves to
    the end of the game (:func:`playout`), batches of playouts per candidate move over
    several deals (:func:`evaluate_moves`, the Monte Carlo players of de Jong §5), and
    the iterations of a Monte Carlo tree (:func:`mcts_iterate`, Witteveen's Alg. 5 PMC
    and Alg. 6 MCTS-UCT with standard or smart scoring). The tree is kept in flat arrays
    (parent, first child, child count, move, visits, value); each iteration replays the
    moves from the root into a scratch state, so no state is stored per node.
Rules covered
    Follow suit, trumps, tasks with a fixed owner, draft of the tasks round-robin from
    the commander; the game ends when every task is done (won), a task card goes to
    another seat (lost) or a hand is empty (lost), exactly as :class:`crewcheck.State`.
    Order tokens are not covered: the agents' games (both theses) have none.
Exact
    Not a decider: it samples. The rules it applies are tested against
    :class:`crewcheck.State` move by move, and the compiled kernel against its
    plain-Python twin (the same functions run without numba, :func:`crewcheck.agents.fast.twin`;
    both built by :mod:`crewcheck.runtime.kernels`).
Cost
    A playout is O(cards * players); a tree iteration adds the descent, O(depth).

Randomness is a PCG-RXS-M-XS 32-bit generator kept in a one-element array, so the
compiled kernel and the twin draw exactly the same numbers from the same seed.

State layout (``st``)::

    st[0] tasks taken   st[1] trick leader   st[2] cards in trick   st[3] done-task mask
    st[4] tricks played st[5] status (0 running, 1 won, 2 lost)   st[6] commander
    st[8 : 8+P]      hands (card masks)
    st[8+P : 8+2P]   current trick, leader first
    st[8+2P : 8+2P+T] task owners (-1 while not taken)

The game's static arrays arrive as one record ``game``
(:class:`crewcheck.agents.fast.Tables`: players, tasks, trump suit, suit of each card, suit
masks, task cards) and the search tree as another (:class:`Tree`): numba passes a named
tuple as one argument, so no function takes more than nine.
"""

# mypy: allow-untyped-defs, allow-untyped-calls
from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any, NamedTuple

import numpy as np

from crewcheck.runtime import kernels
from crewcheck.runtime.kernels import lowbit_index, popcount

NTAKEN, LEADER, NTRICK, DONE, TRICKS, STATUS, COMMANDER = 0, 1, 2, 3, 4, 5, 6
HEADER = 8
RUNNING, WON, LOST = 0, 1, 2
MASK32 = 0xFFFFFFFF


def rng_next(rs):
    """Next 32-bit output of the PCG-RXS-M-XS generator whose state is ``rs[0]``."""
    s = (rs[0] * 747796405 + 2891336453) & MASK32
    rs[0] = s
    word = (((s >> ((s >> 28) + 4)) ^ s) * 277803737) & MASK32
    return (word >> 22) ^ word


def rng_below(rs, n):
    """A number in ``0..n-1`` (n <= 2**30)."""
    return (rng_next(rs) * n) >> 32


def rng_unit(rs):
    """A float in [0, 1)."""
    return rng_next(rs) / 4294967296.0


def nth_bit(x, j):
    """Index of the ``j``-th (0-based) set bit of ``x``."""
    for _ in range(j):
        x &= x - 1
    return lowbit_index(x)


def random_bit(rs, x):
    """A uniformly random set bit of ``x`` (x != 0)."""
    return nth_bit(x, rng_below(rs, popcount(x)))


UNTRIED = 1e300
"""The UCB-1 score of an action never tried when exploring: above every other score."""


def ucb_score(total: float, n: float, scale: float, log_parent: float, cexp: float, untried: float) -> float:
    """UCB-1 (Auer et al. 2002): ``total / n * scale + cexp * sqrt(log_parent / n)`` for an
    action tried ``n`` times with summed reward ``total`` under a parent whose log visit
    count is ``log_parent``; ``untried`` when ``n == 0`` (:data:`UNTRIED` to try every
    action first, 0.0 for a greedy pick that counts an untried action as Q = 0). With
    ``cexp = 0`` and ``log_parent = 0`` it is the mean reward exactly."""
    if n == 0:
        return untried
    return total / n * scale + cexp * math.sqrt(log_parent / n)


def ucb_keep(candidate, score, best, best_score, ties, rs):
    """One step of the running arg-max of a UCB-1 selection: ``(best, best_score, ties)``
    after ``candidate`` scored ``score``; a tie is broken uniformly at random over the
    tied candidates so far (reservoir sampling: the ``k``-th tied one replaces the pick
    with probability ``1/k``). Start from ``(-1, -1.0, 0)``."""
    if score > best_score:
        return candidate, score, 1
    if score == best_score:
        ties += 1
        if rng_below(rs, ties) == 0:
            return candidate, best_score, ties
    return best, best_score, ties


def legal_mask(st, game):
    """Legal moves: task indices while tasks are drafted, then cards; 0 once over."""
    players, ntasks, suit_of, suit_mask = game.players, game.ntasks, game.suit_of, game.suit_mask
    if st[STATUS] != RUNNING:
        return 0
    if st[NTAKEN] < ntasks:
        m = 0
        base = HEADER + 2 * players
        for k in range(ntasks):
            if st[base + k] < 0:
                m |= 1 << k
        return m
    nt = st[NTRICK]
    seat = (st[LEADER] + nt) % players
    hand = st[HEADER + seat]
    if nt == 0:
        return hand
    follow = hand & suit_mask[suit_of[st[HEADER + players]]]
    if follow != 0:
        return follow
    return hand


def to_move(st, game):
    """Seat whose move it is."""
    players, ntasks = game.players, game.ntasks
    if st[NTAKEN] < ntasks:
        return (st[COMMANDER] + st[NTAKEN]) % players
    return (st[LEADER] + st[NTRICK]) % players


def apply_move(st, mv, game):
    """Make move ``mv`` (a task index while drafting, else a card); no legality check."""
    players, ntasks, trump, suit_of, task_card = game.players, game.ntasks, game.trump, game.suit_of, game.task_card
    if st[NTAKEN] < ntasks:
        seat = (st[COMMANDER] + st[NTAKEN]) % players
        st[HEADER + 2 * players + mv] = seat
        st[NTAKEN] += 1
        return
    nt = st[NTRICK]
    leader = st[LEADER]
    seat = (leader + nt) % players
    st[HEADER + seat] &= ~(1 << mv)
    st[HEADER + players + nt] = mv
    nt += 1
    if nt < players:
        st[NTRICK] = nt
        return
    # the trick is complete: the highest trump wins, else the highest card of the led suit
    tb = HEADER + players
    best = 0
    best_suit = suit_of[st[tb]]
    played = 1 << st[tb]
    for pos in range(1, players):
        card = st[tb + pos]
        played |= 1 << card
        s = suit_of[card]
        if s == best_suit and card > st[tb + best]:
            best = pos
        elif s == trump and best_suit != trump:
            best = pos
            best_suit = s
    winner = (leader + best) % players
    done = st[DONE]
    lost = False
    ob = HEADER + 2 * players
    for k in range(ntasks):
        if (played >> task_card[k]) & 1:
            if st[ob + k] == winner:
                done |= 1 << k
            else:
                lost = True
    st[DONE] = done
    st[LEADER] = winner
    st[NTRICK] = 0
    st[TRICKS] += 1
    if lost:
        st[STATUS] = LOST
    elif done == (1 << ntasks) - 1:
        st[STATUS] = WON
    else:
        for p in range(players):
            if st[HEADER + p] == 0:
                st[STATUS] = LOST
                break


def playout(st, rs, game):
    """Random legal moves until the game ends (mutates ``st``)."""
    while st[STATUS] == RUNNING:
        m = legal_mask(st, game)
        apply_move(st, random_bit(rs, m), game)


def playouts(st0, n, rs, game):
    """``n`` random playouts from ``st0``: returns (wins, tasks done in total)."""
    st = st0.copy()
    wins = 0
    tasks = 0
    for _ in range(n):
        st[:] = st0
        playout(st, rs, game)
        if st[STATUS] == WON:
            wins += 1
        tasks += popcount(st[DONE])
    return wins, tasks


def evaluate_moves(st0, moves, deals, rs, game, wins, done, tricks):
    """For every deal (row of ``deals``: the hands to play with) and every move: make the
    move, play at random to the end and add the result to ``wins``/``done``/``tricks``
    (arrays indexed like ``moves``)."""
    st = st0.copy()
    for d in range(deals.shape[0]):
        for j in range(moves.shape[0]):
            st[:] = st0
            for p in range(game.players):
                st[HEADER + p] = deals[d, p]
            apply_move(st, moves[j], game)
            playout(st, rs, game)
            if st[STATUS] == WON:
                wins[j] += 1
            done[j] += popcount(st[DONE])
            tricks[j] += st[TRICKS]


class Tree(NamedTuple):
    """The tree of :func:`mcts_iterate`, one entry per node in each array (node 0 the root)."""

    parent: Any
    first: Any
    """Index of the node's first child (its children are consecutive), -1 for none."""
    nchild: Any
    move: Any
    """The move that leads from the parent to the node."""
    visits: Any
    value: Any
    """Summed score of the playouts through the node (float64, as ``visits``)."""


def _score(st, smart):
    if st[STATUS] == WON:
        return 100.0 if smart else 1.0
    if smart:
        return float(popcount(st[DONE]))
    return 0.0


def mcts_iterate(st0, iters, uct, smart, cexp, rs, tree, n_nodes, game):
    """Run ``iters`` tree iterations (Witteveen Alg. 5 if not ``uct``, Alg. 6 if ``uct``).

    Node 0 is the root (state ``st0``). Selection: a uniformly random child (PMC) or the
    child of highest ``v/n * scale + cexp * sqrt(ln N / n)``, infinite when ``n == 0``
    (UCT; ties broken at random; ``scale`` is 1/100 with smart scoring). Expansion: every
    child of the leaf is added. Simulation: one random playout from one new child.
    Backpropagation: +1 per win (standard) or +100 per win, +tasks done otherwise
    (smart), on the child and every ancestor. Returns the new node count; the arrays
    must have room for ``iters`` expansions.
    """
    parent, first, nchild, move, visits, value = tree
    scale = 0.01 if smart else 1.0
    st = st0.copy()
    path = np.empty(256, np.int64)
    for _ in range(iters):
        st[:] = st0
        node = 0
        depth = 0
        path[0] = 0
        while nchild[node] > 0:
            f = first[node]
            k = nchild[node]
            if uct:
                lnN = math.log(max(visits[node], 1.0))
                best = -1
                bestu = -1.0
                ties = 0
                for c in range(f, f + k):
                    u = ucb_score(value[c], visits[c], scale, lnN, cexp, UNTRIED)
                    best, bestu, ties = ucb_keep(c, u, best, bestu, ties, rs)
                node = best
            else:
                node = f + rng_below(rs, k)
            apply_move(st, move[node], game)
            depth += 1
            path[depth] = node
        if st[STATUS] == RUNNING:
            m = legal_mask(st, game)
            k = popcount(m)
            first[node] = n_nodes
            nchild[node] = k
            for i in range(k):
                c = n_nodes + i
                low = m & -m
                move[c] = lowbit_index(low)
                m ^= low
                parent[c] = node
                first[c] = -1
                nchild[c] = 0
                visits[c] = 0.0
                value[c] = 0.0
            n_nodes += k
            node = first[node] + rng_below(rs, k)
            apply_move(st, move[node], game)
            depth += 1
            path[depth] = node
            playout(st, rs, game)
        s = _score(st, smart)
        for i in range(depth + 1):
            visits[path[i]] += 1.0
            value[path[i]] += s
    return n_nodes


KERNEL_FUNCTIONS = (
    popcount, lowbit_index, rng_next, rng_below, nth_bit, random_bit, ucb_score, ucb_keep, legal_mask, to_move, apply_move,
    playout, playouts, evaluate_moves, _score, mcts_iterate,
)
"""Every function of the playout kernel, callees before callers."""


def twin() -> SimpleNamespace:
    """The kernel's functions as plain Python."""
    return kernels.twin(KERNEL_FUNCTIONS)


def compiled() -> SimpleNamespace:
    """The kernel's functions compiled by numba (on-disk cache); :class:`ImportError` without it."""
    return kernels.compile_kernel(KERNEL_FUNCTIONS, cache=True, nogil=True)
