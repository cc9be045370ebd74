"""Readings of the Deep Sea experiment: deals, the online planner, the trained tables, the
table of agents (the study record's tests are in ``tests/experiments/test_deepsea_study.py``)."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest

from crewcheck.agents.deepsea import (R4, TASK_IDS, DeepSeaRules, DeepSeaView, deal_deepsea, play_deepsea,
                                      task_options, train_mcts)
from crewcheck.agents.deepsea_readings import (DEEPSEA_AGENTS, STUDY_AGENTS, DeepSeaAgentSpec, OnlineMCTSAgent,
                                               ReadingOptions, Table, TableAgent, make_deepsea_agent, reading_deal,
                                               rollouts_per_decision, state_from_view, train_table)
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
