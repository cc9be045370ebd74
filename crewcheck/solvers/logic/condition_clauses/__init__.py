"""The special-rule conditions as clauses: one function per condition kind, found by kind
in :data:`CONDITION_CLAUSES` (the kinds listed there are the ones the logic back-ends and
the engine accept).

Each condition is encoded over the tricks left, from its memo after the history
(:mod:`crewcheck.model.conditions`). Every trick is played, as for the tasks: a
condition that holds early holds whatever follows (the engine's HOLDS is sound), and
one that breaks early is false at the end, so judging the full game is exact. The
functions are grouped by what the kind judges, as the kinds are: :mod:`.tricks`,
:mod:`.cards`, :mod:`.winning_card`, :mod:`.leads`; :mod:`.base` holds what they share.

Auxiliary variables are named ``cond{j}_t{t}`` ("trick ``t`` is the trick condition ``j``
asks for"), ``balance{j}_t{t}_s{s}_ge{k}`` (a unary count of a seat's tricks) and
``cond{j}_{what}_{a}_{b}`` (:func:`.base.aux`):

``won``
    ``won_c_0``: the seat wins card ``c`` (played in a trick it wins; one per card, so
    a count of cards won is over the cards, not over tricks and cards);
``trick``
    ``trick_t_0``: trick ``t`` is the trick a ``wins_trick_where`` asks for;
``beside``
    ``beside_t_c``: ``c`` is in trick ``t`` and does not win it;
``value``
    ``value_{t}_{s*64+k}``: seat ``s``'s card in trick ``t`` is worth ``k`` or more (the
    trick's total is the number of these that are true: a cardinality constraint);
``run``
    ``run_s_0``: the run of tricks starts at trick ``s``;
``suit``
    ``suit_u_0``: the seat wins every card of suit ``u``.

Cost: ``O(T·n)`` variables and clauses per condition for ``n`` named cards and ``T``
tricks left, ``O(T·p·v)`` for a total (``v`` the highest value); runs ``O(T·count)``;
``balanced_tricks`` ``O(T·p²)`` with margin 2 (rounds), ``O(T²·p²)`` otherwise (a counter).
"""

from __future__ import annotations

from dataclasses import dataclass

from crewcheck.model.cards import Deck
from crewcheck.model.conditions import HOLDS
from crewcheck.model.instance import Instance
from crewcheck.solvers.logic.condition_clauses import cards, leads, tricks, winning_card
from crewcheck.solvers.logic.condition_clauses.base import ConditionClauses, false
from crewcheck.solvers.logic.formula import Formula
from crewcheck.solvers.logic.position import Position, Variables

__all__ = ["ConditionClauses", "CONDITION_CLAUSES", "add_condition_constraints"]


def add_condition_constraints(model: Formula, v: Variables, pos: Position) -> None:
    """Each condition of the deal that does not already hold, by its kind's clauses (all of
    them before a distress signal's passes: the condition is judged on the deal's own
    hands, whose trick count passes by a seat holding only trumps change)."""
    inst = pos.instance
    shorter = _Shorter(inst, pos.end) if pos.passing is not None and pos.end < inst.tricks else None
    for j, (cond, memo) in enumerate(zip(inst.conditions, pos.memos)):
        if pos.passing is None and cond.judge(inst, memo, pos.cards, len(pos.tricks)) is HOLDS:
            continue
        if shorter is not None and cond.problems(shorter):
            false(model, j)  # it names a trick (or a count) the shorter game does not have
            continue
        CONDITION_CLAUSES[cond.kind](model, v, pos, cond, memo, j)


@dataclass(frozen=True)
class _Shorter:
    """The deal as its conditions read it when passes by seats holding only trumps left
    ``tricks`` tricks: a concrete deal of that length whose condition names a trick or a
    count beyond them is no deal (:func:`crewcheck.model.variants.variants` skips it), so
    the condition is false under the passes."""

    inst: Instance
    tricks: int

    @property
    def deck(self) -> Deck:
        return self.inst.deck

    @property
    def players(self) -> int:
        return self.inst.players

    @property
    def trump(self) -> str | None:
        return self.inst.trump

    @property
    def trump_suit(self) -> int | None:
        return self.inst.trump_suit

    @property
    def holder(self) -> tuple[int, ...]:
        return self.inst.holder


CONDITION_CLAUSES: dict[str, ConditionClauses] = {
    **tricks.CLAUSES, **cards.CLAUSES, **winning_card.CLAUSES, **leads.CLAUSES}
"""The clauses of each condition kind (:data:`crewcheck.model.conditions.CONDITION_KINDS`
names): the tables of the modules, each of which encodes the kinds of the model's module of
the same name; a kind missing here is refused by the logic back-ends and the engine."""
