"""Committed records: read before the store, never recomputed, written by --save-records."""

from __future__ import annotations

from pathlib import Path

import pytest

from crewcheck.claims import ledger
from crewcheck.claims.claim import Claim, Computation, Status, Value
from crewcheck.claims.execution import Executor, IncompleteRecordError, Job, run_job, using
from crewcheck.claims.records import Records, file_name, save_record
from crewcheck.runtime.store import ResultStore, canonical_key

CALLS: list[int] = []


def _square(params: dict) -> dict:
    CALLS.append(params["x"])
    return {"square": params["x"] ** 2}


def test_record_round_trip(tmp_path: Path) -> None:
    """What save_record writes, Records reads back: the same values and seconds per key."""
    chunks = {canonical_key({"x": x}): ({"square": x * x}, 0.5 * x) for x in range(4)}
    path = save_record("squares/v1", chunks, tmp_path)
    assert path.name == file_name("squares/v1") == "squares__v1.json"
    assert Records(tmp_path).get_many("squares/v1") == chunks
    assert list(Records(tmp_path).namespaces()) == [("squares/v1", 4, 3.0)]
    assert Records(tmp_path).get_many("other/v1") == {}


def test_a_record_of_another_namespace_is_refused(tmp_path: Path) -> None:
    """A file renamed onto another job's name is not silently read as that job's."""
    save_record("a/v1", {canonical_key({"x": 1}): (1, 0.0)}, tmp_path)
    (tmp_path / file_name("a/v1")).rename(tmp_path / file_name("b/v1"))
    with pytest.raises(ValueError, match="not a record of 'b/v1'"):
        Records(tmp_path).get_many("b/v1")


def test_recorded_chunks_are_not_computed_again(tmp_path: Path) -> None:
    """The executor takes recorded chunks first and computes only the rest."""
    save_record("squares/v1", {canonical_key({"x": 2}): ({"square": 4}, 1.0)}, tmp_path)
    CALLS.clear()
    ex = Executor(records=Records(tmp_path))
    out = ex.run(Job("squares/v1", tuple({"x": x} for x in range(4)), _square))
    assert [r["square"] for r in out] == [0, 1, 4, 9]
    assert sorted(CALLS) == [0, 1, 3] and (ex.chunks_recorded, ex.chunks_run) == (1, 3)
    assert ex.results["squares/v1"][canonical_key({"x": 2})] == ({"square": 4}, 1.0)


def test_records_only_computes_nothing(tmp_path: Path) -> None:
    """Under records_only a job the records lack raises, naming what is missing; the ledger
    turns that into OPEN."""
    save_record("squares/v1", {canonical_key({"x": 0}): ({"square": 0}, 0.0)}, tmp_path)
    CALLS.clear()
    ex = Executor(records=Records(tmp_path), records_only=True)
    with pytest.raises(IncompleteRecordError, match="lacks 2 of 3 chunks"):
        ex.run(Job("squares/v1", tuple({"x": x} for x in range(3)), _square))
    assert CALLS == []
    # the chunks there are stay in the executor's results, for a partial record
    assert list(ex.results["squares/v1"]) == [canonical_key({"x": 0})]

    def compute(mode: str) -> Computation:
        run_job("squares/v1", _square, [{"x": x} for x in range(3)])
        return Computation((Value("x", 1, "given"),), holds=None)

    claim = Claim("t", "t", "t", {"x": 1}, compute=compute)
    with using(ex):
        v = ledger.evaluate(claim, "full")
    assert v.status is Status.OPEN and "lacks 2 of 3 chunks" in v.reason


def test_verdict_names_the_jobs_it_read(tmp_path: Path) -> None:
    """A verdict lists each chunked job with its chunks and recorded seconds (what the
    generated ledger prints instead of a wall time)."""
    save_record("squares/v1", {canonical_key({"x": x}): ({"square": x * x}, 2.0) for x in range(3)}, tmp_path)

    def compute(mode: str) -> Computation:
        run_job("squares/v1", _square, [{"x": x} for x in range(3)])
        return Computation((Value("x", 1, "given"),), holds=None)

    with using(Executor(records=Records(tmp_path), records_only=True)):
        v = ledger.evaluate(Claim("t", "t", "t", {"x": 1}, compute=compute), "full")
    assert v.status is Status.CONFIRMED and v.jobs == (("squares/v1", 3, 6.0),)


def test_store_keeps_seconds(tmp_path: Path) -> None:
    """The store returns each chunk's seconds with its value (what --save-records writes)."""
    with ResultStore(tmp_path / "s.sqlite") as store:
        store.put("n/v1", {"x": 1}, {"y": 2}, seconds=1.25)
        assert store.get_many_timed("n/v1") == {canonical_key({"x": 1}): ({"y": 2}, 1.25)}
