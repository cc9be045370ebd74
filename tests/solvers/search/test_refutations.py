"""Cheap refutations are sound: whenever one fires, the oracle agrees the deal is lost."""

from __future__ import annotations

from dataclasses import replace

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from crewcheck import decide, load
from crewcheck.errors import InvalidDealError
from crewcheck.formats import deal_json
from crewcheck.formats.notation import to_notation
from crewcheck.model.conditions import BalancedTricks
from crewcheck.model.instance import Instance
from crewcheck.solvers.search.refutations import possible_winners, refutation, signal_refutation
from crewcheck.solvers.base import Verdict
from tests.strategies import (
    condition_instances, covered_instances, instances, playouts, trump_pad_instances,
)


@given(instances(max_players=4, max_cards=12, max_tasks=4))
def test_refutations_are_sound(inst):
    """If refutation() gives a reason, the exhaustive oracle says unwinnable."""
    note(to_notation(inst))
    state = inst.state()
    if refutation(state) is not None:
        assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE


@given(covered_instances(max_tasks=4))
def test_refutations_are_sound_with_covered_cards(inst):
    """The same on deals with covered cards (JARVIS's columns), tokens among them: the
    stack order against the tokens included."""
    note(to_notation(inst))
    if refutation(inst.state()) is not None:
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

    deal = load(Path(__file__).resolve().parents[3] / "models" / "deals" / "unwinnable-commander-wins-all.json")
    assert "can never win a trick" in refutation(deal.state())


@given(trump_pad_instances())
def test_trump_sharing_refutation_is_sound(inst):
    """The trump-sharing refutation (free assignment, every card that is no task a trump)
    fires only on deals the exhaustive oracle loses."""
    note(to_notation(inst))
    why = refutation(inst.state())
    if why is not None:
        assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE, why


def test_trump_sharing_refutes_a_three_player_deal():
    """3 players, every colour card a task, quotas 3/2/2, three tricks: seat 0 keeps its one
    card that is no task, R3; seat 2 holds one task, so it plays R1 and R2, in different
    tricks, and wins both: four tasks for a seat with room for two."""
    from crewcheck.formats.notation import parse_deal

    deal = parse_deal("B1 B2 G1 R3 | B3 G2 G3 | B4 R1 R2 ; trump R ; lead 0 ; "
                      "tasks B1@? B2@? G1@? B3@? G2@? G3@? B4@? ; strict/free")
    why = refutation(deal.state())
    assert why is not None and "trump" in why
    assert decide(deal, backend="exhaustive").verdict is Verdict.UNWINNABLE


def test_top_trumps_explain_the_figure_3_pigeonholes() -> None:
    """The free Figure 3 deals that once took the SAT side hours (one seat holds the four
    rockets, the other hands hold little that is no task) get the top-trump reason, and the
    small fixed deal of the cut's own test is explained the same way (the oracle agrees)."""
    import json
    from pathlib import Path

    from crewcheck.formats.deal_json import from_dict
    from crewcheck.formats.notation import parse_deal

    path = Path(__file__).resolve().parents[3] / "benchmarks" / "corpus" / "hard" / "4p-free-fig3.jsonl"
    explained = 0
    for line in path.read_text().splitlines():
        deal = from_dict({k: v for k, v in json.loads(line).items() if k != "id"})
        why = refutation(deal.state())
        explained += why is not None and "trumps above all others'" in why
    assert explained == 5  # the sixth needs the search (a lower trump of another seat splits them)
    deal = parse_deal("B3 B4 R1 | G2 R2 R3 | B1 G1 G4 ; trump R ; lead 0 ; tasks B1@0 G4@1 G2@0 G1@0 ; strict/fixed")
    why = refutation(deal.state())
    assert why is not None and "task cards of other seats" in why
    assert decide(deal, backend="exhaustive").verdict is Verdict.UNWINNABLE


@given(st.data())
def test_the_balance_refutation_is_sound(data: st.DataObject) -> None:
    """Under "nobody ever m tricks ahead", at the start or after some plays: when the
    refutation fires (the unbeatable trumps against the share the rule leaves), the
    exhaustive oracle says unwinnable."""
    inst = data.draw(condition_instances(kinds=("balanced_tricks",), max_cards=12, max_tasks=2))
    plays = data.draw(playouts(inst, max_plays=6))
    if plays:
        inst = replace(inst, history=plays)
    note(deal_json.dumps(inst))
    if refutation(inst.state()) is not None:
        assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE


@given(condition_instances(kinds=("balanced_tricks",), max_cards=12, max_tasks=2),
       st.sampled_from(["left", "right", "choose"]))
def test_the_balance_refutation_holds_for_every_pass(inst: Instance, distress: str) -> None:
    """With a distress signal: a refutation of every choice of passes is one the oracle
    (every direction and pass tried) confirms."""
    try:
        inst = replace(inst, distress=distress)
    except InvalidDealError:
        return
    note(deal_json.dumps(inst))
    if signal_refutation(inst) is not None:
        assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE


@pytest.mark.parametrize("text, margin, refuted", [
    ("R2 R3 B1 | R1 B2 B3 | G1 G2 G3 ; trump R ; lead 0 ; strict/fixed", 2, True),  # R3 R2 win 2 of 3
    ("R2 R3 B1 | R1 B2 B3 | G1 G2 G3 ; trump R ; lead 0 ; strict/fixed", 3, False),  # 2 is allowed
    ("R3 B1 G1 | R1 B2 G2 | R2 B3 G3 ; trump R ; lead 0 ; strict/fixed", 2, False),  # R3 alone: 1 trick
    ("R2 R3 B1 Y2 | R1 B2 G1 | B3 G2 Y1 ; trump R ; lead 0 ; strict/fixed", 2, False),  # one of them kept back
])
def test_the_balance_refutation_counts_the_unbeatable_trumps(text: str, margin: int, refuted: bool) -> None:
    """Seat 0's trumps above every other trump each win a trick: two of three tricks break
    "nobody ever 2 tricks ahead" (the oracle agrees), not "3 ahead"; one such trump does
    not fire it, nor do two when the seat's longer hand keeps one back (Y2, then B2 to B3,
    then G2 to R2, R3 kept: each seat wins one trick). With a distress signal the same (no
    trump is passed)."""
    from crewcheck.formats.notation import parse_deal

    deal = replace(parse_deal(text), conditions=(BalancedTricks(margin),))
    why = refutation(deal.state())
    assert (why is not None) is refuted, why
    if refuted:
        assert why is not None and "seat 0 holds R2 R3, which the other seats' trumps cannot beat" in why
        assert decide(deal, backend="exhaustive").verdict is Verdict.UNWINNABLE
    signal = replace(deal, distress="choose")
    assert (signal_refutation(signal) is not None) is refuted
    assert (decide(signal).verdict is Verdict.UNWINNABLE) is (refuted or decide(
        signal, backend="exhaustive").verdict is Verdict.UNWINNABLE)


def test_the_trump_floor_is_a_largest_matching_to_higher_trumps() -> None:
    """Each trump of the others beats at most one of the seat's, and only a lower one."""
    from crewcheck.solvers.search.refutations import trump_floor

    assert trump_floor([1, 3, 4], [2]) == 2      # R2 beats R1 only
    assert trump_floor([1, 2, 4], [3]) == 2      # R3 beats one of R1, R2
    assert trump_floor([3, 4], [1, 2]) == 2      # nothing above them
    assert trump_floor([1, 2], [3, 4]) == 0
    assert trump_floor([2, 4], [1, 3]) == 1      # R3 beats R2; R1 beats nothing
    assert trump_floor([], [1]) == 0


@st.composite
def first_trick_deals(draw: st.DrawFn) -> Instance:
    """Small deals with a trump suit where the first leader must win trick 1 (and perhaps
    the last) and nobody may be ``m`` tricks ahead: the first-trick rule's ground."""
    from crewcheck.model.conditions import WinsTricksAt

    base = draw(instances(max_players=4, max_cards=12, max_tasks=1, history=False))
    if base.trump_suit is None:
        base = replace(base, trump=base.deck.suits[-1])
    lead = base.state().leader
    if lead is None:
        lead = draw(st.integers(0, base.players - 1))
        base = replace(base, lead=lead)
    tricks = draw(st.sampled_from([(1,), (1, "last")]))
    conditions = (BalancedTricks(draw(st.integers(1, 3))), WinsTricksAt(lead, tricks))
    try:
        return replace(base, conditions=conditions, tasks=())
    except InvalidDealError:
        return base


@given(first_trick_deals(), st.sampled_from([None, "left", "right", "choose"]))
def test_the_first_trick_rule_is_sound(inst: Instance, distress: str | None) -> None:
    """The leader that must win the first trick: whatever it leads, it has that trick and
    the floor of its trumps left. A refutation, with or without a distress signal, is
    one the oracle confirms."""
    if distress is not None:
        try:
            inst = replace(inst, distress=distress)
        except InvalidDealError:
            return
    note(deal_json.dumps(inst))
    why = signal_refutation(inst) if distress is not None else refutation(inst.state())
    if why is not None:
        assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE, why


@pytest.mark.parametrize("text, refuted", [
    # seat 0 leads and must win trick 1; R1 R3 R4 against R2: a trump lead draws R2, a
    # plain lead leaves R3 R4 to win two more; 3 of 4 tricks, at most 2 allowed (3 seats)
    ("R1 R3 R4 B4 | R2 B1 G1 G2 | B2 B3 G3 G4 ; trump R ; lead 0 ; strict/fixed", True),
    # the same with R2 for seat 0 and R1 elsewhere: R2 R3 R4 win whatever it leads
    ("R2 R3 R4 B4 | R1 B1 G1 G2 | B2 B3 G3 G4 ; trump R ; lead 0 ; strict/fixed", True),
    # two trumps only: it can win trick 1 and one more
    ("R3 R4 B4 G4 | R2 B1 G1 G2 | R1 B2 B3 G3 ; trump R ; lead 0 ; strict/fixed", False),
    # R4 led draws R1 (the follower keeps its highest), then R3 beats R2: one trick each
    ("R2 R4 | R1 R3 ; trump R ; lead 0 ; strict/fixed", False),
])
def test_the_first_trick_rule_on_hand_made_deals(text: str, refuted: bool) -> None:
    """Deals the first-trick rule refutes (the oracle agrees) and two it leaves, the last
    of them won (the seat that follows a trump lead plays its lowest trump)."""
    from crewcheck.formats.notation import parse_deal
    from crewcheck.model.conditions import WinsTricksAt

    deal = replace(parse_deal(text), conditions=(BalancedTricks(2), WinsTricksAt(0, (1,))))
    why = refutation(deal.state())
    assert (why is not None) is refuted, why
    if refuted or "R1 R3 ;" in text:  # (the last deal is won: the refutation must not fire)
        won = decide(deal, backend="exhaustive").verdict is Verdict.WINNABLE
        assert won is not refuted


def test_a_seat_the_crew_chooses_leaves_the_first_trick_rule_out() -> None:
    """A distress deal whose other condition names a seat the crew chooses has no single
    first state: the refutation before the passes still answers (here nothing), and the
    deal is decided as before."""
    from crewcheck.model.conditions import WinsTricksAt

    deal = deal_json.loads('{"hands": [["R2", "R4", "B1"], ["R1", "R3", "B2"], ["B3", "G1", "G2"]], "trump": "R",'
                           ' "lead": 0, "tasks": [], "distress": "choose"}')
    deal = replace(deal, conditions=(BalancedTricks(2), WinsTricksAt("choose", (1,))))
    assert signal_refutation(deal) is None
    assert decide(deal).verdict is decide(deal, backend="exhaustive").verdict
