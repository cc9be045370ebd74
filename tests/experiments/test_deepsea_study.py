"""The Deep Sea study (:mod:`crewcheck.experiments.deepsea_study`): its record, resumed
after a kill, a partial record, and the command's bad input."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from crewcheck.agents.deepsea import deal_deepsea, play_deepsea
from crewcheck.agents.deepsea_readings import ReadingOptions
from crewcheck.experiments.deepsea_bench import published
from crewcheck.experiments.deepsea_study import SCHEMA, Reading, build_record, main, readings_table, run_study

pytest.importorskip("numba")


def _tiny() -> list[Reading]:
    return [Reading("st", "stochastic", ReadingOptions(), 30, 10),
            Reading("on", "online", ReadingOptions(agent="mcts-online", budget="decision:5"), 8, 4),
            Reading("tab", "table", ReadingOptions(agent="mcts-table", training=100, tasks="feasible"), 6, 4,
                    (0, 1, 2))]


def test_study_record_and_resume(tmp_path: Path) -> None:
    rs = _tiny()
    path = tmp_path / "rec.json"
    rec = run_study(str(tmp_path / "out"), path, rs, record_readings=rs)
    assert json.loads(path.read_text()) == rec
    assert rec["schema"] == SCHEMA
    assert rec["published"] == {str(n): {"stochastic": v["stochastic"], "mcts": v["mcts"]}
                                for n, v in published().items()}
    assert [(e["name"], e["seed"]) for e in rec["readings"]] == [("st", 0), ("on", 0), ("tab", 0), ("tab", 1),
                                                                 ("tab", 2)]
    for e in rec["readings"]:
        assert e["complete"] and set(e["per_n"]) == {"3", "4", "5", "6"}
        assert all(c["games"] == e["games_planned"] for c in e["per_n"].values())
    on = rec["readings"][1]
    assert on["rollouts_per_decision"] == {"3": 5, "4": 5, "5": 5, "6": 5} and on["training_rollouts"] is None
    assert rec["readings"][2]["training_rollouts"] == 100
    # the stochastic reading plays the bench's deals: the same wins game for game
    wins3 = sum(play_deepsea(deal_deepsea(3, f"0:3:{i}"), _stoch(), seed=f"0:3:{i}").won for i in range(30))
    assert rec["readings"][0]["per_n"]["3"]["wins"] == wins3
    chunks = (tmp_path / "out" / "chunks.jsonl").read_text()
    # resume: nothing to do, the record unchanged; a line cut by a kill is played again
    assert run_study(str(tmp_path / "out"), path, rs, record_readings=rs) == rec
    lines = chunks.splitlines()
    (tmp_path / "out" / "chunks.jsonl").write_text("\n".join(lines[:-1]) + "\n" + lines[-1][:20])

    def counts(r: dict[str, Any]) -> list[Any]:
        return [(e["name"], e["seed"], e["per_n"], e["complete"]) for e in r["readings"]]

    again = run_study(str(tmp_path / "out"), path, rs, record_readings=rs)
    assert counts(again) == counts(rec)
    assert counts(run_study(str(tmp_path / "out"), path, rs, record_readings=rs)) == counts(rec)
    table = readings_table(rec)
    assert len(table) == 2 + 2 + 3 and "`tab`" in table[-1] and "3 seeds" in table[-1]


def _stoch():  # type: ignore[no-untyped-def]
    from crewcheck.agents.deepsea import StochasticAgent

    return StochasticAgent()


def test_partial_record_marks_incomplete() -> None:
    rs = _tiny()
    rec = build_record({}, rs)
    assert all(not e["complete"] and e["per_n"] == {} for e in rec["readings"])


def test_cli_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--workers", "0"]) == 2
    assert main(["--only", "nope"]) == 2
    assert main(["--table", "--record", str(tmp_path / "none.json")]) == 2
    err = capsys.readouterr().err
    assert err.count("error:") == 3 and "Traceback" not in err
