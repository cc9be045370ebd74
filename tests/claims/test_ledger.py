"""Ledger verdicts, exit codes, the results store and the Dask path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewcheck.claims import ledger
from crewcheck.claims.base import Claim, Computation, Status, Value
from crewcheck.claims.execution import Executor, Job, run_job, using
from crewcheck.cli import prove
from crewcheck.store import ResultStore


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


def test_dask_in_process_cluster_matches_inline() -> None:
    """The Dask path (in-process cluster) returns the same results in chunk order."""
    pytest.importorskip("distributed")
    job = Job("squares/v1", tuple({"x": x} for x in range(6)), _square)
    with Executor(workers=2, use_dask=True, processes=False) as ex, using(ex):
        got = run_job(job.namespace, job.fn, job.chunks)
    assert got == Executor().run(job)


def test_cli_lists_and_rejects_unknown_claims(capsys) -> None:
    """--list exits 0; an unknown claim id is a usage error (2) with a one-line message."""
    assert prove.main(["--list"]) == 0
    assert prove.main(["no-such-claim", "--no-store"]) == 2
    assert "unknown claim 'no-such-claim'" in capsys.readouterr().err


def test_cli_json_for_a_counting_claim(capsys, tmp_path) -> None:
    """--json prints one object with the recomputed values; Thm 3.12 stays REFUTED as recorded."""
    code = prove.main(["witteveen-thm-3.12", "--json", "--no-store", "--docs", str(tmp_path)])
    doc = json.loads(capsys.readouterr().out)
    (claim,) = doc["claims"]
    assert claim["status"] == "REFUTED"
    assert {v["name"]: v["value"] for v in claim["values"]}["orbits"] == 13_677_426_756
    assert code == 0
    assert (tmp_path / "claims.md").exists()


def test_dejong_chunk_on_a_small_deck() -> None:
    """The Figure 3 chunk deals, assigns and decides (oracle, 16-card deck)."""
    from crewcheck.claims.solver_bridge import dejong_chunk

    params = {"objectives": "fixed", "tasks": 2, "seed": 1, "index": 0, "size": 2, "backend": "exhaustive",
              "sizes": {"B": 3, "G": 3, "P": 3, "Y": 3, "R": 4}, "timeout": 30}
    out = dejong_chunk(params)
    assert out["winnable"] + out["unwinnable"] + out["unknown"] == 2


def test_prove_is_registered_with_the_main_cli(capsys) -> None:
    """`crewcheck prove --list` works through crewcheck.cli.main."""
    from crewcheck.cli import main

    assert main(["prove", "--list"]) == 0
    assert "witteveen-thm-3.12" in capsys.readouterr().out


def test_reiber_random_deals_are_valid_and_decidable() -> None:
    """Deals drawn for the Reiber differential checks load and the oracle decides them."""
    import random

    from crewcheck import decide, from_dict
    from crewcheck.claims import reiber

    rng = random.Random(0)
    for case in reiber.CASES.values():
        for _ in range(5):
            inst = from_dict(reiber.random_deal(rng, **case))
            assert decide(inst, backend="exhaustive").verdict.name in {"WINNABLE", "UNWINNABLE"}


def test_brute_force_hamiltonian_path() -> None:
    """Paths and stars of 3 have one, two isolated vertices do not, a 4-star does not."""
    from crewcheck.claims.reiber import has_hamiltonian_path

    assert has_hamiltonian_path(3, {(0, 1), (1, 2)})
    assert not has_hamiltonian_path(2, set())
    assert not has_hamiltonian_path(4, {(0, 1), (0, 2), (0, 3)})


def test_hampath_chunk_agrees_on_small_graphs() -> None:
    """Reduced deals of random graphs with up to 3 vertices: winnable iff Hamiltonian."""
    pytest.importorskip("networkx")
    from crewcheck.claims.reiber import hampath_chunk

    out = hampath_chunk({"seed": 1, "index": 0, "size": 4, "max_vertices": 3})
    assert out["disagree"] == 0 and out["backend_disagree"] == 0


def test_prove_quick_matches_every_established_verdict(tmp_path, monkeypatch, capsys):
    """`crewcheck prove --quick` (what CI runs): every recomputed verdict equals the one the
    project has established (exit 0), including the refutations."""
    from crewcheck.cli import main

    root = Path(__file__).resolve().parents[2]
    monkeypatch.chdir(root)  # the pinned counterexamples are found from the checkout
    code = main(["prove", "--quick", "--no-docs", "--store", str(tmp_path / "store.sqlite")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "REFUTED" in out and "witteveen-thm-3.12" in out
