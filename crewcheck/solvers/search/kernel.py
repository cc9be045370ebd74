"""The search kernel: the depth-first search loop, its move generation and the position key.

Plain-Python functions that numba compiles unchanged (:mod:`crewcheck.runtime.kernels`):
:func:`compiled` returns them compiled (numba imported on first use, machine code
cached on disk), :func:`twin` as they are. The tests run both on the same inputs and
compare every output. The rules of the game they apply are in
:mod:`~crewcheck.solvers.search.rules`, the cuts in :mod:`~crewcheck.solvers.search.cuts`,
the refutation table in :mod:`~crewcheck.solvers.search.table`; the arrays come from
:mod:`~crewcheck.solvers.search.problem`.

Conventions (all values are Python ints / int64):

* a card is an index ``0..N-1`` (suit-major, ascending value; ``N <= 63`` so a set
  of cards fits a signed 64-bit mask);
* ``hands[s]`` is the mask of cards seat ``s`` still holds; the union of the hands at a
  trick boundary (with the leader and, under free assignment, the seats' remaining task
  quotas) determines the rest of the game, because every card's holder is fixed by
  the deal and the tasks done are exactly the task cards no longer held;
* ``seq`` holds the cards of the game from the search's root: the cards of the trick
  in progress at the root first, then one card per search depth;
* task ``i`` has seat ``tseat[i]`` (``-1`` under free assignment), token kind
  ``tkind[i]`` (0 none, 1 absolute, 2 relative, 3 last) and rank ``trank[i]``;
  ``card_task[c]`` is the task on card ``c`` or ``-1``.

The search is an iterative depth-first search over single card plays with an explicit
stack (see :func:`search` and the back-end's docstring, :mod:`crewcheck.solvers.search`).
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from crewcheck.runtime import kernels
from crewcheck.runtime.kernels import lowbit_index, popcount
from crewcheck.solvers.search.conditions import (
    COND_FUNCTIONS, C_BROKEN, C_HOLDS, C_OPEN, cond_boundary_dead, cond_judge, cond_key, cond_step, cond_trick_dead,
)
from crewcheck.solvers.search.cuts import BOUNDARY_RULES, CUT_FUNCTIONS, boundary_dead, most_tasks_held, trick_dead
from crewcheck.solvers.search.rules import can_beat, in_play, order_ok, playable, trick_best
from crewcheck.solvers.search.records import DealArrays, Limits, TableArrays, Workspace
from crewcheck.solvers.search.table import KEY_WORDS, TABLE_FUNCTIONS, tt_refuted, tt_store
from crewcheck.solvers.search.low_cards import RELAX_FUNCTIONS
from crewcheck.solvers.search.partition import (
    ALL, PART_FUNCTIONS, pt_boundary_cut, pt_close, pt_refuted, pt_store, pt_trick_cut, pt_winner,
)

__all__ = [
    "MAXM", "COVERS_MAX_CANON", "STAT_NODES", "STAT_TT_HITS", "STAT_TT_STORES", "STAT_CUTS", "STAT_DEPTH",
    "STAT_PT_HITS", "STAT_PT_STORES", "STAT_SIZE",
    "FRAME_RESUME", "FRAME_DEPTH", "FRAME_TLEN", "FRAME_LEADER", "FRAME_DONE", "FRAME_WASTE", "FRAME_SIZE",
    "WIN", "LOSE", "OUT_OF_NODES", "gen_moves", "position_key", "search", "KERNEL_FUNCTIONS", "INLINED",
    "twin", "compiled", "is_loaded",
]

MAXM = 64
"""Room for moves per search depth (at most one per card)."""
COVERS_MAX_CANON = 9
"""Most covers a relative-rank key keeps apart (:func:`position_key`: bits 54-62 of word 3)."""

LOSE = 0
WIN = 1
OUT_OF_NODES = 2

STAT_NODES = 0
STAT_TT_HITS = 1
STAT_TT_STORES = 2
STAT_CUTS = 3
"""Positions refuted by a cut (:mod:`crewcheck.solvers.search.cuts`)."""
STAT_DEPTH = 4
"""Length of the winning line (WIN only)."""
STAT_PT_HITS = 5
"""Positions refuted by the partition table (:mod:`crewcheck.solvers.search.partition`)."""
STAT_PT_STORES = 6
"""Positions stored in the partition table."""
STAT_SIZE = 8
FRAME_RESUME = 0
"""Set by the caller: go on from the frame (1) or start at the root (0)."""
FRAME_DEPTH = 1
FRAME_TLEN = 2
FRAME_LEADER = 3
FRAME_DONE = 4
FRAME_WASTE = 5
FRAME_SIZE = 6


def gen_moves(depth: int, seat: int, hands: Any, seq: Any, ts: int, tlen: int, leader: int, quota: Any,
              deal: DealArrays, limits: Limits, moves: Any, scores: Any) -> int:
    """Write the moves to try at ``depth`` into ``moves[depth*MAXM ...]``, best first.

    The position is ``hands``, ``quota`` and the trick ``seq[ts : ts + tlen]`` led by
    ``leader`` (``seat``: the seat on turn, ``-1`` for a free first lead); the deal and
    the move ordering (``limits.seed``, ``limits.shaping``) come as records.

    Legal plays of the seat on turn (any face-up card of any hand for a free first lead;
    a covered card is no play, and a seat follows suit with its face-up cards only), one
    card per class of equivalent cards (same seat and suit, nothing still in play
    between them, none a task card, a card a condition names or a card covering another),
    ordered by a task-aware score. Under free
    assignment the score prefers, while a trick is in progress, the current winner with
    the most tasks still to take (never one without room for the trick's task cards);
    ``shaping != 0`` is the alternative ordering of the restarts: under fixed assignment a
    bonus for shaping plays, under free assignment the quota preference left out.
    """
    p, free, trump, task_cards = deal.players, deal.free, deal.trump, deal.task_cards
    tseat, card_task, suit_of, suit_mask = deal.tseat, deal.card_task, deal.suit_of, deal.suit_mask
    seed, shaping = limits.seed, limits.shaping
    covers = deal.covers
    named = deal.cond.named | deal.covering
    base = depth * MAXM
    inplay = 0
    for s in range(p):
        inplay |= hands[s]
    trick_mask = 0
    for i in range(tlen):
        trick_mask |= 1 << seq[ts + i]
    live = inplay | trick_mask
    if seat < 0:
        legal = 0
        for s in range(p):
            legal |= playable(hands[s], covers)
    else:
        legal = playable(hands[seat], covers)
        if tlen > 0:
            f = legal & suit_mask[suit_of[seq[ts]]]
            if f != 0:
                legal = f
    # state of the trick so far
    best_card = -1
    best_suit = -1
    cw = -1
    owner = -1  # fixed: seat that must win this trick (-1 none, -2 conflict)
    if tlen > 0:
        best = trick_best(seq, ts, tlen, suit_of, trump)
        best_card = seq[ts + best]
        best_suit = suit_of[best_card]
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
                and card_task[prev] < 0 and ((named >> c) & 1) == 0 and ((named >> prev) & 1) == 0):
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


def position_key(hands: Any, p: int, leader: int, quota: Any, free: int, canon: int, holder: Any,
                 suit_mask: Any, card_task: Any, covers: Any, key: Any) -> None:
    """Write the key of the trick-boundary position into ``key[0:KEY_WORDS]``.

    ``canon = 0``: the exact position (cards held, leader, quotas; the cards held also
    say which covered cards are still covered: those whose covering card is held).
    ``canon = 1`` (at most 5 seats, 8 suits of at most 15 cards): the position up to
    relabelling cards within a suit by rank among the cards still in play. Per suit, the
    holder and task flag of each card still held, in rank order, plus the set of task
    cards still held: two positions with the same key are the same game with cards
    renamed (suit, relative order, holder and task kept), so one is won iff the other
    is. A card's code takes 3 bits (20 cards a word, 60 in all) on at most 4 seats and
    4 bits on 5 (codes up to 9: 15 cards a word, 45 in all).

    Covered cards: the cards held say which cards are still covered (those whose
    covering card is held), so the exact key needs nothing more. The relative key, on
    at most 3 seats and :data:`COVERS_MAX_CANON` covers, adds the set of covers still in
    play (both cards held; bits 54-62 of word 3) and gives each of their cards the code
    7 (no holder-and-task code reaches 6 on 3 seats). Two positions with the same key
    then have the same covers in play, so the same set of such cards in each suit, at
    the same ranks: the renaming, which keeps the order within a suit, maps that set onto
    itself and so fixes every one of them (as it fixes the task cards, which the set of
    tasks left names), and the covers are the same in both games. Otherwise, while a
    cover is in play, the key is the exact one. The two layouts never meet (word 3 is 0
    in the exact key only).
    """
    inplay = 0
    for s in range(p):
        inplay |= hands[s]
    q = 0
    if free:
        for s in range(p):
            q |= quota[s] << (6 * s)
    ncov = len(covers) // 2
    act = 0  # the covers still in play
    marked = 0  # their cards
    if canon != 0:
        for i in range(ncov):
            both = (1 << covers[2 * i]) | (1 << covers[2 * i + 1])
            if (inplay & both) == both:
                act |= 1 << i
                marked |= both
        if act != 0 and (p > 3 or ncov > COVERS_MAX_CANON):
            canon = 0  # no room in the key to keep them apart
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
    width = 3 if p <= 4 else 4
    per = 20 if p <= 4 else 15
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
            if (marked >> c) & 1:
                code = 7  # a card of a cover still in play: the renaming fixes it
            word = pos // per
            shift = width * (pos - per * word)
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
    key[3] = counts | ((leader + 1) << 32) | (q << 36) | (act << 54)
    key[4] = tasks_left


def search(hands: Any, seq: Any, quota: Any, limits: Limits, deal: DealArrays, table: TableArrays,
           work: Workspace) -> int:
    """Depth-first search for a winning continuation; returns WIN, LOSE or OUT_OF_NODES.

    The parameters: what a round changes (``hands``, ``seq`` and ``quota``, which the
    search modifies, so the caller passes copies), then four records, read by field name:
    the round's node limit and move ordering (:class:`~.problem.Limits`), the deal
    (:class:`~.problem.DealArrays`), the refutation table (:class:`~.table.TableArrays`)
    and the scratch arrays (:class:`~.problem.Workspace`).

    On WIN the winning cards are ``seq[tlen0 : tlen0 + stats[STAT_DEPTH]]``. Refuted
    trick boundary positions are stored in the table ``tt`` under generation ``gen``
    (entries of other generations are ignored), so a search cut short by
    ``node_limit`` can be restarted with a larger limit without losing them.

    ``waste_cap`` limits the tricks that complete no task (a large value: no limit).
    A position refuted with ``a`` such tricks still allowed is stored with
    allowance ``a`` and counts as refuted only for searches allowing at most ``a``.

    A call that returns OUT_OF_NODES leaves its frame (depth, trick, leader, tasks done,
    idle tricks) in ``work.frame`` and its stack in the other scratch arrays; a call with
    ``work.frame[FRAME_RESUME]`` set, on the same ``hands``, ``seq`` and ``quota``, the same
    ``limits`` ordering and table, goes on from there: a round cut into slices (to poll a
    cancel hook) then costs no nodes to come back to where it was.
    """
    node_limit, waste_cap = limits.node_limit, limits.waste_cap
    p, tlen0, leader, done = deal.players, deal.tlen0, deal.leader, deal.done
    free, all_done, ntasks, trump = deal.free, deal.all_done, deal.ntasks, deal.trump
    tseat, tkind, trank, card_task = deal.tseat, deal.tkind, deal.trank, deal.card_task
    suit_of, suit_mask, own_mask, holder = deal.suit_of, deal.suit_mask, deal.own_mask, deal.holder
    strict, has_tokens, task_cards, canon = deal.strict, deal.has_tokens, deal.task_cards, deal.canon
    tt, gen, tt_mask = table.words, table.gen, table.mask
    key, moves, scores, nmoves, midx = work.key, work.moves, work.scores, work.nmoves, work.midx
    sv_leader, sv_seat, sv_done, sv_qg = work.sv_leader, work.sv_seat, work.sv_done, work.sv_qg
    sv_waste, sv_flag, release, stats = work.sv_waste, work.sv_flag, work.release, work.stats
    cond, cmemo, sv_cmemo, covers = deal.cond, work.cmemo, work.sv_cmemo, deal.covers
    nc = cond.n
    part, rel, pt, pt_mask = deal.part, work.rel, table.part, table.part_mask
    frame = work.frame
    nodes = 0
    waste = 0
    tlen = tlen0
    depth = 0
    if frame[FRAME_RESUME] != 0:
        # go on where the last call ran out of nodes: its move at that depth was made (the
        # conditions' memos are still in work.cmemo)
        frame[FRAME_RESUME] = 0
        depth = frame[FRAME_DEPTH] + 1
        tlen = frame[FRAME_TLEN]
        leader = frame[FRAME_LEADER]
        done = frame[FRAME_DONE]
        waste = frame[FRAME_WASTE]
        rel[depth] = 0
        nmoves[depth] = gen_moves(depth, (leader + tlen) % p, hands, seq, tlen0 + depth - tlen, tlen, leader,
                                  quota, deal, limits, moves, scores)
        midx[depth] = 0
    else:
        # the root position
        for i in range(nc):
            cmemo[i] = cond.memo0[i]
        if tlen == 0 and leader >= 0:
            position_key(hands, p, leader, quota, free, canon, holder, suit_mask, card_task, covers, key)
            if nc > 0:
                cond_key(cond, cmemo, key)
            if tt_refuted(key, tt, gen, tt_mask, waste_cap):
                stats[STAT_TT_HITS] += 1
                return LOSE
            if part and pt_refuted(hands, p, leader, suit_mask, pt, gen, pt_mask, waste_cap) >= 0:
                stats[STAT_PT_HITS] += 1
                return LOSE
            if boundary_dead(hands, p, free, task_cards, tseat, card_task, suit_of, suit_mask, trump,
                             own_mask, quota, release, leader, has_tokens, tkind, trank, covers):
                stats[STAT_CUTS] += 1
                return LOSE
        seat0 = -1 if leader < 0 else (leader + tlen) % p
        nmoves[0] = gen_moves(0, seat0, hands, seq, 0, tlen, leader, quota, deal, limits, moves, scores)
        midx[0] = 0
        rel[0] = 0
    while True:
        if midx[depth] >= nmoves[depth]:
            # every move failed: refute this position (trick boundaries only) and back up
            if tlen == 0 and leader >= 0:
                position_key(hands, p, leader, quota, free, canon, holder, suit_mask, card_task, covers, key)
                if nc > 0:
                    cond_key(cond, cmemo, key)
                tt_store(key, tt, gen, tt_mask, waste_cap - waste)
                stats[STAT_TT_STORES] += 1
                if part:
                    # a position refuted by cards it does not all need: refute its partition
                    r, zone, inplay = pt_close(rel[depth], hands, p, suit_mask, holder, card_task, task_cards)
                    if r != inplay:
                        pt_store(hands, p, leader, suit_mask, r, zone, pt, gen, pt_mask, waste_cap - waste)
                        stats[STAT_PT_STORES] += 1
                    rel[depth] = r
            if depth == 0:
                stats[STAT_NODES] += nodes
                return LOSE
            depth -= 1
            rel[depth] |= rel[depth + 1]
            # undo the move made at `depth`
            if sv_flag[depth]:
                done = sv_done[depth]
                waste = sv_waste[depth]
                quota[leader] += sv_qg[depth]
                tlen = p
                for i in range(nc):
                    cmemo[i] = sv_cmemo[depth * nc + i]
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
            bi = trick_best(seq, ts, p, suit_of, trump)
            w = (leader + bi) % p
            if part:
                rel[depth] |= pt_winner(seq, ts, p, bi, suit_of)
            group = 0
            g = 0
            played = 0
            for i in range(p):
                played |= 1 << seq[ts + i]
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
                verdict = C_HOLDS
                if nc > 0:
                    # the conditions judge the trick: lost when one is broken, and won
                    # once the tasks are done only when every one holds
                    for i in range(nc):
                        sv_cmemo[depth * nc + i] = cmemo[i]
                    inplay, tleft = in_play(hands, p)
                    cond_step(cond, cmemo, played, w, seq[ts + bi], cond.tricks_total - tleft, 1 if tleft == 0 else 0,
                              (w - bi + p) % p, seq[ts])
                    verdict = cond_judge(cond, cmemo, inplay, tleft)
                    if verdict == C_BROKEN:
                        ok = False
                    elif verdict == C_OPEN and cond_boundary_dead(cond, cmemo, hands, p, trump, suit_mask, tleft):
                        stats[STAT_CUTS] += 1
                        ok = False
                if ok and done == all_done and verdict == C_HOLDS:
                    stats[STAT_NODES] += nodes
                    stats[STAT_DEPTH] = depth + 1
                    return WIN
                for s in range(p):
                    if hands[s] == 0:
                        ok = False
                if waste > waste_cap:
                    ok = False
                if ok:
                    position_key(hands, p, leader, quota, free, canon, holder, suit_mask, card_task, covers, key)
                    if nc > 0:
                        cond_key(cond, cmemo, key)
                    hit = -1
                    if part:  # first: its relevant cards are fewer than the exact hit's (all)
                        hit = pt_refuted(hands, p, leader, suit_mask, pt, gen, pt_mask, waste_cap - waste)
                    if hit >= 0:
                        stats[STAT_PT_HITS] += 1
                        ok = False
                        rel[depth] |= hit
                    elif tt_refuted(key, tt, gen, tt_mask, waste_cap - waste):
                        stats[STAT_TT_HITS] += 1
                        ok = False
                        rel[depth] = ALL
                    elif boundary_dead(hands, p, free, task_cards, tseat, card_task, suit_of,
                                       suit_mask, trump, own_mask, quota, release, leader,
                                       has_tokens, tkind, trank, covers):
                        stats[STAT_CUTS] += 1
                        ok = False
                        if part:
                            rel[depth] |= pt_boundary_cut(hands, p, leader, quota, trump, suit_mask, own_mask,
                                                          task_cards)
                if not ok:
                    # undo the trick completion, then the card (below)
                    done = sv_done[depth]
                    waste = sv_waste[depth]
                    for i in range(nc):
                        cmemo[i] = sv_cmemo[depth * nc + i]
                    if free:
                        quota[leader] += g
                    tlen = p
        elif trick_dead(hands, p, seq, ts, tlen, leader, free, quota, tseat, card_task, suit_of,
                        suit_mask, trump, covers):
            stats[STAT_CUTS] += 1
            ok = False
            if part:
                rel[depth] |= pt_trick_cut(seq, ts, tlen, suit_of, trump)
        elif nc > 0 and cond_trick_dead(cond, cmemo, hands, p, seq, ts, tlen, leader, suit_of, suit_mask, trump,
                                           covers):
            stats[STAT_CUTS] += 1
            ok = False
        if not ok:
            tlen -= 1
            hands[seat] |= 1 << c
            leader = sv_leader[depth]
            continue
        if nodes >= node_limit:
            stats[STAT_NODES] += nodes
            frame[FRAME_DEPTH] = depth
            frame[FRAME_TLEN] = tlen
            frame[FRAME_LEADER] = leader
            frame[FRAME_DONE] = done
            frame[FRAME_WASTE] = waste
            return OUT_OF_NODES
        depth += 1
        rel[depth] = 0
        nseat = (leader + tlen) % p
        nmoves[depth] = gen_moves(depth, nseat, hands, seq, tlen0 + depth - tlen, tlen, leader, quota, deal,
                                  limits, moves, scores)
        midx[depth] = 0


KERNEL_FUNCTIONS = (
    kernels.popcount, kernels.lowbit_index, kernels.highbit_index, order_ok, playable, can_beat, trick_best, in_play,
    gen_moves,
    *CUT_FUNCTIONS, *COND_FUNCTIONS, position_key, *TABLE_FUNCTIONS, *PART_FUNCTIONS, search, *RELAX_FUNCTIONS,
)
"""Every function of the search kernel, callees before callers."""

INLINED = (*BOUNDARY_RULES, most_tasks_held, trick_best)
"""Compiled into their callers (:func:`crewcheck.runtime.kernels.compile_kernel`'s ``inline``):
the rules of :func:`~crewcheck.solvers.search.cuts.boundary_dead` and the count they share
(:func:`~crewcheck.solvers.search.cuts.most_tasks_held`), so that splitting them
into functions costs no calls, and :func:`trick_best`, which :func:`gen_moves`,
:func:`search` and the cuts share (measured: fewer instructions than before the split)."""
_JIT_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy"}


def is_loaded() -> bool:
    """Whether :func:`compiled` has already run in this process."""
    return kernels.is_compiled(KERNEL_FUNCTIONS, inline=INLINED, **_JIT_OPTIONS)


def twin() -> SimpleNamespace:
    """The kernel functions as plain Python (the reference the compiled kernel is tested against)."""
    return kernels.twin(KERNEL_FUNCTIONS)


def compiled() -> SimpleNamespace:
    """The kernel functions compiled by numba (compiled once per machine, then loaded
    from the on-disk cache). Raises :class:`ImportError` without numba."""
    return kernels.compile_kernel(KERNEL_FUNCTIONS, inline=INLINED, **_JIT_OPTIONS)
