"""The low-card relaxation (:mod:`crewcheck.solvers.search.low_cards`) is sound: whenever it
says a deal is lost, the exhaustive oracle agrees, on every deal of a tiny deck family
and on random tiny deals of each kind it judges; and it decides the logbook deal it is
for, which the search alone leaves open within the same budget."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import assume, given, note
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.formats import deal_json
from crewcheck.missions.logbook import deal_mission
from crewcheck.model import conditions as C
from crewcheck.model.cards import Deck
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.search.driver import SearchOptions, SearchSolver
from crewcheck.solvers.search.relaxation import relaxation_lost
from crewcheck.solvers.search.low_cards import EXACT_CARDS, low_cards
from tests.sizes import few, slow_twin
from tests.strategies import condition_instances, playouts

KINDS = sorted(EXACT_CARDS)


def _check(inst: Instance, *, compiled: bool = False) -> bool | None:
    """The relaxation's answer on ``inst``, checked against the oracle: lost only if the
    oracle loses the deal."""
    lost, _ = relaxation_lost(inst, 100_000, compiled=compiled)
    if lost:
        expected = decide(inst, backend="exhaustive").verdict
        assert expected is Verdict.UNWINNABLE, (
            f"the relaxation is lost, `exhaustive` says {expected.name} on {deal_json.dumps(inst)}")
    return lost


def _family() -> list[Instance]:
    """Every deal of two seats with four cards each from blue 1-3, green 1-3 and rockets 1-2
    (the commander leads), under each condition the relaxation judges on blue, the green
    3, the 3s or the rockets."""
    deck = Deck.from_sizes({"B": 3, "G": 3, "R": 2})
    conds: list[C.Condition] = [C.NoTrickWonWith(3), C.WinsNoCards(0, "G", 3), C.WinsNoCards(1, "B")]
    conds += [C.WinsAllCards(s, "B", played) for s in (0, 1) for played in (False, True)]
    conds += [C.EachTrumpWinsATrick(in_order) for in_order in (False, True)]
    out = []
    for cards in combinations(range(deck.size), 4):
        hand = sum(1 << c for c in cards)
        hands = (hand, ((1 << deck.size) - 1) & ~hand)
        out += [Instance(deck, hands, (), "R", "rocket", conditions=(cond,)) for cond in conds]
    return out


def test_the_relaxation_agrees_with_the_oracle_on_a_whole_family() -> None:
    """On all 70 deals x 9 conditions of :func:`_family`: a lost relaxation is a lost deal,
    and the relaxation refutes some deals and lets others be won (it is no constant)."""
    seen = {_check(inst) for inst in _family()}
    assert {True, False} <= seen


@pytest.mark.parametrize("kind", KINDS)
@few()
@given(data=st.data())
def test_the_relaxation_agrees_with_the_oracle(kind: str, data: st.DataObject) -> None:
    """On tiny random deals with a condition of ``kind`` (fixed or free assignment, the
    tasks left out by the relaxation), sometimes part-way through play: a lost relaxation
    is a lost deal."""
    inst = data.draw(condition_instances(kinds=(kind,), max_cards=10))
    assume(all(c.kind in EXACT_CARDS for c in inst.conditions) and inst.conditions)
    if data.draw(st.booleans()):
        plays = data.draw(playouts(inst, max_plays=inst.deck.size))
        if plays and not inst.with_history(plays).state().is_terminal():
            inst = inst.with_history(plays)
    note(deal_json.dumps(inst))
    _check(inst)


test_the_relaxation_agrees_with_the_oracle_on_more_deals = slow_twin(
    test_the_relaxation_agrees_with_the_oracle, "kind", KINDS)


@pytest.mark.parametrize("kind", KINDS)
@few()
@given(data=st.data())
def test_the_compiled_relaxation_agrees_with_the_oracle(kind: str, data: st.DataObject) -> None:
    """The compiled kernel's relaxation is sound too, and says what the plain twin says."""
    pytest.importorskip("numba")
    inst = data.draw(condition_instances(kinds=(kind,), max_cards=10))
    assume(all(c.kind in EXACT_CARDS for c in inst.conditions) and inst.conditions)
    note(deal_json.dumps(inst))
    assert _check(inst, compiled=True) == relaxation_lost(inst, 100_000, compiled=False)[0]


def test_low_cards_are_those_below_every_named_card() -> None:
    """No trick won with a 9 on the Classic deck: every colour card but the 9s is low, no
    rocket is; a kind the relaxation does not judge, or no condition, gives none."""
    inst = deal_json.from_dict(deal_mission(16, 3, 184))
    deck = inst.deck
    want = sum(1 << c for c in range(deck.size) if deck.card(c).suit != "R" and deck.card(c).value != 9)
    assert low_cards(inst) == want
    assert low_cards(Instance(deck, inst.hands, (), "R", "rocket")) == 0
    assert low_cards(Instance(deck, inst.hands, (), "R", "rocket", conditions=(C.WinsNoTricks(0),))) == 0


def test_the_relaxation_decides_the_nines_of_mission_16() -> None:
    """Logbook mission 16, three players, seed 184 (no trick may be won with a 9): seat 1
    holds three 9s and cannot shed them all. Within 5,000 nodes the search alone leaves it
    open; with the relaxation's first turn after its first 2,000 nodes it is refuted (the
    low-card positions are the relaxation's). The plain twin's relaxation refutes it too."""
    pytest.importorskip("numba")
    inst = deal_json.from_dict(deal_mission(16, 3, 184))
    budget = Budget(nodes=5_000)
    alone = SearchSolver(SearchOptions(warm_start=False, low_card_nodes=0, broaden_after=2_000))
    assert alone.decide(inst, budget=budget).verdict is Verdict.UNKNOWN
    answer = SearchSolver(SearchOptions(warm_start=False, broaden_after=2_000)).decide(inst, budget=budget)
    assert answer.verdict is Verdict.UNWINNABLE
    assert 0 < answer.extra["low_card_positions"] <= 5_000
    assert "low-card relaxation" in (answer.explanation or "")
    assert relaxation_lost(inst, 20_000, compiled=False)[0] is True
