"""Witteveen §5, Figures 5-7 (crewcheck.claims.witteveen.ranking): the paired tests of the rankings."""

from __future__ import annotations

import dataclasses

import json
import random
import shutil
from pathlib import Path

import pytest

from crewcheck.claims import ledger
from crewcheck.claims.claim import Status
from crewcheck.claims.execution import Executor, using
from crewcheck.claims.records import Records, file_name, save_record
from crewcheck.claims.registry import BY_ID
from crewcheck.claims.stats import paired_wins
from crewcheck.claims.witteveen import ranking
from crewcheck.claims.witteveen import ranking_job as job
from crewcheck.runtime.store import canonical_key

CLAIM = BY_ID["witteveen-5-ranking"]
DESIGN = job.Design(seed=0, counts=tuple(range(1, 21)), deals=100)

RATES: dict[tuple[str, str], float] = {
    ("mcts-smart", "mcts-smart"): 0.8, ("pmc-smart", "pmc-smart"): 0.6, ("mcts", "mcts"): 0.35,
    ("pmc", "pmc"): 0.3, ("random", "random"): 0.05, ("tactical", "pmc-smart"): 0.55,
    ("random", "pmc-smart"): 0.25, ("tactical", "mcts-smart"): 0.7, ("random", "mcts-smart"): 0.35,
    ("mcts-smart", "randomsmart"): 0.3, ("mcts-smart", "random"): 0.1,
}
"""Win rates of a synthetic grid in which every ranking holds (other pairs: 0.2)."""


def _grid(rates: dict[tuple[str, str], float], design: job.Design = DESIGN, seed: int = 1) -> ranking.Grid:
    rng = random.Random(seed)
    return {t: [sum((rng.random() < rates.get(p, 0.2)) << k for k, p in enumerate(job.PAIRS))
                for _ in range(design.deals)] for t in design.counts}


def _swap(g: ranking.Grid, a: tuple[str, str], b: tuple[str, str]) -> ranking.Grid:
    """The grid with the outcomes of pairs ``a`` and ``b`` exchanged on every deal."""
    i, j = job.PAIRS.index(a), job.PAIRS.index(b)

    def swap(w: int) -> int:
        x, y = w >> i & 1, w >> j & 1
        return w & ~(1 << i | 1 << j) | y << i | x << j
    return {t: [swap(w) for w in ws] for t, ws in g.items()}


def test_paired_wins() -> None:
    """McNemar's test looks only at the discordant deals; its interval holds the difference."""
    t = paired_wins(60, 40, 1000)
    assert t.difference == pytest.approx(0.02) and t.interval[0] < 0.02 < t.interval[1]
    assert paired_wins(40, 60, 1000).p_value == pytest.approx(t.p_value)
    assert paired_wins(0, 0, 10).p_value == 1.0 and paired_wins(300, 100, 1000).p_value < 1e-20
    with pytest.raises(ValueError, match="do not fit"):
        paired_wins(6, 5, 10)


def test_every_ranking_holding_is_confirmed() -> None:
    """A complete grid where every ranking holds: both readings reproduce, CONFIRMED."""
    comp = ranking.judge_grid(_grid(RATES), DESIGN)
    assert comp.readings is not None and set(comp.readings.reproducing) == set(ranking.READINGS)
    assert ledger.judge(CLAIM, comp)[0] is Status.CONFIRMED


@pytest.mark.parametrize("ranked", ranking.RANKINGS, ids=lambda r: r.label)
def test_one_reversed_ranking_fails_the_row(ranked: ranking.Ranking) -> None:
    """The same grid with one ranking's two pairs exchanged: reversed in both readings of
    "overall", which is NOT REPRODUCED, not REFUTED, while other iteration budgets stay
    untried (the thesis gives none); with none left untried it would be REFUTED."""
    comp = ranking.judge_grid(_swap(_grid(RATES), ranked.better, ranked.worse), DESIGN)
    status, reason = ledger.judge(CLAIM, comp)
    assert status is Status.NOT_REPRODUCED, reason
    assert comp.readings is not None and comp.readings.contradicted and not comp.readings.reproducing
    assert comp.readings.not_tried == ranking.NOT_TRIED
    every_budget = dataclasses.replace(comp, readings=dataclasses.replace(comp.readings, not_tried=()))
    assert ledger.judge(CLAIM, every_budget)[0] is Status.REFUTED


def test_a_ranking_without_difference_is_not_reproduced() -> None:
    """RandomSmart winning as often as Random: not significant either way, NOT REPRODUCED."""
    comp = ranking.judge_grid(_grid({**RATES, ("mcts-smart", "randomsmart"): 0.1}), DESIGN)
    assert ledger.judge(CLAIM, comp)[0] is Status.NOT_REPRODUCED
    assert comp.readings is not None and not comp.readings.contradicted
    assert "8 of 9 rankings hold, 0 reversed" in comp.evidence


def test_a_partial_grid_is_open_and_says_what_it_covers() -> None:
    """Until every deal is recorded the row is OPEN, with the coverage and the partial intervals."""
    g = _grid(RATES)
    partial = {t: ws[:50] if t <= 7 else ws[:25] for t, ws in g.items() if t <= 15}
    comp = ranking.judge_grid(partial, DESIGN)
    status, reason = ledger.judge(CLAIM, comp)
    assert status is Status.OPEN
    assert comp.value("coverage") == ("50 of 100 deals at 1..7 tasks; 25 of 100 deals at 8..15 tasks; "
                                      "none at 16..20 tasks")
    assert "MCTS-UCT above PMC, smart scoring +0." in reason and "incomplete" in reason
    assert comp.value("wins_by_pair")["random / random"].endswith(f"/{7 * 50 + 8 * 25}")


def test_the_row_reads_the_grids_records(tmp_path: Path) -> None:
    """Under --records-only the row reads the chunks recorded and is OPEN naming what is missing."""
    params = job.chunks("full")[:2]
    chunks = {}
    for p in params:
        chunks[canonical_key(p)] = ({"wins": [(1 << 36) - 1] * p["deals"]}, 1.0)
    save_record(job.NAMESPACE, chunks, tmp_path)
    with using(Executor(records=Records(tmp_path), records_only=True)):
        verdict = ledger.evaluate(CLAIM, "full")
    assert verdict.status is Status.OPEN
    assert verdict.computation is not None
    assert verdict.computation.value("coverage") == ("50 of 1000 deals at 1..2 tasks; none at 3..20 tasks")


RECORDS = Path(__file__).resolve().parents[3] / "crewcheck" / "claims" / "data" / "records"


@pytest.mark.skipif(not (RECORDS / file_name(job.NAMESPACE)).is_file(), reason="no committed record")
def test_perturbed_records_are_not_confirmed(tmp_path: Path) -> None:
    """The committed records with RandomSmart's and Random's games exchanged (Figure 7 reversed):
    the row is not CONFIRMED (OPEN while the grid is incomplete)."""
    shutil.copytree(RECORDS, tmp_path / "records")
    path = tmp_path / "records" / file_name(job.NAMESPACE)
    data = json.loads(path.read_text(encoding="utf-8"))
    swapped = _swap({0: [w for chunk in data["chunks"] for w in chunk[1]["wins"]]},
                    ("mcts-smart", "randomsmart"), ("mcts-smart", "random"))[0]
    it = iter(swapped)
    for chunk in data["chunks"]:
        chunk[1]["wins"] = [next(it) for _ in chunk[1]["wins"]]
    path.write_text(json.dumps(data), encoding="utf-8")
    with using(Executor(records=Records(tmp_path / "records"), records_only=True)):
        verdict = ledger.evaluate(CLAIM, "full")
    assert verdict.status is not Status.CONFIRMED, verdict.reason
    complete = len(data["chunks"]) == len(job.chunks("full"))
    assert complete or verdict.status is Status.OPEN, verdict.reason


@pytest.mark.skipif(not (RECORDS / file_name(job.NAMESPACE)).is_file(), reason="no committed record")
def test_the_grid_agrees_with_the_mcts_rows_games() -> None:
    """Pure MCTS-UCT on a deal both records hold (same key, same budget): the same outcome in the
    grid's record as in the record of row witteveen-5-mcts, played by another job."""
    from crewcheck.claims.witteveen import agents

    records = Records()
    other = {}
    for key, (value, _) in records.get_many(agents.NAMESPACE).items():
        p = json.loads(key)
        if p["budget"] == job.BUDGET:
            other.update({(p["agent"], p["seed"], p["tasks"], g[0]): g[1] for g in value["games"]})
    shared = 0
    for key, (value, _) in records.get_many(job.NAMESPACE).items():
        p = json.loads(key)
        for j, bits in enumerate(value["wins"]):
            for agent in ("mcts", "mcts-smart"):
                theirs = other.get((agent, p["seed"], p["tasks"], p["first"] + j))
                if theirs is not None:
                    shared += 1
                    assert job.won(bits, (agent, agent)) == theirs, (agent, p, j)
    assert shared > 0
