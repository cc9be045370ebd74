"""Witteveen §5 (crewcheck.claims.witteveen.agents): MCTS-UCT against the printed 90 %."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from crewcheck.claims import ledger
from crewcheck.claims.claim import Status
from crewcheck.claims.execution import Executor, using
from crewcheck.claims.records import Records, file_name
from crewcheck.claims.registry import BY_ID
from crewcheck.claims.witteveen import agents

ROOT = Path(__file__).resolve().parents[3]
RECORDS = ROOT / "crewcheck" / "claims" / "data" / "records"
CLAIM = BY_ID["witteveen-5-mcts"]


def _table(smart: int, standard: int = 0, n: int = 1000) -> dict[tuple[str, int, int], tuple[int, int]]:
    return {(a, s, 10): (smart if a == "mcts-smart" else standard, n) for a in agents.AGENTS.values() for s in (0, 1, 2)}


def test_the_designs_chunks() -> None:
    full = agents.chunks("full")
    assert len(full) == 3 * 2 * 10 and {c["tasks"] for c in full} == {10} and all(c["budget"] == 1000 for c in full)
    assert sum(c["deals"] for c in full) == 6000
    below = agents.chunks_below("full")
    assert {c["tasks"] for c in below} == set(range(1, 10)) and sum(c["deals"] for c in below) == 2 * 9000


def test_the_pooled_reading_is_judged_once_complete() -> None:
    """At 10 tasks 905 of 1000 (inconclusive) but 1..9 tasks all won: the pooled reading
    reproduces the sentence once every chunk is recorded."""
    table = _table(905)
    table.update({("mcts-smart", s, t): (1000, 1000) for s in (0, 1) for t in range(1, 10)})
    comp = agents.judge_table(table, "full")
    assert comp.readings is not None and comp.readings.reproducing == ("smart scoring, 1..10 tasks pooled",)
    assert ledger.judge(CLAIM, comp)[0] is Status.CONFIRMED
    # seed 1 incomplete: judged on seed 0 alone, seed 1 listed as not tried
    partial = {k: v for k, v in table.items() if k[1] != 1 or k[2] == 10}
    comp = agents.judge_table(partial, "full", missing={1: 40})
    assert comp.readings is not None and comp.readings.reproducing == ("smart scoring, 1..10 tasks pooled",)
    assert any("seed 1: incomplete, 50 of 90" in x for x in comp.readings.not_tried)
    # a seed of the pooled reading at 85 % fails it
    table.update({("mcts-smart", 1, t): (850, 1000) for t in range(1, 10)})
    table[("mcts-smart", 1, 10)] = (850, 1000)
    failing = agents.judge_table(table, "full").readings
    assert failing is not None and "smart scoring, 1..10 tasks pooled" not in failing.reproducing


def test_a_chunk_is_deterministic() -> None:
    params = {"seed": 0, "tasks": 2, "agent": "mcts-smart", "first": 0, "deals": 2, "budget": 50}
    one = agents.mcts_chunk(params)
    assert one == agents.mcts_chunk(params) and [g[0] for g in one["games"]] == [0, 1]


def test_bound_test() -> None:
    t = agents.bound_test("s", 950, 1000)
    assert t.p_above < 1e-6 and t.p_below > 0.99
    assert agents.bound_test("s", 900, 1000).p_above == pytest.approx(0.5)


@pytest.mark.parametrize(("smart", "status"), [(960, Status.CONFIRMED), (905, Status.NOT_REPRODUCED),
                                               (850, Status.NOT_REPRODUCED)])
def test_the_verdict_follows_the_rate(smart: int, status: Status) -> None:
    """Above 90 % with every seed: CONFIRMED; within noise of it or below: not reproduced (never
    REFUTED: readings are left untried)."""
    comp = agents.judge_table(_table(smart), "full", missing={0: 90, 1: 90})
    assert ledger.judge(CLAIM, comp)[0] is status
    assert comp.readings is not None and any("seed 1: incomplete, 0 of 90 chunks" in x for x in comp.readings.not_tried)
    if smart == 850:
        assert comp.readings is not None and comp.readings.contradicted


@pytest.mark.skipif(not (RECORDS / file_name(agents.NAMESPACE)).is_file(), reason="no committed record")
def test_perturbed_records_are_not_confirmed(tmp_path: Path) -> None:
    """The committed records with two deals in ten made losses: no longer above 90 %."""
    folder = tmp_path / "records"
    shutil.copytree(RECORDS, folder)
    path = folder / file_name(agents.NAMESPACE)
    data = json.loads(path.read_text(encoding="utf-8"))
    for chunk in data["chunks"]:
        for g in chunk[1]["games"]:
            g[1] = bool(g[1]) and g[0] % 10 != 0 and g[0] % 10 != 5
    path.write_text(json.dumps(data), encoding="utf-8")
    with using(Executor(records=Records(folder), records_only=True)):
        verdict = ledger.evaluate(CLAIM, "full")
    assert verdict.status is not Status.CONFIRMED, verdict.reason
