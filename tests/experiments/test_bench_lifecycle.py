"""``crewcheck bench``: where it writes, what a resumed run redoes, and that its workers
never outlive it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("numpy")

from crewcheck.experiments import bench  # noqa: E402
from crewcheck.experiments.bench import BenchConfig, run_bench, settled  # noqa: E402
from crewcheck.experiments.results import ResultsStore  # noqa: E402
from crewcheck.cli import main  # noqa: E402
from crewcheck.runtime.paths import CACHE_ENV, user_cache_dir  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CFG = dict(players=3, tasks=(2, 3), deals=2, task_agents=("random",), play_agents=("random",), deck="3x4")


def _oracle_records(store: ResultsStore) -> list[dict[str, object]]:
    return sorted((r for r in store if r["kind"] == "oracle"), key=lambda r: str(r["key"]))


def test_an_unknown_is_retried_when_the_oracle_limit_grows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracle's limit is part of what an "unknown" means: the same limit reuses it, a
    larger one decides the deal again (a stored unknown is not final)."""
    calls: list[float | None] = []
    real = bench.oracle

    def undecided(instance: object, backend: str = "auto", timeout: float | None = 10.0) -> tuple[str, str]:
        calls.append(timeout)
        return "unknown", "search"

    store = ResultsStore(tmp_path / "r.jsonl")
    monkeypatch.setattr(bench, "oracle", undecided)
    run_bench(BenchConfig(**CFG, oracle_timeout=1.0), store, progress=False)  # type: ignore[arg-type]
    first = len(calls)
    unknown = [r for r in _oracle_records(store) if r["verdict"] == "unknown"]
    assert first > 0 and unknown and all(r["oracle_limit"] == 1.0 for r in unknown)

    run_bench(BenchConfig(**CFG, oracle_timeout=1.0), store, progress=False)  # type: ignore[arg-type]
    run_bench(BenchConfig(**CFG, oracle_timeout=0.5), store, progress=False)  # type: ignore[arg-type]
    assert len(calls) == first  # nothing to gain: no oracle call

    monkeypatch.setattr(bench, "oracle", lambda *a, **k: (calls.append(k.get("timeout")), real(*a, **k))[1])
    run_bench(BenchConfig(**CFG, oracle_timeout=5.0), store, progress=False)  # type: ignore[arg-type]
    assert len(calls) > first
    again = ResultsStore(tmp_path / "r.jsonl")  # what a new run reads back
    assert all(r["verdict"] != "unknown" for r in _oracle_records(again))
    assert {r["oracle_limit"] for r in _oracle_records(again) if r["backend"] != "game"} == {5.0}


def test_settled() -> None:
    cfg = BenchConfig(oracle="auto", oracle_timeout=10.0)
    assert settled({"kind": "game"}, cfg)
    assert settled({"kind": "oracle", "verdict": "winnable", "oracle_limit": 0.1}, cfg)
    assert settled({"kind": "oracle", "verdict": "unknown", "oracle": "auto", "oracle_limit": 10.0}, cfg)
    assert not settled({"kind": "oracle", "verdict": "unknown", "oracle": "auto", "oracle_limit": 5.0}, cfg)
    assert not settled({"kind": "oracle", "verdict": "unknown"}, cfg)  # written before limits were kept
    assert not settled({"kind": "oracle", "verdict": "unknown", "oracle": "none", "oracle_limit": 10.0}, cfg)
    assert not settled({"kind": "oracle", "verdict": "unknown", "oracle": "auto", "oracle_limit": 10.0},
                       BenchConfig(oracle_timeout=None))
    assert settled({"kind": "oracle", "verdict": "unknown", "oracle": "auto", "oracle_limit": 1.0},
                   BenchConfig(oracle="none"))
    assert not settled(None, cfg)


def test_bench_writes_into_the_user_cache_not_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """``bench`` writes into the user cache folder, never ``bench-agents/`` in the current
    directory."""
    work, cache = tmp_path / "work", tmp_path / "cache"
    work.mkdir()
    monkeypatch.chdir(work)
    monkeypatch.setenv(CACHE_ENV, str(cache))
    assert main(["bench", "agents", "--players", "3", "--deck", "3x4", "--tasks", "1", "--deals", "1",
                 "--task-agent", "random", "--play-agent", "random", "--no-progress"]) == 0
    assert list(work.iterdir()) == []
    assert (cache / "bench-agents" / "results.sqlite").exists()
    assert (cache / "bench-agents" / "summary.csv").exists()
    assert str(cache / "bench-agents") in capsys.readouterr().out


def test_user_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert user_cache_dir("x") == tmp_path / "xdg" / "crewcheck" / "x"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "mine"))
    assert user_cache_dir() == tmp_path / "mine"


def _children(pid: int) -> set[int]:
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.add(int(entry))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_kill_9_of_bench_leaves_no_worker(tmp_path: Path) -> None:
    """``kill -9`` of ``bench agents --workers 2``: its two workers end too (rather than run
    on for a minute and more)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), CACHE_ENV: str(tmp_path / "cache")}
    proc = subprocess.Popen([sys.executable, "-m", "crewcheck", "bench", "agents", "--players", "3",
                             "--tasks", "4..6", "--deals", "4", "--task-agent", "random", "--play-agent",
                             "mc-smart", "--budget", "1s", "--workers", "2", "--no-progress"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.2)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the workers did not start"
        time.sleep(1.0)  # the workers are busy with a deal
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers), "a worker outlived the bench"
    finally:
        for w in workers:
            try:
                os.kill(w, signal.SIGKILL)
            except OSError:
                pass
        if proc.poll() is None:
            proc.kill()
