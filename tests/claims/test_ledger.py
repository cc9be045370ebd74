"""Ledger verdicts, exit codes, the results store and the Dask path."""

from __future__ import annotations


import pytest

from crewcheck.claims import ledger
from crewcheck.claims.claim import Claim, Computation, Status, Value
from crewcheck.claims.execution import Executor, Job, run_job, using
from crewcheck.runtime.store import ResultStore


def _square(params: dict) -> dict:
    return {"square": params["x"] ** 2}


def _claim(value: int, *, expected: int = 4, raises: bool = False, reason: str | None = None) -> Claim:
    def compute(mode: str) -> Computation:
        if raises:
            raise ZeroDivisionError("boom")
        return Computation((Value("x", value, "given"),), holds=None, open_reason=reason)

    return Claim(id="t", source="test", statement="x is 4", expected={"x": expected}, compute=compute)


def test_verdicts_follow_computation() -> None:
    """Equal value: CONFIRMED; different: REFUTED naming both; error or reason: OPEN."""
    assert ledger.evaluate(_claim(4), "quick").status is Status.CONFIRMED
    refuted = ledger.evaluate(_claim(5), "quick")
    assert refuted.status is Status.REFUTED and "computed 5, published 4" in refuted.reason
    assert ledger.evaluate(_claim(4, raises=True), "quick").status is Status.OPEN
    assert ledger.evaluate(_claim(4, reason="no solver"), "quick").reason == "no solver"


def test_exit_codes() -> None:
    """0 when verdicts match the record, 1 when one changed, 3 when one could not finish."""
    same = ledger.evaluate(_claim(5), "quick", Status.REFUTED)
    changed = ledger.evaluate(_claim(4), "quick", Status.REFUTED)
    unfinished = ledger.evaluate(_claim(4, reason="budget"), "quick", Status.CONFIRMED)
    assert ledger.exit_code([same]) == 0
    assert ledger.exit_code([same, changed]) == 1
    assert ledger.exit_code([same, unfinished]) == 3
    assert ledger.exit_code([changed, unfinished]) == 1


def test_store_resumes(tmp_path) -> None:
    """Chunks already in the store are not run again."""
    path = tmp_path / "r.sqlite"
    job = Job("squares/v1", tuple({"x": x} for x in range(5)), _square)
    with ResultStore(path) as store:
        ex = Executor(store=store)
        assert [r["square"] for r in ex.run(job)] == [0, 1, 4, 9, 16]
        assert ex.chunks_run == 5
    with ResultStore(path) as store:
        ex = Executor(store=store)
        ex.run(Job("squares/v1", tuple({"x": x} for x in range(7)), _square))
        assert (ex.chunks_run, ex.chunks_cached) == (2, 5)


def test_worker_processes_match_inline() -> None:
    """Two worker processes return the same results in chunk order, and store them."""
    job = Job("squares/v1", tuple({"x": x} for x in range(6)), _square)
    with Executor(workers=2, parallel=True) as ex, using(ex):
        assert ex.pool.count == 2
        got = run_job(job.namespace, job.fn, job.chunks)
    assert got == Executor().run(job) and ex.chunks_run == 6


@pytest.mark.slow
def test_a_local_dask_cluster_matches_inline() -> None:
    """The Dask path (a local cluster) returns the same results in chunk order."""
    pytest.importorskip("distributed")
    job = Job("squares/v1", tuple({"x": x} for x in range(6)), _square)
    with Executor(workers=2, scheduler="local") as ex, using(ex):
        got = run_job(job.namespace, job.fn, job.chunks)
    assert got == Executor().run(job)
