"""The records of the CNF kernel (:mod:`.cnf_kernel`), how it writes a clause and a
cardinality constraint, and how it numbers the variables: plain-Python functions on ints
and int64 arrays that numba compiles unchanged, part of that kernel.

Conventions:

* a card is an index ``0..N-1`` (``N <= 63``), a set of cards an int64 mask;
* trick ``tr`` counts from the position's first trick (``tr = t - first``);
* variable ids (:class:`Ids`) are those :func:`.position.add_variables` hands out, then
  the ``completed`` variables of number tokens (the only formula variables a block makes),
  then the cardinality counters' auxiliaries, numbered after them in the order they are
  made (as :meth:`ClauseFormula.cnf <crewcheck.solvers.logic.export.ClauseFormula.cnf>`
  numbers them);
* the clauses go to :class:`Out`: the literals one after another in ``lits``, the end of
  clause ``m`` in ``ends[m]``; ``state`` counts literals, clauses and the next
  auxiliary's id. Writes past the arrays are dropped and counted, so the caller sees an
  overflow in the counts and runs again with larger arrays.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from crewcheck.runtime.kernels import lowbit_index

__all__ = ["CnfDeal", "Ids", "Out", "PAIRWISE", "NONE", "ABSOLUTE", "RELATIVE", "LAST", "UNIQUE",
           "ST_LITS", "ST_CLAUSES", "ST_AUX", "put", "close", "c1", "c2", "c3", "c4", "put_all", "at_most",
           "at_least", "exactly_one", "card_list", "lead_of", "number", "WRITING_FUNCTIONS"]

PAIRWISE = 6
"""At-most-one over at most this many literals is written as pairs (:data:`.export.PAIRWISE_MAX`)."""

NONE, ABSOLUTE, RELATIVE, LAST = 0, 1, 2, 3
"""A task's token kind (:class:`crewcheck.model.tasks.TokenKind`; ``NONE``: no token)."""

UNIQUE = -2
"""``CnfDeal.kind`` of a card no other card stands in for (a tokened task); ``-1``: a plain card."""

ST_LITS, ST_CLAUSES, ST_AUX = 0, 1, 2
"""``Out.state``: literals written, clauses written, the next auxiliary's id."""


class CnfDeal(NamedTuple):
    """The position the kernel encodes (:class:`.position.Position`, as ints and arrays)."""

    players: int
    suits: int
    cards: int
    """``N``: cards in the deck."""
    tricks: int
    """Tricks left (``end - first``)."""
    leader: int
    """Leader of the first trick left; ``-1``: free (``lead: "any"``)."""
    trump: int
    """The trump suit; ``-1``: none."""
    hands: Any
    """Per seat, the cards it can play (its hand and its card in the trick in progress)."""
    fixed: Any
    """The cards already in the trick in progress, in the order they were played."""
    suit_of: Any
    suit_mask: Any
    kind: Any
    """Per card, what it is for the symmetry breaking: ``-1`` a plain card, :data:`UNIQUE`,
    else the class of a task card without token (its seat; ``players``: free assignment)."""
    task_card: Any
    """Per open task (in the order of ``Position.tasks``), its card."""
    task_seat: Any
    """Its seat; ``-1``: free assignment."""
    task_token: Any
    """Its token kind (:data:`NONE`, :data:`ABSOLUTE`, ...)."""
    task_rank: Any
    task_of: Any
    """Per card, its open task; ``-1``: none."""
    quotas: Any
    """Free assignment: the tasks each seat may still take (empty under fixed assignment)."""
    done_count: int
    """Tasks completed in the history."""
    strict: int
    """1: the strict reading of the order tokens."""


class Ids(NamedTuple):
    """Variable ids, filled by :func:`number` (0: no such variable)."""

    play: Any
    """``[tr * N + c]``: card ``c`` is played in trick ``tr`` (by its only holder)."""
    led: Any
    """``[tr * suits + u]``."""
    winner: Any
    """``[tr * players + s]``; the lead of trick ``tr + 1``."""
    done: Any
    """``[tr * N + c]``."""
    higher: Any
    win: Any
    trumped: Any
    """``[tr]``."""
    lead: Any
    """``[s]``: seat ``s`` leads the first trick left."""
    task: Any
    """``[i]``: open task ``i`` is required."""
    owner: Any
    """``[i * players + s]``: free assignment."""
    completed: Any
    """``[tr * tasks + i]``: number tokens only."""


class Out(NamedTuple):
    """Where the clauses go (see the module docstring)."""

    lits: Any
    ends: Any
    state: Any
    scratch: Any
    """Room for one block's literal list (at least ``N + tasks + 8`` long)."""
    guard: Any
    """Room for a clause's negated enforcement literals (the same length)."""


# -- writing clauses --------------------------------------------------------------------
def put(o: Out, x: int) -> None:
    """Append literal ``x`` to the clause being written."""
    n = o.state[ST_LITS]
    if n < o.lits.shape[0]:
        o.lits[n] = x
    o.state[ST_LITS] = n + 1


def close(o: Out) -> None:
    """End the clause being written."""
    m = o.state[ST_CLAUSES]
    if m < o.ends.shape[0]:
        o.ends[m] = o.state[ST_LITS]
    o.state[ST_CLAUSES] = m + 1


def c1(o: Out, a: int) -> None:
    put(o, a)
    close(o)


def c2(o: Out, a: int, b: int) -> None:
    put(o, a)
    put(o, b)
    close(o)


def c3(o: Out, a: int, b: int, c: int) -> None:
    put(o, a)
    put(o, b)
    put(o, c)
    close(o)


def c4(o: Out, a: int, b: int, c: int, d: int) -> None:
    put(o, a)
    put(o, b)
    put(o, c)
    put(o, d)
    close(o)


def put_all(o: Out, xs: Any, n: int) -> None:
    """Append ``xs[0..n-1]``."""
    for i in range(n):
        put(o, xs[i])


def or_of_cards(o: Out, x: int, ids: Any, base: int, mask: int) -> None:
    """``x`` is the or of ``ids[base + c]`` over the cards ``c`` of ``mask``: each one
    implies ``x`` (a clause per card, low cards first), then ``x`` implies one of them."""
    m = mask
    while m != 0:
        low = m & -m
        m ^= low
        c2(o, -ids[base + lowbit_index(low)], x)
    put(o, -x)
    m = mask
    while m != 0:
        low = m & -m
        m ^= low
        put(o, ids[base + lowbit_index(low)])
    close(o)


def at_most(o: Out, lits: Any, n: int, k: int, neg: Any, nneg: int) -> None:
    """``sum(lits[0..n-1]) <= k``, the overflow clauses led by ``neg[0..nneg-1]``:
    :func:`crewcheck.solvers.logic.export._at_most`, clause for clause (pairs for an
    at-most-one of up to :data:`PAIRWISE` literals, else Sinz's sequential counter)."""
    if k >= n:
        return
    if k < 0:
        put_all(o, neg, nneg)
        close(o)
        return
    if k == 0:
        for i in range(n):
            put_all(o, neg, nneg)
            c1(o, -lits[i])
        return
    if k == 1 and n <= PAIRWISE:
        for i in range(n):
            for j in range(i + 1, n):
                put_all(o, neg, nneg)
                c2(o, -lits[i], -lits[j])
        return
    base = o.state[ST_AUX]  # s(i, j) = base + i * k + j: at least j+1 of lits[0..i] are true
    o.state[ST_AUX] = base + (n - 1) * k
    c2(o, -lits[0], base)
    for j in range(1, k):
        c1(o, -(base + j))
    for i in range(1, n - 1):
        here = base + i * k
        prev = here - k
        c2(o, -lits[i], here)
        c2(o, -prev, here)
        for j in range(1, k):
            c3(o, -lits[i], -(prev + j - 1), here + j)
            c2(o, -(prev + j), here + j)
        put_all(o, neg, nneg)
        c2(o, -lits[i], -(prev + k - 1))
    put_all(o, neg, nneg)
    c2(o, -lits[n - 1], -(base + (n - 2) * k + k - 1))


def at_least(o: Out, lits: Any, n: int, k: int, neg: Any, nneg: int) -> None:
    """``sum(lits[0..n-1]) >= k`` (as ``export._expand``: at most ``n - k`` of the negations;
    ``lits`` is negated in place)."""
    for i in range(n):
        lits[i] = -lits[i]
    at_most(o, lits, n, n - k, neg, nneg)


def exactly_one(o: Out, lits: Any, n: int) -> None:
    """One clause of ``lits[0..n-1]``, then their at-most-one."""
    put_all(o, lits, n)
    close(o)
    at_most(o, lits, n, 1, lits, 0)


def card_list(mask: int, out: Any) -> int:
    """The cards of ``mask``, ascending, into ``out``; how many."""
    n = 0
    m = mask
    while m != 0:
        low = m & -m
        m ^= low
        out[n] = lowbit_index(low)
        n += 1
    return n


def lead_of(v: Ids, d: CnfDeal, tr: int, s: int) -> int:
    """``lead`` of seat ``s`` in trick ``tr`` (after the first: the winner of the one before)."""
    if tr == 0:
        return int(v.lead[s])
    return int(v.winner[(tr - 1) * d.players + s])


# -- the variables ----------------------------------------------------------------------
def number(d: CnfDeal, v: Ids) -> int:
    """Fill ``v`` in :func:`.position.add_variables`'s order; the largest id."""
    n = d.cards
    p = d.players
    every = 0
    for s in range(p):
        every |= d.hands[s]
    nid = 1
    for tr in range(d.tricks):
        for s in range(p):
            m = d.hands[s]
            while m != 0:
                low = m & -m
                m ^= low
                v.play[tr * n + lowbit_index(low)] = nid
                nid += 1
    for tr in range(d.tricks):
        for u in range(d.suits):
            v.led[tr * d.suits + u] = nid
            nid += 1
        for s in range(p):
            v.winner[tr * p + s] = nid
            nid += 1
    for tr in range(d.tricks):
        m = every
        while m != 0:
            low = m & -m
            m ^= low
            c = lowbit_index(low)
            v.done[tr * n + c] = nid
            v.higher[tr * n + c] = nid + 1
            v.win[tr * n + c] = nid + 2
            nid += 3
        if d.trump >= 0:
            v.trumped[tr] = nid
            nid += 1
    for s in range(p):
        v.lead[s] = nid
        nid += 1
    nt = d.task_card.shape[0]
    for i in range(nt):
        v.task[i] = nid
        nid += 1
    if d.quotas.shape[0] > 0:
        for i in range(nt):
            for s in range(p):
                v.owner[i * p + s] = nid
                nid += 1
    if v.completed.shape[0] > 0:  # made by the order block, the last to make variables
        for tr in range(d.tricks):
            for i in range(nt):
                v.completed[tr * nt + i] = nid
                nid += 1
    return nid - 1


WRITING_FUNCTIONS = (put, close, c1, c2, c3, c4, put_all, or_of_cards, at_most, at_least, exactly_one, card_list, lead_of, number)
"""The functions of this part of the kernel, callees before callers."""
