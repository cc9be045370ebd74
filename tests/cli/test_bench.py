"""``crewcheck bench agents`` and ``crewcheck simulate``."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("numpy")

from crewcheck import decide  # noqa: E402
from crewcheck.experiments.bench import BenchConfig, run_deal  # noqa: E402
from crewcheck.experiments.results import NAMESPACE  # noqa: E402
from crewcheck.agents.simulate import deal, setup_instance  # noqa: E402
from crewcheck.cli import main  # noqa: E402


def test_bench_oracle_columns_agree_with_decide() -> None:
    """Every oracle record of the bench equals crewcheck.decide (exhaustive) on that deal."""
    cfg = BenchConfig(players=3, tasks=(1, 2, 3), deals=4, task_agents=("random", "tactical"),
                      play_agents=("random", "mcts-smart"), budget="50", deck="3x4", oracle="auto")
    for t in cfg.tasks:
        for i in range(cfg.deals):
            recs = run_deal(cfg, t, i)
            setup = deal(3, t, seed=cfg.deal_key(t, i), deck="3x4")
            games = [r for r in recs if r["kind"] == "game"]
            for r in recs:
                if r["kind"] != "oracle":
                    continue
                owners = r["assignment"]
                inst = setup_instance(setup, owners)
                assert r["verdict"] == decide(inst, backend="exhaustive").verdict.value, r
            for g in games:  # a win is never called unwinnable
                if g["won"]:
                    oc = next(r for r in recs if r["kind"] == "oracle" and r["assignment"] == g["owners"])
                    assert oc["verdict"] == "winnable"


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


def test_bench_workers_give_the_same_results(tmp_path) -> None:
    """Deals run in worker processes give exactly the records of a serial run."""
    from crewcheck.experiments.bench import run_bench
    from crewcheck.experiments.results import open_store

    cfg = BenchConfig(players=3, tasks=(1, 2), deals=2, task_agents=("tactical",), play_agents=("pmc",),
                      budget="30", deck="3x4")
    a, b = open_store(tmp_path / "a"), open_store(tmp_path / "b")
    run_bench(cfg, a, workers=1, progress=False)
    run_bench(cfg, b, workers=2, progress=False)
    strip = lambda s: sorted((r["key"], r.get("won"), r.get("verdict")) for r in s)  # noqa: E731
    assert strip(a) == strip(b) and len(a) > 0


def test_shared_store_resumes() -> None:
    """Records written to the store are found again by a new view of it, and not redone."""
    from crewcheck.experiments.bench import run_bench, summarise
    from crewcheck.experiments.results import SharedStore
    from crewcheck.runtime.store import ResultStore

    cfg = BenchConfig(players=3, tasks=(1,), deals=2, task_agents=("tactical",), play_agents=("random",), deck="3x4")
    backing = ResultStore(":memory:")
    run_bench(cfg, SharedStore(backing), progress=False)
    n = len(backing.get_many(NAMESPACE))
    again = SharedStore(backing)
    run_bench(cfg, again, progress=False)
    assert len(backing.get_many(NAMESPACE)) == n > 0
    assert summarise(cfg, again)[0]["games"] == 2
