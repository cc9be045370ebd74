"""The low-card relaxation: a sound refutation of deals whose conditions look at few cards.

What it is
    Some conditions judge only a few cards by name (:data:`EXACT_CARDS`): the suit of
    ``wins_all_cards`` and ``wins_no_cards``, the cards of a value for
    ``no_trick_won_with``, the trumps for ``each_trump_wins_a_trick``. In every suit but
    the trumps, the cards below the lowest card a condition names (call them *low
    cards*; every card of a suit no condition touches) matter to the game only through
    their suit: who must follow, who is void. The relaxation plays the deal with three
    changes: a seat's low cards of one suit are one card (it plays its lowest); a trick
    won by a low card (no trump in it, no card of the led suit above the low ones) may be
    won by any seat that followed suit, as the crew likes; and the tasks are left out.
    Everything else (trumps, the named cards, the conditions' judgement after each
    trick, the end of the game once every condition holds) is the game's own.
Covered cards
    A seat's cards may lie under one another (JARVIS's columns): a covered card is no
    play and does not oblige its seat to follow suit. When a low card of a seat and suit
    lies under or on another card, every low card of that seat and suit is *loose*
    (:func:`loose_cards`), and so is every card under or on a loose card, and every card
    under or on that one: the relaxation leaves their covers out (a loose card may be
    played at any time) and a loose card never obliges its seat to follow suit (it may
    follow with it or discard anything, as it likes). The other covers are the game's own.
Sound
    Every line of the deal is a line of the relaxation, with the same winner of each
    trick: a low card is below every other card of its suit, so the real winner of a
    trick of low cards is one of the seats that followed suit, and a trick with a trump
    or a higher card of the led suit has the same winner in both. The conditions named
    here see only their own cards, the winners and the cards left (a low card is never
    one of theirs), so they judge each trick alike; leaving tasks out only adds winning
    lines (a won deal ends once its conditions hold and its tasks are done, so its
    relaxation ends no later, won). So a relaxation that cannot be won proves the deal
    cannot be won; a won relaxation proves nothing.
    With covers, the relaxation holds the deal's cards but for low cards of one seat and
    suit traded among themselves, and such cards are all loose or all outside every cover
    (always playable, always obliging). A card that is not loose lies under no low card
    and no loose card, so it is face up in both games alike; a real play is then a play
    of the relaxation: a loose card always is one, any other card is face up in both, and
    a seat that need not follow suit in the deal holds no face-up card of the led suit
    that is not loose in the relaxation either (its low ones are as many in both).
Cost
    :func:`relax_search`, a kernel function compiled with the search's: a depth-first
    search over plies (the plays of a trick, then its winner) that stores every lost
    trick boundary (cards in play, leader, the conditions' memos) in a table of its own,
    within a budget of boundaries. The relaxation has far fewer positions than the deal:
    the low cards of a seat and suit are a count. The three-player deals of logbook
    missions 16, 17, 44 and 46 that cannot be won are what it is for: their
    pigeonhole-like refutations take a CDCL solver 30,000-450,000 conflicts and the
    search 10**7-10**8 nodes, the relaxation 5,000-200,000 boundaries.
    :mod:`crewcheck.solvers.search.relaxation` runs it; the search gives it turns beside
    its own once its first run has not decided a deal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from crewcheck.model.cards import Mask
from crewcheck.model.conditions.base import value_mask
from crewcheck.model.instance import Instance
from crewcheck.runtime.kernels import lowbit_index, popcount
from crewcheck.solvers.search.conditions.codes import C_BROKEN, C_HOLDS
from crewcheck.solvers.search.conditions.kernel import cond_judge, cond_key, cond_step
from crewcheck.solvers.search.conditions.table import unknown_kinds
from crewcheck.solvers.search.records import CondArrays, RelaxArrays, TableArrays
from crewcheck.solvers.search.rules import in_play, playable, trick_best
from crewcheck.solvers.search.table import tt_refuted, tt_store

__all__ = ["EXACT_CARDS", "low_cards", "live_covers", "loose_cards", "RELAXATION_NODES", "RELAX_FUNCTIONS",
           "relax_search", "relax_work_size", "RELAX_WIN", "RELAX_LOSE", "RELAX_OUT_OF_NODES"]

RELAXATION_NODES = 50_000
"""The relaxation's default node budget (positions at a trick boundary)."""

EXACT_CARDS: dict[str, Callable[[Any, Instance], Mask]] = {
    "wins_all_cards": lambda c, inst: c.target(inst),
    "wins_no_cards": lambda c, inst: c.target(inst),
    "no_trick_won_with": lambda c, inst: value_mask(inst, c.value),
    "each_trump_wins_a_trick": lambda c, inst: 0,  # the trumps, which are never low
}
"""The condition kinds the relaxation judges, each with the cards it tells apart (the
only cards its ``step`` and ``judge`` look at besides the winner of a trick, and the
winning card when it is one of them or a trump)."""


def low_cards(instance: Instance) -> Mask:
    """The low cards of ``instance`` (see the module docstring), or 0 when the relaxation
    does not apply: no conditions, a kind outside :data:`EXACT_CARDS`, a ``"choose"``
    seat, conditions the search's ints cannot hold
    (:func:`~crewcheck.solvers.search.conditions.unknown_kinds`)."""
    if not instance.conditions or unknown_kinds(instance):
        return 0
    exact = 0
    for cond in instance.conditions:
        rule = EXACT_CARDS.get(cond.kind)
        if rule is None or not cond.is_concrete():
            return 0
        exact |= rule(cond, instance)
    deck = instance.deck
    low = 0
    for s in range(len(deck.suits)):
        if s == instance.trump_suit:
            continue
        suit = deck.suit_mask(s)
        named = exact & suit
        below = (named & -named) - 1 if named else suit
        low |= suit & below
    return low


def live_covers(instance: Instance, hands: tuple[Mask, ...]) -> list[tuple[int, int]]:
    """The covers of ``instance`` that still bind when the seats hold ``hands``:
    ``(covered, covering)`` pairs whose covering card is still held."""
    held = 0
    for hand in hands:
        held |= hand
    return [(under, over) for under, over in instance.covered if (held >> over) & 1]


def loose_cards(instance: Instance, hands: tuple[Mask, ...], low: Mask) -> Mask:
    """The cards whose covers the relaxation of ``instance`` leaves out when the seats hold
    ``hands`` (see the module docstring): every low card of a seat and suit of which one
    low card lies under or on another card, every card under or on a loose card, and so
    on."""
    covers = live_covers(instance, hands)
    if not covers:
        return 0
    suit_masks = instance.deck.suit_masks
    loose = 0
    for under, over in covers:
        for card in (under, over):
            if (low >> card) & 1:
                same = next(h for h in hands if (h >> card) & 1) & suit_masks[instance.deck.suit_of_table[card]]
                loose |= same & low
    grown = True
    while grown:
        grown = False
        for under, over in covers:
            pair = (1 << under) | (1 << over)
            if (loose & pair) != 0 and (loose & pair) != pair:
                loose |= pair
                grown = True
    return loose


RELAX_MAXM = 64
"""Room for the plays (or the possible winners) of one ply."""


def relax_moves(hands: Any, seat: int, ts: int, tlen: int, seq: Any, deal: RelaxArrays, moves: Any, base: int) -> int:
    """Write the relaxation's plays of ``seat`` into ``moves[base:]`` and return how many:
    its face-up cards and its ``loose`` ones, following suit if it holds a face-up card of
    the led suit that is not loose (then a loose card of the led suit may follow too), and
    of the low cards of a suit only the lowest."""
    low, loose, suit_of, suit_mask = deal.low, deal.loose, deal.suit_of, deal.suit_mask
    hand = hands[seat]
    legal = playable(hand, deal.covers) | (hand & loose)
    if tlen > 0:
        follow = legal & suit_mask[suit_of[seq[ts]]]
        if (follow & ~loose) != 0:
            legal = follow
    n = 0
    seen = 0
    m = legal
    while m != 0:
        bit = m & -m
        m ^= bit
        c = lowbit_index(bit)
        if (low >> c) & 1:
            s = suit_of[c]
            if (seen >> s) & 1:
                continue
            seen |= 1 << s
        moves[base + n] = c
        n += 1
    return n


def relax_winners(seq: Any, ts: int, p: int, suit_of: Any, suit_mask: Any, trump: int, low: int,
                  moves: Any, base: int) -> int:
    """Write the positions that may win the complete trick ``seq[ts : ts + p]`` into
    ``moves[base:]`` and return how many: the real winner, or with only low cards of the
    led suit and no trump, every position that followed suit."""
    led = suit_of[seq[ts]]
    only_low = True
    for k in range(p):
        c = seq[ts + k]
        s = suit_of[c]
        if s == trump or (s == led and ((low >> c) & 1) == 0):
            only_low = False
    if not only_low:
        moves[base] = trick_best(seq, ts, p, suit_of, trump)
        return 1
    n = 0
    for k in range(p):
        if suit_of[seq[ts + k]] == led:
            moves[base + n] = k
            n += 1
    return n


def relax_key(hands: Any, p: int, leader: int, cond: CondArrays, memo: Any, key: Any) -> None:
    """The key of a trick boundary of the relaxation: the cards in play (each card's
    holder is fixed), the leader and the conditions' memos."""
    inplay = 0
    for s in range(p):
        inplay |= hands[s]
    key[0] = inplay
    key[1] = leader + 1
    key[2] = 0
    key[3] = 0
    key[4] = 0
    cond_key(cond, memo, key)


def relax_search(hands: Any, leader0: int, cond: CondArrays, deal: RelaxArrays, tt: TableArrays, node_cap: int,
                 work: Any, cur: Any, key: Any) -> int:
    """Decide the low-card relaxation of ``deal`` from a trick boundary (``hands``,
    ``leader0``, the memos ``cond.memo0``): :data:`RELAX_WIN`, :data:`RELAX_LOSE` or
    :data:`RELAX_OUT_OF_NODES` after ``node_cap`` trick boundaries (``work[0]``: the
    boundaries visited). A depth-first search over plies, the plays of a trick and then
    its winner, that stores every lost boundary in the table ``tt``. ``work``: scratch of
    :func:`relax_work_size` ints; ``cur``: ``cond.n + 1`` ints (one trick's memos);
    ``key``: a position key's words."""
    p = len(hands)
    n = cond.n
    tricks = 1 << 30
    for s in range(p):
        c = popcount(hands[s])
        if c < tricks:
            tricks = c
    if tricks == 0:
        return RELAX_LOSE
    per = p + 1
    plies = tricks * per
    moves = 1  # offsets into work (work[0]: the boundaries visited)
    nmov = moves + plies * RELAX_MAXM
    midx = nmov + plies
    seq = midx + plies
    lead = seq + plies
    mem = lead + tricks + 1
    for i in range(n):
        work[mem + i] = cond.memo0[i]
    work[lead] = leader0
    d = 0
    enter = True
    nodes = 0
    while True:
        t = d // per
        pos = d - t * per
        ts = seq + t * per
        if enter:
            enter = False
            work[nmov + d] = 0
            work[midx + d] = 0
            if pos == 0:
                for i in range(n):
                    cur[i] = work[mem + t * (n + 1) + i]
                relax_key(hands, p, work[lead + t], cond, cur, key)
                if not tt_refuted(key, tt.words, tt.gen, tt.mask, 0):
                    nodes += 1
                    if nodes > node_cap:
                        work[0] = nodes
                        return RELAX_OUT_OF_NODES
                    work[nmov + d] = relax_moves(hands, work[lead + t], ts, 0, work, deal, work,
                                                 moves + d * RELAX_MAXM)
            elif pos < p:
                work[nmov + d] = relax_moves(hands, (work[lead + t] + pos) % p, ts, pos, work, deal, work,
                                             moves + d * RELAX_MAXM)
            else:
                work[nmov + d] = relax_winners(work, ts, p, deal.suit_of, deal.suit_mask, deal.trump, deal.low, work,
                                               moves + d * RELAX_MAXM)
        j = work[midx + d]
        if j < work[nmov + d]:
            work[midx + d] = j + 1
            mv = work[moves + d * RELAX_MAXM + j]
            if pos < p:
                hands[(work[lead + t] + pos) % p] &= ~(1 << mv)
                work[seq + d] = mv
                d += 1
                enter = True
                continue
            leader = work[lead + t]
            played = 0
            for k in range(p):
                played |= 1 << work[ts + k]
            left, tricks_left = in_play(hands, p)
            for i in range(n):
                cur[i] = work[mem + t * (n + 1) + i]
            cond_step(cond, cur, played, (leader + mv) % p, work[ts + mv],
                      cond.tricks_total - tricks_left, 1 if tricks_left == 0 else 0, leader, work[ts])
            verdict = cond_judge(cond, cur, left, tricks_left)
            if verdict == C_HOLDS:
                work[0] = nodes
                return RELAX_WIN
            if verdict == C_BROKEN or tricks_left == 0:
                continue
            for i in range(n):
                work[mem + (t + 1) * (n + 1) + i] = cur[i]
            work[lead + t + 1] = (leader + mv) % p
            d += 1
            enter = True
            continue
        # every move of ply d is tried
        if pos == 0:
            for i in range(n):
                cur[i] = work[mem + t * (n + 1) + i]
            relax_key(hands, p, work[lead + t], cond, cur, key)
            tt_store(key, tt.words, tt.gen, tt.mask, 0)
            if t == 0:
                work[0] = nodes
                return RELAX_LOSE
        d -= 1
        t = d // per
        pos = d - t * per
        if pos < p:
            hands[(work[lead + t] + pos) % p] |= 1 << work[seq + d]


def relax_work_size(tricks: int, p: int, n: int) -> int:
    """Ints of :func:`relax_search`'s scratch for ``tricks`` tricks of ``p`` seats and ``n`` conditions."""
    plies = tricks * (p + 1)
    return 1 + plies * (RELAX_MAXM + 3) + (tricks + 1) * (n + 2)


RELAX_LOSE = 0
RELAX_WIN = 1
RELAX_OUT_OF_NODES = 2

RELAX_FUNCTIONS = (relax_moves, relax_winners, relax_key, relax_search)
"""The kernel functions of this module, callees first (compiled with the search's kernel)."""
