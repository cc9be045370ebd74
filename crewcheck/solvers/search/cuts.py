"""The cuts of the search: one function per rule that refutes a position.

Each function is a sound refutation: it returns ``True`` only when no winning line
exists from the position it is given, so the search may skip the position; ``False``
proves nothing. The docstring of each states the rule and why it is sound. They are
plain-Python functions that numba compiles unchanged (:mod:`crewcheck.runtime.kernels`); cards,
masks and task arrays are as in :mod:`crewcheck.solvers.search.kernel`.

:func:`trick_dead` is tried after every card that leaves a trick unfinished;
:func:`boundary_dead` at every trick boundary, calling the others in a fixed order (the
last four share the release times and precedence sets that :func:`release_dead` writes
into its scratch array). The root rules of :func:`crewcheck.solvers.search.refutations.refutation`
run once before the search.

Common arguments: ``hands[s]`` the cards seat ``s`` holds; ``p`` the players;
``tricks`` the tricks left (the smallest hand: the game is lost once a hand is empty);
``left`` the task cards still held; ``inplay`` every card still held; ``quota[s]`` the
tasks seat ``s`` still takes (free assignment); ``own_mask[w]`` the task cards of seat
``w`` (fixed assignment); ``tseat``, ``card_task``, ``tkind``, ``trank`` the task arrays;
``suit_of``, ``suit_mask`` and ``trump`` (``-1``: none) the deck; ``covers`` the deal's
covers (:func:`~crewcheck.solvers.search.rules.playable`).

Covered cards (JARVIS's columns): a seat may play, and must follow suit with, only its
face-up cards, and a card turns up once the card on it has gone in an earlier trick.
The rules that ask what a seat can play into a trick ask its face-up cards:
:func:`trick_dead` (a seat still to play beats the best card with one of them; a
covered card of the led suit does not stop it trumping) and :func:`release_dead` (a
seat that must be void in a suit need only have played its face-up cards of it: those
stay face up until played, covered ones may stay covered); :func:`release_dead` also
releases a task card only after the cards above it in its stack, each played in a trick
of its own, and puts their tasks before its own. Every other rule only counts
cards held or asks whether a seat holds a card at all, which covers only restrict: a
hand still plays one card a trick and every task card it holds
(:func:`hand_overflow_dead`, :func:`trick_count_dead`, :func:`most_tasks_held`), a top
trump still wins its trick whenever it is played (:func:`boss_trump_dead`), the
counts modulo the players and the trump sharing try every way the cards can fall
(:func:`nontask_count_dead`, :func:`trump_split_dead`), a seat that holds a card of a suit
or a trump may beat a lead later, face up by then or not (:func:`lead_reach_dead`), and
:func:`precedence_dead`, :func:`token_order_dead` and :func:`hall_dead` work on the
release times. ``tests/solvers/search/test_cuts.py`` checks every rule against the oracle
on covered positions too.
"""

from __future__ import annotations

from typing import Any

from crewcheck.runtime.kernels import lowbit_index, popcount
from crewcheck.solvers.search.rules import can_beat, in_play, playable, trick_best

__all__ = [
    "PRED", "TS_MAX", "most_tasks_held", "trick_dead", "hand_overflow_dead", "trick_count_dead", "boss_trump_dead",
    "nontask_count_dead",
    "trump_split_dead", "lead_reach_dead", "release_dead", "precedence_dead", "token_order_dead",
    "hall_dead", "boundary_dead", "BOUNDARY_RULES", "CUT_FUNCTIONS",
]

PRED = 64
"""Offset in :func:`release_dead`'s scratch array of the per-task precedence sets."""


def trick_dead(hands: Any, p: int, seq: Any, ts: int, tlen: int, leader: int, free: int, quota: Any,
               tseat: Any, card_task: Any, suit_of: Any, suit_mask: Any, trump: int, covers: Any) -> bool:
    """The trick in progress, ``seq[ts : ts + tlen]`` with ``1 <= tlen < p`` cards led by
    ``leader``, can no longer end well.

    A trick completes the tasks on its cards for the seat that wins it; the game is lost
    when a task card goes to another seat (fixed assignment) or to a seat without room
    in its quota (free assignment). The winner at the end is the seat winning now or a
    seat still to play whose card beats the best card so far (the best card only ever
    rises). Fixed assignment: dead when the trick holds task cards of two seats, or when
    their seat has played and is not winning (its card cannot become the best), or is
    still to play but has no legal card that beats the best so far. Free assignment:
    dead when neither the seat winning now nor any seat still to play that can beat the
    best card has room for the trick's task cards (later cards only add to them). A seat
    still to play plays one of its face-up cards (:func:`~.rules.playable`) and follows
    suit with them only: a covered card of the led suit does not stop it trumping.
    """
    led = suit_of[seq[ts]]
    best = trick_best(seq, ts, tlen, suit_of, trump)
    best_card = seq[ts + best]
    best_suit = suit_of[best_card]
    cw = (leader + best) % p
    g = 0
    owner = -1
    for i in range(tlen):
        ti = card_task[seq[ts + i]]
        if ti < 0:
            continue
        g += 1
        if free:
            continue
        w = tseat[ti]
        if owner == -1:
            owner = w
        elif owner != w:
            return True
    if g == 0:
        return False
    if not free:
        if owner == cw:
            return False
        if (owner - leader + p) % p < tlen:
            return True  # the owner has played and does not win
        return not can_beat(playable(hands[owner], covers), led, best_suit, best_card, trump, suit_mask)
    # free: some seat that can still end up winning must have room for g tasks
    if quota[cw] >= g:
        return False
    for k in range(tlen, p):
        s = (leader + k) % p
        if quota[s] >= g and can_beat(playable(hands[s], covers), led, best_suit, best_card, trump, suit_mask):
            return False
    return True


def most_tasks_held(hands: Any, p: int, left: int) -> int:
    """The most task cards one hand holds: a winning game lasts at least that many more
    tricks (each is played, one a trick)."""
    most = 0
    for s in range(p):
        n = popcount(hands[s] & left)
        if n > most:
            most = n
    return most


def hand_overflow_dead(hands: Any, p: int, left: int, tricks: int) -> bool:
    """A hand holds more task cards than tricks remain.

    Each seat plays one card per trick and the game is lost once a hand is empty, so at
    most ``tricks`` more cards of a hand are played, and a task card never played is
    never won.
    """
    return most_tasks_held(hands, p, left) > tricks


def trick_count_dead(hands: Any, p: int, free: int, own_mask: Any, quota: Any, tricks: int) -> bool:
    """More tricks are needed to complete the tasks than remain.

    Fixed assignment: a trick completes the tasks of one seat only (a task card won by
    another seat loses the game) and two cards of one hand never fall in one trick, so
    seat ``w``'s tasks need at least as many tricks as any one hand holds of them, and
    different seats need different tricks. Free assignment: the quotas add up to the
    tasks left, so a seat still taking ``q`` tasks wins tricks holding ``q`` task cards,
    at most ``p`` in a trick: ``ceil(q / p)`` tricks of its own.
    """
    need = 0
    if free:
        # every seat with quota left wins a trick of its own, taking at most p task cards
        for s in range(p):
            need += (quota[s] + p - 1) // p
    else:
        # a trick completes tasks of one seat only, and the tasks of one seat whose cards
        # one hand holds need different tricks
        for w in range(p):
            most = 0
            for h in range(p):
                n = popcount(hands[h] & own_mask[w])
                if n > most:
                    most = n
            need += most
    if need > tricks:
        return True
    return False


def boss_trump_dead(hands: Any, p: int, free: int, inplay: int, left: int, own_mask: Any, quota: Any,
                    trump: int, suit_mask: Any, tricks: int) -> bool:
    """A seat's top trumps take too many tasks (counting the cards of the other hands).

    A trump of seat ``s`` higher than every trump the other seats hold (a *top trump*)
    wins the trick it is played in. Say ``P`` more tricks are played: at least as many as
    any hand holds task cards (each is played), at most ``tricks``. Then ``s`` leaves its
    hand's size minus ``P`` cards unplayed, so plays at least ``b`` of its top trumps, each
    in a trick of its own. Every other seat ``t`` plays a card into each of those ``b``
    tricks, ``b`` distinct cards, of which at most as many are harmless to ``s`` as ``t``
    plays of them: free assignment, the cards that are no task, and ``t`` plays all its
    task cards, so at most ``P`` minus those of the others (dead at ``P`` when the rest,
    over all ``t``, exceed ``quota[s]``); fixed, those and ``s``'s own task cards (dead
    when any are left over). Dead when every ``P`` is. A counting argument the clause
    learning of a SAT solver finds only after a long search (a pigeonhole): on Classic
    deals with free assignment and 24 or more tasks, one seat holding the rockets while
    the others hold little that is no task.
    """
    if trump < 0:
        return False
    tm = suit_mask[trump]
    for played in range(most_tasks_held(hands, p, left), tricks + 1):
        dead = False
        for s in range(p):
            mine = hands[s] & tm
            if mine == 0:
                continue
            theirs = inplay & ~hands[s] & tm
            b = 0
            m = mine
            while m != 0:
                c = lowbit_index(m)
                m &= m - 1
                if (theirs >> c) == 0:
                    b += 1
            b -= popcount(hands[s]) - played  # the cards s leaves unplayed
            if b <= 0:
                continue
            taken = 0  # task cards s takes that it may not (fixed) or at least (free)
            for t in range(p):
                if t == s:
                    continue
                harmless = popcount(hands[t] & ~left)
                spare = played - popcount(hands[t] & left)  # cards t plays that are no task
                if spare < harmless:
                    harmless = spare
                if not free:
                    harmless += popcount(hands[t] & left & own_mask[s])
                if b > harmless:
                    taken += b - harmless
            if free:
                if taken > quota[s]:
                    dead = True
            elif taken > 0:
                dead = True
            if dead:
                break
        if not dead:
            return False
    return True

def nontask_count_dead(hands: Any, p: int, inplay: int, left: int, task_cards: int, quota: Any,
                       trump: int, suit_mask: Any, tricks: int) -> bool:
    """Free assignment: too few cards that are no task to fill the seats' tricks.

    Counting modulo the players: a trick holds ``p`` cards, each a task card or not, so a
    seat that still takes ``q`` tasks in the ``t`` tricks it wins takes ``p * t - q``
    cards that are no task, at least ``r = (-q) mod p`` of them. They are cards still in
    play, and the tricks left hold at most ``p * tricks - |left|`` of them (every task
    card still held is played). A seat without trumps wins no trick holding a trump, so
    its ``r`` cards come from the suits that are not trumps. Dead when the ``r`` add up
    to more than the cards that are no task in play, or than the room for them in the
    tricks left, or the trumpless seats' ``r`` to more than those outside the trump suit.
    """
    nontask = inplay & ~task_cards
    n_all = popcount(nontask)
    n_colour = n_all
    if trump >= 0:
        n_colour = popcount(nontask & ~suit_mask[trump])
    sum_r = 0
    sum_r_trumpless = 0
    for s in range(p):
        r = (p - quota[s] % p) % p
        if r == 0:
            continue
        sum_r += r
        if trump >= 0 and (hands[s] & suit_mask[trump]) == 0:
            sum_r_trumpless += r
    if sum_r > n_all or sum_r > p * tricks - popcount(left) or sum_r_trumpless > n_colour:
        return True
    return False


TS_MAX = 4
"""Most trumps in play for which :func:`trump_split_dead` is tried (its work grows as n**n)."""


def trump_split_dead(hands: Any, p: int, left: int, trumps: int, quota: Any, tricks: int) -> bool:
    """Free assignment, no task among the trumps in play (``trumps``): whether the cards
    that are no task cannot be shared out so that every seat's tricks come out whole.

    A seat taking q more tasks in t tricks takes p * t - q cards that are no task. If P
    more tricks are played, each seat plays all its task cards and P minus that many
    cards that are no task, trumps or plain; a trick holding trumps goes, with all of
    them, to the seat that played the highest; plain cards may go anywhere (a
    relaxation). Tries every P, every choice of trumps played and every partition of
    them into tricks (at most one per seat in a trick), and asks whether the plain cards
    played can make every seat's count whole. The check of
    :func:`crewcheck.solvers.search.refutations.refutation` at the root (there with up to 8 trumps).
    Sound because every way the game can go is among those tried. Seats and sizes are
    packed 4 and 8 bits to an int (no arrays).
    """
    n = popcount(trumps)
    if n > TS_MAX:
        return False
    seats = 0  # holder of the k-th lowest trump in play, 4 bits each
    t = trumps
    k = 0
    while t != 0:
        lb = t & -t
        t ^= lb
        for s in range(p):
            if (hands[s] & lb) != 0:
                seats |= s << (4 * k)
        k += 1
    for played_tricks in range(most_tasks_held(hands, p, left), tricks + 1):
        for sub in range(1 << n):
            fits = True
            plain = 0  # plain cards played
            for s in range(p):
                cnt = 0
                for j in range(n):
                    if (sub >> j) & 1 and ((seats >> (4 * j)) & 15) == s:
                        cnt += 1
                y = played_tricks - popcount(hands[s] & left) - cnt
                if y < 0 or y > popcount(hands[s] & ~left & ~trumps):
                    fits = False
                    break
                plain += y
            if not fits:
                continue
            # the played trumps, highest first: their seats, 4 bits each
            m = 0
            pseats = 0
            for j in range(n - 1, -1, -1):
                if (sub >> j) & 1:
                    pseats |= ((seats >> (4 * j)) & 15) << (4 * m)
                    m += 1
            codes = 1
            for j in range(m):
                codes *= m
            for code in range(codes):
                # code's base-m digits put the j-th highest played trump in group d_j;
                # only restricted growth strings (d_0 = 0, d_j <= 1 + max before) count
                x = code
                ngroups = 0
                gmask = 0  # seats in each group, 8 bits each
                gwin = 0  # winner of each group (the seat of its first, highest, trump)
                gsize = 0  # size of each group, 8 bits each
                valid = True
                for j in range(m):
                    d = x % m
                    x //= m
                    sj = (pseats >> (4 * j)) & 15
                    if d > ngroups:
                        valid = False
                        break
                    if d == ngroups:
                        ngroups += 1
                        gwin |= sj << (4 * d)
                    if (gmask >> (8 * d + sj)) & 1:
                        valid = False
                        break
                    gmask |= 1 << (8 * d + sj)
                    gsize += 1 << (8 * d)
                if not valid:
                    continue
                need = 0  # the fewest plain cards that make every seat's count whole
                for s in range(p):
                    r = 0
                    g = 0
                    for d in range(ngroups):
                        if ((gwin >> (4 * d)) & 15) == s:
                            r += (gsize >> (8 * d)) & 255
                            g += 1
                    extra = (p - (quota[s] + r) % p) % p
                    short = g - (quota[s] + r + extra) // p
                    need += extra
                    if short > 0:
                        need += p * short
                if need <= plain:
                    return False
    return True


def lead_reach_dead(hands: Any, p: int, free: int, left: int, own_mask: Any, quota: Any, leader: int,
                    trump: int, suit_mask: Any) -> bool:
    """A seat that still owes a task can never win a trick (lead reachability, as
    :func:`crewcheck.solvers.search.refutations.refutation` at the root).

    Only the winner of a trick leads the next, so the seats that can win a trick are the
    leader and, closing over them as leaders, the seats that could beat a card one of
    them could lead: a higher card of the led suit, or a trump on a lead of another suit
    (holding a trump is enough for this over-estimate). Cards only leave the hands, so
    the closure over the cards held now holds every seat that wins a later trick. A seat
    still owing a task (fixed: one of its task cards is in play; free: quota left) must
    win one.
    """
    owing = 0
    for w in range(p):
        if free:
            if quota[w] > 0:
                owing |= 1 << w
        elif (own_mask[w] & left) != 0:
            owing |= 1 << w
    reach = 1 << leader
    if (owing & ~reach) != 0:
        grown = True
        while grown:
            grown = False
            for ld in range(p):
                if not (reach >> ld) & 1:
                    continue
                for s in range(p):
                    if (reach >> s) & 1:
                        continue
                    hs = hands[s]
                    has_trump = trump >= 0 and (hs & suit_mask[trump]) != 0
                    for su in range(len(suit_mask)):
                        led = hands[ld] & suit_mask[su]
                        if led == 0:
                            continue
                        mine = hs & suit_mask[su]
                        if (mine >> (lowbit_index(led) + 1)) != 0 or (has_trump and su != trump):
                            reach |= 1 << s
                            grown = True
                            break
        if (owing & ~reach) != 0:
            return True
    return False


def release_dead(hands: Any, p: int, left: int, task_cards: int, tseat: Any, card_task: Any,
                 suit_of: Any, suit_mask: Any, trump: int, own_mask: Any, release: Any,
                 tricks: int, covers: Any) -> bool:
    """Fixed assignment: a task cannot be completed within the tricks left. On the way,
    writes each task's release time and the tasks that must come before it.

    For task ``i`` on card ``c`` of seat ``w``, ``release[i]`` is the earliest trick
    (1 = the next) that can complete it and ``release[PRED + i]`` the set of tasks that
    must complete in earlier tricks (``release`` has ``2 * PRED`` words; the entries of
    tasks not in ``left`` are left as they were):

    * ``w`` holds ``c`` (not a trump): ``w`` plays ``c`` in the trick that completes it,
      so ``c`` must win it, and a card that is not a trump wins only the suit led. Every
      other seat holding the suit with no card below ``c`` it may duck with (a card that
      is no task, or a task card of ``w``) must be void in it by then: following higher
      would take the trick, following lower would give ``w`` another seat's task. It
      plays its cards of the suit first, one per trick: ``c`` is released after them,
      and the task cards among them come first;
    * another seat holds ``c``, a trump: only a higher trump takes a trump, so ``w``
      needs one (none: dead at once);
    * another seat ``h`` holds ``c`` (not a trump) and ``w`` holds no higher card of the
      suit: ``w`` takes ``c`` by trumping a lead of the suit once void in it (after
      playing its cards of the suit), or by winning a trick of another suit, which ``w``
      holds or can trump, on which ``h``, void in it, discards ``c`` (after ``h`` plays
      its cards of that suit). The earliest of these; none: never.

    Dead when a release time is later than the last trick.

    Covered cards: "void in a suit" above means holding no *face-up* card of it (a seat
    follows suit only with those), so each count is of the cards face up now
    (:func:`~.rules.playable`): they stay face up until played, one a trick, while a
    covered card may stay covered and unplayed. Counting fewer cards gives an earlier
    release time, never a later one; whether a seat can duck under ``c`` is still asked
    of every card it holds. And ``c`` under ``d`` cards still held (its stack above it)
    is played after each of them, in tricks of their own (its holder plays them): ``c``
    is released after ``d`` tricks, and the tasks on those cards come first.
    """
    nsuits = len(suit_mask)
    duck = ~task_cards
    ncov = len(covers) // 2
    held = 0
    if ncov > 0:
        for s in range(p):
            held |= hands[s]
    t = left
    while t != 0:
        lb = t & -t
        t ^= lb
        c = lowbit_index(lb)
        ti = card_task[c]
        w = tseat[ti]
        hw = hands[w]
        sc = suit_of[c]
        sm = suit_mask[sc]
        above = sm & ~((1 << (c + 1)) - 1)
        e = 1
        pm = 0
        if (hw >> c) & 1:
            # w wins with c itself: every other seat that cannot duck under c must first
            # play all its cards of c's suit (one per trick)
            if sc != trump:
                for o in range(p):
                    ho = hands[o] & sm
                    if o != w and ho != 0 and (ho & (lb - 1) & (duck | own_mask[w])) == 0:
                        ho &= playable(hands[o], covers)  # its face-up cards of the suit
                        n = popcount(ho)
                        if n + 1 > e:
                            e = n + 1
                        u = ho & task_cards
                        while u != 0:
                            lb2 = u & -u
                            u ^= lb2
                            pm |= 1 << card_task[lowbit_index(lb2)]
        else:
            h = 0
            for o in range(p):
                if (hands[o] >> c) & 1:
                    h = o
            has_trump = trump >= 0 and (hw & suit_mask[trump]) != 0
            if sc == trump:
                # only a higher trump takes a trump
                if (hw & above) == 0:
                    return True
            elif (hw & above) == 0:
                # w trumps a lead of c's suit once void in it, or wins a trick on which
                # h, void in the led suit, discards c
                e = 1 << 30
                if has_trump:
                    e = popcount(playable(hw, covers) & sm) + 1
                for lsuit in range(nsuits):
                    if lsuit == sc:
                        continue
                    if (hw & suit_mask[lsuit]) != 0 or has_trump:
                        n = popcount(playable(hands[h], covers) & suit_mask[lsuit]) + 1
                        if n < e:
                            e = n
        if ncov > 0:
            # c lies under cards still held: each goes in an earlier trick than c (one a
            # trick, its holder's), and the tasks on them complete first
            x = c
            depth = 0
            while x >= 0:
                above = -1
                for i in range(ncov):
                    if covers[2 * i] == x and (held >> covers[2 * i + 1]) & 1:
                        above = covers[2 * i + 1]
                x = above
                if above >= 0:
                    depth += 1
                    if card_task[above] >= 0:
                        pm |= 1 << card_task[above]
            if depth + 1 > e:
                e = depth + 1
        if e > tricks:
            return True
        release[ti] = e
        release[PRED + ti] = pm
    return False


def precedence_dead(left: int, card_task: Any, release: Any, tricks: int) -> bool:
    """Fixed assignment, after :func:`release_dead`: a task must come before itself, or
    after the last trick.

    A task before another completes in an earlier trick. Closes the precedence sets over
    chains (``k`` before ``j`` before ``i``: ``k`` before ``i``) and raises every release
    time past those of the tasks before it, writing both back; dead on a cycle or a
    release time later than the last trick.
    """
    grown = True
    while grown:
        grown = False
        t = left
        while t != 0:
            lb = t & -t
            t ^= lb
            ti = card_task[lowbit_index(lb)]
            pm = release[PRED + ti]
            if pm == 0:
                continue
            acc = pm
            e = release[ti]
            u = pm
            while u != 0:
                lb2 = u & -u
                u ^= lb2
                j = lowbit_index(lb2)
                acc |= release[PRED + j]
                if release[j] + 1 > e:
                    e = release[j] + 1
            if (acc >> ti) & 1 or e > tricks:
                return True
            if acc != pm or e != release[ti]:
                release[PRED + ti] = acc
                release[ti] = e
                grown = True
    return False


def token_order_dead(left: int, task_cards: int, card_task: Any, tkind: Any, trank: Any,
                     release: Any) -> bool:
    """Fixed assignment with order tokens, after :func:`precedence_dead`: the order the
    tokens ask for contradicts the order precedence forces.

    A task ``j`` in the closed precedence set of task ``i`` completes in an earlier trick,
    so under either reading of the tokens: ``i`` with absolute token ``r`` has at most
    ``r - 1`` tasks before it, and it has the tasks done so far and its whole set;
    ``j`` does not carry "last"; and ``j`` and ``i`` do not carry two absolute or two
    relative tokens with ``j``'s rank above ``i``'s.
    """
    ndone = popcount(task_cards) - popcount(left)
    t = left
    while t != 0:
        lb = t & -t
        t ^= lb
        ti = card_task[lowbit_index(lb)]
        pm = release[PRED + ti]
        if pm == 0:
            continue
        if tkind[ti] == 1 and ndone + popcount(pm) > trank[ti] - 1:
            return True  # more tasks before it than its absolute rank allows
        u = pm
        while u != 0:
            lb2 = u & -u
            u ^= lb2
            j = lowbit_index(lb2)
            kj = tkind[j]
            if kj == 3:
                return True  # "last" before another task
            if kj != 0 and kj == tkind[ti] and trank[j] > trank[ti]:
                return True  # two absolute or two relative tokens out of order
    return False


def hall_dead(hands: Any, p: int, left: int, own_mask: Any, card_task: Any, release: Any,
              tricks: int) -> bool:
    """Fixed assignment, after :func:`precedence_dead`: Hall's condition on the release
    times fails.

    The tasks released at trick ``e`` or later complete among the last ``tricks - e + 1``
    tricks, and, as in :func:`trick_count_dead`, they need per owner as many tricks as
    one hand holds of them (a trick completes one seat's tasks and takes one card per
    hand), different owners different tricks. Dead when, for some release time ``e``,
    they need more.
    """
    seen = 0  # the distinct release times above 1 (each needs one check)
    t = left
    while t != 0:
        lb = t & -t
        t ^= lb
        e = release[card_task[lowbit_index(lb)]]
        if e > 1:
            seen |= 1 << e
    while seen != 0:
        lb = seen & -seen
        seen ^= lb
        e = lowbit_index(lb)
        need = 0
        for w in range(p):
            most = 0
            for h in range(p):
                n = 0
                u = hands[h] & own_mask[w] & left
                while u != 0:
                    lb2 = u & -u
                    u ^= lb2
                    if release[card_task[lowbit_index(lb2)]] >= e:
                        n += 1
                if n > most:
                    most = n
            need += most
        if need > tricks - e + 1:
            return True
    return False


def boundary_dead(hands: Any, p: int, free: int, task_cards: int, tseat: Any, card_task: Any,
                  suit_of: Any, suit_mask: Any, trump: int, own_mask: Any, quota: Any,
                  release: Any, leader: int, has_tokens: int, tkind: Any, trank: Any, covers: Any) -> bool:
    """Whether a cut refutes the trick-boundary position (``leader`` to lead).

    The cuts in order, cheapest first: :func:`hand_overflow_dead`,
    :func:`trick_count_dead`, :func:`boss_trump_dead`; under free assignment :func:`nontask_count_dead` and
    :func:`trump_split_dead` (when no task is a trump); :func:`lead_reach_dead`; under
    fixed assignment :func:`release_dead`, then on its release times
    :func:`precedence_dead`, :func:`token_order_dead` (with tokens) and
    :func:`hall_dead`. ``release`` is their scratch array (``2 * PRED`` words).
    """
    inplay, tricks = in_play(hands, p)
    left = task_cards & inplay
    if left == 0:
        return False
    if hand_overflow_dead(hands, p, left, tricks):
        return True
    if trick_count_dead(hands, p, free, own_mask, quota, tricks):
        return True
    if boss_trump_dead(hands, p, free, inplay, left, own_mask, quota, trump, suit_mask, tricks):
        return True
    if free:
        if nontask_count_dead(hands, p, inplay, left, task_cards, quota, trump, suit_mask, tricks):
            return True
        if trump >= 0 and (left & suit_mask[trump]) == 0:
            if trump_split_dead(hands, p, left, inplay & suit_mask[trump], quota, tricks):
                return True
    if lead_reach_dead(hands, p, free, left, own_mask, quota, leader, trump, suit_mask):
        return True
    if free:
        return False
    if release_dead(hands, p, left, task_cards, tseat, card_task, suit_of, suit_mask, trump,
                    own_mask, release, tricks, covers):
        return True
    if precedence_dead(left, card_task, release, tricks):
        return True
    if has_tokens and token_order_dead(left, task_cards, card_task, tkind, trank, release):
        return True
    return hall_dead(hands, p, left, own_mask, card_task, release, tricks)


BOUNDARY_RULES = (
    hand_overflow_dead, trick_count_dead, boss_trump_dead, nontask_count_dead, lead_reach_dead, release_dead,
    precedence_dead, token_order_dead, hall_dead,
)
"""The rules only :func:`boundary_dead` calls (the compiled kernel compiles them into it:
:data:`crewcheck.solvers.search.kernel.INLINED`)."""
CUT_FUNCTIONS = (most_tasks_held, trick_dead, *BOUNDARY_RULES, trump_split_dead, boundary_dead)
"""The functions of this module, callees before callers (for :func:`crewcheck.runtime.kernels.compile_kernel`)."""
