"""The draw formula of mission 12 (:mod:`crewcheck.analysis.draw_formula`) against the oracle:
its verdict on each draw, its lost families draw by draw, and the chance it gives."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, note, settings

from crewcheck import decide
from crewcheck.analysis.chance import analyse_draw
from crewcheck.analysis.draw_positions import after_draw, draws, first_tricks
from crewcheck.analysis.draw_classes import DrawClasses, DrawCounts
from crewcheck.cli import main
from crewcheck.analysis.draw_formula import DrawFormula, FamilyCounts, family_draws
from crewcheck.formats import deal_json
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Verdict
from tests.strategies import instances

pytest.importorskip("pysat")

SMALL = settings(max_examples=15, deadline=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

# Seat 1 must win B2 after the draw: 3 of its 8 draws win.
HANDMADE = {"hands": [["B1", "B2", "P1"], ["B3", "P2", "P3"], ["B4", "P4", "P5"]], "lead": 0,
            "tasks": [{"card": "B2", "seat": 1}]}


def _oracle(base: Instance) -> dict[tuple[int, ...], bool]:
    """Every draw after ``base`` (a position after a first trick) decided by the oracle."""
    classes = DrawClasses(base, {}, DrawCounts())
    return {d: decide(classes.position(classes.drawn(d)), backend="exhaustive").verdict is Verdict.WINNABLE
            for d in draws(base.hands)}


def _bases(inst: Instance) -> list[Instance]:
    return [b for t in first_tricks(inst) if isinstance(b := after_draw(inst, t, ()), Instance)]


def _check(base: Instance, block_won: bool) -> None:
    """Each draw's answer is the oracle's; a lost family holds only draws the oracle
    loses (or, with ``block_won``, draws won and blocked before)."""
    truth = _oracle(base)
    formula = DrawFormula(base, FamilyCounts())
    blocked: set[tuple[int, ...]] = set()
    try:
        for d, won in truth.items():
            got = formula.decide(d)
            assert got is not None
            assert (got.line is not None) == won, f"the formula says {got.line is not None} on draw {d}, the oracle {won}"
            if got.line is not None:
                classes = DrawClasses(base, {}, DrawCounts())
                end = classes.position(classes.drawn(d)).with_history(got.line).state().end
                assert end is not None and end.won
                if block_won:
                    formula.block(d)
                    blocked.add(d)
            else:
                assert got.family is not None and d in set(family_draws(got.family))
                wrong = [e for e in family_draws(got.family) if truth[e] and e not in blocked]
                assert not wrong, f"draws {wrong} are won but in a family declared lost"
        rest = formula.winning()
        assert rest is False if block_won else (rest is False) == (not any(truth.values()))
    finally:
        formula.close()


def test_the_hand_made_deal_draw_by_draw() -> None:
    """On the hand-made deal, every first trick's formula agrees with the oracle on every draw."""
    inst = deal_json.from_dict(HANDMADE)
    for base in _bases(inst):
        _check(base, block_won=False)
        _check(base, block_won=True)


@SMALL
@given(instances(max_players=3, max_cards=10, max_tasks=2, history=False, free=False,
                 lead_modes=("seat", "rocket")))
def test_the_formula_agrees_with_the_oracle(inst: Instance) -> None:
    """On small deals (unequal hands, trumps, tokens), the formula's answer on each draw
    after a first trick is the oracle's, and no family it declares lost holds a won draw."""
    assume(inst.tricks >= 3 and inst.tasks)
    note(deal_json.dumps(inst))
    bases = _bases(inst)
    assume(bases)
    _check(bases[0], block_won=True)
    _check(bases[-1], block_won=False)


@SMALL
@given(instances(max_players=3, max_cards=9, max_tasks=2, history=False, lead_modes=("seat", "rocket"),
                 equal_hands=True))
def test_families_give_the_same_answers(inst: Instance) -> None:
    """``analyse_draw(families=True)`` gives the answers of the draw-by-draw analysis."""
    assume(inst.tricks >= 3 and inst.tasks)
    note(deal_json.dumps(inst))
    plain = analyse_draw(inst, backend="exhaustive")
    got = analyse_draw(inst, backend="exhaustive", families=True)
    assert (got.every, got.some, got.probability) == (plain.every, plain.some, plain.probability)
    assert got.formula is not None and plain.formula is None


def test_a_lost_family_answers_draws_unsearched() -> None:
    """On the hand-made deal the families decide lost draws no search looked at, and the
    chance stays 3/8."""
    inst = deal_json.from_dict(HANDMADE)
    got = analyse_draw(inst, backend="exhaustive", families=True)
    assert got.probability == Fraction(3, 8) and got.formula is not None
    assert got.formula.families >= 1 and got.formula.lost >= 1
    assert "lost families" in got.describe(inst)


def test_draw_families_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``crewcheck draw --families`` gives the same chance and reports the formulas' work in JSON."""
    path = tmp_path / "handmade.json"
    path.write_text(json.dumps(HANDMADE))
    assert main(["draw", str(path), "--families", "--json", "--backend", "exhaustive"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["probability"] == "3/8" and out["formula"]["families"] >= 1 and out["formula"]["calls"] >= 1
    assert main(["draw", str(path), "--json", "--backend", "exhaustive"]) == 1
    assert json.loads(capsys.readouterr().out)["formula"] is None
