"""Every CONFIRMED (and CONSISTENT) row can fail: on a perturbed input it is not confirmed.

A row is perturbed in one of three ways, listed in :data:`PERTURB`:

* ``printed``: the printed number is changed by one unit; judged against the same
  computation, the row must not be CONFIRMED (the comparison is real);
* ``records``: every committed chunk the row reads gets one disagreement more (or an
  unwinnable deal, a wrong image); recomputed from the perturbed records, the row must
  not be CONFIRMED;
* a function of its own, for rows computed inline or perturbed in their own way (the agent
  rows: tests/claims/dejong/test_players.py, tests/claims/witteveen/test_agents.py,
  tests/claims/witteveen/test_ranking.py).

A test also checks that every CONFIRMED or CONSISTENT row of the committed ledger has an
entry here, so a new one cannot be added without a failing-input test.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from crewcheck.claims import ledger
from crewcheck.claims.claim import Status
from crewcheck.claims.dejong import determinization, figure3
from crewcheck.claims.execution import Executor, using
from crewcheck.claims.records import Records
from crewcheck.claims.registry import BY_ID

ROOT = Path(__file__).resolve().parents[2]
RECORDS = ROOT / "crewcheck" / "claims" / "data" / "records"
LEDGER = json.loads((ROOT / "docs" / "claims-ledger.json").read_text(encoding="utf-8"))

BUMP = ("disagree", "wrong_class", "unwinnable")
"""Record fields a perturbation increments (each a count the row requires to be 0)."""

PERTURB: dict[str, str] = {
    "witteveen-lemma-3.13": "printed", "witteveen-thm-3.17": "printed", "witteveen-thm-3.20": "printed",
    "witteveen-cor-3.21": "printed", "witteveen-cor-3.21-exhaustive": "printed", "dejong-fig-8": "printed",
    "dejong-fig-3-free": "records", "witteveen-thm-3.15": "records", "witteveen-thm-3.18": "records",
    "witteveen-thm-3.23": "records", "reiber-thm-3.1": "records", "reiber-thm-4.1": "records",
    "reiber-lemma-6.2": "records", "reiber-cor-6.4-intended": "records", "reiber-thm-6.5": "records",
    "dejong-lemma-1": "own", "dejong-lemma-2": "own", "reiber-cor-6.3": "own", "dejong-fig-3-fixed": "own",
    "blog-003-planner-execution": "records",
    "dejong-5.3-players": "own", "witteveen-5-mcts": "own", "witteveen-5-ranking": "own",
}


def test_every_confirmed_row_has_a_failing_input_test() -> None:
    held = {r["id"] for r in LEDGER["claims"] if r["status"] in ("CONFIRMED", "CONSISTENT")}
    assert held <= set(PERTURB), sorted(held - set(PERTURB))


def _off_by_one(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _off_by_one(v) for k, v in value.items()}
    if isinstance(value, str) and "/" in value:
        return str(Fraction(value) + Fraction(1, 1000))
    if isinstance(value, float):
        return round(value + 0.01, 2)
    return value + 1


@pytest.mark.parametrize("claim_id", sorted(k for k, v in PERTURB.items() if v == "printed"))
def test_a_changed_printed_number_is_not_confirmed(claim_id: str) -> None:
    claim = BY_ID[claim_id]
    with using(Executor(records=Records(), records_only=True)):
        comp = claim.compute("full")
    assert ledger.judge(claim, comp)[0] is Status.CONFIRMED
    for name in claim.expected:
        changed = dataclasses.replace(claim, expected={**claim.expected, name: _off_by_one(claim.expected[name])})
        assert ledger.judge(changed, comp)[0] is not Status.CONFIRMED, name


def _bump(value: Any) -> tuple[Any, bool]:
    """`value` with every :data:`BUMP` count incremented, and whether any was."""
    if isinstance(value, dict):
        out, hit = {}, False
        for k, v in value.items():
            if k in BUMP and isinstance(v, int) and not isinstance(v, bool):
                out[k], hit = v + 1, True
            else:
                out[k], h = _bump(v)
                hit |= h
        return out, hit
    return value, False


def _perturbed_records(tmp_path: Path, namespaces: list[str]) -> Path:
    folder = tmp_path / "records"
    shutil.copytree(RECORDS, folder)
    for path in folder.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("namespace") not in namespaces:
            continue
        chunks = []
        for key, value, seconds in data["chunks"]:
            bumped, _ = _bump(value)
            chunks.append([key, bumped, seconds])
        data["chunks"] = chunks
        path.write_text(json.dumps(data), encoding="utf-8")
    return folder


@pytest.mark.parametrize("claim_id", sorted(k for k, v in PERTURB.items() if v == "records"))
def test_perturbed_records_are_not_confirmed(claim_id: str, tmp_path: Path) -> None:
    claim = BY_ID[claim_id]
    row = next(r for r in LEDGER["claims"] if r["id"] == claim_id)
    namespaces = [j["namespace"] for j in row["jobs"]]
    assert namespaces, "a records row reads committed records"
    if claim_id.startswith("blog-003"):
        _perturb_blog(tmp_path, namespaces)
        return
    folder = _perturbed_records(tmp_path, namespaces)
    with using(Executor(records=Records(folder), records_only=True)):
        verdict = ledger.evaluate(claim, "full")
    assert verdict.status not in (Status.CONFIRMED, Status.CONSISTENT), verdict.reason


def _perturb_blog(tmp_path: Path, namespaces: list[str]) -> None:
    """The planner's execution row: every found plan's execution made a failure."""
    folder = tmp_path / "records"
    shutil.copytree(RECORDS, folder)
    for path in folder.glob("*.json"):
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("namespace") in namespaces:
            for chunk in data["chunks"]:
                value = chunk[1]
                value["execution_failed"] += value["solved"]
                value["solved"] = 0
            path.write_text(json.dumps(data), encoding="utf-8")
    with using(Executor(records=Records(folder), records_only=True)):
        verdict = ledger.evaluate(BY_ID["blog-003-planner-execution"], "full")
    assert verdict.status not in (Status.CONFIRMED, Status.CONSISTENT), verdict.reason


def test_lemma_1_check_fails_on_a_sampler_that_is_not_uniform() -> None:
    """Uniform random selection (normalised over its dead ends) is not uniform: the check says so."""
    def selection(cands: Any, sizes: Any) -> Any:
        law, dead = determinization.random_selection_distribution(cands, sizes)
        return {d: p / (1 - dead) for d, p in law.items()}
    assert determinization.lemma_1("quick").holds is True
    assert determinization.lemma_1("quick", law=selection).holds is False


def test_lemma_2_check_fails_off_chains() -> None:
    """Algorithm 2 on Figure 7 (not a chain): the check finds it not uniform."""
    assert determinization.lemma_2("quick").holds is True
    assert determinization.lemma_2("quick", family=[determinization.figure7()]).holds is False


def test_cor_6_3_check_fails_when_a_task_is_not_owned(monkeypatch: pytest.MonkeyPatch) -> None:
    from crewcheck.claims.reiber import reduction
    from crewcheck.model.tasks import Task

    real = reduction.owned_tasks
    assert reduction.cor_6_3("quick").holds is True

    def moved(instance: Any) -> bool:
        seats = len(instance.hands)
        tasks = tuple(Task(t.card, (t.seat + 1) % seats) for t in instance.tasks)
        return real(dataclasses.replace(instance, tasks=tasks))
    monkeypatch.setattr(reduction, "owned_tasks", moved)
    assert reduction.cor_6_3("quick").holds is False


def test_fixed_curve_check_fails_when_every_deal_is_winnable() -> None:
    """The fixed row is CONSISTENT because some deal is unwinnable; all winnable fails it."""
    some = {1: {"winnable": 9, "unwinnable": 1, "unknown": 0}}
    none = {1: {"winnable": 10, "unwinnable": 0, "unknown": 0}}
    assert figure3.fixed_shape((), some).holds is True
    assert figure3.fixed_shape((), none).holds is False
    claim = BY_ID["dejong-fig-3-fixed"]
    assert ledger.judge(claim, figure3.fixed_shape((), some))[0] is Status.CONSISTENT
    assert ledger.judge(claim, figure3.fixed_shape((), none))[0] is Status.REFUTED


def test_eq_20_check_passes_the_corrected_formula() -> None:
    """The check that refutes (20) as printed accepts the formula with the missing term."""
    from crewcheck.agents.determinize import closed_form_count

    assert determinization.eq_20_as_printed("quick").holds is False
    assert determinization.eq_20_as_printed("quick", count=closed_form_count).holds is True


def test_lemma_5_1_check_holds_where_merging_costs_nothing() -> None:
    from crewcheck.claims.reiber import reduction

    assert reduction.lemma_5_1("quick").holds is False
    assert reduction.lemma_5_1("quick", (((1, 3), (2, 4)), {2: 1, 4: 1})).holds is True
