"""de Jong §5.3 (crewcheck.claims.dejong.players): the job, the paired tests, the verdict."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from crewcheck.claims import ledger
from crewcheck.claims.claim import Status
from crewcheck.claims.dejong import players
from crewcheck.claims.execution import Executor, using
from crewcheck.claims.records import Records, file_name
from crewcheck.claims.registry import BY_ID

ROOT = Path(__file__).resolve().parents[3]
RECORDS = ROOT / "crewcheck" / "claims" / "data" / "records"
CLAIM = BY_ID["dejong-5.3-players"]


def _table(done: dict[str, list[int]], seeds: tuple[int, ...] = (0, 1)) -> dict[tuple[int, int, int], Any]:
    """Every seed: one deal per entry of the lists, at 2 tasks, each player completing ``done[p][i]``."""
    n = len(next(iter(done.values())))
    return {(s, 2, i): {p: (done[p][i], done[p][i] == 2) for p in players.PLAYERS} for s in seeds for i in range(n)}


SHAPE = {"mc-cheating": [2, 2, 2, 1] * 20, "mc-ignorant": [1, 2, 1, 1] * 20, "mc-smart": [0, 1, 0, 1] * 20}


def test_the_designs_chunks() -> None:
    full = players.chunks("full")
    assert len(full) == 3 * 10 * 5 and all(c["playouts"] == 100 and c["deals"] == 10 for c in full)
    assert {c["tasks"] for c in full} == set(range(1, 11)) and {c["seed"] for c in full} == {0, 1, 2}
    assert sum(c["deals"] for c in players.chunks("quick")) == 4


def test_a_chunk_is_deterministic_and_plays_every_player() -> None:
    params = {"seed": 0, "tasks": 1, "first": 0, "deals": 1, "playouts": 5}
    one = players.players_chunk(params)
    assert one == players.players_chunk(params)
    assert [g[1] for g in one["games"]] == list(players.PLAYERS)
    assert all(0 <= g[2] <= 1 and isinstance(g[3], bool) for g in one["games"])


def test_paired_test_numbers() -> None:
    t = players.paired("a", "b", [0.0, 1.0, 1.0, 0.0])
    assert t.mean == 0.5 and t.deals == 4
    assert t.interval == pytest.approx((0.5 - 1.959963984540054 * 0.2886751345948129, 0.5 + 1.959963984540054
                                        * 0.2886751345948129))
    assert players.paired("a", "b", [0.0, 0.0]).p_value == 1.0


def test_the_shape_is_consistent_and_a_tie_is_not_reproduced() -> None:
    comp = players.judge_table(_table(SHAPE), "full")
    assert comp.holds is True
    assert ledger.judge(CLAIM, comp)[0] is Status.CONSISTENT
    tie = dict(SHAPE, **{"mc-smart": SHAPE["mc-ignorant"]})
    comp = players.judge_table(_table(tie), "full")
    assert comp.holds is False
    assert ledger.judge(CLAIM, comp)[0] is Status.NOT_REPRODUCED
    assert "not significantly different from ignorant" in comp.evidence


def test_one_seed_without_the_shape_fails_the_statement() -> None:
    table = _table(SHAPE)
    for (s, t, i), v in list(table.items()):
        if s == 1:
            table[(s, t, i)] = {**v, "mc-smart": v["mc-cheating"]}
    assert players.judge_table(table, "full").holds is False


def _perturbed(tmp_path: Path, smart_from: str) -> Path:
    """The committed records with the smart player's results replaced by another player's
    (``"zero"``: no objective completed)."""
    folder = tmp_path / "records"
    shutil.copytree(RECORDS, folder)
    path = folder / file_name(players.NAMESPACE)
    data = json.loads(path.read_text(encoding="utf-8"))
    for chunk in data["chunks"]:
        by_deal = {(g[0], g[1]): g for g in chunk[1]["games"]}
        for g in chunk[1]["games"]:
            if g[1] == "mc-smart":
                g[2:4] = [0, False] if smart_from == "zero" else by_deal[(g[0], smart_from)][2:4]
    path.write_text(json.dumps(data), encoding="utf-8")
    return folder


@pytest.mark.skipif(not (RECORDS / file_name(players.NAMESPACE)).is_file(), reason="no committed record")
@pytest.mark.parametrize(("smart_from", "holds"), [("zero", True), ("mc-cheating", False), ("mc-ignorant", False)])
def test_the_check_follows_perturbed_records(tmp_path: Path, smart_from: str, holds: bool) -> None:
    """On the committed records, a smart player completing nothing gives the statement's shape;
    one playing as well as the cheating (or ignorant) one does not."""
    with using(Executor(records=Records(_perturbed(tmp_path, smart_from)), records_only=True)):
        verdict = ledger.evaluate(CLAIM, "full")
    assert verdict.computation is not None, verdict.reason
    assert verdict.computation.holds is holds
    assert (verdict.status is Status.CONSISTENT) is holds


def test_the_opposite_shape_is_contradicted_but_not_refuted() -> None:
    """Smart above ignorant on every seed contradicts the statement; readings are left untried,
    so the row is NOT REPRODUCED, never REFUTED."""
    swapped = dict(SHAPE, **{"mc-smart": SHAPE["mc-ignorant"], "mc-ignorant": SHAPE["mc-smart"]})
    comp = players.judge_table(_table(swapped), "full")
    assert comp.readings is not None and comp.readings.contradicted
    assert ledger.judge(CLAIM, comp)[0] is Status.NOT_REPRODUCED
