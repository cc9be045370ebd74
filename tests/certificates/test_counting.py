"""Counting parts of certificates (:mod:`crewcheck.certificates.counting`): the count is
sound (the oracle loses every position it refutes), says what the search's rule says, is
what a certificate names for the pigeonholes a CDCL solver takes hours over, and a
counting part claimed where the count does not refute is rejected."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given, note, settings
from hypothesis import strategies as st

from crewcheck.api import decide
from crewcheck.certificates.certfile import Part, parse_certificate, write_certificate
from crewcheck.certificates.cnf import deal_digest
from crewcheck.certificates.counting import top_trumps
from crewcheck.certificates.produce import certify
from crewcheck.certificates.verify import check_certificate
from crewcheck.formats.deal_json import from_dict
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Verdict
from crewcheck.solvers.search import kernel
from crewcheck.solvers.search.problem import Problem
from tests.strategies import instances, playouts, trump_pad_instances

HARD = Path(__file__).resolve().parents[2] / "benchmarks" / "corpus" / "hard" / "4p-free-fig3.jsonl"
DEAD_FIXED = "B3 B4 R1 | G2 R2 R3 | B1 G1 G4 ; trump R ; lead 0 ; tasks B1@0 G4@1 G2@0 G1@0 ; strict/fixed"
ALIVE_FIXED = "B3 B4 R1 | G2 R2 R3 | B1 G1 G4 ; trump R ; lead 0 ; tasks B1@1 G4@1 G2@0 G1@0 ; strict/fixed"


def _hard() -> list[Instance]:
    return [from_dict({k: v for k, v in json.loads(line).items() if k != "id"})
            for line in HARD.read_text().splitlines()]


def _search_rule(inst: Instance) -> bool | None:
    """What the search's ``boss_trump_dead`` says of ``inst``'s position (``None`` where
    the search does not ask: inside a trick, the game over, no task left)."""
    state = inst.state()
    if state.end is not None or state.trick or state.leader is None:
        return None
    problem = Problem.build(inst, state, compiled=False, canonical=False)
    d = problem.deal
    hands, _, quota = problem.round_arrays()
    inplay = 0
    for h in problem.hands:
        inplay |= h
    left = d.task_cards & inplay
    if not left:
        return None
    return bool(kernel.twin().boss_trump_dead(hands, d.players, d.free, inplay, left, d.own_mask, quota, d.trump,
                                              d.suit_mask, min(h.bit_count() for h in problem.hands)))


@st.composite
def _positions(draw: st.DrawFn) -> Instance:
    inst = draw(st.one_of(trump_pad_instances(),
                          instances(max_players=3, max_cards=10, max_tasks=8, trumps=True, history=False)))
    if inst.is_concrete() and not inst.history and draw(st.booleans()):
        inst = inst.with_history(draw(playouts(inst, max_plays=inst.deck.size)))
    return inst


@settings(max_examples=150, deadline=None)
@given(inst=_positions())
def test_the_count_is_sound_and_agrees_with_the_search(inst: Instance) -> None:
    """Wherever the count refutes, the oracle loses; and the count (written apart from the
    search) and the search's rule refute the same positions."""
    note(to_notation(inst))
    why = top_trumps(inst)
    rule = _search_rule(inst)
    if rule is not None:
        assert (why is not None) == rule, why
    if why is not None:
        assert decide(inst, backend="exhaustive").verdict is Verdict.UNWINNABLE, why


def test_the_figure_3_pigeonholes_certify_by_counting() -> None:
    """Five of the six free Figure 3 deals that took the SAT side minutes to hours get a
    counting certificate at once, which checks, also after a round trip through the file.
    (The sixth, which the count does not refute, is decided by the slow test below.)"""
    counted = 0
    for deal in _hard():
        if top_trumps(deal) is None:
            continue
        result = decide(deal)
        assert result.verdict is Verdict.UNWINNABLE
        produced = certify(deal, result)
        assert produced is not None
        assert [p.kind for p in produced.certificate.parts] == ["count"]
        got = check_certificate(deal, produced.certificate)
        assert got.accepted and "top-trumps" in got.message, got.message
        counted += 1
    assert counted == 5


@pytest.mark.slow
def test_the_figure_3_deal_the_count_leaves_is_unwinnable() -> None:
    """The sixth hard Figure 3 deal, which no count refutes, is unwinnable all the same (a
    SAT proof the engine takes minutes over on a busy 2-core machine)."""
    left = [deal for deal in _hard() if top_trumps(deal) is None]
    assert len(left) == 1
    assert decide(left[0]).verdict is Verdict.UNWINNABLE


def test_a_small_fixed_deal_certifies_by_counting(tmp_path: Path) -> None:
    deal = parse_deal(DEAD_FIXED)
    produced = certify(deal, decide(deal))
    assert produced is not None
    path = tmp_path / "lost.cert"
    write_certificate(produced.certificate, path)
    assert "c count top-trumps" in path.read_text()
    cert = parse_certificate(path.read_bytes())
    assert cert.parts[0].kind == "count" and cert.parts[0].solver == "top-trumps"
    assert check_certificate(deal, cert).accepted


def test_a_false_counting_claim_is_rejected() -> None:
    """A counting part on a position the count does not refute, or naming an argument the
    checker does not know, is rejected (the deal's digest matching)."""
    lost = parse_deal(DEAD_FIXED)
    cert = certify(lost, decide(lost))
    assert cert is not None
    unknown = dataclasses.replace(cert.certificate, parts=[Part("the deal", "count", solver="pigeons")])
    got = check_certificate(lost, unknown)
    assert not got.accepted and "unknown counting argument" in got.message
    # a deal the count does not refute, unwinnable or not, with a counting part claimed
    for text in (ALIVE_FIXED, "B1 B2 | R1 G1 ; trump R ; lead 0 ; tasks B1@? ; strict/free"):
        deal = parse_deal(text)
        assert top_trumps(deal) is None
        forged = dataclasses.replace(cert.certificate, deal=deal_digest(deal),
                                     parts=[Part("the deal", "count", solver="top-trumps")])
        got = check_certificate(deal, forged)
        assert not got.accepted and "does not refute" in got.message, got.message

