"""pytest-benchmark suite for the agents: playouts, one MCTS move, determinization.

Run: ``PYTHONPATH=$PWD python -m pytest benchmarks/scripts/test_bench_agents.py --benchmark-enable``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pytest_benchmark")
sys.path.insert(0, str(Path(__file__).parent))

from agents_setup import classic_setup, kernel_position  # noqa: E402

from crewcheck.agents import make_agent  # noqa: E402
from crewcheck.agents.base import observe  # noqa: E402
from crewcheck.agents.determinize import sample_uniform  # noqa: E402
from crewcheck.agents.fast import kernel, seed_state, twin  # noqa: E402


def test_random_playouts_compiled(benchmark) -> None:
    """1000 full random playouts (all 40 cards) on the Classic deal, compiled kernel."""
    st, tb = kernel_position(full=True)
    k = kernel()
    k.playouts(st, 1, seed_state(1), tb)
    rs = seed_state(1)
    benchmark(k.playouts, st, 1000, rs, tb)


def test_random_playouts_twin(benchmark) -> None:
    """10 full random playouts with the plain-Python twin (the baseline)."""
    st, tb = kernel_position(full=True)
    benchmark(twin().playouts, st, 10, seed_state(1), tb)


def test_mcts_move(benchmark) -> None:
    """One MCTS-UCT (smart scoring) move, 1000 iterations, first card of the Classic deal."""
    s = classic_setup()
    owners = [(s.commander + j) % 4 for j in range(len(s.tasks))]
    view = observe(s.hands, s, owners, (), s.commander, (), 0, 0, s.commander, "play", cheating=True)
    agent = make_agent("mcts-smart", "1000")
    agent.choose(view, random.Random(0))
    benchmark(agent.choose, view, random.Random(0))


def test_smart_player_move(benchmark) -> None:
    """One de Jong smart (Algorithm 1) move with 100 playouts per card."""
    s = classic_setup()
    owners = [(s.commander + j) % 4 for j in range(len(s.tasks))]
    view = observe(s.hands, s, owners, (), s.commander, (), 0, 0, s.commander, "play")
    agent = make_agent("mc-smart", "100")
    agent.choose(view, random.Random(0))
    benchmark(agent.choose, view, random.Random(0))


def test_determinization_algorithm_1(benchmark) -> None:
    """One uniform determinization of the three hidden Classic hands."""
    s = classic_setup()
    view = observe(s.hands, s, [0] * len(s.tasks), (), s.commander, (), 0, 0, (s.commander + 1) % 4, "play")
    others = [p for p in range(4) if p != view.seat]
    cands = view.candidates()
    benchmark(sample_uniform, [cands[p] for p in others], [view.hand_sizes[p] for p in others], random.Random(0))
