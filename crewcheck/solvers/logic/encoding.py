"""The winnability question as Boolean constraints, shared by the logic back-ends.

What the encoding is
    de Jong's SAT encoding of winnability [1]_ (§4, expressions (4)-(11); free
    objectives (12)-(15)), written once against a small solver-neutral builder,
    :class:`Formula`, and generalised to everything the model covers. The variables
    start from de Jong's three families:

    ``play_t{t}_s{s}_c{c}``
        seat ``s`` plays card ``c`` in trick ``t`` (de Jong's :math:`x^p_{t,i}`, with the
        card index instead of "the i-th card of p");
    ``led_t{t}_u{u}``
        the led (requested) suit of trick ``t`` is ``u`` (:math:`r^s_t`);
    ``winner_t{t}_s{s}``
        seat ``s`` wins trick ``t`` (:math:`w^p_t`),

    plus a sound symmetry breaking (interchangeable cards of one hand are played lowest
    first), two implied blocks that CDCL solvers profit from (precedence and counting,
    below) and auxiliaries that keep every block linear in the number of cards instead of
    quadratic: ``done_t{t}_c{c}`` (card ``c`` was played in trick ``t`` or earlier),
    ``higher_t{t}_c{c}`` (a higher card of ``c``'s suit is in trick ``t``),
    ``trumped_t{t}`` (a trump is in trick ``t``), ``win_t{t}_c{c}`` (card ``c`` wins
    trick ``t``), ``lead_t{t}_s{s}`` (seat ``s`` leads trick ``t``; for ``t`` after the
    first it *is* ``winner_t{t-1}_s{s}``), ``owner_k{k}_s{s}`` (free assignment: task
    ``k`` goes to seat ``s``, de Jong's :math:`o^p_{(q,i)}`), ``task_k{k}`` (task ``k`` is
    required: the assumption literal used for unsat cores) and ``completed_t{t}_k{k}``
    (task ``k`` is required and done by trick ``t``; only with number tokens).

Implied constraints (measured)
    *Precedence* (:func:`.rule_clauses.add_precedence_constraints`, the search's rule from
    :func:`crewcheck.solvers.search.cuts.boundary_dead`): a seat's own task card that is no
    trump must win its trick itself; another seat holding cards of its suit whose lower
    cards of that suit are all tasks of other seats cannot follow under it, so it has
    played all of them in earlier tricks. *Counting*
    (:func:`.rule_clauses.add_count_constraints`): by the end of its n-th trick left a seat has
    played at most n cards (first half of each hand only). On the 40 fixed-assignment
    corpus deals slowest for Glucose 4.2 (``benchmarks/corpus/hard_sat_ids.txt``) the two cut
    Glucose's conflicts from 1.18 M to 0.75 M and its solve time from 55 s to 36 s
    (worst deal 14.2 s -> 10.0 s); CaDiCaL 1.9.5: 1.56 M -> 0.97 M conflicts (docs/
    encoding.md, "Encoding strengthenings (measured)", which also lists the
    candidates that did not pay).

Rule features
    Trumps or none; any number of seats, suits and values; unequal hands (the game has
    as many tricks as the smallest hand, so longer hands keep cards that are never
    played: de Jong's second term of (9) makes every task card be played); the three
    first-lead modes (a seat, ``"rocket"`` = the holder of the top trump, ``"any"``: a
    free ``lead`` variable per seat); order tokens (``"1"``-``"5"``, ``">"``-``">>>>"``,
    ``"omega"``) in both readings (``strict`` / ``lenient``, see
    :mod:`crewcheck.model.rules`); fixed or free assignment with the draft's per-seat
    counts (a sequential-counter cardinality constraint, not de Jong's binomial
    encoding (13), which needs :math:`\\binom{|O|}{n_p+1}` clauses and runs out of memory
    at 36 tasks); covered cards (JARVIS's columns: a covered card is played in a later
    trick than the card on it, and does not oblige its seat to follow suit while covered;
    :func:`.rule_clauses.add_cover_constraints` and the follow-suit block); and mid-game positions (the complete tricks of the history are gone,
    the trick in progress is trick ``t0`` with its cards fixed).

    *The game is won by trick T.* The encoding plays every remaining trick, like de
    Jong's. This is exact although the real game stops the moment the last task is
    done: once every task card has been won by its seat no constraint mentions the
    later tricks, and some legal way to play them always exists. The decoder cuts the
    line after the trick that completes the last task.

Exact
    Yes: satisfiable if and only if the position after the history can be won; a model
    decodes (:func:`.decode.decode`) to a winning continuation and, under free assignment, the
    seat of every task. With the ``task_k`` of a subset A set true and the others false the
    formula is the same deal with only the tasks in A (tokens judged among them; free
    assignment: each seat takes *at most* its draft count). With only A assumed and the
    others left open, as the unsat-core explanations ask, it is satisfiable if and only if
    *some* such deal with every task of A and any of the others can be won. The two
    differ, because a deal with fewer tasks is not always easier: number tokens count the
    tasks done before, so without the "1" task a "2" may be lost (strict reading: also a
    missing rank between two tokens completed together). The open reading is the one
    cores need: it is monotone (fewer assumptions, more models), so deletion minimises a
    core, and an unsatisfiable core is lost with or without the other tasks, hence in
    the deal itself: an explanation never blames a token made unreachable only by
    taking a task away.

Cost
    With ``T`` tricks left, ``N`` cards in hands, ``p`` seats, ``s`` suits and ``n``
    tasks: ``O(T·N)`` variables, and ``O(T·N·h)`` clauses (``h`` = cards per suit in a
    hand, from follow-suit) plus ``O(T·n²)`` for relative / last tokens, ``O(n²·T)`` for
    number tokens, ``O(n·p)`` for free assignment, ``O(n·p·T)`` for precedence and
    ``O(N·T)`` counter auxiliaries for counting. A Classic 4-player deal is about
    2,000 variables and 10,000 clauses.

References
----------
.. [1] A. de Jong, "An Analysis of the Cooperative Card Game The Crew", Leiden
   bachelor thesis, §4 (seed ``001``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from crewcheck.model.instance import Instance
from crewcheck.solvers.base import BudgetExceeded, Deadline, discard
from crewcheck.solvers.logic.condition_clauses import CONDITION_CLAUSES, add_condition_constraints
from crewcheck.solvers.logic.formula import Formula
from crewcheck.solvers.logic.position import Encoding, Position, Variables, add_variables, position_of
from crewcheck.solvers.logic.rule_clauses import (
    add_assignment_constraints, add_count_constraints, add_cover_constraints, add_follow_suit_constraints, add_lead_constraints,
    add_led_suit_constraints, add_order_constraints, add_play_constraints, add_precedence_constraints,
    add_symmetry_constraints, add_task_constraints, add_winner_constraints,
)

__all__ = ["ENCODERS", "ENCODED_KINDS", "MAX_VARIABLES", "variables_estimate", "size_limit", "encode"]


ENCODERS: tuple[Callable[[Formula, Variables, Position], None], ...] = (
    add_play_constraints,
    add_symmetry_constraints,
    add_lead_constraints,
    add_led_suit_constraints,
    add_follow_suit_constraints,
    add_cover_constraints,
    add_winner_constraints,
    add_task_constraints,
    add_precedence_constraints,
    add_count_constraints,
    add_assignment_constraints,
    add_order_constraints,
    add_condition_constraints,
)
"""Every constraint block, in the order they are added."""


ENCODED_KINDS: frozenset[str] = frozenset(CONDITION_CLAUSES)
"""The condition kinds the encoding has clauses for (:data:`.condition_clauses.CONDITION_CLAUSES`):
a kind added to :mod:`crewcheck.model.conditions` is refused by the logic back-ends and
the engine (and decided by the oracle) until it has its clauses there."""

MAX_VARIABLES = 2_000_000
"""The logic back-ends refuse deals whose encoding would need more variables than this."""


def variables_estimate(instance: Instance) -> int:
    """About how many variables the encoding of ``instance`` needs: (cards in hands) x
    (tricks left) x 4 (play, done, higher, win)."""
    p = instance.players
    done = len(instance.history) // p
    cards = sum(h.bit_count() for h in instance.hands) - done * p
    return 4 * cards * max(0, instance.tricks - done)


def size_limit(instance: Instance, *, branches: int = 1) -> str | None:
    """``None`` if the encoding of ``instance`` has a workable size, else why not (one line).

    The variables are about (tricks left) x (cards in hands) x 4 (play, done, higher, win),
    times ``branches`` (the crew's choices held in one formula).
    """
    estimate = variables_estimate(instance) * branches
    if estimate > MAX_VARIABLES:
        p = instance.players
        done = len(instance.history) // p
        cards = sum(h.bit_count() for h in instance.hands) - done * p
        left = max(0, instance.tricks - done)
        times = f" x {branches:,} choices" if branches > 1 else ""
        return (f"the encoding would need about {estimate:,} variables ({cards} cards x "
                f"{left} tricks{times}); the logic back-ends stop at {MAX_VARIABLES:,}")
    return None


def encode(instance: Instance, *, deadline: Deadline | None = None, direction: int | None = None,
           formula: Formula | None = None, quota_options: tuple[tuple[int, ...], ...] = ()) -> Encoding:
    """The :class:`Encoding` of "the position after ``instance.history`` can be won".

    ``deadline``: checked while the formula is built
    (:class:`~crewcheck.solvers.base.BudgetExceeded` once expired). ``direction``: a
    distress signal in that direction comes first (:func:`.position.position_of`).
    ``formula``: an empty formula to write into instead of a new :class:`Formula` (the SAT
    process passes a :class:`~crewcheck.solvers.logic.export.ClauseFormula`).
    ``quota_options``: free assignment under one of these task counts (the counts each
    seat may still take), one selector each (:attr:`.position.Position.quota_options`).
    A deal that leaves the crew other choices is encoded by
    :func:`crewcheck.solvers.logic.choices.encode_deal`.

    Examples
    --------
    >>> from crewcheck.formats.deal_json import loads
    >>> enc = encode(loads('{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}'))
    >>> enc.formula.pool.name(enc.vars.play[(0, 0, 0)]), len(enc.assumptions)
    ('play_t0_s0_c0', 1)
    """
    pos = position_of(instance, direction=direction)
    if quota_options:
        pos = replace(pos, quota_options=quota_options)
    model = Formula(deadline=deadline) if formula is None else formula
    try:
        if deadline is not None:
            deadline.check()
        v = add_variables(model, pos)
        for add in ENCODERS:
            add(model, v, pos)
            if deadline is not None:
                deadline.check()
    except BudgetExceeded:
        discard(model.constraints)  # (freeing them is not the caller's time)
        raise
    return Encoding(pos, model, v)
