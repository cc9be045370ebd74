"""Deals apart only in their conditions decided in one formula
(:mod:`crewcheck.solvers.logic.condition_choices`): the game once, each distinct condition
under a gate, a selector per deal. The answer is "some deal of the group can be won", as
the oracle says deal by deal, and a win's line replays against the deal it names; the
agreement rests on the gates: with every condition on at once, a winnable group is refuted.
A Deep Sea mission decided with the formula answers as its takings decided one by one."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.api import check_witness, decide_together
from crewcheck.experiments.deepsea_missions import decide_mission
from crewcheck.formats import deal_json
from crewcheck.missions.deepsea import draw_mission, mission_deal, takings
from crewcheck.model import conditions as C
from crewcheck.model.conditions import DEEP_SEA, kinds_of
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.choosing import decide_choices
from crewcheck.solvers.logic import condition_choices
from crewcheck.solvers.logic.condition_choices import condition_groups, decide_conditions
from crewcheck.solvers.logic.export import CNF, ClauseFormula, to_cnf
from tests.sizes import few, slow_twin
from tests.strategies import conditions_for, instances

KINDS = tuple(sorted(set(kinds_of(DEEP_SEA))))


def _sat_or_skip() -> None:
    if registry.missing("sat"):
        pytest.skip(registry.missing("sat") or "")


@st.composite
def groups(draw: st.DrawFn) -> list[Instance]:
    """Two to four small deals apart only in their conditions (the logbook's kinds or
    Deep Sea's, one or two each)."""
    base = draw(instances(max_cards=9, max_tasks=2, history=False, free=False, max_players=4))
    kinds = draw(st.sampled_from([None, KINDS]))
    out = []
    for _ in range(draw(st.integers(2, 4))):
        conds = draw(conditions_for(base, kinds=kinds))
        out.append(replace(base, conditions=tuple(c for c in conds if not c.problems(base))))
    return out


def _oracle(inst: Instance) -> bool:
    return decide(inst, backend="exhaustive").verdict is Verdict.WINNABLE


@few(40)
@given(deals=groups())
def test_the_formula_answers_as_the_deals_one_by_one(deals: list[Instance]) -> None:
    _sat_or_skip()
    for d in deals:
        note(deal_json.dumps(d))
    expected = [_oracle(d) for d in deals]
    won, index, line, _ = decide_conditions(deals, Budget(60))
    assert won is not None
    assert won == any(expected), f"the formula says {won}, deal by deal {expected}"
    if won:
        assert index is not None and line is not None and expected[index]
        plays, seats = line
        assert check_witness(deals[index], plays, seats, "sat").plays == plays


test_the_formula_answers_as_the_deals_one_by_one_on_more_groups = slow_twin(
    test_the_formula_answers_as_the_deals_one_by_one, deals=groups())


_HANDS = [["B1", "B2"], ["B3", "B8"], ["B4", "B9"]]
"""Seat 0 holds the two lowest cards: it wins no trick, whatever is played."""


def _pair() -> list[Instance]:
    """Two deals apart only in their conditions: seat 0 wins no trick (winnable) and seat
    0 wins both tricks (unwinnable)."""
    deal = {"hands": _HANDS, "lead": 0}
    return [deal_json.from_dict({**deal, "conditions": [{"kind": "wins_no_tricks", "seat": 0}]}),
            deal_json.from_dict({**deal, "conditions": [{"kind": "wins_tricks", "seat": 0, "count": 2}]})]


def test_without_the_gates_a_winnable_group_is_refuted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The two deals' conditions contradict each other, so only the gates let one hold
    without the other: the formula wins the first deal; with each condition's clauses
    added ungated it refutes the group, which the oracle wins."""
    _sat_or_skip()
    deals = _pair()
    assert [_oracle(d) for d in deals] == [True, False]
    won, index, _, _ = decide_conditions(deals, Budget(60))
    assert won is True and index == 0

    def ungated(model, v, pos, cond, memo, j, gate):  # type: ignore[no-untyped-def]
        condition_choices.CONDITION_CLAUSES[cond.kind](model, v, pos, cond, memo, j)

    monkeypatch.setattr(condition_choices, "_add_gated", ungated)
    assert decide_conditions(deals, Budget(60))[0] is False


def test_groups_hold_deals_apart_only_in_their_conditions(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deals apart in anything else (the lead, a history, a distress signal) are not
    grouped; fewer than :data:`MIN_GROUP` deals are no group; ``None`` is skipped."""
    a, b = _pair()
    assert condition_groups([a, b] * 3) == []
    monkeypatch.setattr(condition_choices, "MIN_GROUP", 2)
    other_lead = replace(b, lead=1)
    low = (b.hands[0] & -b.hands[0]).bit_length() - 1
    played = b.with_history((low,))
    signal = replace(b, distress="left")
    assert condition_groups([a, None, b, other_lead, played, signal]) == [[0, 2]]
    assert condition_groups([a, other_lead]) == []


def test_the_shared_decider_returns_the_win_replayed(monkeypatch: pytest.MonkeyPatch) -> None:
    """:func:`crewcheck.api.decide_together` on the pair (groups of two allowed): the
    winnable deal's result, its line replayed (the first group won ends the call); on the
    unwinnable deal twice over: both refuted."""
    _sat_or_skip()
    monkeypatch.setattr(condition_choices, "MIN_GROUP", 2)
    deals = _pair()
    said = decide_together(deals, Budget(60))
    assert list(said) == [0]
    r = said[0]
    assert not isinstance(r, bool) and r.verdict is Verdict.WINNABLE and r.witness is not None
    lost = replace(deals[1], conditions=(C.WinsTricks(0, 2, ">="),))
    assert decide_together([deals[1], lost], Budget(60)) == {0: False, 1: False}


@pytest.mark.parametrize("difficulty, players, seed", [(5, 3, 4), (6, 4, 1), (8, 5, 0), (10, 3, 2)])
def test_a_deep_sea_mission_answers_as_its_takings_one_by_one(difficulty: int, players: int, seed: int) -> None:
    """:func:`decide_mission` (quick rounds, the takings' formula, the engine) against
    every taking decided by the engine in turn; a win's taking is won by the engine."""
    _sat_or_skip()
    mission = draw_mission(difficulty, players, seed)
    got = decide_mission(mission)
    deals = []
    for owners in takings(mission):
        deal = mission_deal(mission, owners)
        deals.append(deal_json.from_dict({k: v for k, v in deal.items() if k != "comment"}))
    one_by_one = decide_choices(deals, lambda i, b, budget: decide(i, backend=b, budget=budget), "engine",
                                Budget(), quick=())
    assert got.verdict is one_by_one.verdict
    if got.winning is not None:
        deal = mission_deal(mission, got.winning)
        won = decide(deal_json.from_dict({k: v for k, v in deal.items() if k != "comment"}), backend="engine")
        assert won.verdict is Verdict.WINNABLE


def _both_cnfs(deals: list[Instance]) -> tuple[CNF, CNF, bool]:
    """The group's CNF from its recorded formula (:func:`to_cnf`) and as the decider writes
    it (a :class:`ClauseFormula`), and whether the selectors are the same variables."""
    kept = condition_choices.encode_conditions(deals)
    written = ClauseFormula()
    direct = condition_choices.encode_conditions(deals, formula=written)
    return (to_cnf(kept.encoding.formula, assume=kept.encoding.assumptions),
            written.cnf(assume=direct.encoding.assumptions), kept.selectors == direct.selectors)


@few(40)
@given(deals=groups())
def test_the_decider_writes_the_recorded_formula_clause_for_clause(deals: list[Instance]) -> None:
    """Every gated condition written straight as clauses, the cardinalities expanded at
    the end: the same clauses, in the same order, with the same variable ids."""
    note(deal_json.dumps(deals[0]))
    recorded, written, same_selectors = _both_cnfs(deals)
    assert written.clauses == recorded.clauses and written.nv == recorded.nv and same_selectors


@pytest.mark.parametrize("difficulty, players, seed", [(8, 5, 0), (16, 3, 15)])
def test_a_deep_sea_group_is_written_clause_for_clause(difficulty: int, players: int, seed: int) -> None:
    """The same on two Deep Sea missions of the study (6 and 90 takings, counts of cards
    won and totals of a trick among their cards)."""
    mission = draw_mission(difficulty, players, seed)
    deals = [deal_json.from_dict({k: v for k, v in mission_deal(mission, owners).items() if k != "comment"})
             for owners in takings(mission)]
    recorded, written, same_selectors = _both_cnfs(deals)
    assert written.clauses == recorded.clauses and written.nv == recorded.nv and same_selectors
    assert len(recorded.clauses) > 5_000 and written.nv > written.formula_vars  # auxiliaries numbered after
