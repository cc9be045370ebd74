"""The winnability CNF written by a compiled kernel: the clauses of
:func:`crewcheck.solvers.logic.encoding.encode` expanded by
:class:`~crewcheck.solvers.logic.export.ClauseFormula`, clause for clause and with the
same variable ids, for the positions the common deals reach: fixed or free assignment,
order tokens in either reading, any lead, a trick in progress; no conditions, covered
cards or choices of the crew (:mod:`.cnf_build` chooses the builder per deal).

Plain-Python functions on ints and int64 arrays that numba compiles unchanged
(:mod:`crewcheck.runtime.kernels`): :func:`compiled` returns them compiled,
:func:`twin` as they are. Each block below is the block of :mod:`.rule_clauses` of the
same name, its loops in the same order, so the clauses come out in the same order; the
encoder's block is the reference and its docstring says the rule.

The records, the writing of clauses and the numbering of the variables (and the
conventions they share) are in :mod:`.cnf_clauses`.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from crewcheck.runtime import kernels
from crewcheck.runtime.kernels import highbit_index, lowbit_index, popcount
from crewcheck.solvers.logic.cnf_clauses import (
    ABSOLUTE, LAST, NONE, RELATIVE, ST_AUX, ST_CLAUSES, ST_LITS, UNIQUE, WRITING_FUNCTIONS, CnfDeal, Ids, Out,
    at_least, at_most, c1, c2, c3, c4, card_list, close, exactly_one, lead_of, number, or_of_cards, put, put_all,
)

__all__ = ["build", "KERNEL_FUNCTIONS", "INLINED", "twin", "compiled", "is_loaded"]


# -- the blocks, in encoding.ENCODERS's order --------------------------------------------
def play_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_play_constraints` (no distress signal)."""
    n = d.cards
    lits = o.scratch
    every = 0
    for s in range(d.players):
        every |= d.hands[s]
    for tr in range(d.tricks):
        for s in range(d.players):
            k = card_list(d.hands[s], lits)
            for i in range(k):
                lits[i] = v.play[tr * n + lits[i]]
            exactly_one(o, lits, k)
    for f in range(d.fixed.shape[0]):
        c1(o, v.play[d.fixed[f]])
    m = every
    while m != 0:
        low = m & -m
        m ^= low
        c = lowbit_index(low)
        for tr in range(d.tricks):
            now = v.play[tr * n + c]
            done = v.done[tr * n + c]
            c2(o, -now, done)
            if tr == 0:
                c2(o, -done, now)
            else:
                before = v.done[(tr - 1) * n + c]
                c2(o, -before, done)
                c3(o, -done, before, now)
                c2(o, -now, -before)
    last = d.tricks - 1
    for s in range(d.players):
        k = card_list(d.hands[s], lits)
        for i in range(k):
            lits[i] = v.done[last * n + lits[i]]
        at_least(o, lits, k, d.tricks, lits, 0)


def symmetry_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_symmetry_constraints`."""
    n = d.cards
    fixed = 0
    for f in range(d.fixed.shape[0]):
        fixed |= 1 << d.fixed[f]
    every = 0
    for s in range(d.players):
        every |= d.hands[s]
    mine = o.scratch
    for s in range(d.players):
        for u in range(d.suits):
            k = card_list(d.hands[s] & d.suit_mask[u] & ~fixed, mine)
            for x in range(k - 1):
                a = mine[x]
                b = mine[x + 1]
                gap = ((1 << b) - 1) & ~((1 << (a + 1)) - 1)
                ka = d.kind[a]
                if every & gap != 0 or ka != d.kind[b] or ka == UNIQUE:
                    continue
                ta = d.task_of[a]
                tb = d.task_of[b]
                for tr in range(d.tricks):
                    put(o, -v.done[tr * n + b])
                    if ta >= 0:
                        put(o, -v.task[ta])
                    if tb >= 0:
                        put(o, -v.task[tb])
                    c1(o, v.done[tr * n + a])


def lead_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_lead_constraints`."""
    if d.leader < 0:
        lits = o.scratch
        for s in range(d.players):
            lits[s] = v.lead[s]
        exactly_one(o, lits, d.players)
        return
    c1(o, v.lead[d.leader])
    for s in range(d.players):
        if s != d.leader:
            c1(o, -v.lead[s])


def led_suit_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_led_suit_constraints`."""
    n = d.cards
    lits = o.scratch
    for tr in range(d.tricks):
        for s in range(d.players):
            lead = lead_of(v, d, tr, s)
            m = d.hands[s]
            while m != 0:
                low = m & -m
                m ^= low
                c = lowbit_index(low)
                c3(o, -lead, -v.play[tr * n + c], v.led[tr * d.suits + d.suit_of[c]])
        for u in range(d.suits):
            lits[u] = v.led[tr * d.suits + u]
        exactly_one(o, lits, d.suits)


def follow_suit_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_follow_suit_constraints` (no covers, no distress signal)."""
    n = d.cards
    for tr in range(d.tricks):
        for s in range(d.players):
            hand = d.hands[s]
            m = hand
            while m != 0:
                low = m & -m
                m ^= low
                c = lowbit_index(low)
                now = v.play[tr * n + c]
                cs = d.suit_of[c]
                for u in range(d.suits):
                    if u == cs:
                        continue
                    lu = v.led[tr * d.suits + u]
                    q = hand & d.suit_mask[u]
                    while q != 0:
                        lo = q & -q
                        q ^= lo
                        if tr > 0:
                            c3(o, -now, -lu, v.done[(tr - 1) * n + lowbit_index(lo)])
                        else:
                            c2(o, -now, -lu)


def higher_ladder(d: CnfDeal, v: Ids, o: Out, tr: int, every: int) -> None:
    """``higher_t_c`` down each suit, and ``trumped_t`` (the first part of the winner block)."""
    n = d.cards
    for u in range(d.suits):
        above = 0
        above_card = 0
        m = every & d.suit_mask[u]
        while m != 0:
            c = highbit_index(m)
            m ^= 1 << c
            h = v.higher[tr * n + c]
            if above == 0:
                c1(o, -h)
            else:
                pa = v.play[tr * n + above_card]
                c2(o, -pa, h)
                c2(o, -above, h)
                c3(o, -h, pa, above)
            above = h
            above_card = c
    if d.trump >= 0:
        trumped = v.trumped[tr]
        or_of_cards(o, trumped, v.play, tr * n, every & d.suit_mask[d.trump])


def winner_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_winner_constraints` (no distress signal)."""
    n = d.cards
    p = d.players
    every = 0
    for s in range(p):
        every |= d.hands[s]
    needs = o.guard
    lits = o.scratch
    for tr in range(d.tricks):
        higher_ladder(d, v, o, tr, every)
        m = every
        while m != 0:
            low = m & -m
            m ^= low
            c = lowbit_index(low)
            u = d.suit_of[c]
            needs[0] = v.play[tr * n + c]
            needs[1] = -v.higher[tr * n + c]
            k = 2
            if u != d.trump:
                needs[2] = v.led[tr * d.suits + u]
                k = 3
                if d.trump >= 0:
                    needs[3] = -v.trumped[tr]
                    k = 4
            w = v.win[tr * n + c]
            for i in range(k):
                c2(o, -w, needs[i])
            for i in range(k):
                put(o, -needs[i])
            c1(o, w)
        m = every
        while m != 0:
            low = m & -m
            m ^= low
            put(o, v.win[tr * n + lowbit_index(low)])
        close(o)
        for s in range(p):
            lits[s] = v.winner[tr * p + s]
        exactly_one(o, lits, p)
        for s in range(p):
            or_of_cards(o, v.winner[tr * p + s], v.win, tr * n, d.hands[s])


def task_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_task_constraints`."""
    n = d.cards
    p = d.players
    last = d.tricks - 1
    for i in range(d.task_card.shape[0]):
        need = v.task[i]
        card = d.task_card[i]
        seat = d.task_seat[i]
        c2(o, -need, v.done[last * n + card])
        for tr in range(d.tricks):
            now = v.play[tr * n + card]
            if seat >= 0:
                c3(o, -need, -now, v.winner[tr * p + seat])
            else:
                for s in range(p):
                    c4(o, -need, -now, -v.owner[i * p + s], v.winner[tr * p + s])
                    c4(o, -need, -now, -v.winner[tr * p + s], v.owner[i * p + s])


def precedence_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_precedence_constraints` (no covers)."""
    n = d.cards
    guard = o.guard
    for i in range(d.task_card.shape[0]):
        w = d.task_seat[i]
        c = d.task_card[i]
        u = d.suit_of[c]
        if w < 0 or u == d.trump or (d.hands[w] >> c) & 1 == 0:
            continue
        for other in range(d.players):
            mine = d.hands[other] & d.suit_mask[u]
            if other == w or mine == 0:
                continue
            ng = 1
            guard[0] = -v.task[i]
            ducks = False
            q = mine & ((1 << c) - 1)  # its cards below c
            while q != 0:
                low = q & -q
                q ^= low
                j = d.task_of[lowbit_index(low)]
                if j < 0 or d.task_seat[j] == w:
                    ducks = True
                    break
                guard[ng] = -v.task[j]
                ng += 1
            if ducks:
                continue
            held = popcount(mine)
            for tr in range(d.tricks):
                now = v.play[tr * n + c]
                if tr < held:
                    put_all(o, guard, ng)
                    c1(o, -now)
                    continue
                q = mine
                while q != 0:
                    low = q & -q
                    q ^= low
                    put_all(o, guard, ng)
                    c2(o, -now, v.done[(tr - 1) * n + lowbit_index(low)])


def count_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_count_constraints`."""
    n = d.cards
    lits = o.scratch
    for s in range(d.players):
        held = popcount(d.hands[s])
        for tr in range(d.tricks):
            if 2 * (tr + 1) > held:
                continue
            k = card_list(d.hands[s], lits)
            for i in range(k):
                lits[i] = v.done[tr * n + lits[i]]
            at_most(o, lits, k, tr + 1, lits, 0)


def assignment_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_assignment_constraints`."""
    if d.quotas.shape[0] == 0:
        return
    p = d.players
    nt = d.task_card.shape[0]
    lits = o.scratch
    neg = o.guard
    for i in range(nt):
        for s in range(p):
            lits[s] = v.owner[i * p + s]
        at_most(o, lits, p, 1, lits, 0)
        put(o, -v.task[i])
        put_all(o, lits, p)
        close(o)
    for s in range(p):
        for i in range(nt):
            lits[i] = v.owner[i * p + s]
        at_most(o, lits, nt, d.quotas[s], lits, 0)
    for i in range(nt):
        neg[i] = -v.task[i]
    for s in range(p):
        for i in range(nt):
            lits[i] = v.owner[i * p + s]
        at_least(o, lits, nt, d.quotas[s], neg, nt)


def order_block(d: CnfDeal, v: Ids, o: Out) -> None:
    """:func:`.rule_clauses.add_order_constraints`: "omega" and relative tokens, then
    number tokens (:func:`number_tokens`), then the strict reading (:func:`strict_pairs`)."""
    n = d.cards
    nt = d.task_card.shape[0]
    tokened = 0
    numbered = 0
    for i in range(nt):
        if d.task_token[i] != NONE:
            tokened += 1
        if d.task_token[i] == ABSOLUTE:
            numbered += 1
    if tokened == 0:
        return
    for i in range(nt):
        kind = d.task_token[i]
        if kind == NONE:
            continue
        for j in range(nt):
            if j == i:
                continue
            if kind == LAST or (kind == RELATIVE and d.task_token[j] == RELATIVE and d.task_rank[j] < d.task_rank[i]):
                for tr in range(d.tricks):
                    c4(o, -v.task[i], -v.task[j], -v.play[tr * n + d.task_card[i]], v.done[tr * n + d.task_card[j]])
    if numbered > 0:
        number_tokens(d, v, o)
    if d.strict != 0:
        strict_pairs(d, v, o)


def number_tokens(d: CnfDeal, v: Ids, o: Out) -> None:
    """A numbered task "k" is the k-th task completed (the ``completed`` variables and the
    counts of :func:`.rule_clauses.add_order_constraints`)."""
    n = d.cards
    nt = d.task_card.shape[0]
    for tr in range(d.tricks):
        for j in range(nt):
            c = v.completed[tr * nt + j]
            done = v.done[tr * n + d.task_card[j]]
            c2(o, -c, v.task[j])
            c2(o, -c, done)
            c3(o, -v.task[j], -done, c)
    lits = o.scratch
    neg = o.guard
    for i in range(nt):
        if d.task_token[i] != ABSOLUTE:
            continue
        want = d.task_rank[i] - d.done_count
        for tr in range(d.tricks):
            neg[0] = -v.task[i]
            neg[1] = -v.play[tr * n + d.task_card[i]]
            if tr > 0:
                k = 0
                for j in range(nt):
                    if j != i:
                        lits[k] = v.completed[(tr - 1) * nt + j]
                        k += 1
                at_most(o, lits, k, want - 1, neg, 2)
            elif want - 1 < 0:
                c2(o, neg[0], neg[1])
            for j in range(nt):
                lits[j] = v.completed[tr * nt + j]
            at_least(o, lits, nt, want, neg, 2)


def strict_pairs(d: CnfDeal, v: Ids, o: Out) -> None:
    """The strict reading: tokened tasks completed in one trick have tokens of one kind
    (never "omega") with consecutive ranks (:func:`.rule_clauses.add_order_constraints`)."""
    n = d.cards
    nt = d.task_card.shape[0]
    by_rank = o.guard  # [kind * 8 + rank]: the last open task with that token, or -1
    for x in range(32):
        by_rank[x] = -1
    for i in range(nt):
        if d.task_token[i] != NONE:
            by_rank[d.task_token[i] * 8 + d.task_rank[i]] = i
    for i in range(nt):
        ki = d.task_token[i]
        if ki == NONE:
            continue
        ri = d.task_rank[i]
        for j in range(i + 1, nt):
            kj = d.task_token[j]
            if kj == NONE:
                continue
            rj = d.task_rank[j]
            clash = ki != kj or ki == LAST
            if not clash:
                for r in range(min(ri, rj) + 1, max(ri, rj)):
                    if by_rank[ki * 8 + r] < 0:
                        clash = True
            for tr in range(d.tricks):
                pi = v.play[tr * n + d.task_card[i]]
                pj = v.play[tr * n + d.task_card[j]]
                if clash:
                    c4(o, -v.task[i], -v.task[j], -pi, -pj)
                    continue
                for r in range(min(ri, rj) + 1, max(ri, rj)):
                    m = by_rank[ki * 8 + r]
                    put(o, -v.task[i])
                    c4(o, -v.task[j], -pi, -pj, v.task[m])
                    put(o, -v.task[i])
                    c4(o, -v.task[j], -pi, -pj, v.play[tr * n + d.task_card[m]])


def build(d: CnfDeal, v: Ids, o: Out) -> int:
    """Number the variables, write every block's clauses and then one unit clause per open
    task (the assumptions); the largest formula variable (auxiliaries follow it)."""
    top = number(d, v)
    o.state[ST_LITS] = 0
    o.state[ST_CLAUSES] = 0
    o.state[ST_AUX] = top + 1
    play_block(d, v, o)
    symmetry_block(d, v, o)
    lead_block(d, v, o)
    led_suit_block(d, v, o)
    follow_suit_block(d, v, o)
    winner_block(d, v, o)
    task_block(d, v, o)
    precedence_block(d, v, o)
    count_block(d, v, o)
    assignment_block(d, v, o)
    order_block(d, v, o)
    for i in range(d.task_card.shape[0]):
        c1(o, v.task[i])
    return top


KERNEL_FUNCTIONS = (
    lowbit_index, highbit_index, popcount, *WRITING_FUNCTIONS, play_block, symmetry_block, lead_block, led_suit_block, follow_suit_block,
    higher_ladder, winner_block, task_block, precedence_block, count_block, assignment_block, number_tokens,
    strict_pairs, order_block, build,
)
"""Every function of the kernel, callees before callers."""

INLINED: tuple[Any, ...] = ()
"""None compiled into their callers: numba's inlining of the clause writers (``put``,
``close``, ``c1``-``c4``, ``put_all``, ``lead_of``) took 72 s of CPU to compile against
40 s without, and the kernel was no faster (0.13 against 0.07 ms a hard 4p deal; one
run each on a busy machine)."""

_JIT_OPTIONS: dict[str, Any] = {"cache": True, "nogil": True, "error_model": "numpy"}


def is_loaded() -> bool:
    """Whether :func:`compiled` has already run in this process."""
    return kernels.is_compiled(KERNEL_FUNCTIONS, inline=INLINED, **_JIT_OPTIONS)


def twin() -> SimpleNamespace:
    """The kernel as plain Python (tested against the compiled kernel)."""
    return kernels.twin(KERNEL_FUNCTIONS)


def compiled() -> SimpleNamespace:
    """The kernel compiled by numba (compiled once per machine, then loaded from the
    on-disk cache). Raises :class:`ImportError` without numba."""
    return kernels.compile_kernel(KERNEL_FUNCTIONS, inline=INLINED, **_JIT_OPTIONS)
