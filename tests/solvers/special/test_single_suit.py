"""Reiber §5 (one suit, task cards anywhere) against the exhaustive oracle.

The published algorithm is not exact: :data:`COUNTEREXAMPLE` pins the smallest deal
where it answers *false* on a winnable deal. The properties below therefore check what
does hold: a WINNABLE answer always replays (so it is sound), every reading agrees with
the others, and every disagreement with the oracle is a false *unwinnable*.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, note

import crewcheck
from crewcheck.formats.deal_json import dumps, load, loads
from crewcheck.solvers.base import Budget, Verdict
from crewcheck.solvers.special.single_suit import READINGS, Reading, SingleSuitSolver, published_play
from tests.oracle import oracle_verdict
from tests.solvers.special.strategies import all_single_suit, single_suit_deals

COUNTEREXAMPLE = Path(__file__).parents[3] / "models" / "counterexamples" / "single_suit_lemma51.json"


@pytest.mark.parametrize("reading", READINGS, ids=str)
def test_counterexample_lemma_5_1(reading: Reading) -> None:
    """Pinned finding: the algorithm says unwinnable, the oracle finds a win (every reading)."""
    deal = load(COUNTEREXAMPLE)
    assert published_play(deal, reading)[0] is False
    assert SingleSuitSolver(reading).decide(deal, budget=Budget()).verdict is Verdict.UNWINNABLE
    oracle = crewcheck.decide(deal, backend="exhaustive")
    assert oracle.verdict is Verdict.WINNABLE
    tricks = [[str(deal.card(c)) for c in t.cards] for t in oracle.witness.tricks]
    assert len(tricks) == 2


@given(single_suit_deals())
def test_sound_and_one_sided(inst: crewcheck.Instance) -> None:
    """Every WINNABLE replays; a disagreement with the oracle is always a false UNWINNABLE."""
    note(dumps(inst))
    want = oracle_verdict(inst)
    for reading in READINGS:
        got = SingleSuitSolver(reading).decide(inst, budget=Budget())
        if got.verdict is Verdict.WINNABLE:
            crewcheck.check_witness(inst, got.plays or (), None, "single_suit")
            assert want is Verdict.WINNABLE
        elif want is Verdict.WINNABLE:
            note(f"`single_suit` ({reading}) says unwinnable, `exhaustive` says winnable")


def _census(n: int, p: int, max_tasks: int) -> dict[str, int]:
    wrong = {str(r): 0 for r in READINGS}
    for inst in all_single_suit(n, p, max_tasks=max_tasks):
        truth = oracle_verdict(inst) is Verdict.WINNABLE
        for r in READINGS:
            got = published_play(inst, r)[0]
            assert not (got and not truth), f"false WINNABLE ({r}) on {dumps(inst)}"
            wrong[str(r)] += got != truth
    return wrong


# (n cards, p seats, max tasks) -> disagreements with the oracle, the same for every reading
CENSUS = {(2, 2, 2): 0, (3, 2, 3): 0, (3, 3, 3): 0, (4, 2, 4): 1, (4, 3, 4): 0, (5, 2, 3): 7, (5, 3, 3): 0}


@pytest.mark.parametrize("key", [pytest.param(k, marks=pytest.mark.slow) if k == (5, 3, 3) else k
                                 for k in sorted(CENSUS)], ids=lambda k: f"n{k[0]}-p{k[1]}-t{k[2]}")
def test_every_small_deal(key: tuple[int, int, int]) -> None:
    """Every one-suit deal up to 5 cards and 3 seats (5 cards and 3 seats in the slow suite):
    the published answers are wrong exactly as often as recorded (all readings alike), and
    never wrongly WINNABLE."""
    wrong = _census(*key)
    assert set(wrong.values()) == {CENSUS[key]}, wrong


@pytest.mark.slow
def test_every_deal_of_six_cards() -> None:
    """Six cards, 2-3 seats, up to 3 tasks: 31 + 18 false UNWINNABLE answers with the static
    reserve, 30 + 18 with the dynamic one, none false WINNABLE. The one deal where the
    readings differ: B1 B3 B6 / B2 B4 B5, tasks B2, B4 for seat 1 and B5 for seat 0."""
    two = _census(6, 2, 3)
    assert two == {"reserve=static,followers=below": 31, "reserve=static,followers=all": 31,
                   "reserve=dynamic,followers=below": 30, "reserve=dynamic,followers=all": 30}
    assert set(_census(6, 3, 3).values()) == {18}


def test_refuses_trumps_and_tokens() -> None:
    """Trumps, tokens and free assignment are outside Reiber's model."""
    s = SingleSuitSolver()
    tok = loads('{"hands": [["B1"], ["B2"]], "lead": "any", "tasks": [{"card": "B2", "seat": 1, "token": "1"}]}')
    assert s.supports(tok) == "single_suit needs tasks without order tokens; tasks[0] has token '1'"
    four = loads('{"hands": [["B1", "G1"], ["P1", "Y1"]], "lead": "any", "tasks": []}')
    assert s.supports(four) == "single_suit needs one suit; this deal has 4"
