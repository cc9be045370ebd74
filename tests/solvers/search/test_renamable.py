"""The relative-rank key with conditions (:func:`crewcheck.solvers.search.conditions.renamable`):
which conditions allow it, that the search keyed by it agrees with the oracle, and that a
condition about card values would make it wrong (the check can fail)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.formats import deal_json
from crewcheck.formats.deal_json import from_dict
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.search import conditions as SC
from crewcheck.solvers.search.conditions import table as T
from crewcheck.solvers.search.driver import SearchOptions, SearchSolver
from tests.sizes import few
from tests.strategies import condition_instances, conditions_for, instances

RENAMABLE = ("wins_no_tricks", "wins_tricks", "wins_fewer_tricks_than", "wins_tricks_at", "balanced_tricks",
             "wins_consecutive_tricks", "wins_no_tricks_at", "wins_as_many_tricks_as", "wins_more_than_the_rest",
             "wins_all_cards_of_a_suit", "leads_no_cards")
"""Kinds that see the cards only through suits and trick winners, whatever their fields."""
BY_TARGET = ("wins_no_cards", "wins_all_cards", "wins_cards", "compares_cards_won")
"""Kinds renamable when the cards they name are whole suits."""

FEW = few()


def _deal(conditions: list[dict[str, object]]) -> Instance:
    return from_dict({"schema": "crewcheck-deal/1", "hands": [["B1", "B3", "G2"], ["B2", "G1", "G3"]],
                      "trump": None, "lead": 0, "tasks": [], "conditions": conditions})


def test_the_kinds_split_as_the_table_says() -> None:
    """Every kind is renamable, renamable by its target, or never; nothing else."""
    for kind, row in SC.SEARCH_KINDS.items():
        if kind not in RENAMABLE and kind not in BY_TARGET:
            assert row.renamable is T.SearchKind.renamable, kind


@pytest.mark.parametrize(("condition", "expected"), [
    ({"kind": "wins_no_tricks", "seat": 1}, True),
    ({"kind": "wins_all_cards", "seat": 0, "suit": "B"}, True),
    ({"kind": "wins_no_cards", "seat": 0, "suit": "B"}, True),
    ({"kind": "wins_no_cards", "seat": 0, "suit": "B", "value": 1}, False),
    ({"kind": "no_trick_won_with", "value": 2}, False),
    ({"kind": "task_in_trick", "card": "G2", "trick": 1}, False),
])
def test_renamable_reads_each_condition(condition: dict[str, object], expected: bool) -> None:
    inst = _deal([condition])
    assert SC.renamable(inst) is expected
    answer = SearchSolver(SearchOptions(pure=True)).decide(inst, budget=Budget())
    assert answer.extra["canonical"] is expected


def test_memos_beyond_the_free_word_keep_the_exact_key() -> None:
    """Memos of more bits than the room left in the relative key's third word do not fit."""
    many = [{"kind": "wins_tricks", "seat": 0, "count": 1, "cmp": ">="}] * 64
    assert not SC.renamable(_deal(many))
    assert SC.renamable(_deal(many[:1]))
    one_bit = [{"kind": "wins_no_tricks", "seat": 0}] * 3
    assert SC.renamable(_deal(one_bit), room=3) and not SC.renamable(_deal(one_bit), room=2)


@pytest.mark.parametrize("kind", RENAMABLE + BY_TARGET)
@FEW
@given(data=st.data())
def test_the_relative_key_with_conditions_agrees_with_the_oracle(kind: str, data: st.DataObject) -> None:
    """Tiny deals with conditions of one kind: where they are renamable the search keys
    its table by relative ranks, and its verdict is the oracle's."""
    inst = data.draw(condition_instances(kinds=(kind,), max_cards=12))
    if not inst.is_concrete():
        return
    note(deal_json.dumps(inst))
    answer = SearchSolver(SearchOptions(pure=True)).decide(inst, budget=Budget())
    assert answer.extra.get("canonical") in (None, SC.renamable(inst))  # None: decided before the kernel
    assert answer.verdict is decide(inst, backend="exhaustive").verdict


@st.composite
def five_seat_deals(draw: st.DrawFn) -> Instance:
    """A tiny 5-seat deal (the relative key's 4-bit layout), with renamable conditions or none."""
    base = draw(instances(min_players=5, max_players=5, max_cards=15, max_tasks=3, history=False))
    if draw(st.booleans()):
        return base
    conds = draw(conditions_for(base, kinds=RENAMABLE))
    return Instance(base.deck, base.hands, base.tasks, base.trump, base.lead, base.rules, conditions=conds)


@FEW
@given(inst=five_seat_deals())
def test_the_relative_key_on_five_seats_agrees_with_the_oracle(inst: Instance) -> None:
    """Five seats key by relative ranks too (4 bits a card), with renamable conditions
    or none, in both kernels; the verdict is the oracle's."""
    if not inst.is_concrete():
        return
    note(deal_json.dumps(inst))
    expected = decide(inst, backend="exhaustive").verdict
    pytest.importorskip("numba")
    for opts in (SearchOptions(pure=True), SearchOptions(warm_start=False)):
        answer = SearchSolver(opts).decide(inst, budget=Budget())
        assert answer.extra.get("canonical") in (None, True)
        assert answer.verdict is expected


PINNED = ('{"schema": "crewcheck-deal/1", "hands": [["B2", "B3", "G1", "G2", "P1"], ["B1", "G3", "P2", "P3"]], '
          '"trump": null, "lead": 1, "tasks": [], "conditions": [{"kind": "no_trick_won_with", "value": 2}, '
          '{"kind": "no_trick_won_with", "value": 2}]}')
"""A deal where renaming cards within a suit changes which of them is a 2."""


def test_a_value_condition_under_the_relative_key_is_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """``no_trick_won_with`` names cards by value: marked renamable, the search keyed by
    relative ranks refutes a winnable deal; as the table has it, the search wins it."""
    inst = deal_json.loads(PINNED)
    assert decide(inst, backend="exhaustive").verdict is Verdict.WINNABLE
    solver = SearchSolver(SearchOptions(pure=True))
    assert solver.decide(inst, budget=Budget()).verdict is Verdict.WINNABLE
    row = T.SEARCH_KINDS["no_trick_won_with"]
    monkeypatch.setitem(T.SEARCH_KINDS, "no_trick_won_with", dataclasses.replace(row, renamable=lambda c, i: True))
    assert solver.decide(inst, budget=Budget()).verdict is Verdict.UNWINNABLE


def test_memos_sit_above_the_cards_of_a_five_seat_key() -> None:
    """Five seats, 40 cards in play: the key's third word holds cards 30-39 in its low 40
    bits, and the memos go above them (a memo's change moves no card's bits)."""
    from crewcheck.missions.logbook import deal_mission
    from crewcheck.model.variants import variants
    from crewcheck.solvers.search.kernel import position_key
    from crewcheck.solvers.search.problem import Problem
    from crewcheck.solvers.search.table import KEY_WORDS

    inst = next(v for _, v in variants(from_dict(deal_mission(5, 5, 0))) if v.is_concrete())
    problem = Problem.build(inst, inst.state(), compiled=False, canonical=True)
    d = problem.deal
    assert d.canon == 1 and d.cond.n == 1 and d.cond.shift[0] == 40
    keys = []
    for memo in (0, 1):
        key = [0] * KEY_WORDS
        position_key(list(problem.hands), d.players, 0, [0] * d.players, d.free, d.canon, d.holder, d.suit_mask,
                     d.card_task, d.covers, key)
        cards = list(key)
        SC.cond_key(d.cond, [memo, 0], key)
        assert key[2] & ((1 << 40) - 1) == cards[2] & ((1 << 40) - 1) and cards[2] >> 40 == 0
        keys.append(key)
    assert keys[1][2] - keys[0][2] == 1 << 40
