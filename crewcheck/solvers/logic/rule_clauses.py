"""The rules of play as clauses: one function per block, each starting with the rule in
English (see :mod:`.encoding` for the variables, the implied blocks and their measured
effect). Each block takes the model, the variables and the position."""

from __future__ import annotations

from crewcheck.model.cards import CardIndex, iter_bits
from crewcheck.model.tasks import TokenKind, token_kind
from crewcheck.solvers.logic.formula import Formula, Lit
from crewcheck.solvers.logic.position import Position, Variables

__all__ = [
    "add_play_constraints", "add_cover_constraints", "card_kinds", "fixed_cards", "add_symmetry_constraints",
    "add_lead_constraints", "add_led_suit_constraints", "add_follow_suit_constraints", "add_winner_constraints", "add_task_constraints",
    "add_assignment_constraints", "add_order_constraints", "add_precedence_constraints", "add_count_constraints",
]


def add_play_constraints(model: Formula, v: Variables, pos: Position) -> None:
    p = pos.instance.players
    # Each seat plays exactly one of its cards in every trick (de Jong (4), first two terms).
    for t in pos.tricks:
        for s in range(p):
            model.add_exactly_one(v.play[(t, s, c)] for c in iter_bits(pos.hands[s]))
    if pos.passing is not None:
        _add_passing_constraints(model, v, pos)
    # Cards already played to the trick in progress stay where they are.
    for s, c in pos.fixed.items():
        model.add_bool_and([v.play[(pos.first, s, c)]])
    # done_t_c: card c was played in trick t or earlier (defined both ways).
    for c in iter_bits(pos.cards):
        for t in pos.tricks:
            now, done = v.played_by(t, c), v.done[(t, c)]
            model.add_implication(now, done)
            if t == pos.first:
                model.add_implication(done, now)
            else:
                before = v.done[(t - 1, c)]
                model.add_implication(before, done)
                model.add_bool_or([before, now], enforce=[done])
                # A card is played at most once (de Jong (4), third term).
                model.add_implication(now, -before)
    # Redundant but decisive for refutations: a seat plays exactly one card per trick, so
    # by the end it has played as many cards as there are tricks; with a hand as long as
    # the game every card is played. (CDCL cannot derive this pigeonhole count itself.)
    last = pos.end - 1
    if pos.passing is not None:  # (the hands are not known: not implied)
        return
    for s in range(p):
        model.add_at_least([v.done[(last, c)] for c in iter_bits(pos.hands[s])], pos.end - pos.first)


def add_cover_constraints(model: Formula, v: Variables, pos: Position) -> None:
    # A covered card is played in a later trick than the card on it (it is turned up at
    # the end of that card's trick): in trick t only if the card on it is done by t - 1.
    for low, high in pos.covers.items():
        s = pos.instance.holder[low]
        for t in pos.tricks:
            model.add_bool_or([v.done[(t - 1, high)]] if t > pos.first else [], enforce=[v.play[(t, s, low)]])


def _add_passing_constraints(model: Formula, v: Variables, pos: Position) -> None:
    """A distress signal: every seat with a card that is no trump passes exactly one; a
    seat plays only cards it holds after the passes; ``played_t_c`` of a card two seats
    may hold is "one of them plays it in trick t"."""
    assert pos.passing is not None
    p = pos.instance.players
    for s in range(p):
        mine = [v.passes[(s, c)] for c in iter_bits(pos.passing.out[s])]
        if mine:
            model.add_exactly_one(mine)
    for t in pos.tricks:
        for s in range(p):
            for c in iter_bits(pos.hands[s]):
                hold = v.holds(pos, s, c)
                if hold is not None:
                    model.add_implication(v.play[(t, s, c)], hold)
        for c in iter_bits(pos.cards):
            by = [v.play[(t, s, c)] for s in range(p) if pos.hands[s] >> c & 1]
            if len(by) > 1:
                x = v.played_by(t, c)
                for y in by:
                    model.add_implication(y, x)
                model.add_bool_or(by, enforce=[x])


def card_kinds(pos: Position) -> tuple[dict[CardIndex, object], dict[CardIndex, int]]:
    """What a card "is" for the rules, for the cards that are more than plain cards: a task
    of a given seat (fixed), or a task of whoever wins it (free); a tokened task, or a card
    a condition names, is unique (``("task", ...)``). And each task card's task."""
    inst = pos.instance
    kind: dict[CardIndex, object] = {}
    task_of: dict[CardIndex, int] = {}
    for k in pos.tasks:
        task = inst.tasks[k]
        kind[task.card] = ("task", k) if task.token is not None else ("seat", task.seat)
        task_of[task.card] = k
    for cond in inst.conditions:  # cards a condition tells apart are unique too
        for c in iter_bits(cond.named(inst)):
            kind[c] = ("task", -1 - c)
    for low, high in pos.covers.items():  # a covered card, and the card on it, are unique too
        kind[low], kind[high] = ("task", -1 - low), ("task", -1 - high)
    return kind, task_of


def fixed_cards(pos: Position) -> int:
    """The mask of the cards already played to the trick in progress."""
    fixed = 0
    for c in pos.fixed.values():
        fixed |= 1 << c
    return fixed


def add_symmetry_constraints(model: Formula, v: Variables, pos: Position) -> None:
    if pos.passing is not None:  # (the hands are not known before the passes)
        return
    inst = pos.instance
    deck = inst.deck
    kind, task_of = card_kinds(pos)
    fixed = fixed_cards(pos)
    cards = pos.cards
    # Symmetry breaking (sound, not a rule): two cards of one suit in one hand, of the same
    # kind, with no card of any other hand between them, are interchangeable (every trick
    # compares them alike against every other card and scores them alike), so some
    # winning line, if one exists, plays the lower one first: the higher is done only once
    # the lower is.
    for s in range(inst.players):
        for u in range(len(deck.suits)):
            mine = [c for c in iter_bits(pos.hands[s] & deck.suit_mask(u)) if not fixed >> c & 1]
            for a, b in zip(mine, mine[1:]):
                gap = ((1 << b) - 1) & ~((1 << (a + 1)) - 1)
                ka, kb = kind.get(a), kind.get(b)
                if cards & gap or ka != kb or (ka is not None and ka[0] == "task"):  # type: ignore[index]
                    continue
                # (two task cards are alike only while both tasks are required: under a
                # subset of the task assumptions one of them may be a plain card)
                guard = [v.task[task_of[c]] for c in (a, b) if c in task_of]
                for t in pos.tricks:
                    model.add_bool_or([v.done[(t, a)]], enforce=[v.done[(t, b)], *guard])


def add_lead_constraints(model: Formula, v: Variables, pos: Position) -> None:
    p = pos.instance.players
    # The first trick is led by the known leader, or by exactly one seat when the lead is free.
    if pos.leader is None:
        model.add_exactly_one(v.lead[(pos.first, s)] for s in range(p))
    else:
        model.add_bool_and([v.lead[(pos.first, pos.leader)]])
        model.add_bool_and([-v.lead[(pos.first, s)] for s in range(p) if s != pos.leader])
    # Later tricks are led by the winner of the trick before (v.lead aliases v.winner).


def add_led_suit_constraints(model: Formula, v: Variables, pos: Position) -> None:
    deck = pos.instance.deck
    # The led suit of a trick is the suit of the card its leader plays (de Jong (7)).
    for t in pos.tricks:
        for s in range(pos.instance.players):
            for c in iter_bits(pos.hands[s]):
                model.add_bool_or([v.led[(t, deck.suit_of(c))]], enforce=[v.lead[(t, s)], v.play[(t, s, c)]])
        # A trick has exactly one led suit.
        model.add_exactly_one(v.led[(t, u)] for u in range(len(deck.suits)))


def add_follow_suit_constraints(model: Formula, v: Variables, pos: Position) -> None:
    deck = pos.instance.deck
    suits = range(len(deck.suits))
    play, led, done, add = v.play, v.led, v.done, model.add_bool_or
    # each hand's cards by suit, and whether a card is held in every case (no distress
    # signal), once per deal: this block has the most clauses of the encoding
    by_suit = [[list(iter_bits(hand & deck.suit_mask(u))) for u in suits] for hand in pos.hands]
    covers = pos.covers
    # A seat may play off the led suit only if every card it held of that suit is
    # already played (de Jong (8), with done_t_c for the disjunction over earlier tricks)
    # or still covered: the card on it is not done by the trick before (a covered card
    # does not oblige its seat to follow suit).
    for t in pos.tricks:
        later = t > pos.first
        for s in range(pos.instance.players):
            mine = by_suit[s]
            for c in iter_bits(pos.hands[s]):
                cs = deck.suit_of(c)
                now = play[(t, s, c)]
                for u in suits:
                    if u == cs:
                        continue
                    lu = led[(t, u)]
                    for other in mine[u]:
                        gone = [done[(t - 1, other)]] if later else []
                        if other in covers:
                            if not later:
                                continue  # covered all through the first trick
                            gone.append(-done[(t - 1, covers[other])])
                        hold = v.holds(pos, s, other)  # (after a distress signal's passes)
                        add(gone, enforce=[now, lu] if hold is None else [now, lu, hold])


def add_winner_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    deck, trump = inst.deck, inst.trump_suit
    cards = pos.cards
    for t in pos.tricks:
        # higher_t_c: some higher card of c's suit is in the trick (a ladder down each suit).
        for u in range(len(deck.suits)):
            above: Lit | None = None
            above_card: CardIndex | None = None
            for c in reversed(list(iter_bits(cards & deck.suit_mask(u)))):
                h = v.higher[(t, c)]
                if above is None:
                    model.add_bool_and([-h])
                else:
                    assert above_card is not None
                    model.add_implication(v.played_by(t, above_card), h)
                    model.add_implication(above, h)
                    # (and only then: full definitions propagate the winner directly)
                    model.add_bool_or([v.played_by(t, above_card), above], enforce=[h])
                above, above_card = h, c
        # trumped_t: a trump is in the trick.
        if trump is not None:
            for c in iter_bits(cards & deck.suit_mask(trump)):
                model.add_implication(v.played_by(t, c), v.trumped[t])
            model.add_bool_or([v.played_by(t, c) for c in iter_bits(cards & deck.suit_mask(trump))],
                              enforce=[v.trumped[t]])
        # A card wins its trick only if it is played and no higher card of its suit is in
        # the trick; a non-trump also needs to be of the led suit with no trump played
        # (de Jong (5)-(6)).
        for c in iter_bits(cards):
            u = deck.suit_of(c)
            needs = [v.played_by(t, c), -v.higher[(t, c)]]
            if u != trump:
                needs.append(v.led[(t, u)])
                if trump is not None:
                    needs.append(-v.trumped[t])
            model.add_bool_and(needs, enforce=[v.win[(t, c)]])
            # ... and a card meeting those conditions does win.
            model.add_bool_or([v.win[(t, c)]], enforce=needs)
        # Some card wins every trick (de Jong (5), second term); the conditions above
        # leave only the best card, so exactly one does.
        model.add_bool_or(v.win[(t, c)] for c in iter_bits(cards))
        # Redundant: exactly one seat wins each trick.
        model.add_exactly_one(v.winner[(t, s)] for s in range(inst.players))
        # A seat wins the trick if and only if one of its cards does.
        for s in range(inst.players):
            mine = [v.win[(t, c)] for c in iter_bits(pos.hands[s])]
            for c, w in zip(iter_bits(pos.hands[s]), mine):
                if pos.passing is not None and v.holds(pos, s, c) is not None:
                    model.add_bool_or([v.winner[(t, s)]], enforce=[w, v.play[(t, s, c)]])
                else:
                    model.add_implication(w, v.winner[(t, s)])
            model.add_bool_or(mine, enforce=[v.winner[(t, s)]])


def add_task_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    last = pos.end - 1
    for k in pos.tasks:
        task, need = inst.tasks[k], v.task[k]
        # Every task card is played before the game ends (de Jong (9), second term: with
        # unequal hands some cards are never played).
        model.add_bool_or([v.done[(last, task.card)]], enforce=[need])
        # The trick holding a task card is won by the task's seat (de Jong (9)) ...
        for t in pos.tricks:
            now = v.played_by(t, task.card)
            if task.seat is not None:
                model.add_bool_or([v.winner[(t, task.seat)]], enforce=[need, now])
            else:
                # ... or, under free assignment, by the seat the task goes to (de Jong (15)).
                # The task goes to the seat that wins its trick (so the quotas propagate
                # from the play, not from a guessed assignment).
                for s in range(inst.players):
                    model.add_bool_or([v.winner[(t, s)]], enforce=[need, now, v.owner[(k, s)]])
                    model.add_bool_or([v.owner[(k, s)]], enforce=[need, now, v.winner[(t, s)]])


def add_assignment_constraints(model: Formula, v: Variables, pos: Position) -> None:
    if pos.quotas is None:
        return
    p = pos.instance.players
    # Free assignment: every required task goes to exactly one seat (de Jong (13), second term).
    for k in pos.tasks:
        model.add_at_most_one(v.owner[(k, s)] for s in range(p))
        model.add_bool_or([v.owner[(k, s)] for s in range(p)], enforce=[v.task[k]])
    everything = [v.task[k] for k in pos.tasks]
    if pos.quota_options:
        _add_quota_options(model, v, pos, everything)
        return
    # Each seat takes at most its draft count, minus the tasks it already won (de Jong
    # (13), first term, as one cardinality constraint instead of one clause per subset).
    for s in range(p):
        model.add_at_most([v.owner[(k, s)] for k in pos.tasks], pos.quotas[s])
    # Redundant: with every task required, each seat takes exactly its count.
    for s in range(p):
        model.add_at_least([v.owner[(k, s)] for k in pos.tasks], pos.quotas[s], enforce=everything)


def _add_quota_options(model: Formula, v: Variables, pos: Position, everything: list[Lit]) -> None:
    """The counts of :attr:`Position.quota_options`: exactly one option's selector holds,
    and under it each seat takes at most, and with every task required exactly, the
    option's count."""
    selectors = []
    for j, counts in enumerate(pos.quota_options):
        sel = model.new_bool(("quota_option", j))
        selectors.append(sel)
        for s, n in enumerate(counts):
            owned = [v.owner[(k, s)] for k in pos.tasks]
            model.add_at_most(owned, n, enforce=[sel])
            model.add_at_least(owned, n, enforce=[sel, *everything])
    model.add_exactly_one(selectors)


def add_order_constraints(model: Formula, v: Variables, pos: Position) -> None:
    inst = pos.instance
    kinds = {k: token_kind(tok) for k in pos.tasks if (tok := inst.tasks[k].token) is not None}
    if not kinds:
        return
    card = {k: inst.tasks[k].card for k in pos.tasks}
    # An "omega" task is completed last: every other required task is done by its trick.
    # A relative task (">>") is completed no earlier than those with fewer arrows.
    for i, (kind, rank) in kinds.items():
        for j in pos.tasks:
            if j == i:
                continue
            before = kind is TokenKind.LAST or (
                kind is TokenKind.RELATIVE and j in kinds
                and kinds[j][0] is TokenKind.RELATIVE and kinds[j][1] < rank)
            if before:
                for t in pos.tricks:
                    model.add_bool_or([v.done[(t, card[j])]],
                                      enforce=[v.task[i], v.task[j], v.played_by(t, card[i])])
    # A numbered task "k" is the k-th task completed: fewer than k tasks are done before
    # its trick and at least k by the end of it (tasks of one trick share a block).
    if any(kind is TokenKind.ABSOLUTE for kind, _ in kinds.values()):
        for t in pos.tricks:
            for j in pos.tasks:
                c = v.completed[(t, j)] = model.new_bool(("completed", t, j))
                model.add_bool_and([v.task[j], v.done[(t, card[j])]], enforce=[c])
                model.add_bool_or([c], enforce=[v.task[j], v.done[(t, card[j])]])
        for i, (kind, rank) in kinds.items():
            if kind is not TokenKind.ABSOLUTE:
                continue
            want = rank - pos.done_count
            for t in pos.tricks:
                cond = [v.task[i], v.played_by(t, card[i])]
                if t > pos.first:
                    model.add_at_most([v.completed[(t - 1, j)] for j in pos.tasks if j != i],
                                      want - 1, enforce=cond)
                elif want - 1 < 0:
                    model.add_bool_or([], enforce=cond)
                model.add_at_least([v.completed[(t, j)] for j in pos.tasks], want, enforce=cond)
    # Strict reading: tokened tasks completed in one trick must have tokens of one kind
    # (never "omega") with consecutive ranks, so no rank between them may be missing.
    if inst.rules.order_rule != "strict":
        return
    by_rank = {(kind, rank): k for k, (kind, rank) in kinds.items()}
    tokened = sorted(kinds)
    for a, i in enumerate(tokened):
        for j in tokened[a + 1:]:
            (ki, ri), (kj, rj) = kinds[i], kinds[j]
            pair = [v.task[i], v.task[j]]
            clash = ki is not kj or ki is TokenKind.LAST
            between: list[int | None] = [] if clash else [
                by_rank.get((ki, r)) for r in range(min(ri, rj) + 1, max(ri, rj))]
            for t in pos.tricks:
                together = pair + [v.played_by(t, card[i]), v.played_by(t, card[j])]
                if clash or None in between:
                    model.add_bool_or([], enforce=together)
                    continue
                for m in between:
                    assert m is not None
                    model.add_bool_and([v.task[m], v.played_by(t, card[m])], enforce=together)


def add_precedence_constraints(model: Formula, v: Variables, pos: Position) -> None:
    if pos.passing is not None:  # (implied only when the hands are known)
        return
    inst = pos.instance
    deck, trump = inst.deck, inst.trump_suit
    task_at = {inst.tasks[k].card: k for k in pos.tasks}
    covers = pos.covers
    # Redundant (implied, not a rule), the search's precedence (kernel.boundary_dead): a
    # seat's own task card c that is no trump must win its trick itself, so c's suit is
    # led and no higher card of it is in the trick. Another seat holding cards of c's
    # suit must follow with a lower one, and every lower one it holds is a task of some
    # seat other than c's (a card it cannot give away to c's seat), then it cannot: it
    # has played all its cards of c's suit before c's trick (so not before trick
    # first + that many). Enforced by c's task and the tasks of the lower cards (without
    # them a lower card is a plain one to duck with).
    for k in pos.tasks:
        w, c = inst.tasks[k].seat, inst.tasks[k].card
        u = deck.suit_of(c)
        if w is None or u == trump or not pos.hands[w] >> c & 1:
            continue
        for o in range(inst.players):
            mine = list(iter_bits(pos.hands[o] & deck.suit_mask(u)))
            if o == w or not mine or any(x in covers for x in mine):
                continue  # (a covered card does not oblige o to follow suit)
            lower = [task_at.get(x) for x in mine if x < c]
            if any(j is None or inst.tasks[j].seat == w for j in lower):
                continue  # o can duck under c
            guard = [v.task[k]] + [v.task[j] for j in lower if j is not None]
            for t in pos.tricks:
                cond = guard + [v.play[(t, w, c)]]
                if t - pos.first < len(mine):
                    model.add_bool_or([], enforce=cond)
                else:
                    model.add_bool_and([v.done[(t - 1, x)] for x in mine], enforce=cond)


def add_count_constraints(model: Formula, v: Variables, pos: Position) -> None:
    # Redundant (implied counting): a seat plays one card a trick, so by the end of the
    # n-th trick left it has played at most n of its cards. CDCL cannot count this
    # itself (pigeonhole); it is what turns "these cards must all be gone before that
    # trick" (precedence, follow suit) into a conflict. Only for the first half of each
    # hand, where the bound is tightest and the counter (cards x bound) cheapest: over
    # every trick it cost more propagation than it saved.
    if pos.passing is not None:  # (the hands are not known before the passes)
        return
    for s in range(pos.instance.players):
        hand = list(iter_bits(pos.hands[s]))
        for t in pos.tricks:
            n = t - pos.first + 1
            if 2 * n <= len(hand):
                model.add_at_most([v.done[(t, c)] for c in hand], n)
