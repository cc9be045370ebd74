"""The exhaustive oracle on hand-checked deals, and its free-assignment definition."""

from __future__ import annotations

import pytest
from hypothesis import example, given, note

from crewcheck import decide
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model import State
from crewcheck.model.cards import iter_bits
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.exhaustive import ExhaustiveSolver, assignments
from tests.solvers.hand_checked import HAND_CHECKED
from tests.strategies import instances


@pytest.mark.parametrize(("notation", "verdict"), HAND_CHECKED)
def test_oracle_on_hand_checked_deals(notation, verdict):
    """Verdicts worked out by hand; winning witnesses pass the replay checker (in decide)."""
    result = decide(parse_deal(notation), backend="exhaustive")
    assert result.verdict is verdict
    assert (result.witness is not None) == (verdict is Verdict.WINNABLE)


def test_oracle_answers_unknown_when_out_of_budget():
    deal = parse_deal("B1 B2 B3 B4 B5 | G1 G2 G3 G4 G5 | P1 P2 P3 P4 P5 ; trump - ; lead 0 ; tasks G5@0 ; strict/fixed")
    assert decide(deal, backend="exhaustive", budget=Budget(nodes=1)).verdict is Verdict.UNKNOWN


def test_oracle_refuses_large_deals_with_a_reason():
    from crewcheck.formats.deal_json import load
    from pathlib import Path

    deal = load(Path(__file__).resolve().parents[2] / "models" / "deals" / "classic-3p-14-13-13.json")
    assert "at most 20 cards" in ExhaustiveSolver().supports(deal)


def test_assignments_follow_the_draft_counts():
    deal = parse_deal("B1 B2 | G1 G2 | P1 P2 ; trump - ; lead 1 ; tasks B1@? B2@? G1@? G2@? ; strict/free")
    assert deal.task_counts == (1, 2, 1)
    seats = list(assignments(deal))
    assert len(seats) == 12 and len(set(seats)) == 12
    assert all(sorted(s) == [0, 1, 1, 2] for s in seats)


def _lazy_win(state: State, seen: set) -> bool:
    if state.end is not None:
        return state.end.won
    if state.key() in seen:
        return False
    for c in iter_bits(state.legal_mask()):
        if _lazy_win(state.apply(c), seen):
            return True
    seen.add(state.key())
    return False


@example(parse_deal("B1 B2 | R1 R2 ; trump R ; lead rocket ; tasks B1@? B2@? ; strict/free ; played R1 B1 R2"))
@given(instances(free=True, max_cards=9))
def test_lazy_free_assignment_matches_enumerated_assignments(inst):
    """The rules engine's lazy assignment (a task goes to the seat that wins it while its
    quota lasts) decides free deals exactly as trying every assignment does."""
    note(to_notation(inst))
    oracle = decide(inst, backend="exhaustive").verdict is Verdict.WINNABLE
    state = inst.state()
    assert _lazy_win(state, set()) == oracle


@given(instances())
def test_oracle_witnesses_always_pass_the_checker(inst):
    """On random deals with every rule feature, a winning answer's witness replays to a
    win (decide raises BackendError otherwise) and starts with the deal's history."""
    note(to_notation(inst))
    result = decide(inst, backend="exhaustive")
    if result.verdict is Verdict.WINNABLE:
        assert result.witness is not None
        assert result.witness.plays[: len(inst.history)] == inst.history
