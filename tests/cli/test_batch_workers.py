"""``decide --batch`` on workers: the same answers on 1 and 2 workers and on a local Dask
cluster, resume after ``kill -9``, no process left after Ctrl-C, the memory bound, bad lines."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from crewcheck.cli import main

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "benchmarks" / "corpus"
SMALL = '{"hands": [["B1", "B3"], ["B2", "B4"]], "tasks": [{"card": "B3", "seat": 0}]}'
SLOW_ID = "3p-fixed-k12/21"
"""A corpus deal that takes seconds (the search refutes it after millions of nodes)."""


def _corpus_lines(cell: str, n: int) -> list[str]:
    return (CORPUS / f"{cell}.jsonl").read_text().splitlines()[:n]


def _slow_line() -> str:
    return next(line for line in (CORPUS / "3p-fixed-k12.jsonl").read_text().splitlines()
                if json.loads(line)["id"] == SLOW_ID)


def _answers(text: str) -> list[tuple[object, ...]]:
    rows = [json.loads(line) for line in text.splitlines()]
    return [(r["line"], r.get("id"), r.get("verdict", "error")) for r in rows]


def _crewcheck(*argv: str, **kw: object) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "crewcheck", *argv], env=env, text=True,  # type: ignore[call-overload, no-any-return]
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_ctrl_c_on, **kw)


def _ctrl_c_on() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _descendants(pid: int) -> set[int]:
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as f:
                    kids = [int(c) for c in f.read().split()]
                out.update(kids)
                todo.extend(kids)
        except OSError:
            continue
    return out


def _alive(pids: set[int]) -> set[int]:
    alive = set()
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                if f.read().split(")")[-1].split()[0] != "Z":
                    alive.add(p)
        except OSError:
            pass
    return alive


def _wait_gone(pids: set[int], seconds: float = 10.0) -> set[int]:
    end = time.monotonic() + seconds
    while _alive(pids) and time.monotonic() < end:
        time.sleep(0.05)
    return _alive(pids)


def _wait_lines(path: Path, n: int, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if path.exists() and path.read_text().count("\n") >= n:
            return
        time.sleep(0.05)
    raise AssertionError(f"{path} did not reach {n} lines")


def test_one_two_workers_and_inline_give_the_same_answers_in_order(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Corpus deals and a bad line: the same verdicts, ids and line numbers, in input order."""
    lines = _corpus_lines("4p-fixed-k04", 6) + ["{oops"] + _corpus_lines("3p-free-k02", 5)
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(lines) + "\n")
    runs = {}
    for workers in ("0", "1", "2"):
        assert main(["decide", "--batch", str(path), "--workers", workers, "--no-progress"]) == 2
        runs[workers] = _answers(capsys.readouterr().out)
    assert runs["1"] == runs["0"] and runs["2"] == runs["0"]
    assert [a[0] for a in runs["0"]] == list(range(1, 13)) and runs["0"][6][2] == "error"
    assert {a[2] for a in runs["0"]} >= {"winnable"}


@pytest.mark.slow
def test_a_local_dask_cluster_gives_the_same_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--scheduler local``: the same answers as in this process."""
    pytest.importorskip("distributed")
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(_corpus_lines("4p-fixed-k02", 4) + ["[1]"]) + "\n")
    assert main(["decide", "--batch", str(path), "--workers", "0", "--no-progress"]) == 2
    inline = _answers(capsys.readouterr().out)
    assert main(["decide", "--batch", str(path), "--scheduler", "local", "--workers", "2", "--no-progress"]) == 2
    captured = capsys.readouterr()
    assert _answers(captured.out) == inline
    assert "dask local cluster, 2 workers" in captured.err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")
def test_resume_after_kill_9_loses_and_repeats_nothing(tmp_path: Path) -> None:
    """``kill -9`` of the parent mid-run: its workers die with it; ``--resume`` keeps the
    complete lines, drops a line cut short, and decides the rest exactly once."""
    lines = [SMALL.replace('"B3", "seat": 0', f'"{card}", "seat": {seat}') for card in ("B3", "B4")
             for seat in (0, 1)] * 3
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = tmp_path / "results.jsonl"
    proc = _crewcheck("decide", "--batch", "-", "--out", str(out), "--workers", "2", stdin=subprocess.PIPE)
    assert proc.stdin is not None
    proc.stdin.write("\n".join(lines[:5]) + "\n")  # a slow producer: the run waits for line 6
    proc.stdin.flush()
    _wait_lines(out, 5)
    workers = _descendants(proc.pid)
    assert len(workers) >= 2
    proc.kill()
    proc.wait(timeout=30)
    proc.stdin.close()
    assert not _wait_gone(workers), "a worker outlived its killed parent"
    with open(out, "a") as f:
        f.write('{"schema": "crewcheck-result/1", "verd')  # a line cut short by the kill
    assert main(["decide", "--batch", str(path), "--out", str(out)]) == 2  # refuses to overwrite
    assert main(["decide", "--batch", str(path), "--out", str(out), "--resume", "--no-progress"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["line"] for r in rows] == list(range(1, 13))
    assert [r["verdict"] for r in rows] == [r["verdict"] for r in rows[:4]] * 3
    assert {r["verdict"] for r in rows} == {"winnable", "unwinnable"}


def test_resume_refuses_another_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Results whose line numbers do not match the input are not continued."""
    out = tmp_path / "results.jsonl"
    out.write_text(json.dumps({"schema": "crewcheck-result/1", "verdict": "winnable", "line": 3, "seconds": 0,
                               "stats": {"nodes": 0}}) + "\n")
    path = tmp_path / "deals.jsonl"
    path.write_text(SMALL + "\n")
    assert main(["decide", "--batch", str(path), "--out", str(out), "--resume"]) == 2
    assert "not resuming" in capsys.readouterr().err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc")
def test_ctrl_c_leaves_no_process_behind(tmp_path: Path) -> None:
    """SIGINT while two workers decide (one of them a deal of seconds, racing a SAT child):
    the summary is printed, and no worker or SAT process is left."""
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join([SMALL, _slow_line(), _slow_line(), SMALL]) + "\n")
    out = tmp_path / "results.jsonl"
    proc = _crewcheck("decide", "--batch", str(path), "--out", str(out), "--workers", "2")
    _wait_lines(out, 1)
    time.sleep(0.3)
    family = _descendants(proc.pid)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted after" in err.splitlines()[-1] and "Traceback" not in err
    assert not _wait_gone(family), "a process outlived the interrupted run"


def test_a_worker_over_the_memory_bound_is_one_error_and_the_run_finishes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A bound no worker can keep: the slow deal's worker is stopped and its line is an error
    naming the bound; a fresh worker takes the next line (the quick deals usually end before
    the first check; on a loaded machine one may be stopped too, and says so)."""
    path = tmp_path / "deals.jsonl"
    path.write_text("\n".join([SMALL, _slow_line(), SMALL]) + "\n")
    code = main(["decide", "--batch", str(path), "--workers", "1", "--memory-limit", "1MiB", "--no-progress"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 4
    assert [r["line"] for r in rows] == [1, 2, 3]
    assert rows[1]["id"] == SLOW_ID and rows[1]["error"]["type"] == "WorkerLostError"
    assert "memory bound" in rows[1]["error"]["message"]
    for quick in (rows[0], rows[2]):
        assert quick.get("verdict") == "winnable" or quick["error"]["type"] == "WorkerLostError"


def test_batch_flags_need_batch(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["decide", str(ROOT / "models" / "examples" / "x.json"), "--workers", "2"]) == 2
    assert "--workers goes with --batch" in capsys.readouterr().err


@pytest.mark.parametrize(("backend", "cores", "expected"), [
    ("auto", 2, 1), ("engine", 4, 2), ("portfolio", 8, 4), ("engine", 1, 1), ("search", 2, 2), ("sat", 4, 4)])
def test_default_workers_never_keep_more_busy_processes_than_cores(
        monkeypatch: pytest.MonkeyPatch, backend: str, cores: int, expected: int) -> None:
    """Without ``--workers`` a batch starts one worker per core, and one per two cores for
    the engine (each worker's search races a SAT process), at least one."""
    import argparse

    from crewcheck.cli.batch import workers_of

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)))
    args = argparse.Namespace(workers=None, backend=backend, memory_limit=None, scheduler=None)
    assert workers_of(args).count == expected
    args.workers = 3
    assert workers_of(args).count == 3


@pytest.mark.parametrize(("backend", "loads"), [("auto", True), ("engine", True), ("search", False), ("sat", False)])
def test_a_batch_loads_the_sat_sides_cnf_kernel_for_the_engine(monkeypatch: pytest.MonkeyPatch, backend: str,
                                                              loads: bool) -> None:
    """Before its workers start, a batch of the engine loads the kernel that writes the SAT
    processes' CNF (forks inherit it); other back-ends do not need it."""
    from crewcheck.cli import batch
    from crewcheck.solvers.logic import cnf_build

    calls: list[str] = []
    monkeypatch.setattr(cnf_build, "load_kernel", lambda: calls.append(backend))
    batch._load_kernel(backend)
    assert bool(calls) is loads
