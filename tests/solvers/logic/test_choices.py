"""The encoding of deals that leave the crew a choice (choose seats, the commander's
decision and distribution, the distress signal): satisfiable exactly when the oracle
says winnable, and a model decodes to a win the replay checker accepts."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st

from crewcheck.api import check_witness, decide
from crewcheck.errors import InvalidDealError
from crewcheck.formats import deal_json
from crewcheck.missions.logbook import deal_mission
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Verdict
from crewcheck.solvers.logic.choices import choices_of, decode_deal, encode_deal
from crewcheck.solvers.logic.export import to_cnf
from crewcheck.solvers.logic.formula import first_violated
from tests.strategies import condition_instances

pysat = pytest.importorskip("pysat.solvers")


def solve(instance: Instance) -> tuple[bool, object]:
    """Encode every choice, solve the CNF with Glucose, decode and replay a model."""
    enc = encode_deal(instance)
    assert enc.branches or instance.is_concrete()
    cnf = to_cnf(enc.formula, assume=enc.assumptions)
    with pysat.Solver(name="glucose42", bootstrap_with=cnf.clauses) as sat:
        if not sat.solve():
            return False, None
        model = {abs(x): x > 0 for x in sat.get_model()}

    def value(v: int) -> bool:
        return model.get(v, False)

    assert first_violated(enc.formula, value) is None
    plays, assignment, choice = decode_deal(enc, value)
    witness = check_witness(instance, instance.history + plays, assignment, "decode", choice)
    return True, witness


@st.composite
def choice_deals(draw: st.DrawFn) -> Instance:
    """A small deal with every field that leaves a choice: choose seats, decision,
    distribution, a distress signal in any direction, a token swap or move, a hand-over."""
    base = draw(condition_instances(choose=True, assignments=("fixed", "free", "decision", "distribution"),
                                    max_cards=9, max_tasks=3))
    distress = draw(st.sampled_from([None, None, "left", "right", "choose"]))
    token_move = draw(st.sampled_from([None, None, "swap", "move"]))
    handover = draw(st.booleans())
    try:
        return replace(base, distress=distress, token_move=token_move, handover=handover and bool(base.tasks))
    except InvalidDealError:
        return base


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(choice_deals())
def test_round_trip_agrees_with_the_oracle(instance: Instance) -> None:
    note(deal_json.dumps(instance))
    assume(any(concrete.state().end is None for _, concrete in choices_of(instance)))  # else nothing to encode
    expected = decide(instance, backend="exhaustive").verdict
    got, _ = solve(instance)
    assert got == (expected is Verdict.WINNABLE)


@pytest.mark.parametrize("players, number, seed, distress, assignment", [
    (3, 16, 102, "left", None),   # the distress signal the encoding used to drop
    (3, 5, 0, None, None),        # a "choose" seat
    (4, 20, 1, None, None),       # the commander's decision
    (4, 24, 1, None, None),       # the commander's distribution
])
def test_mission_deals_round_trip(players: int, number: int, seed: int, distress: str | None,
                                  assignment: str | None) -> None:
    instance = deal_json.from_dict(deal_mission(number, players, seed, assignment, distress=distress))
    assert not instance.is_concrete()
    got, witness = solve(instance)
    expected = decide(instance, timeout=60).verdict
    assert expected is not Verdict.UNKNOWN
    assert got == (expected is Verdict.WINNABLE)
