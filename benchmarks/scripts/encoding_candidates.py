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
}
"""Variant name -> the blocks added to the baseline."""
