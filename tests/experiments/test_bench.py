"""The agents' bench (:mod:`crewcheck.experiments.bench`): its oracle records agree with
``crewcheck.decide``, worker processes give the records of a serial run, and a shared
store resumes."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

from crewcheck import decide  # noqa: E402
from crewcheck.agents.simulate import deal, setup_instance  # noqa: E402
from crewcheck.experiments.bench import BenchConfig, run_deal  # noqa: E402
from crewcheck.experiments.results import NAMESPACE  # noqa: E402


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
