"""The reference reading of the special rules (Board Game Arena's at c57d835) and the
literal one: hand-made deals whose verdict differs between readings, games judged as the
reference judges them, and the logbook's readings."""

from __future__ import annotations

import random
from typing import Any

import pytest

from crewcheck import decide
from crewcheck.errors import InvalidInputError
from crewcheck.formats import deal_json
from crewcheck.missions.logbook import READINGS, deal_mission, mission, missions
from crewcheck.model.cards import iter_bits
from crewcheck.model.rules import trick_winner
from crewcheck.model.state import State
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
WINS_FIRST_AND_LAST = {"kind": "wins_tricks_at", "seat": 0, "tricks": [1, "last"]}


@pytest.mark.parametrize("deal, extra", [(BALANCED, []), (COMMANDER, [WINS_FIRST_AND_LAST])],
                         ids=["mission-29", "mission-34"])
def test_balanced_fails_at_a_lead_of_two(deal: dict[str, Any], extra: list[dict[str, Any]]) -> None:
    """Deals that tell a lead of 2 from a lead of 3: unwinnable under the reference's rule
    (AbstractMission.php:179 at c57d835, ``$min + 2 <= $max``: margin 2, also the rulebook's
    words), winnable under the stale line of efbd025 (``$min + 2 < $max``: margin 3)."""
    assert _verdicts({**deal, "conditions": [{"kind": "balanced_tricks", "margin": 2}, *extra]}) == {Verdict.UNWINNABLE}
    assert _verdicts({**deal, "conditions": [{"kind": "balanced_tricks", "margin": 3}, *extra]}) == {Verdict.WINNABLE}


def test_mission_46_readings_give_different_verdicts() -> None:
    """Winnable as Board Game Arena plays mission 46 with 3 players (only the pink cards
    played count), unwinnable as the rulebook's words read."""
    assert _verdicts({**PINK, "conditions": [{"kind": "wins_all_cards", "seat": 1, "suit": "P",
                                              "played_only": True}]}) == {Verdict.WINNABLE}
    assert _verdicts({**PINK, "conditions": [{"kind": "wins_all_cards", "seat": 1, "suit": "P"}]}) == {Verdict.UNWINNABLE}


def _reference_check(number: int, winners: list[int], players: int, commander: int, last: int) -> tuple[bool, int]:
    """Missions 29 and 34 as the reference judges them after each trick (AbstractMission::check,
    line 179, and Mission34::check, line 25, at c57d835): (won, the trick the game ends on)."""
    won = [0] * players
    for t, w in enumerate(winners, start=1):
        won[w] += 1
        if min(won) + 2 <= max(won):
            return False, t
        if number == 34 and w != commander and t in (1, last):
            return False, t
        if t == last:
            return True, t
    raise AssertionError("the game ended before its last trick")


@pytest.mark.parametrize("number", [29, 34])
@pytest.mark.parametrize("players", [3, 4, 5])
def test_missions_29_and_34_end_where_the_reference_ends_them(number: int, players: int) -> None:
    """Random legal games of seeded mission deals end, won or lost, on the same trick in
    crewcheck's rules engine and in a transcription of the reference's check."""
    rng = random.Random(number * 10 + players)
    for seed in range(8):
        deal = deal_mission(number, players, seed)
        inst = deal_json.from_dict({k: v for k, v in deal.items() if k != "comment"})
        for _ in range(5):
            state = State.initial(inst)
            winners: list[int] = []
            while not state.is_terminal():
                card = rng.choice(list(iter_bits(state.legal_mask())))
                trick, leader = (*state.trick, card), state.to_play if not state.trick else state.leader
                state = state.apply(card)
                if len(trick) == inst.players:
                    assert leader is not None
                    winners.append((leader + trick_winner(inst.deck, inst.trump_suit, trick)) % inst.players)
            outcome = state.outcome()
            assert outcome is not None
            last = min(h.bit_count() for h in inst.hands)
            assert (outcome.won, state.tricks_played) == _reference_check(number, winners, inst.players, inst.commander, last)


@pytest.mark.parametrize("number", [29, 34])
def test_a_line_won_at_a_lead_of_three_fails_in_the_reference(number: int) -> None:
    """Seed 62 with 4 players: the winning line found under the stale margin of 3 fails
    under the reference's check by trick 3, and the deal as dealt is unwinnable."""
    deal = {k: v for k, v in deal_mission(number, 4, 62).items() if k != "comment"}
    inst = deal_json.from_dict(deal)
    assert decide(inst).verdict is Verdict.UNWINNABLE
    stale = deal_json.from_dict({**deal, "conditions": [dict(c, margin=3) if c["kind"] == "balanced_tricks" else c
                                                        for c in deal["conditions"]]})
    r = decide(stale)
    assert r.verdict is Verdict.WINNABLE and r.witness is not None
    winners = [t.winner for t in r.witness.tricks]
    won, ended = _reference_check(number, winners, inst.players, inst.commander, len(winners))
    assert not won and ended <= 3


def test_logbook_deals_each_reading() -> None:
    """Missions 29 and 34 break at a lead of 2 in both readings; mission 46 has a literal reading."""
    for number in (29, 34):
        for reading in READINGS:
            assert deal_mission(number, 4, 1, reading=reading)["conditions"][0] == {"kind": "balanced_tricks",
                                                                                   "margin": 2}
    assert deal_mission(46, 3, 1)["conditions"][0]["played_only"] is True
    assert "played_only" not in deal_mission(46, 3, 1, reading="literal")["conditions"][0]
    assert mission(46).readings["literal"]["source"] == "rulebook"
    for m in missions():  # every other mission reads the same both ways
        if m.number != 46:
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
