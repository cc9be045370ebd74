"""Covered cards (JARVIS's columns) in the winnability encoding: every logic back-end and
the engine against the exhaustive oracle on tiny covered deals; the back-ends that do not
play covered cards refuse them by name (the search's own tests are in
``tests/solvers/search/test_covered.py``)."""

from __future__ import annotations

import importlib.util

import pytest
from hypothesis import example, given, settings

from crewcheck.api import choose_backend, decide
from crewcheck.errors import NotApplicableError
from crewcheck.formats import deal_json
from crewcheck.formats.notation import parse_deal, to_notation
from crewcheck.model.instance import Instance
from crewcheck.solvers import registry
from crewcheck.solvers.base import Verdict
from tests.oracle import check_against_oracle, check_explanation, oracle_verdict
from tests.strategies import covered_instances, every_tiny_covered_deal

# won only thanks to the cover (seat 1 need not follow green with its covered G1)
ONLY_WITH_COVER = "B1 G2 R1 | B2 B3 G1 ; trump R ; lead 0 ; tasks B1@0 ; strict/fixed ; covered G1<B3"
# lost only because of the cover (seat 2 must lead R1 before G2)
LOST_BY_COVER = "B1 B2 | B3 G1 | G2 R1 ; trump R ; lead 0 ; tasks B3@1 ; strict/fixed ; covered G2<R1"
# a cover whose top card is played in the trick in progress: its card stays covered in that trick
MID_TRICK = "B1 B2 G1 | B3 G2 G3 ; trump - ; lead 1 ; tasks B1@0 ; strict/fixed ; covered G1<B2 ; played G2 B2"

_NEEDS = {"sat": "pysat", "z3": "z3", "cpsat": "ortools", "engine": "pysat"}
DECIDERS = [pytest.param(name, marks=pytest.mark.skipif(importlib.util.find_spec(module) is None,
                                                        reason=f"{module} is not installed"))
            for name, module in _NEEDS.items()]


@pytest.mark.parametrize("backend", DECIDERS)
@pytest.mark.parametrize("text", [ONLY_WITH_COVER, LOST_BY_COVER, MID_TRICK])
def test_hand_made_covered_deals(backend: str, text: str) -> None:
    """The deals whose verdict the cover turns, either way: the oracle's verdict, and a
    winning line that the replay checker accepts."""
    check_against_oracle(parse_deal(text), backend)


@pytest.mark.parametrize("backend", DECIDERS)
@settings(max_examples=40, deadline=None)
@given(covered_instances())
@example(inst=parse_deal(ONLY_WITH_COVER))
@example(inst=parse_deal("B1 R1 R2 | B2 ; trump R ; lead rocket ; tasks B2@? ; strict/free ; covered B1<R1 R1<R2"))
def test_agrees_with_the_oracle_on_covered_deals(backend: str, inst: Instance) -> None:
    """Generated deals with stacks of one to three cards in one hand, every rule feature
    (trumps, lead modes, tokens, free assignment, histories): the oracle's verdict. The
    pinned stack R2 over R1 over B1 must not be taken for two alike trumps played lowest
    first (the symmetry breaking leaves covered cards alone)."""
    check_against_oracle(inst, backend)


@pytest.mark.parametrize("backend", DECIDERS)
@settings(max_examples=30, deadline=None)
@given(covered_instances(max_cards=8, conditions=True))
def test_agrees_with_the_oracle_on_covered_deals_with_conditions(backend: str, inst: Instance) -> None:
    """Covered cards with random conditions, crew choices and the commander's assignments:
    the oracle's verdict (every variant decided, a winning line replayed with its choice)."""
    want = decide(inst, backend="exhaustive").verdict
    got = decide(inst, backend=backend).verdict
    assert got is want, f"`{backend}` says {got.value}, `exhaustive` says {want.value} on {deal_json.dumps(inst)}"


@settings(max_examples=30, deadline=None)
@given(covered_instances(free=False))
def test_explanations_on_covered_deals_are_minimal_cores(inst: Instance) -> None:
    """An unwinnable covered deal's explanation names tasks that alone lose, none superfluous."""
    pytest.importorskip("pysat")
    check_explanation(inst, "sat")


@pytest.mark.parametrize("split, jarvis", [
    ((3, 3), 0),
    pytest.param((2, 2, 2), 2, marks=pytest.mark.slow),
])
def test_sat_agrees_with_the_oracle_on_every_tiny_covered_deal(split: tuple[int, ...], jarvis: int) -> None:
    """Exhaustively, not sampled: every deal of a six-card deck (B1-3, G1-2, R1) with one
    cover and one task, on two seats 3/3 and (slow) three seats 2/2/2 with JARVIS's cover at
    seat 2: the SAT back-end's verdict is the oracle's."""
    pytest.importorskip("pysat")
    deals = every_tiny_covered_deal(split, jarvis)
    assert len(deals) > 1000
    wrong = [to_notation(d) for d in deals if decide(d, backend="sat").verdict is not oracle_verdict(d)]
    assert not wrong, f"{len(wrong)} disagreements, e.g. {wrong[0]}"


def test_the_oracle_sees_the_cover_change_the_verdict() -> None:
    """(The hand-made deals above turn on their covers.)"""
    assert oracle_verdict(parse_deal(ONLY_WITH_COVER)) is Verdict.WINNABLE
    assert oracle_verdict(parse_deal(LOST_BY_COVER)) is Verdict.UNWINNABLE


PLAYS_COVERED = {"exhaustive", "search", "sat", "z3", "cpsat", "engine"}


@pytest.mark.parametrize("name", sorted(set(registry.BACKENDS) - PLAYS_COVERED))
def test_the_other_backends_refuse_covered_cards(name: str) -> None:
    """A back-end that does not play covered cards refuses them by name, never answers."""
    deal = parse_deal(ONLY_WITH_COVER)
    if registry.missing(name) is not None:
        pytest.skip(registry.missing(name) or "")
    with pytest.raises(NotApplicableError, match="covered cards"):
        decide(deal, backend=name)
    assert "covered cards" in (registry.get(name).supports(deal) or "")


def test_the_default_decides_covered_deals_by_its_search() -> None:
    """``auto`` picks the engine, whose search decides an easy covered deal at once (the
    SAT side never starts)."""
    deal = parse_deal(ONLY_WITH_COVER)
    assert choose_backend(deal) == "engine"
    result = decide(deal)
    assert result.verdict is Verdict.WINNABLE and result.stats.extra.get("stage") == "search"
