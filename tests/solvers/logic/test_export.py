"""The SAT process's clause builder (:class:`ClauseFormula`) writes exactly the CNF of
:func:`to_cnf`: the same clauses in the same order, the same variable ids."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings

from crewcheck.formats import deal_json
from crewcheck.missions.deepsea import deal_deepsea_mission
from crewcheck.missions.logbook import deal_mission
from crewcheck.model.instance import Instance
from crewcheck.solvers.logic.encoding import encode
from crewcheck.solvers.logic.export import ClauseFormula, to_cnf
from tests.strategies import condition_instances, covered_instances, instances

ROOT = Path(__file__).resolve().parents[3]


def assert_same_cnf(inst: Instance, direction: int | None = None) -> None:
    enc = encode(inst, direction=direction)
    want = to_cnf(enc.formula, assume=enc.assumptions)
    built = ClauseFormula()
    enc2 = encode(inst, direction=direction, formula=built)
    got = built.cnf(assume=enc2.assumptions)
    assert got.clauses == want.clauses
    assert (got.nv, got.formula_vars) == (want.nv, want.formula_vars)
    assert [got.pool.key(x) for x in range(1, got.nv + 1)] == [want.pool.key(x) for x in range(1, want.nv + 1)]
    assert not built.constraints


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(instances(max_players=4, max_tasks=4))
def test_the_builder_writes_the_cnf_of_to_cnf(inst: Instance) -> None:
    assume(len(inst.history) < inst.players * inst.tricks)  # (a position the game has not ended at)
    assert_same_cnf(inst)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(condition_instances())
def test_the_builder_writes_the_conditions_as_to_cnf(inst: Instance) -> None:
    assert_same_cnf(inst)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(covered_instances())
def test_the_builder_writes_covered_cards_as_to_cnf(inst: Instance) -> None:
    assume(inst.state().end is None)
    assert_same_cnf(inst)


@pytest.mark.parametrize("path", sorted((ROOT / "models" / "deals").glob("*.json")), ids=lambda p: p.stem)
def test_the_builder_on_the_bundled_deals(path: Path) -> None:
    assert_same_cnf(deal_json.load(path))


@pytest.mark.parametrize("number,players", [(1, 4), (9, 3), (13, 4), (23, 5), (29, 4), (34, 5), (46, 3), (48, 4)])
def test_the_builder_on_logbook_missions(number: int, players: int) -> None:
    inst = deal_json.loads(json.dumps(deal_mission(number, players, seed=3, crew_choices=False)))
    assert_same_cnf(inst)
    assert_same_cnf(inst, direction=1)


@pytest.mark.parametrize("difficulty,players", [(5, 3), (12, 4), (20, 5)])
def test_the_builder_on_deep_sea_missions(difficulty: int, players: int) -> None:
    assert_same_cnf(deal_json.loads(json.dumps(deal_deepsea_mission(difficulty, players, seed=4))))


def test_the_builder_writes_a_mid_game_position() -> None:
    assert_same_cnf(deal_json.load(ROOT / "models" / "deals" / "classic-4p-midgame.json"))
