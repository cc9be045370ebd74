"""Candidate strengthenings of the winnability encoding, measured by ``run_encoding``.

Each candidate is a block in the style of :mod:`crewcheck.solvers.logic.encoding` (a function
``add_*(model, v, pos)`` whose clauses start with the rule in English). Every one is
sound: it only states what every winning line satisfies, each clause enforced by the
task assumptions it relies on, so the encoding stays exact under any subset of tasks.
The blocks that paid were moved into the encoding; the others stay here, with the
numbers of their measurement in ``docs/encoding.md`` ("Encoding strengthenings
(measured)").
"""

from __future__ import annotations

from collections.abc import Callable

from crewcheck.model.cards import CardIndex, iter_bits
from crewcheck.model.instance import Seat
from crewcheck.solvers.logic import encoding
from crewcheck.solvers.logic.formula import Formula
from crewcheck.solvers.logic.position import Position, Variables
from crewcheck.solvers.logic.rule_clauses import card_kinds, fixed_cards


def _holder(pos: Position, c: CardIndex) -> Seat:
    return next(s for s, h in enumerate(pos.hands) if h >> c & 1)


def add_own_win_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    # A seat's own task card (one it holds) can only be won by that seat playing it: if
    # its owner plays it, it wins the trick. (Unit propagation already finds this through
    # "the seat wins the trick" and "one card per seat"; the clause is the shortcut.)
    for k in pos.tasks:
        task = inst.tasks[k]
        if task.seat is None or not pos.hands[task.seat] >> task.card & 1:
            continue
        for t in pos.tricks:
            model.add_bool_or([v.win[(t, task.card)]], enforce=[v.task[k], v.play[(t, task.seat, task.card)]])


def add_task_beaten_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    deck, trump = inst.deck, inst.trump_suit
    # A task card held by another seat, played in a trick of its own suit, is won by its
    # seat only with a higher card of that suit or (for a card that is no trump) a trump:
    # the seat plays one of those. (Not when the card is discarded on another led suit:
    # then the seat may win with anything.)
    for k in pos.tasks:
        task = inst.tasks[k]
        w, c = task.seat, task.card
        if w is None or pos.hands[w] >> c & 1:
            continue
        h = _holder(pos, c)
        u = deck.suit_of(c)
        beat = [x for x in iter_bits(pos.hands[w])
                if (deck.suit_of(x) == u and x > c) or (u != trump and deck.suit_of(x) == trump)]
        for t in pos.tricks:
            cond = [v.task[k], v.play[(t, h, c)]]
            if u != trump:
                cond.append(v.led[(t, u)])
            model.add_bool_or([v.play[(t, w, x)] for x in beat], enforce=cond)


def add_done_count_constraints(model: Formula, v: Variables, pos: Position) -> None:
    # Implied counting: a seat plays one card a trick, so by the end of trick t it has
    # played at most t - first + 1 of its cards (CDCL cannot count this itself).
    for s in range(pos.instance.players):
        hand = list(iter_bits(pos.hands[s]))
        for t in pos.tricks:
            if t - pos.first + 1 < len(hand):
                model.add_at_most([v.done[(t, c)] for c in hand], t - pos.first + 1)


def add_trick_bound_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    p = inst.players
    if pos.quotas is not None:
        return
    # Per-seat trick bounds: two cards of one hand are never in one trick, so a seat wins
    # at least as many tricks as any one hand holds of its tasks. (Enforced by those tasks.)
    need: dict[tuple[Seat, Seat], list[int]] = {}
    for k in pos.tasks:
        task = inst.tasks[k]
        assert task.seat is not None
        need.setdefault((task.seat, _holder(pos, task.card)), []).append(k)
    for (w, _h), ks in need.items():
        if len(ks) >= 2:
            model.add_at_least([v.winner[(t, w)] for t in pos.tricks], len(ks), enforce=[v.task[k] for k in ks])
    # ... and as one trick goes to one seat, those bounds add up to at most the tricks left.
    most: dict[Seat, list[int]] = {}
    for (w, _h), ks in need.items():
        if len(ks) > len(most.get(w, [])):
            most[w] = ks
    if sum(len(ks) for ks in most.values()) > len(pos.tricks):
        model.add_bool_or([], enforce=[v.task[k] for w in range(p) for k in most.get(w, [])])


def add_play_symmetry_constraints(model: Formula, v: Variables, pos: Position) -> None:
    """Symmetry as play goes on (see :func:`crewcheck.solvers.logic.rule_clauses.add_symmetry_constraints`
    for the cards alike at the deal)."""
    if pos.passing is not None or pos.instance.conditions:
        return
    inst = pos.instance
    deck = inst.deck
    kind, task_of = card_kinds(pos)
    fixed = fixed_cards(pos)
    # Two cards of one suit, adjacent in one hand and alike, with cards of other hands
    # between them, become interchangeable once those cards are played: from then on
    # every trick compares them alike against every card left. So some winning line, if
    # one exists, never plays the higher one at a trick whose start finds the lower one
    # in hand and every card between them gone (the lexically least winning line: a
    # line that breaks this swaps the two cards from that trick on and stays a win).
    for s in range(inst.players):
        for u in range(len(deck.suits)):
            mine = [c for c in iter_bits(pos.hands[s] & deck.suit_mask(u)) if not fixed >> c & 1]
            for a, b in zip(mine, mine[1:]):
                gap = ((1 << b) - 1) & ~((1 << (a + 1)) - 1) & pos.cards
                ka, kb = kind.get(a), kind.get(b)
                if not gap or ka != kb or (ka is not None and ka[0] == "task"):  # type: ignore[index]
                    continue
                guard = [v.task[task_of[c]] for c in (a, b) if c in task_of]
                between = list(iter_bits(gap))
                for t in pos.tricks:
                    if t == pos.first:
                        continue
                    model.add_bool_or([v.done[(t - 1, a)]],
                                      enforce=[v.play[(t, s, b)], *[v.done[(t - 1, g)] for g in between], *guard])


def add_top_trump_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    # A trump higher than every trump of the other hands wins the trick its seat plays it in.
    if pos.passing is not None or inst.trump_suit is None:
        return
    trumps = inst.deck.suit_mask(inst.trump_suit)
    for s in range(inst.players):
        theirs = pos.cards & trumps & ~pos.hands[s]
        for c in iter_bits(pos.hands[s] & trumps):
            if theirs >> c == 0:
                for t in pos.tricks:
                    model.add_implication(v.play[(t, s, c)], v.winner[(t, s)])


def add_winner_card_constraints(model: Formula, v: Variables, pos: Position) -> None:
    # The seat that wins a trick wins it with the card it plays there. (The encoding says
    # "some card of the seat wins"; which one follows from "one card per seat", a step
    # unit propagation does not take.)
    if pos.passing is not None:  # (the hands are not known before the passes)
        return
    for t in pos.tricks:
        for s in range(pos.instance.players):
            for c in iter_bits(pos.hands[s]):
                model.add_bool_or([v.win[(t, c)]], enforce=[v.winner[(t, s)], v.play[(t, s, c)]])


def _plain_play(pos: Position) -> bool:
    """Whether the implied blocks below apply: a trick boundary, the hands known, no
    covered cards and no conditions (their arguments count the hands' cards as dealt)."""
    return not (pos.fixed or pos.passing is not None or pos.covers or pos.instance.conditions)


def release_times(pos: Position) -> dict[int, tuple[int, frozenset[int]]]:
    """Fixed assignment: each open task's release time (the earliest trick, 1 = the next,
    in which its card can be played, as the search's
    :func:`crewcheck.solvers.search.cuts.release_dead` and
    :func:`~crewcheck.solvers.search.cuts.precedence_dead` compute it) and the tasks that
    time relies on (its own and those whose cards it takes for tasks). A time past the
    last trick: no winning line completes the task with those tasks required."""
    inst = pos.instance
    deck, trump = inst.deck, inst.trump_suit
    big = len(pos.tricks) + 1
    task_at = {inst.tasks[k].card: k for k in pos.tasks}
    release: dict[int, int] = {}
    guard: dict[int, set[int]] = {}
    before: dict[int, set[int]] = {}
    for k in pos.tasks:
        w, c = inst.tasks[k].seat, inst.tasks[k].card
        assert w is not None
        u = deck.suit_of(c)
        suit = deck.suit_mask(u)
        hw = pos.hands[w]
        higher = hw & suit & ~((1 << (c + 1)) - 1)
        has_trump = trump is not None and hw & deck.suit_mask(trump) != 0
        e, g, pm = 1, {k}, set()
        if hw >> c & 1:
            # w wins with c itself (no trump): a seat that cannot duck under c (its lower
            # cards of the suit are tasks of other seats) plays the suit out first
            for o in range(inst.players):
                ho = pos.hands[o] & suit
                if u == trump or o == w or not ho:
                    continue
                lower = [task_at.get(x) for x in iter_bits(ho) if x < c]
                if any(j is None or inst.tasks[j].seat == w for j in lower):
                    continue
                e = max(e, ho.bit_count() + 1)
                g |= {j for j in lower if j is not None}
                pm |= {task_at[x] for x in iter_bits(ho) if x in task_at}
        elif u == trump:
            e = 1 if higher else big  # only a higher trump takes a trump
        elif not higher:
            # w trumps a lead of c's suit once void in it, or wins a trick of another
            # suit (following it or trumping it) on which c's holder, void in it, discards c
            h = _holder(pos, c)
            e = (hw & suit).bit_count() + 1 if has_trump else big
            for other in range(len(deck.suits)):
                if other != u and (hw & deck.suit_mask(other) or has_trump):
                    e = min(e, (pos.hands[h] & deck.suit_mask(other)).bit_count() + 1)
        release[k], guard[k], before[k] = e, g, pm
    # a task whose card another's trick must follow comes after that task's release
    for _ in range(len(pos.tasks) + 2):
        grown = False
        for k in pos.tasks:
            for j in list(before[k]):
                if j == k:
                    release[k] = big
                    continue
                if release[j] + 1 > release[k] or not guard[j] | {j} <= guard[k] or not before[j] <= before[k]:
                    release[k] = max(release[k], release[j] + 1)
                    guard[k] |= guard[j] | {j}
                    before[k] |= before[j]
                    grown = True
        if not grown:
            break
    return {k: (min(release[k], big), frozenset(guard[k])) for k in pos.tasks}


def add_release_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    if pos.quotas is not None or not _plain_play(pos):
        return
    T = len(pos.tricks)
    rel = release_times(pos)
    # Release times: a task card is played no earlier than its task's release time (the
    # trick its owner, or the seats that must play a suit out first, can first make it
    # win); past the last trick, the task cannot be done. Enforced by the tasks it relies on.
    for k, (e, g) in rel.items():
        lits = [v.task[j] for j in sorted(g)]
        if e > T:
            model.add_bool_or([], enforce=lits)
        elif e >= 2:
            model.add_bool_or([], enforce=[*lits, v.done[(pos.first + e - 2, inst.tasks[k].card)]])
    # Hall's bound on the release times: the tasks released at trick e or later complete
    # among the last T - e + 1 tricks, each seat's in as many tricks as one hand holds of
    # them (one card per hand a trick), different seats' in different tricks.
    for e in sorted({e for e, _ in rel.values() if e <= T}):
        need = 0
        guard: set[int] = set()
        for w in range(inst.players):
            most: list[int] = []
            for h in range(inst.players):
                ks = [k for k, (ek, _) in rel.items() if ek >= e and inst.tasks[k].seat == w
                      and pos.hands[h] >> inst.tasks[k].card & 1]
                if len(ks) > len(most):
                    most = ks
            relies = set(most).union(*(rel[k][1] for k in most))
            need += len(most)
            guard |= relies
            if e >= 2 and len(most) >= 2:
                model.add_at_least([v.winner[(t, w)] for t in pos.tricks if t - pos.first + 1 >= e],
                                   len(most), enforce=[v.task[j] for j in sorted(relies)])
        if need > T - e + 1:
            model.add_bool_or([], enforce=[v.task[j] for j in sorted(guard)])


def possible_winners(pos: Position) -> list[int]:
    """Per trick left, the seats (a bitmask) that can win it: the leaders that can reach
    it and the seats that can beat a card one of them holds (a higher card of its suit,
    or a trump once void in the suit led, which takes a trick per card of the suit)."""
    inst = pos.instance
    deck, trump, p = inst.deck, inst.trump_suit, inst.players
    trumps = deck.suit_mask(trump) if trump is not None else 0
    reach = (1 << p) - 1 if pos.leader is None else 1 << pos.leader
    out = []
    for n in range(1, len(pos.tricks) + 1):
        wins = reach
        for s in range(p):
            hs = pos.hands[s]
            for ld in iter_bits(reach):
                if wins >> s & 1:
                    break
                for u in range(len(deck.suits)):
                    led = pos.hands[ld] & deck.suit_mask(u)
                    if not led:
                        continue
                    mine = hs & deck.suit_mask(u)
                    if mine >> ((led & -led).bit_length()) or (
                            u != trump and hs & trumps and mine.bit_count() <= n - 1):
                        wins |= 1 << s
                        break
        out.append(wins)
        reach = wins
    return out


def add_lead_reach_constraints(model: Formula, v: Variables, pos: Position) -> None:
    if not _plain_play(pos):
        return
    # Lead reachability: a seat leads a trick only by winning the one before, so the
    # seats that can win trick n are its possible leaders and the seats that can beat a
    # card one of them holds (see possible_winners); no other seat wins it. (Play alone:
    # no task needed.)
    for t, wins in zip(pos.tricks, possible_winners(pos)):
        for s in range(pos.instance.players):
            if not wins >> s & 1:
                model.add_bool_and([-v.winner[(t, s)]])


def add_trump_control_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    if inst.trump_suit is None or not _plain_play(pos):
        return
    T = len(pos.tricks)
    trumps = inst.deck.suit_mask(inst.trump_suit)
    task_at = {inst.tasks[k].card: k for k in pos.tasks}
    # Trump control (the search's boss_trump_dead at the last trick): a seat's top trumps
    # (higher than every trump of the other hands) each win the trick they are played
    # in, and it plays all but as many cards as its hand has beyond the tricks left: so
    # it wins at least that many tricks.
    for s in range(inst.players):
        theirs = pos.cards & trumps & ~pos.hands[s]
        top = sum(1 for c in iter_bits(pos.hands[s] & trumps) if theirs >> c == 0)
        b = top - (pos.hands[s].bit_count() - T)
        if b <= 0:
            continue
        wins = [v.winner[(t, s)] for t in pos.tricks]
        model.add_at_least(wins, b)
        if pos.quotas is not None:
            continue
        # ... and every trick it wins takes a card of each other seat that is no task of
        # a third seat (those go to their seats): at most as many tricks as the other
        # seat's tricks left minus its cards that are such tasks. Enforced by those tasks.
        for o in range(inst.players):
            foreign = [task_at[c] for c in iter_bits(pos.hands[o]) if c in task_at and inst.tasks[task_at[c]].seat != s]
            if o == s or not foreign:
                continue
            guard = [v.task[j] for j in foreign]
            if b > T - len(foreign):
                model.add_bool_or([], enforce=guard)
            else:
                model.add_at_most(wins, T - len(foreign), enforce=guard)


CANDIDATES: dict[str, tuple[Callable[[Formula, Variables, Position], None], ...]] = {
    "own_win": (add_own_win_constraints,),
    "task_beaten": (add_task_beaten_constraints,),
    "precedence": (encoding.add_precedence_constraints,),  # kept: now in the encoding
    "trick_bounds": (add_trick_bound_constraints,),
    "done_count": (add_done_count_constraints,),
    "done_count_early": (encoding.add_count_constraints,),  # kept: now in the encoding
    "play_symmetry": (add_play_symmetry_constraints,),
    "top_trumps": (add_top_trump_constraints,),
    "winner_card": (add_winner_card_constraints,),
    "winner_card+own_win": (add_winner_card_constraints, add_own_win_constraints),
    "release": (add_release_constraints,),
    "lead_reach": (add_lead_reach_constraints,),
    "trump_control": (add_trump_control_constraints,),
}
"""Variant name -> the blocks added to the baseline."""
