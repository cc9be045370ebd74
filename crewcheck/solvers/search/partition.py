"""The partition table: refuted positions stored with the cards that made them lost, so
that one entry refutes every position that differs only in cards that did not matter
(partition search, as the bridge double-dummy solvers keep their "winning ranks").

Kernel functions (compiled with the search's, :mod:`crewcheck.solvers.search.kernel`)
and the option's gate, :func:`applies`. The search keeps, for each position on its
stack, the *relevant cards* of the lines refuted from it so far:

* a completed trick whose winning card beat another card of its suit makes that card
  relevant (:func:`pt_winner`); a trick won by the only card of its suit in it is won
  by suit (a lead nobody follows, a lone trump), whatever the ranks;
* a trick that ends in a wrong seat's hands, a hand that runs out, the idle tricks
  spent: nothing more (they are decided by the winner and the task cards, which are
  relevant already, and by counts);
* a cut inside a trick (:func:`~.cuts.trick_dead`): the best card so far
  (:func:`pt_trick_cut`);
* a cut at a trick boundary (:func:`~.cuts.boundary_dead`): what the rules that may
  have fired read beyond counts, task cards and the cards above a task card of its suit
  (:func:`pt_boundary_cut`);
* a hit of the partition table: the entry's relevant cards (the table is probed first);
  a hit of the exact table: every card in play.

A refuted trick boundary closes its set (:func:`pt_close`): the task cards in play join
it, and in each suit every card in play at or above its lowest relevant card; the lowest
is moved down past the cards the move generation treats as one with it (same holder,
no card in play between, neither a task card). The entry then stores the boundary's
*shape* (each seat's count of cards per suit, and the leader), the *zone* (in each suit
with a relevant card, every card from its lowest relevant one up, and every task card
of the deal, so that a matching position has the same tasks left: a task more would
make idle tricks count differently) and the relevant cards.

A position with the same shape whose cards in the zone are exactly the relevant cards is
lost too (with at most the stored idle tricks allowed). Why: map its cards onto the
entry's, the relevant ones to themselves, the others of each seat and suit in any
order (the counts agree, and every one is below the zone of its suit). Every card it
can play maps to a card the refutation tried, or to a card of a class of interchangeable
cards (one seat, one suit, nothing in play between) the refutation tried a card of: a
card outside the zone to any tried card outside the zone of its seat and suit (the
lowest of each class is tried), a card in the zone to itself or, if it was not tried, to
its class, which lies wholly in the zone (the lowest relevant card never splits a class).
Following suit asks the counts only; the task cards and the leader agree; a trick's
winner is its trumps' or led suit's highest card, and a card outside the zone never
outranks one in it, so the winner agrees whenever the refutation noted its rank as
relevant, and when it did not the winner was the only card of its suit in the trick;
a cut that refuted the image fires on the line too, as it reads only counts, task cards
and the cards noted for it; a position a table entry refuted in the image is covered by
that entry (or equal to it, for the exact table) in the line too. By induction on the tricks left every line of the position fails where its image failed.

Only for fixed assignment without conditions or covered cards (:func:`applies`): a
condition's memo and a cover's state are not in the shape.
"""

from __future__ import annotations

from typing import Any

from crewcheck.runtime.kernels import highbit_index, lowbit_index, popcount
from crewcheck.solvers.search.cuts import boss_trump_dead, lead_reach_dead
from crewcheck.solvers.search.rules import in_play, trick_best

__all__ = ["PT_STRIDE", "PT_WAYS", "PART_BITS", "PURE_PART_BITS", "ALL", "applies", "pt_shape", "pt_winner",
           "pt_trick_cut", "pt_boundary_cut", "pt_close", "pt_refuted", "pt_store", "PART_FUNCTIONS"]

PT_STRIDE = 8
"""Words per entry: the shape (two words), the zone, the relevant cards, the idle tricks
allowed, the generation, two spare."""
PT_WAYS = 4
"""Entries per set: a probe compares the shape and the zone of each."""
PART_BITS = 16
"""The partition table has ``2**PART_BITS`` sets (compiled kernel)."""
PURE_PART_BITS = 10
"""Sets of the plain-Python kernel's partition table."""
ALL = -1
"""Relevant cards: every card (a cut or an exact hit refuted the line)."""


def applies(players: int, suit_sizes: list[int], free: int, conditions: int, covered: int) -> bool:
    """Whether a deal can use the partition table: fixed assignment, no conditions, no
    covered cards, and a shape that fits two words (4 bits per seat and suit)."""
    return free == 0 and conditions == 0 and covered == 0 and players * len(suit_sizes) <= 30 \
        and max(suit_sizes) <= 15


def pt_shape(hands: Any, p: int, leader: int, suit_mask: Any) -> tuple[int, int]:
    """The shape of a trick boundary: 4 bits per seat and suit (15 to a word), and the
    leader in the top bits of the second word."""
    w0 = 0
    w1 = 0
    ns = len(suit_mask)
    for s in range(p):
        for su in range(ns):
            pos = s * ns + su
            cnt = popcount(hands[s] & suit_mask[su])
            if pos < 15:
                w0 |= cnt << (4 * pos)
            else:
                w1 |= cnt << (4 * (pos - 15))
    w1 |= (leader + 1) << 60
    return w0, w1


def pt_winner(seq: Any, ts: int, p: int, bi: int, suit_of: Any) -> int:
    """The relevant card of a completed trick ``seq[ts : ts + p]`` won by its ``bi``-th
    card: that card if it beat another card of its suit, else none."""
    wc = seq[ts + bi]
    for i in range(p):
        if i != bi and suit_of[seq[ts + i]] == suit_of[wc]:
            return int(1 << wc)
    return 0


def pt_trick_cut(seq: Any, ts: int, tlen: int, suit_of: Any, trump: int) -> int:
    """The relevant card of a trick in progress ``seq[ts : ts + tlen]`` that
    :func:`~.cuts.trick_dead` refutes (fixed assignment, no covered cards): its best
    card so far. The rule reads the seats of its task cards, the seat winning now and
    whether the task cards' seat, still to play, can beat the best card: with a higher
    card of the best card's suit (every one relevant with it), or a trump when void in
    the led suit (counts)."""
    return int(1 << seq[ts + trick_best(seq, ts, tlen, suit_of, trump)])


def pt_boundary_cut(hands: Any, p: int, leader: int, quota: Any, trump: int, suit_mask: Any, own_mask: Any,
                    task_cards: int) -> int:
    """The relevant cards of a trick boundary that :func:`~.cuts.boundary_dead` refutes
    (fixed assignment, no covered cards). Its rules read counts of cards per seat and
    suit, the task cards and their seats, and (:func:`~.cuts.release_dead`) whether a
    seat holds a card above a task card of its suit (relevant with the task card) or a
    card below it (a card outside the zone is below every relevant card, and no task
    card): nothing more, except :func:`~.cuts.lead_reach_dead`, which compares any two
    cards of a suit (every card), and :func:`~.cuts.boss_trump_dead`, which compares the
    trumps (every trump). Those two are asked again: a rule that does not fire now was
    not the one that fired."""
    inplay, tricks = in_play(hands, p)
    left = task_cards & inplay
    if lead_reach_dead(hands, p, 0, left, own_mask, quota, leader, trump, suit_mask):
        return ALL
    if trump >= 0 and boss_trump_dead(hands, p, 0, inplay, left, own_mask, quota, trump, suit_mask, tricks):
        return int(inplay & suit_mask[trump])
    return 0


def pt_close(rel: int, hands: Any, p: int, suit_mask: Any, holder: Any, card_task: Any,
             task_cards: int) -> tuple[int, int, int]:
    """The relevant cards, zone and cards in play of a refuted trick boundary, from the
    relevant cards of its refuted lines (``rel``, :data:`ALL` for every card): see the
    module docstring."""
    inplay = 0
    for s in range(p):
        inplay |= hands[s]
    r = (rel & inplay) | (inplay & task_cards)
    zone = 0
    for su in range(len(suit_mask)):
        m = r & suit_mask[su]
        if m == 0:
            continue
        t = lowbit_index(m)
        while True:
            below = inplay & suit_mask[su] & ((1 << t) - 1)
            if below == 0:
                break
            u = highbit_index(below)
            if holder[u] != holder[t] or card_task[u] >= 0 or card_task[t] >= 0:
                break
            t = u
        zone |= suit_mask[su] & ~((1 << t) - 1)
    # every task card of the deal: a matching position holds the same task cards
    return inplay & zone, zone | task_cards, inplay


def pt_refuted(hands: Any, p: int, leader: int, suit_mask: Any, pt: Any, gen: int, pt_mask: int, allow: int) -> int:
    """The relevant cards of an entry that refutes this trick boundary with at least
    ``allow`` idle tricks allowed, or -1."""
    w0, w1 = pt_shape(hands, p, leader, suit_mask)
    inplay = 0
    for s in range(p):
        inplay |= hands[s]
    h = (w0 * 31 + w1) & 0xFFFFFFFFFFFF
    base = ((h ^ (h >> 17) ^ (h >> 35)) & pt_mask) * (PT_WAYS * PT_STRIDE)
    for e in range(PT_WAYS):
        b = base + e * PT_STRIDE
        if pt[b + 5] != gen or pt[b + 4] < allow or pt[b] != w0 or pt[b + 1] != w1:
            continue
        if (inplay & pt[b + 2]) == pt[b + 3]:
            return int(pt[b + 3])
    return -1


def pt_store(hands: Any, p: int, leader: int, suit_mask: Any, rel: int, zone: int, pt: Any, gen: int, pt_mask: int,
             allow: int) -> None:
    """Store a refuted trick boundary with its relevant cards ``rel`` and ``zone`` (from
    :func:`pt_close`) in the first entry of its set; the others move down one (the last
    is lost)."""
    w0, w1 = pt_shape(hands, p, leader, suit_mask)
    h = (w0 * 31 + w1) & 0xFFFFFFFFFFFF
    base = ((h ^ (h >> 17) ^ (h >> 35)) & pt_mask) * (PT_WAYS * PT_STRIDE)
    for e in range(PT_WAYS - 1, 0, -1):
        b = base + e * PT_STRIDE
        for i in range(PT_STRIDE):
            pt[b + i] = pt[b - PT_STRIDE + i]
    pt[base] = w0
    pt[base + 1] = w1
    pt[base + 2] = zone
    pt[base + 3] = rel
    pt[base + 4] = allow
    pt[base + 5] = gen


PART_FUNCTIONS = (pt_shape, pt_winner, pt_trick_cut, pt_boundary_cut, pt_close, pt_refuted, pt_store)
"""The kernel functions of this module, callees before callers."""
