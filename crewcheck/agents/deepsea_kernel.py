"""Deep Sea kernel: Harvill & Vivek's game on a flat int64 state, compiled with numba.

What it is
    The game of :mod:`crewcheck.agents.deepsea` (4 players, N cards each from the 40 of
    :data:`~crewcheck.model.cards.CLASSIC_DECK`, the draft of 2 of the 5 tasks HV1..HV5 from
    the captain, then the tricks) as one ``int64`` array ``st`` that the functions here
    mutate in place, for the hot loops of the readings study
    (:mod:`crewcheck.agents.deepsea_readings`): random play to the end
    (:func:`ds_playout`), the online planner (:func:`ds_plan`: determinize the hidden
    cards, UCB-1 over the seat's actions, a random rollout to the end) and the self-play
    training of a Q-table over a *visible-state code* (:func:`ds_train`).
Rules covered
    Exactly those of :func:`~crewcheck.agents.deepsea.play_deepsea` judged by
    :class:`crewcheck.State`: follow suit, R the trump suit, the five tasks with the
    engine's early end (a task BROKEN ends the game lost, every task HOLDING ends it won,
    judged at the start of play and after every trick), a task needing cards out of play
    (or the captain holding HV1, or G7 and B8 in one hand when HV5 asks for one trick)
    lost before the first card. Tested against ``play_deepsea`` move by move, and the
    compiled kernel against its plain-Python twin (:mod:`crewcheck.runtime.kernels`).
Exact
    Not a decider: it samples. Randomness is the PCG generator of
    :mod:`crewcheck.agents.kernel` in a one-element array, so the twin draws the same numbers.

State layout (``st``, :data:`SIZE` entries)::

    st[0] draft step (0..3, 4 = play)   st[1] trick leader   st[2] cards in the trick
    st[3] status (0 running, 1 won, 2 lost)   st[4] captain   st[5] tasks laid out (T)
    st[6] HV5 "in one trick": -1 open, the seat that won G7 and B8 together, -2 never
    st[7] N (cards per player)   st[8] flags (bit 0 HV5 in one trick, bit 1 captain may not take HV1)
    st[9] done-task mask   st[10] tricks played
    st[12:16] hands   st[16:20] current trick, leader first   st[20:24] tricks won per seat
    st[24:28] cards won per seat   st[28:32] tricks won by a seat with a non-trump 9
    st[32:37] task ids (0..4 = HV1..HV5)   st[37:42] task owners (-1 open)

Moves: a card index 0..39 in play; in the draft a layout position 0..T-1 or :data:`PASS_MOVE`.
Visible-state codes (:func:`ds_state_code`, at most 57 bits, so ``code << 6 | action`` fits
an int64): the hand part (:func:`ds_hand_code`) then, for each task sorted by id, the id,
its holder relative to the seat (4: open) and whether it is done, then the players still
to act in the round minus one and the phase.
"""

# mypy: allow-untyped-defs, allow-untyped-calls
from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np

from crewcheck.runtime import kernels
from crewcheck.agents.kernel import UNTRIED, nth_bit, random_bit, rng_below, rng_next, rng_unit, ucb_keep, ucb_score
from crewcheck.runtime.kernels import lowbit_index, popcount

STEP, LEADER, NTRICK, STATUS, CAPTAIN, NT, TOGETHER, CARDS, FLAGS, DONE, TRICKS = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
HANDS, TRICK, TRICKS_WON, WON, NINES_WON, TIDS, OWNERS = 12, 16, 20, 24, 28, 32, 37
SIZE = 42
RUNNING, WON_GAME, LOST = 0, 1, 2
OPEN_J, HOLDS_J, BROKEN_J = 0, 1, 2
PASS_MOVE = 5
"""The draft move "pass" (bit 5 of a draft legal mask)."""
FLAG_TOGETHER, FLAG_FORBID = 1, 2
TRUMP_SUIT = 3
ALL_CARDS = (1 << 40) - 1
YG_MASK = (0x1FF << 31) | (0x1FF << 9)
"""Yellow and green cards (HV2)."""
NINES = (1 << 8) | (1 << 17) | (1 << 26) | (1 << 39)
"""B9, G9, P9, Y9: the non-trump 9s (HV4)."""
G7, B8 = 15, 7
SUBS = 0xF << 27
HAND_EXACT, HAND_COUNTS = 0, 1
"""Hand parts of the visible-state code: the exact hand (40 bits, the paper's), or the
count of cards per suit (3 bits each) and whether the hand holds a non-trump 9, G7, B8."""


def ds_suit(c):
    """Suit index of a classic card: 0 B, 1 G, 2 P, 3 R (trumps), 4 Y."""
    if c < 27:
        return c // 9
    if c < 31:
        return 3
    return 4


def ds_suit_mask(s):
    """Cards of suit ``s``."""
    if s == 3:
        return 0xF << 27
    if s == 4:
        return 0x1FF << 31
    return 0x1FF << (9 * s)


def ds_played(st):
    """Cards already played: won in earlier tricks or in the current trick."""
    m = 0
    for s in range(4):
        m |= st[WON + s]
    for pos in range(st[NTRICK]):
        m |= 1 << st[TRICK + pos]
    return m


def ds_left(st):
    """Cards still in the hands."""
    return st[HANDS] | st[HANDS + 1] | st[HANDS + 2] | st[HANDS + 3]


def ds_to_move(st):
    """The seat to act."""
    if st[STEP] < 4:
        return (st[CAPTAIN] + st[STEP]) % 4
    return (st[LEADER] + st[NTRICK]) % 4


def ds_open_tasks(st):
    """Mask of layout positions with no holder yet."""
    m = 0
    for i in range(st[NT]):
        if st[OWNERS + i] < 0:
            m |= 1 << i
    return m


def ds_task_judge(st, i, left, tl):
    """OPEN, HOLDS or BROKEN for task ``i`` (``left``: cards in hands, ``tl``: tricks left)."""
    t = st[TIDS + i]
    o = st[OWNERS + i]
    if t == 0:  # HV1: fewer tricks than the captain
        a = st[TRICKS_WON + o]
        b = st[TRICKS_WON + st[CAPTAIN]]
        if a + tl < b:
            return HOLDS_J
        if a >= b + tl:
            return BROKEN_J
        return OPEN_J
    if t == 1:  # HV2: no yellow and no green card
        if st[WON + o] & YG_MASK != 0:
            return BROKEN_J
        if left & YG_MASK == 0 or tl == 0:
            return HOLDS_J
        return OPEN_J
    if t == 2:  # HV3: exactly two tricks
        n = st[TRICKS_WON + o]
        if n == 2 and tl == 0:
            return HOLDS_J
        if n > 2 or n + tl < 2:
            return BROKEN_J
        return OPEN_J
    if t == 3:  # HV4: a trick won with a (non-trump) 9
        if st[NINES_WON + o] >= 1:
            return HOLDS_J
        if min(tl, popcount(left & NINES)) < 1:
            return BROKEN_J
        return OPEN_J
    # HV5: G7 and B8
    if st[FLAGS] & FLAG_TOGETHER:
        tog = st[TOGETHER]
        if tog == -1:
            return BROKEN_J if tl == 0 else OPEN_J
        return HOLDS_J if tog == o else BROKEN_J
    out = HOLDS_J
    for c in (G7, B8):
        if (st[WON + o] >> c) & 1:
            continue
        if (left >> c) & 1:
            out = OPEN_J
        else:
            return BROKEN_J  # won by another seat
    return out


def ds_judge(st):
    """Judge every task (start of play or end of a trick): set the done mask and the status."""
    left = ds_left(st)
    tl = popcount(st[HANDS])
    done = 0
    broken = False
    for i in range(st[NT]):
        j = ds_task_judge(st, i, left, tl)
        if j == HOLDS_J:
            done |= 1 << i
        elif j == BROKEN_J:
            broken = True
    st[DONE] = done
    if broken:
        st[STATUS] = LOST
    elif done == (1 << st[NT]) - 1:
        st[STATUS] = WON_GAME
    elif tl == 0:
        st[STATUS] = LOST


def ds_impossible(st):
    """Whether a task cannot hold before the first card (the engine's ``Built.impossible``)."""
    inplay = ds_left(st)
    for i in range(st[NT]):
        t = st[TIDS + i]
        o = st[OWNERS + i]
        if t == 0 and o == st[CAPTAIN]:
            return True
        if t == 3 and inplay & NINES == 0:
            return True
        if t == 4:
            if (inplay >> G7) & 1 == 0 or (inplay >> B8) & 1 == 0:
                return True
            if st[FLAGS] & FLAG_TOGETHER:
                for s in range(4):
                    if (st[HANDS + s] >> G7) & 1 and (st[HANDS + s] >> B8) & 1:
                        return True
    return False


def ds_start_play(st):
    """Close the draft: lost at once if a task cannot hold, else judge the tasks once."""
    st[STEP] = 4
    st[LEADER] = st[CAPTAIN]
    if ds_impossible(st):
        st[STATUS] = LOST
        return
    ds_judge(st)


def ds_skip_draft(st):
    """Advance past draft steps with no open task; start play after the last step."""
    if st[STEP] < 4 and ds_open_tasks(st) == 0:
        st[STEP] = 4
    if st[STEP] >= 4:
        ds_start_play(st)


def ds_init(st, hands, captain, tids, ntasks, cards, flags):
    """Set ``st`` to a fresh deal before the draft."""
    for k in range(SIZE):
        st[k] = 0
    for s in range(4):
        st[HANDS + s] = hands[s]
    st[CAPTAIN] = captain
    st[LEADER] = captain
    st[NT] = ntasks
    for i in range(5):
        st[TIDS + i] = tids[i] if i < ntasks else -1
        st[OWNERS + i] = -1
    st[CARDS] = cards
    st[FLAGS] = flags
    st[TOGETHER] = -1
    ds_skip_draft(st)


def ds_legal(st):
    """Legal moves as a mask: draft bits 0..T-1 and :data:`PASS_MOVE`, else cards; 0 once over."""
    if st[STATUS] != RUNNING:
        return 0
    if st[STEP] < 4:
        step = st[STEP]
        seat = (st[CAPTAIN] + step) % 4
        open_ = ds_open_tasks(st)
        allowed = open_
        if st[FLAGS] & FLAG_FORBID and seat == st[CAPTAIN]:
            for i in range(st[NT]):
                if st[TIDS + i] == 0:
                    allowed &= ~(1 << i)
        if 4 - step <= popcount(open_) and allowed != 0:
            return allowed
        return allowed | (1 << PASS_MOVE)
    seat = (st[LEADER] + st[NTRICK]) % 4
    hand = st[HANDS + seat]
    if st[NTRICK] == 0:
        return hand
    follow = hand & ds_suit_mask(ds_suit(st[TRICK]))
    if follow != 0:
        return follow
    return hand


def ds_trick_winner(st):
    """Position (0 = leader) of the winning card of the complete current trick."""
    best = 0
    best_suit = ds_suit(st[TRICK])
    for pos in range(1, 4):
        card = st[TRICK + pos]
        s = ds_suit(card)
        if s == best_suit and card > st[TRICK + best]:
            best = pos
        elif s == TRUMP_SUIT and best_suit != TRUMP_SUIT:
            best = pos
            best_suit = s
    return best


def ds_apply(st, mv):
    """Make move ``mv`` (no legality check)."""
    if st[STEP] < 4:
        seat = (st[CAPTAIN] + st[STEP]) % 4
        if mv != PASS_MOVE:
            st[OWNERS + mv] = seat
        st[STEP] += 1
        ds_skip_draft(st)
        return
    nt = st[NTRICK]
    leader = st[LEADER]
    seat = (leader + nt) % 4
    st[HANDS + seat] &= ~(1 << mv)
    st[TRICK + nt] = mv
    nt += 1
    if nt < 4:
        st[NTRICK] = nt
        return
    best = ds_trick_winner(st)
    winner = (leader + best) % 4
    played = 0
    for pos in range(4):
        played |= 1 << st[TRICK + pos]
    st[TRICKS_WON + winner] += 1
    st[WON + winner] |= played
    if (NINES >> st[TRICK + best]) & 1:
        st[NINES_WON + winner] += 1
    if st[TOGETHER] == -1 and ((played >> G7) & 1 or (played >> B8) & 1):
        if (played >> G7) & 1 and (played >> B8) & 1:
            st[TOGETHER] = winner
        else:
            st[TOGETHER] = -2
    st[LEADER] = winner
    st[NTRICK] = 0
    st[TRICKS] += 1
    ds_judge(st)


def ds_playout(st, rs):
    """Uniformly random valid actions (the stochastic agent in every seat) to the end."""
    while st[STATUS] == RUNNING:
        ds_apply(st, random_bit(rs, ds_legal(st)))


def ds_random_game(st, rs, moves):
    """:func:`ds_playout` that records its moves in ``moves``; returns how many."""
    n = 0
    while st[STATUS] == RUNNING:
        mv = random_bit(rs, ds_legal(st))
        moves[n] = mv
        n += 1
        ds_apply(st, mv)
    return n


def ds_hand_left(st, s):
    """Cards seat ``s`` still holds (public: N minus the cards it has played)."""
    n = st[CARDS] - st[TRICKS]
    if (s - st[LEADER]) % 4 < st[NTRICK]:
        n -= 1
    return n


def ds_determinize(st, seat, rs):
    """Deal the hidden cards: every card not in ``seat``'s hand and not yet played is
    equally likely in each other hand (out-of-play cards included); each other seat gets
    as many as it holds."""
    pool = ALL_CARDS & ~st[HANDS + seat] & ~ds_played(st)
    for k in range(1, 4):
        s = (seat + k) % 4
        h = 0
        for _ in range(ds_hand_left(st, s)):
            c = random_bit(rs, pool)
            pool &= ~(1 << c)
            h |= 1 << c
        st[HANDS + s] = h


def ds_plan(st0, k, cexp, rs, moves, visits, wins):
    """Online planning for the seat to act in ``st0`` (whose other hands are ignored):
    ``k`` simulations, each determinizing the hidden cards (:func:`ds_determinize`),
    choosing one of ``moves`` by UCB-1 (``Q + cexp * sqrt(ln n / n_a)``, untried moves
    first, ties at random), then playing at random to the end; adds to ``visits`` and
    ``wins`` (indexed like ``moves``)."""
    seat = ds_to_move(st0)
    st = st0.copy()
    m = moves.shape[0]
    for it in range(k):
        best = 0
        bestu = -1.0
        ties = 0
        lnn = math.log(it) if it > 0 else 0.0
        for j in range(m):
            u = ucb_score(wins[j], visits[j], 1.0, lnn, cexp, UNTRIED)
            best, bestu, ties = ucb_keep(j, u, best, bestu, ties, rs)
        st[:] = st0
        ds_determinize(st, seat, rs)
        ds_apply(st, moves[best])
        ds_playout(st, rs)
        visits[best] += 1
        if st[STATUS] == WON_GAME:
            wins[best] += 1


def ds_hand_code(hand, abstraction):
    """The hand part of the visible-state code (:data:`HAND_EXACT` or :data:`HAND_COUNTS`)."""
    if abstraction == HAND_EXACT:
        return hand
    code = 0
    for s in range(5):
        code |= popcount(hand & ds_suit_mask(s)) << (3 * s)
    if hand & NINES != 0:
        code |= 1 << 15
    code |= ((hand >> G7) & 1) << 16
    code |= ((hand >> B8) & 1) << 17
    return code


def ds_state_code(st, abstraction):
    """The visible state of the seat to act (module docstring): at most 57 bits."""
    seat = ds_to_move(st)
    code = ds_hand_code(st[HANDS + seat], abstraction)
    shift = 40
    # tasks sorted by id (ids are distinct)
    for t in range(5):
        for i in range(st[NT]):
            if st[TIDS + i] == t:
                o = st[OWNERS + i]
                rel = 4 if o < 0 else (o - seat) % 4
                d = 1 if (st[DONE] >> i) & 1 and st[STEP] >= 4 else 0
                code |= (t | rel << 3 | d << 6) << shift
                shift += 7
    if st[STEP] < 4:
        code |= (3 - st[STEP]) << 54
    else:
        code |= (3 - st[NTRICK]) << 54
        code |= 1 << 56
    return code


def ds_action_code(st, mv):
    """0..39 a card; 40 + task id a task; 45 pass (as :func:`~crewcheck.agents.deepsea.action_code`)."""
    if st[STEP] >= 4:
        return mv
    if mv == PASS_MOVE:
        return 45
    return 40 + st[TIDS + mv]


def ds_choose_table(st, rs, abstraction, cexp, visits, wins, total):
    """The move UCB-1 over the table picks (``cexp = 0``: greedy, an untried move counts
    Q = 0; ``cexp > 0``: untried moves first); ties at random."""
    legal = ds_legal(st)
    h = ds_state_code(st, abstraction)
    base = h << 6
    lnn = 0.0
    if cexp > 0:
        nh = total.get(h, 0)
        if nh > 0:
            lnn = math.log(nh)
    best = -1
    bestu = -1.0
    ties = 0
    m = legal
    while m != 0:
        low = m & -m
        m ^= low
        mv = lowbit_index(low)
        key = base | ds_action_code(st, mv)
        u = ucb_score(wins.get(key, 0), visits.get(key, 0), 1.0, lnn, cexp, UNTRIED if cexp > 0 else 0.0)
        best, bestu, ties = ucb_keep(mv, u, best, bestu, ties, rs)
    return best


def ds_train(deals, start, stop, rs, abstraction, cexp, visits, wins, total):
    """Self-play training games ``start..stop-1`` of ``deals`` (rows: 4 hands, captain, T,
    5 task ids, N, flags): every seat picks by :func:`ds_choose_table` from the shared
    table, then every visited (state, action) pair gets the game's reward (0 or 1).
    Returns the games won."""
    st = np.zeros(SIZE, np.int64)
    path_h = np.zeros(64, np.int64)
    path_k = np.zeros(64, np.int64)
    won = 0
    for g in range(start, stop):
        ds_init(st, deals[g, 0:4], deals[g, 4], deals[g, 6:11], deals[g, 5], deals[g, 11], deals[g, 12])
        n = 0
        while st[STATUS] == RUNNING:
            mv = ds_choose_table(st, rs, abstraction, cexp, visits, wins, total)
            h = ds_state_code(st, abstraction)
            path_h[n] = h
            path_k[n] = h << 6 | ds_action_code(st, mv)
            n += 1
            ds_apply(st, mv)
        r = 1 if st[STATUS] == WON_GAME else 0
        won += r
        for j in range(n):
            key = path_k[j]
            visits[key] = visits.get(key, 0) + 1
            if r:
                wins[key] = wins.get(key, 0) + 1
            total[path_h[j]] = total.get(path_h[j], 0) + 1
    return won


def ds_greedy_games(deals, start, stop, rs, abstraction, visits, wins, total, out):
    """Greedy (``c = 0``) self-play of games ``start..stop-1``; ``out[g]`` = 1 if won."""
    st = np.zeros(SIZE, np.int64)
    for g in range(start, stop):
        ds_init(st, deals[g, 0:4], deals[g, 4], deals[g, 6:11], deals[g, 5], deals[g, 11], deals[g, 12])
        while st[STATUS] == RUNNING:
            ds_apply(st, ds_choose_table(st, rs, abstraction, 0.0, visits, wins, total))
        out[g] = 1 if st[STATUS] == WON_GAME else 0


def ds_export(d, out):
    """Copy the items of a table dict into the rows of ``out`` (``len(d)`` x 2)."""
    i = 0
    for key, val in d.items():
        out[i, 0] = key
        out[i, 1] = val
        i += 1


KERNEL_FUNCTIONS = (
    popcount, lowbit_index, rng_next, rng_below, rng_unit, nth_bit, random_bit, ucb_score, ucb_keep,
    ds_suit, ds_suit_mask, ds_played, ds_left, ds_to_move, ds_open_tasks, ds_task_judge, ds_judge, ds_impossible,
    ds_start_play, ds_skip_draft, ds_init, ds_legal, ds_trick_winner, ds_apply, ds_playout, ds_random_game,
    ds_hand_left, ds_determinize, ds_plan, ds_hand_code, ds_state_code, ds_action_code, ds_choose_table, ds_train,
    ds_greedy_games, ds_export,
)
"""Every function of the Deep Sea kernel, callees before callers."""


def twin() -> SimpleNamespace:
    """The kernel's functions as plain Python."""
    return kernels.twin(KERNEL_FUNCTIONS)


def compiled() -> SimpleNamespace:
    """The kernel's functions compiled by numba (on-disk cache); :class:`ImportError` without it."""
    return kernels.compile_kernel(KERNEL_FUNCTIONS, cache=True, nogil=True)


def kernel() -> SimpleNamespace:
    """The compiled kernel when numba is installed, else the twin."""
    try:
        return compiled()
    except ImportError:  # pragma: no cover - the plain twin runs instead
        return twin()
