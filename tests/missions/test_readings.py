"""The reference reading of the special rules (Board Game Arena's) and the literal one:
hand-made deals whose verdict differs between the two, and the logbook's readings."""

from __future__ import annotations

from typing import Any

import pytest

from crewcheck import decide
from crewcheck.errors import InvalidInputError
from crewcheck.formats import deal_json
from crewcheck.missions.logbook import READINGS, deal_mission, mission, missions
from crewcheck.solvers import registry
from crewcheck.solvers.base import Verdict

BACKENDS = [b for b in ("exhaustive", "sat", "engine") if registry.missing(b) is None]


def _verdicts(deal: dict[str, Any]) -> set[Verdict]:
    inst = deal_json.from_dict(deal)
    return {decide(inst, backend=b).verdict for b in BACKENDS}


# Four tricks, three seats: the lead changes hands so that some seat is 2 tricks ahead
# at some point of every game, but never 3 (found by the oracle, checked by every back-end).
BALANCED = {"hands": [["B5", "P1", "P2", "R2"], ["B3", "P4", "P5", "R1"], ["B1", "B2", "B4", "P3"]],
            "trump": "R", "lead": 0}
# Three tricks: the commander (seat 0 here) wins the first and the last, so it ends 2 up.
COMMANDER = {"hands": [["P1", "P4", "R1"], ["B2", "P2", "P3"], ["B1", "B3", "B4"]], "trump": "R", "lead": 0}
# Seat 0 holds three cards, the others two: two tricks, one card never played. Seat 1 can
# take only one trick with pink in it (with its R1), so one pink card of seat 0 must be
# the card never played: fine for BGA, a failure for the literal reading.
PINK = {"hands": [["B3", "P2", "P4"], ["B4", "R1"], ["B2", "P1"]], "trump": "R", "lead": 0}


@pytest.mark.parametrize("deal, reference, literal", [
    (BALANCED, [{"kind": "balanced_tricks", "margin": 3}], [{"kind": "balanced_tricks", "margin": 2}]),
    (COMMANDER, [{"kind": "balanced_tricks", "margin": 3}, {"kind": "wins_tricks_at", "seat": 0, "tricks": [1, "last"]}],
     [{"kind": "balanced_tricks", "margin": 2}, {"kind": "wins_tricks_at", "seat": 0, "tricks": [1, "last"]}]),
    (PINK, [{"kind": "wins_all_cards", "seat": 1, "suit": "P", "played_only": True}],
     [{"kind": "wins_all_cards", "seat": 1, "suit": "P"}]),
], ids=["mission-29", "mission-34", "mission-46-three-players"])
def test_the_readings_give_different_verdicts(deal: dict[str, Any], reference: list[dict[str, Any]],
                                              literal: list[dict[str, Any]]) -> None:
    """Winnable as Board Game Arena plays the rule, unwinnable as the rulebook's words read."""
    assert _verdicts({**deal, "conditions": reference}) == {Verdict.WINNABLE}
    assert _verdicts({**deal, "conditions": literal}) == {Verdict.UNWINNABLE}


def test_logbook_deals_each_reading() -> None:
    """Missions 29, 34 and 46 have a literal reading; the reference one is the default."""
    for number, ref, lit in [(29, {"kind": "balanced_tricks", "margin": 3}, {"kind": "balanced_tricks", "margin": 2}),
                             (34, {"kind": "balanced_tricks", "margin": 3}, {"kind": "balanced_tricks", "margin": 2})]:
        assert deal_mission(number, 4, 1)["conditions"][0] == ref
        assert deal_mission(number, 4, 1, reading="literal")["conditions"][0] == lit
        assert mission(number).readings["literal"]["source"] == "rulebook"
    assert deal_mission(46, 3, 1)["conditions"][0]["played_only"] is True
    assert "played_only" not in deal_mission(46, 3, 1, reading="literal")["conditions"][0]
    for m in missions():  # every other mission reads the same both ways
        if m.number not in (29, 34, 46):
            assert m.conditions_for("literal") == m.conditions
    with pytest.raises(InvalidInputError, match="reading"):
        deal_mission(29, 4, 1, reading="bga")
    assert READINGS == ("reference", "literal")


def test_mission_five_with_three_players_as_bga() -> None:
    """BGA's pick of the sick crew member leaves out the commander with any number of
    players (AbstractMission::getTargetablePlayers): so does the model's 'choose'."""
    inst = deal_json.from_dict(deal_mission(5, 3, 0))
    from crewcheck.model.variants import variants

    chosen = {dict(choice.seats)["choose"] for choice, _ in variants(inst)}
    assert chosen == {0, 1, 2} - {inst.commander}
