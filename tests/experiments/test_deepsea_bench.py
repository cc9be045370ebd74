"""The Deep Sea bench (:mod:`crewcheck.experiments.deepsea_bench`): the published table,
the RTU interval, ``crewcheck bench deepsea`` and its resume, the oracle job against
``crewcheck.decide``, the coverage of a trained table, and the seatings of each setting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from crewcheck.agents.deepsea import (QTable, StochasticAgent, assignments, build_instance, deal_deepsea,
                                      play_deepsea, rtu, train_mcts)
from crewcheck.agents.deepsea_readings import DEEPSEA_AGENTS

RS = [k / 10 for k in range(11)]


def test_published_table() -> None:
    from crewcheck.experiments.deepsea_bench import published

    pub = published()
    assert [pub[n]["stochastic"] for n in (3, 4, 5, 6)] == [0.047, 0.058, 0.047, 0.043]
    assert [pub[n]["mcts"] for n in (3, 4, 5, 6)] == [0.220, 0.166, 0.078, 0.053]
    assert [pub[n]["rtu"] for n in (3, 4, 5, 6)] == [0.48, 0.57, 0.60, 0.79]


def test_rtu_interval_covers_the_value() -> None:
    from crewcheck.experiments.deepsea_bench import rtu_interval

    wins = [500 + 150 * k for k in range(11)]
    lo, hi = rtu_interval(RS, wins, [10_000] * 11, 500, 10_000)
    assert lo < rtu(RS, [w / 10_000 for w in wins], 0.05) < hi and hi - lo < 0.1


def test_bench_deepsea_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from crewcheck.cli import main

    argv = ["bench", "deepsea", "--cards", "3", "--games", "40", "--training", "300", "--chunk", "20",
            "--r-step", "0.5", "--out", str(tmp_path), "--json", "--no-progress"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)
    row = first["rows"][0]
    assert row["cards"] == 3 and set(row["curves"]) == {"teammates", "all"}
    sets = dict(row["settings"])
    assert set(sets) == {"stochastic", "mcts", "mcts-seen", "teammates@0", "teammates@0.5", "all@0.5"}
    assert "winnable" not in sets.pop("mcts-seen")  # the training deals have no verdicts
    for e in sets.values():
        assert e["games"] == 40 and e["unknown"] == 0
        assert e["contradictions"] == 0  # a won game is never called unwinnable
        assert e["wins"] <= e["winnable"] <= row["winnable_best"]
    assert row["curves"]["all"]["rate"][0] == sets["stochastic"]["rate"]
    assert row["curves"]["all"]["rate"][-1] == sets["mcts"]["rate"]
    assert (tmp_path / "summary.csv").exists() and list(tmp_path.glob("mcts-N3-*.npz"))
    # resumable: a second run plays nothing and reports the same
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["rows"] == first["rows"]
    assert main(["bench", "deepsea", "--cards", "3..x", "--out", str(tmp_path)]) == 2
    assert main(["bench", "deepsea", "--r-step", "0.3", "--out", str(tmp_path)]) == 2


def test_oracle_records_agree_with_decide() -> None:
    """The oracle job's codes are crewcheck.decide's verdicts, and every won stochastic
    game's assignment is among the winnable ones."""
    import crewcheck
    from crewcheck.experiments.deepsea_bench import DeepSeaConfig, oracle_job

    cfg = DeepSeaConfig(cards=(3,), games=15, chunk=15)
    rec = oracle_job(cfg, 3, 0)
    for i, line in enumerate(rec["verdicts"]):
        d = deal_deepsea(3, cfg.deal_key(3, i), cfg.rules)
        codes = dict(part.split(":") for part in line.split(","))
        assert sorted(codes) == sorted("".join(map(str, a)) for a in assignments(d, cfg.rules))
        for owners, code in codes.items():
            b = build_instance(d, [int(x) for x in owners], cfg.rules)
            if code == "x":
                assert b.impossible
            else:
                v = crewcheck.decide(b.instance).verdict.value
                assert code == {"winnable": "w", "unwinnable": "u"}[v]
        for j in range(20):
            r = play_deepsea(d, StochasticAgent(), seed=j, rules=cfg.rules)
            if r.won:
                assert codes["".join(map(str, r.owners))] == "w"


def test_coverage_counts_informed_choices(tmp_path: Path) -> None:
    from crewcheck.experiments.deepsea_bench import DeepSeaConfig, coverage

    cfg = DeepSeaConfig(cards=(3,), games=10, training=200)
    train_mcts(3, 200, seed=0, rules=cfg.rules).save(cfg.table_path(tmp_path, 3))
    cov = coverage(cfg, str(tmp_path), 3, 30)
    assert cov["decisions"] > 30 and 0 <= cov["informed"] < 1
    empty = DeepSeaConfig(cards=(3,), games=10, training=0)
    QTable().save(empty.table_path(tmp_path, 3))
    assert coverage(empty, str(tmp_path), 3, 10)["informed"] == 0  # an empty table ties everything


def test_bench_stochastic_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from crewcheck.cli import main

    assert main(["bench", "deepsea", "--cards", "4", "--games", "30", "--agents", "stochastic", "--oracle", "none",
                 "--captain-hv1", "forbid", "--out", str(tmp_path), "--json", "--no-progress"]) == 0
    row = json.loads(capsys.readouterr().out)["rows"][0]
    assert set(row["settings"]) == {"stochastic"} and row["curves"] == {}
    assert not list(tmp_path.glob("*.npz"))


def test_every_bench_setting_seats_agents_of_the_table() -> None:
    """Every setting the bench plays has a row of SEATINGS; the sweep's settings seat the
    agent and its teammates of reliability r as the setting says."""
    from crewcheck.experiments.deepsea_bench import SEATINGS, DeepSeaConfig, _agents, settings

    table = train_mcts(3, 20, seed=0)
    for s in settings(DeepSeaConfig(r_step=0.5)):
        assert SEATINGS[s.partition("@")[0]][0] in DEEPSEA_AGENTS
        assert len(_agents(s, table, 0)) == 4
    assert [a.name for a in _agents("stochastic", None, 1)] == ["stochastic"] * 4
    assert [a.name for a in _agents("mcts-seen", table, 1)] == ["mcts"] * 4
    assert [a.name for a in _agents("teammates@0.5", table, 6)] == ["mcts@r=0.5"] * 2 + ["mcts"] + ["mcts@r=0.5"]
    assert [a.name for a in _agents("all@0.2", table, 6)] == ["mcts@r=0.2"] * 4
