"""``crewcheck bench agents`` and ``crewcheck simulate`` (the bench itself:
tests/experiments/test_bench.py)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numpy")

from crewcheck.cli import main  # noqa: E402


def test_bench_cli_writes_tables_and_plots_and_resumes(tmp_path, capsys) -> None:
    out = tmp_path / "b"
    argv = ["bench", "agents", "--players", "3", "--deck", "3x4", "--tasks", "1..2", "--deals", "3",
            "--task-agent", "random,tactical", "--play-agent", "randomsmart", "--out", str(out),
            "--plot", "--json", "--no-progress", "--seed", "5"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    rows = doc["rows"]
    assert len(rows) == 4 and all(r["games"] == 3 for r in rows)
    assert all(r["wins"] <= r["winnable_chosen"] <= r["winnable_best"] for r in rows)
    for name in ("summary.csv", "summary.json", "agents-wins.png", "agents-wins.svg",
                 "agents-efficiency.png", "agents-efficiency.svg"):
        assert (out / name).exists(), name
    from crewcheck.experiments.results import open_store

    before = sorted(r["key"] for r in open_store(out))
    assert before
    assert main(argv) == 0  # resumed: nothing new to do
    assert sorted(r["key"] for r in open_store(out)) == before
    assert json.loads(capsys.readouterr().out)["rows"] == rows


def test_bench_cli_seeded_results_repeat(tmp_path, capsys) -> None:
    argv = ["bench", "agents", "--deck", "3x4", "--tasks", "2", "--deals", "3", "--task-agent", "tactical",
            "--play-agent", "mcts", "--budget", "40", "--json", "--no-progress"]
    assert main(argv + ["--out", str(tmp_path / "a")]) == 0
    a = json.loads(capsys.readouterr().out)["rows"]
    assert main(argv + ["--out", str(tmp_path / "b")]) == 0
    b = json.loads(capsys.readouterr().out)["rows"]
    strip = lambda rows: [{k: v for k, v in r.items() if k != "seconds_per_game"} for r in rows]  # noqa: E731
    assert strip(a) == strip(b)


@pytest.mark.parametrize("bad", [["--task-agent", "nope"], ["--tasks", "x..y"], ["--deck", "9q"],
                                 ["--budget", "fast"], ["--tasks", "1..50"], ["--play-agent", "tactical"]])
def test_bench_cli_bad_input_exit_2(tmp_path, capsys, bad) -> None:
    assert main(["bench", "agents", "--out", str(tmp_path), "--no-progress", *bad]) == 2
    err = capsys.readouterr().err
    assert err.startswith("crewcheck: error: ") and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_simulate_prints_a_game(capsys) -> None:
    assert main(["simulate", "--players", "3", "--tasks", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert out.split()[0] in ("won", "lost") and "trick 1:" in out
