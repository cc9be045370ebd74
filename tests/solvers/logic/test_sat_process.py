"""The engine's SAT side alone (:mod:`crewcheck.solvers.logic.sat_process`): its answers
agree with the oracle (Glucose and CP-SAT), a child comes forked or from the fork server,
and a spare process made ahead of time serves deal after deal and never prints a traceback
at exit."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import assume, given, note, settings

from crewcheck import decide, load
from crewcheck.api import check_witness
from crewcheck.formats.notation import to_notation
from crewcheck.model.instance import Instance
from crewcheck.solvers.base import Answer, Verdict
from crewcheck.solvers.logic import sat_process
from tests.oracle import oracle_verdict
from tests.solvers.children import no_children
from tests.strategies import full_free_instances, instances

pytest.importorskip("pysat")
ROOT = Path(__file__).resolve().parents[3]
DEALS = ROOT / "models" / "deals"


def _child_answer(inst: Instance, solver: str) -> Answer:
    """The SAT side's answer alone (a game not over yet), its winning line replayed."""
    note(to_notation(inst))
    assume(inst.state().end is None)
    with sat_process.SatProcess(inst, solver) as child:
        got = child.wait()
    if got.verdict is Verdict.WINNABLE:
        assert got.plays is not None
        check_witness(inst, inst.history + got.plays, got.assignment, "sat-process")
    return got


@settings(max_examples=40)
@given(instances(max_players=3, max_cards=12, max_tasks=4))
def test_sat_process_agrees_with_the_oracle_and_the_search(inst: Instance) -> None:
    """The SAT side alone: its unwinnable answers match the oracle and the search; its
    winning lines pass the replay checker. (A history that has already ended the game is
    answered by ``decide`` itself; no back-end is asked.)"""
    got = _child_answer(inst, sat_process.SOLVER)
    expected = decide(inst, backend="exhaustive").verdict
    assert got.verdict is expected is decide(inst, backend="search").verdict


def _cpsat_child_agrees(inst: Instance) -> None:
    pytest.importorskip("ortools")
    got = _child_answer(inst, sat_process.CPSAT)
    assert got.verdict is oracle_verdict(inst)
    assert got.extra["sat_solver"] == sat_process.CPSAT


@settings(max_examples=15)
@given(full_free_instances())
def test_a_cpsat_child_agrees_with_the_oracle(inst: Instance) -> None:
    """The SAT side running CP-SAT (the engine's choice where free quotas fill the tricks):
    the oracle's verdict, and a winning line that replays (more deals in the slow twin)."""
    _cpsat_child_agrees(inst)


@pytest.mark.slow
@settings(max_examples=60)
@given(full_free_instances())
def test_a_cpsat_child_agrees_with_the_oracle_on_more_deals(inst: Instance) -> None:
    """The same as above on four times the deals (a CP-SAT child process each)."""
    _cpsat_child_agrees(inst)


@pytest.mark.parametrize("threads", [1, 2])
def test_sat_process_with_and_without_fork(monkeypatch: pytest.MonkeyPatch, threads: int) -> None:
    """One thread: the child is forked; more (a library caller's threads): it comes from
    the fork server (or is spawned), and must answer all the same."""
    monkeypatch.setattr(sat_process.threading, "active_count", lambda: threads)
    deal = load(DEALS / "classic-3p-14-13-13.json")
    with sat_process.SatProcess(deal) as child:
        got = child.wait(120)
    assert got.verdict is Verdict.WINNABLE and got.plays is not None
    check_witness(deal, deal.history + got.plays, got.assignment, "sat-process")
    assert no_children()


def test_the_fork_server_preloads_the_sat_child(monkeypatch: pytest.MonkeyPatch) -> None:
    """With threads (no fork), the fork server is told to import the encoder and PySAT
    once, so a child is a fork of it rather than a fresh import."""
    import multiprocessing.forkserver as fs

    if "forkserver" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork server on this platform")
    monkeypatch.setattr(sat_process.threading, "active_count", lambda: 2)
    monkeypatch.setattr(fs._forkserver, "_preload_modules", ["__main__"])
    assert sat_process._context().get_start_method() == "forkserver"
    assert fs._forkserver._preload_modules == list(sat_process.PRELOAD)


def _wait_for_spare() -> None:
    deadline = time.monotonic() + 30
    while (sat_process.SPARES.making or sat_process.SPARES.idle is None) and time.monotonic() < deadline:
        time.sleep(0.01)


def test_a_spare_sat_process_serves_deal_after_deal_and_a_stopped_one_is_replaced() -> None:
    """From a process's second SAT process on, a spare made ahead of time takes the deal
    through its pipe; once it has answered it serves the next deal (the same process); one
    stopped mid-solve is killed and a new spare takes its place."""
    if not sat_process.SPARES.enabled:
        pytest.skip("no fork server on this platform")
    won = load(DEALS / "classic-3p-14-13-13.json")
    lost = load(DEALS / "classic-4p-10-tasks-tokens.json")
    for _ in range(2):  # (forks in a fresh process: the second one asks for a spare)
        with sat_process.SatProcess(won) as child:
            assert child.wait().verdict is Verdict.WINNABLE
    _wait_for_spare()
    first = sat_process.SatProcess(lost)
    assert first._spare is not None
    pid = first._proc.pid
    assert first.wait().verdict is Verdict.UNWINNABLE
    first.stop()
    again = sat_process.SatProcess(won)
    assert again._proc.pid == pid  # the same spare, idle again
    got = again.wait()
    assert got.verdict is Verdict.WINNABLE and got.plays
    check_witness(won, won.history + got.plays, got.assignment, "spare")
    again.stop()
    busy = sat_process.SatProcess(lost)
    assert busy._proc.pid == pid
    busy.stop()  # before it answers: killed
    _wait_for_spare()
    fresh = sat_process.SatProcess(won)
    assert fresh._spare is not None and fresh._proc.pid != pid
    assert fresh.wait().verdict is Verdict.WINNABLE
    fresh.stop()
    assert no_children()


def test_sat_processes_build_their_cnf_with_the_kernel_once_it_is_loaded() -> None:
    """A SAT process forked from a process that has loaded the CNF kernel, and a spare from
    the fork server (which loads it before its first child: ``PRELOAD``), build the CNF
    with it, and its model decodes to a winning line."""
    pytest.importorskip("numba")
    from crewcheck.solvers.logic.cnf_build import load_kernel

    load_kernel()
    won = load(DEALS / "classic-3p-14-13-13.json")
    builders = []
    for n in range(3):
        if n and sat_process.SPARES.enabled:
            _wait_for_spare()
        with sat_process.SatProcess(won) as child:
            got = child.wait()
        assert got.verdict is Verdict.WINNABLE and got.plays
        check_witness(won, won.history + got.plays, got.assignment, "kernel")
        builders.append(got.extra["cnf_builder"])
    assert builders == ["kernel"] * 3
    assert no_children()


@pytest.mark.slow  # three batches of 30 deals in fresh processes: minutes on a busy 2-core machine
def test_a_batch_that_ends_while_a_spare_is_made_prints_nothing(tmp_path: Path) -> None:
    """A spare being made when the process exits finishes starting and is stopped: the
    fork server's child is never left without its instructions. Without that, half the
    runs of this batch (11 of its 30 deals go to the SAT side) ended with that child's
    traceback on stderr."""
    if not sat_process.SPARES.enabled:
        pytest.skip("no fork server on this platform")
    deals = tmp_path / "deals.jsonl"
    deals.write_text("".join((ROOT / "benchmarks/corpus/4p-fixed-k12.jsonl").read_text().splitlines(True)[:30]))
    for n in range(3):
        out = tmp_path / f"out{n}.jsonl"
        done = subprocess.run([sys.executable, "-m", "crewcheck", "decide", "--batch", str(deals), "--out", str(out),
                               "--workers", "0", "--no-progress"], capture_output=True, text=True, timeout=300,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
