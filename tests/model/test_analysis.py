"""Cheap refutations are sound: whenever one fires, the oracle agrees the deal is lost."""

from __future__ import annotations

from hypothesis import given, note

from crewcheck import decide, load
from crewcheck.formats.notation import to_notation
from crewcheck.model.analysis import possible_winners, refutation
from crewcheck.solvers.base import Verdict
from tests.strategies import instances


@given(instances(max_players=4, max_cards=12, max_tasks=4))
def test_refutations_are_sound(inst):
    """If refutation() gives a reason, the exhaustive oracle says unwinnable."""
    note(to_notation(inst))
    state = inst.state()
    if refutation(state) is not None:
        assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE


@given(instances(max_players=4, max_cards=12, max_tasks=4))
def test_every_trick_winner_of_a_winning_line_was_possible(inst):
    """Each seat that wins a trick in the oracle's witness was in possible_winners at the
    start (a direct check of the over-approximation)."""
    result = decide(inst, backend="exhaustive")
    if result.witness is None:
        return
    reach = possible_winners(inst.state())
    for trick in result.witness.tricks[result.witness.history_tricks:]:
        assert reach >> trick.winner & 1


def test_commander_who_wins_everything_is_refuted_at_once():
    from pathlib import Path

    deal = load(Path(__file__).resolve().parents[2] / "models" / "deals" / "unwinnable-commander-wins-all.json")
    assert "can never win a trick" in refutation(deal.state())
