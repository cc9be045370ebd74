"""Readings of the Deep Sea experiment: deals, the online planner, the trained tables, the study record."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest

from crewcheck.agents.deepsea import (PASS, R4, TASK_IDS, DeepSeaRules, DeepSeaView, deal_deepsea, play_deepsea,
                                      task_options, train_mcts)
from crewcheck.experiments.deepsea_bench import published
from crewcheck.agents.deepsea_readings import (DEEPSEA_AGENTS, STUDY_AGENTS, DeepSeaAgentSpec, OnlineMCTSAgent,
                                               ReadingOptions, Table, TableAgent, make_deepsea_agent, reading_deal,
                                               rollouts_per_decision, state_from_view, train_table)
from crewcheck.experiments.deepsea_study import SCHEMA, Reading, build_record, main, readings_table, run_study
from crewcheck.errors import InvalidInputError
from crewcheck.model.cards import CLASSIC_DECK, Card

pytest.importorskip("numba")

SUBS = [CLASSIC_DECK.index(Card("R", v)) for v in (4, 3, 2, 1)]


def test_options_validate() -> None:
    with pytest.raises(InvalidInputError, match="r4_absent"):
        ReadingOptions(r4_absent="nobody")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="budget"):
        ReadingOptions(budget="game:x")
    assert rollouts_per_decision(ReadingOptions(), 3) == 6400
    assert rollouts_per_decision(ReadingOptions(), 6) == 3657
    assert rollouts_per_decision(ReadingOptions(budget="decision:50"), 6) == 50


def test_default_reading_is_the_published_deal() -> None:
    for i in range(50):
        assert reading_deal(4, i, ReadingOptions()) == deal_deepsea(4, i)
        assert reading_deal(4, i, ReadingOptions(r4_absent="redeal")) == deal_deepsea(4, i, DeepSeaRules("redeal"))


def test_highest_submarine_leads() -> None:
    kinds = Counter()
    for i in range(400):
        base = deal_deepsea(3, i)
        d = reading_deal(3, i, ReadingOptions(r4_absent="highest-sub"))
        assert d.hands == base.hands and d.tasks == base.tasks
        subs = [c for c in SUBS if d.in_play >> c & 1]
        if not subs:
            kinds["none"] += 1
            assert d.captain == 0
        else:
            kinds["R4" if subs[0] == R4 else "lower"] += 1
            assert d.hands[d.captain] >> subs[0] & 1
    assert min(kinds.values()) > 10


def test_feasible_tasks_redrawn_uniformly() -> None:
    opt = ReadingOptions(tasks="feasible", hv5="together")
    pairs: Counter[frozenset[int]] = Counter()
    redrawn = 0
    for i in range(3000):
        base = deal_deepsea(3, i)
        d = reading_deal(3, i, opt)
        assert d.hands == base.hands and len(set(d.tasks)) == 2
        inplay = d.in_play
        nines = any(inplay >> CLASSIC_DECK.index(Card(s, 9)) & 1 for s in "BGPY")
        g7, b8 = CLASSIC_DECK.index(Card("G", 7)), CLASSIC_DECK.index(Card("B", 8))
        apart = not any(h >> g7 & 1 and h >> b8 & 1 for h in d.hands)
        ok = {0, 1, 2} | ({3} if nines else set()) | ({4} if inplay >> g7 & 1 and inplay >> b8 & 1 and apart else set())
        assert set(d.tasks) <= ok
        for j, t in enumerate(base.tasks):
            if t in ok:
                assert d.tasks[j] == t  # a feasible task drawn stays where it was
        redrawn += d.tasks != base.tasks
        if ok == {0, 1, 2}:
            pairs[frozenset(d.tasks)] += 1
    assert redrawn > 1000
    # with only HV1..HV3 feasible, each of the three pairs is equally likely
    n = sum(pairs.values())
    assert n > 400 and all(abs(c / n - 1 / 3) < 0.06 for c in pairs.values()) and len(pairs) == 3


def test_view_state_hides_other_hands() -> None:
    seen = []

    class Probe:
        name = "probe"

        def choose(self, view: DeepSeaView, rng: random.Random) -> int:
            st = state_from_view(view, 0)
            seen.append([int(st[12 + s]) for s in range(4) if s != view.seat])
            return rng.choice(view.legal)

    for g in range(20):
        play_deepsea(deal_deepsea(4, g), Probe(), seed=g)
    assert seen and all(h == [0, 0, 0] for h in seen)


def test_online_planner_never_takes_a_sure_loss() -> None:
    """The captain holding HV1 loses at once: the planner never takes it (a random draft
    does a third of the time or more)."""
    agent = OnlineMCTSAgent(200)
    asked = 0
    for i in range(400):
        d = deal_deepsea(3, f"hv1:{i}")
        pos = [j for j, t in enumerate(d.tasks) if TASK_IDS[t] == "HV1"]
        if not pos:
            continue
        opts = task_options(d, [-1] * len(d.tasks), 0, DeepSeaRules())
        view = DeepSeaView(d.captain, "tasks", 3, d.captain, d.hands[d.captain], d.tasks, (-1,) * len(d.tasks),
                           (False,) * len(d.tasks), 4, (), (), opts)
        assert agent.choose(view, random.Random(i)) != pos[0]
        asked += 1
        if asked == 15:
            break
    assert asked == 15 and agent.rollouts == 15 * 200


def test_table_training_and_round_trip(tmp_path: Path) -> None:
    opt = ReadingOptions(agent="mcts-table", abstraction="suit-counts", training=300)
    t = train_table(3, opt, 0)
    assert t.games == 300 and 0 <= t.won <= 300 and len(t.visits) > 50
    assert sum(t.total.values()) == sum(t.visits.values())
    assert t == train_table(3, opt, 0)  # seeded
    t.save(str(tmp_path / "t.npz"))
    assert Table.load(str(tmp_path / "t.npz")) == t
    agent = TableAgent(t)
    rec = play_deepsea(reading_deal(3, "x", opt), agent, seed=1)
    assert rec.won in (True, False)


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


# -- the table of Deep Sea agents -------------------------------------------------------------

def _table_for(spec: DeepSeaAgentSpec) -> Any:
    if spec.table == "qtable":
        return train_mcts(3, 50, seed=0)
    if spec.table == "table":
        return train_table(3, ReadingOptions(agent="mcts-table", training=50), 0)
    return None


@pytest.mark.parametrize("name", list(DEEPSEA_AGENTS))
def test_every_deepsea_agent_builds_by_name_and_plays(name: str) -> None:
    """Each row of the table builds the agent of that name, which plays a whole game (only
    valid actions: play_deepsea raises on any other) and plays it again the same for the seed."""
    spec = DEEPSEA_AGENTS[name]
    assert len(spec.description.split()) >= 5
    opts = ReadingOptions(budget="decision:5")
    table = _table_for(spec)
    agent = make_deepsea_agent(name, opts, 3, table)
    assert agent.name == name
    games = [play_deepsea(deal_deepsea(3, i), agent, seed=i) for i in range(3)]
    again = make_deepsea_agent(name, opts, 3, table)
    assert [play_deepsea(deal_deepsea(3, i), again, seed=i) for i in range(3)] == games


def test_an_unknown_or_tableless_deepsea_agent_is_named() -> None:
    """An unknown name is a one-line error naming the field and the agents there are; an
    agent that plays from a table needs one."""
    with pytest.raises(InvalidInputError) as e:
        make_deepsea_agent("mcts-greedy")
    assert e.value.field == "agent" and "\n" not in str(e.value)
    assert str(e.value).startswith("agent: unknown Deep Sea agent 'mcts-greedy'; available: stochastic, mcts")
    with pytest.raises(InvalidInputError) as e:
        make_deepsea_agent("mcts-table")
    assert e.value.field == "table"


def test_a_reading_names_an_agent_of_the_table() -> None:
    """ReadingOptions.agent takes exactly the agents the study can train or needs no table
    for (its type says the same), and writes the options that apply to the agent."""
    assert get_args(get_type_hints(ReadingOptions)["agent"]) == STUDY_AGENTS
    assert set(STUDY_AGENTS) == {"stochastic", "mcts-table", "mcts-online"}
    with pytest.raises(InvalidInputError, match="^agent: expected one of stochastic, mcts-table, mcts-online"):
        ReadingOptions(agent="mcts")  # type: ignore[arg-type]
    assert list(ReadingOptions(agent="mcts-table").to_json())[5:] == ["abstraction", "training", "c"]
    assert list(ReadingOptions(agent="mcts-online").to_json())[5:] == ["budget", "c"]
    assert list(ReadingOptions().to_json())[5:] == []


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
