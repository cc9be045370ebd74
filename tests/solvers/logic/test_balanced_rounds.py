"""Missions 29 and 34's rule, nobody 2 tricks ahead (``balanced_tricks`` with margin 2), is
written as rounds of distinct winners (``condition_clauses.tricks._balanced_rounds``): the
seats behind win the next tricks one each, then every ``p`` tricks go to ``p`` different
seats. The SAT back-end with these clauses decides like the exhaustive oracle on small
deals, as dealt, during play (where the counts are not level and the first round is short)
and with the distress signal; and the agreement rests on the rounds: without them the
formula "wins" a deal the rule loses."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.errors import BackendError
from crewcheck.formats import deal_json
from crewcheck.model import conditions as C
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.base import Verdict
from crewcheck.solvers.logic.condition_clauses import tricks
from tests.sizes import few, slow_twin
from tests.strategies import condition_instances, playouts


@st.composite
def balanced_deals(draw: st.DrawFn) -> Instance:
    """A small deal whose one condition is ``balanced_tricks`` with margin 2 (and maybe
    its tasks), during play or with the distress signal now and then."""
    base = draw(condition_instances(assignments=("fixed", "free"), max_cards=10, kinds=("balanced_tricks",)))
    inst = dataclasses.replace(base, conditions=(C.BalancedTricks(2),))
    if draw(st.booleans()):
        plays = draw(playouts(inst, max_plays=inst.deck.size))
        if plays and not inst.with_history(plays).state().is_terminal():
            inst = inst.with_history(plays)
    elif inst.rules.assignment == "fixed" and draw(st.integers(0, 2)) == 0:
        inst = dataclasses.replace(inst, distress=draw(st.sampled_from(["left", "right", "choose"])))
    return inst


def _agree(inst: Instance) -> None:
    note(deal_json.dumps(inst))
    assert decide(inst, backend="sat").verdict == decide(inst, backend="exhaustive").verdict


@few(40)
@given(inst=balanced_deals())
def test_sat_with_rounds_agrees_with_the_oracle(inst: Instance) -> None:
    if registry.missing("sat"):
        pytest.skip(registry.missing("sat") or "")
    _agree(inst)


test_sat_with_rounds_agrees_with_the_oracle_on_more_deals = slow_twin(
    test_sat_with_rounds_agrees_with_the_oracle, inst=balanced_deals())


def test_without_the_rounds_a_lost_deal_is_won(monkeypatch: pytest.MonkeyPatch) -> None:
    """Three seats, one suit: seat 0 holds the three top cards and must lead, so it wins the
    first two tricks, 2 ahead of the others: lost under the rule. With the rounds' clauses
    taken out the formula finds a "win", which the replay refuses, so the agreement above
    rests on them."""
    if registry.missing("sat"):
        pytest.skip(registry.missing("sat") or "")
    inst = deal_json.from_dict({"hands": [["B7", "B8", "B9"], ["B1", "B2", "B3"], ["B4", "B5", "B6"]],
                                "lead": 0, "conditions": [{"kind": "balanced_tricks", "margin": 2}]})
    assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE
    assert decide(inst, backend="sat").verdict is Verdict.UNWINNABLE
    monkeypatch.setattr(tricks, "_balanced_rounds", lambda *args: None)
    with pytest.raises(BackendError, match="does not win"):
        decide(inst, backend="sat")
