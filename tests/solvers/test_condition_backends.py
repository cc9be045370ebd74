"""Every back-end that accepts conditions agrees with the exhaustive oracle on random
small deals with random conditions (before and during play, every assignment rule)."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from crewcheck import decide
from crewcheck.formats import deal_json
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.base import Verdict
from tests.sizes import few, slow_twin
from tests.strategies import condition_instances, playouts

FAST_BACKENDS = ["sat", "engine"]


@st.composite
def deals(draw: st.DrawFn) -> Instance:
    inst = draw(condition_instances(choose=True, assignments=("fixed", "free", "decision", "distribution"),
                                    max_cards=10))
    if inst.is_concrete() and draw(st.booleans()):
        plays = draw(playouts(inst, max_plays=inst.deck.size))
        if plays and not inst.with_history(plays).state().is_terminal():
            inst = inst.with_history(plays)
    elif draw(st.integers(0, 3)) == 0:
        inst = dataclasses.replace(inst, distress=draw(st.sampled_from(["left", "right", "choose"])))
    return inst


def _agree(inst: Instance, backend: str) -> None:
    note(deal_json.dumps(inst))
    expected = decide(inst, backend="exhaustive").verdict
    got = decide(inst, backend=backend).verdict  # a winning witness is replayed by decide
    assert got == expected


@pytest.mark.parametrize("backend", FAST_BACKENDS)
@few()
@given(inst=deals())
def test_fast_backends_agree_with_the_oracle(backend: str, inst: Instance) -> None:
    """SAT and the engine decide like the oracle (10 deals each by default, the profile's
    number in the slow twin)."""
    if registry.missing(backend):
        pytest.skip(registry.missing(backend) or "")
    _agree(inst, backend)


test_fast_backends_agree_with_the_oracle_on_more_deals = slow_twin(
    test_fast_backends_agree_with_the_oracle, "backend", FAST_BACKENDS, inst=deals())


@pytest.mark.parametrize("backend", ["z3", "cpsat"])
@settings(max_examples=12)
@given(inst=deals())
def test_solver_backends_agree_with_the_oracle(backend: str, inst: Instance) -> None:
    if registry.missing(backend):
        pytest.skip(registry.missing(backend) or "")
    _agree(inst, backend)


def test_every_kind_is_encoded() -> None:
    """A kind without clauses would be refused by the logic back-ends: today none is."""
    from crewcheck.model.conditions import CONDITION_KINDS
    from crewcheck.solvers.logic.encoding import ENCODED_KINDS

    assert ENCODED_KINDS == set(CONDITION_KINDS)
