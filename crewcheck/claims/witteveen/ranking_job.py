"""Witteveen §5 (seed ``000``): the grid of every task agent with every play agent.

The thesis plays 3-player games of its 36-card deck (no rockets, random commander) with
every combination of its six task agents and six play agents, 1000 seeded deals per task
count 1..20, the play phase reseeded after the task phase. Here the same grid runs as a
chunked job (:func:`crewcheck.claims.execution.run_job`): a chunk is one task count and a
block of :data:`BLOCK` deals (keys ``seed:3p:plain:Tt:i``, the deals of ``crewcheck bench
agents`` and of :mod:`crewcheck.claims.witteveen.agents`), 1000 iterations per move for the
tree searches. Its record keeps, per deal, one integer: bit ``k`` is set when pair
:data:`PAIRS` ``[k]`` won the game, so the paired tests of
:mod:`crewcheck.claims.witteveen.ranking` have every pair's outcome on every deal.

The chunks are ordered block by block: deals 0-49 of every task count, then 50-99, and so
on, so a grid stopped part-way covers every task count equally.

Shared work (sound because of how :func:`crewcheck.agents.simulate.play_game` seeds the
game): the task phase depends only on the deal and the task agent, so it runs once per
task agent, not once per pair; the play phase depends only on the deal, the assignment and
the play agent, so two task agents that choose the same assignment share their games.
:func:`play_deal_plain` plays every pair separately, for the test that both agree.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from crewcheck.claims.claim import Mode

__all__ = ["NAMESPACE", "BUDGET", "BLOCK", "TASK_AGENTS", "PLAY_AGENTS", "PAIRS", "Design", "DESIGNS",
           "chunks", "deal_key", "play_deal", "play_deal_plain", "ranking_chunk", "won"]

NAMESPACE = "witteveen-5/ranking/v1"
"""The job's namespace (its committed record: ``witteveen-5__ranking__v1.json``)."""

BUDGET = 1000
"""Tree-search iterations per move (the thesis gives none; as in ``crewcheck bench agents``)."""

BLOCK = 50
"""Deals per chunk."""

TASK_AGENTS: tuple[str, ...] = ("random", "tactical", "pmc", "pmc-smart", "mcts", "mcts-smart")
"""The thesis's task-phase agents (``-smart``: the smart scoring function)."""

PLAY_AGENTS: tuple[str, ...] = ("random", "randomsmart", "pmc", "pmc-smart", "mcts", "mcts-smart")
"""The thesis's play-phase agents."""

PAIRS: tuple[tuple[str, str], ...] = tuple((t, p) for t in TASK_AGENTS for p in PLAY_AGENTS)
"""``(task agent, play agent)``; a deal's record has bit ``k`` set when ``PAIRS[k]`` won."""


@dataclass(frozen=True, slots=True)
class Design:
    """Seed, task counts and deals per task count of a run."""

    seed: int
    counts: tuple[int, ...]
    deals: int
    block: int = BLOCK


DESIGNS: dict[Mode, Design] = {
    "full": Design(seed=0, counts=tuple(range(1, 21)), deals=1000),
    "quick": Design(seed=0, counts=(1, 2), deals=2, block=2),
}
"""Full: the thesis's grid (1000 deals per task count 1..20, 720,000 games); quick: two deals
at 1 and 2 tasks (a smoke test of the job, it cannot decide)."""


def chunks(mode: Mode) -> list[dict[str, Any]]:
    """The chunk parameters of `mode`'s design, block by block across the task counts."""
    d = DESIGNS[mode]
    return [{"seed": d.seed, "tasks": t, "first": i, "deals": min(d.block, d.deals - i), "budget": BUDGET}
            for i in range(0, d.deals, d.block) for t in d.counts]


def deal_key(seed: int, tasks: int, i: int) -> str:
    """The seed of deal ``i`` at ``tasks`` tasks (the key ``crewcheck bench agents`` uses)."""
    return f"{seed}:3p:plain:{tasks}t:{i}"


def play_deal(key: str, tasks: int, budget: int = BUDGET) -> int:
    """Every pair of :data:`PAIRS` on one deal, sharing the task phase of each task agent and
    the play phase of equal assignments; returns the win bits."""
    from crewcheck.agents import make_agent
    from crewcheck.agents.simulate import deal, play_game, take_tasks

    setup = deal(3, tasks, seed=key, deck="plain")
    b = str(budget)
    owners = {ta: take_tasks(setup, make_agent(ta, b), random.Random(f"crewcheck-tasks:{key}"))
              for ta in TASK_AGENTS}
    games: dict[tuple[tuple[int, ...], str], bool] = {}
    bits = 0
    for k, (ta, pa) in enumerate(PAIRS):
        done = (owners[ta], pa)
        if done not in games:
            games[done] = play_game(setup, (), make_agent(pa, b), seed=key, owners=owners[ta]).won
        bits |= games[done] << k
    return bits


def play_deal_plain(key: str, tasks: int, budget: int = BUDGET) -> int:
    """:func:`play_deal` without shared work: every pair plays its whole game."""
    from crewcheck.agents import make_agent
    from crewcheck.agents.simulate import deal, play_game

    setup = deal(3, tasks, seed=key, deck="plain")
    b = str(budget)
    return sum(play_game(setup, make_agent(ta, b), make_agent(pa, b), seed=key).won << k
               for k, (ta, pa) in enumerate(PAIRS))


def ranking_chunk(params: Mapping[str, Any]) -> dict[str, Any]:
    """Deals ``first .. first + deals - 1`` of one seed and task count, every pair.
    Returns ``{"wins": [bits of deal first, bits of deal first + 1, ...]}``."""
    seed, t, first, budget = int(params["seed"]), int(params["tasks"]), int(params["first"]), int(params["budget"])
    return {"wins": [play_deal(deal_key(seed, t, i), t, budget) for i in range(first, first + int(params["deals"]))]}


def won(bits: int, pair: tuple[str, str]) -> bool:
    """Whether ``pair`` won the deal whose record is ``bits``."""
    return bool(bits >> PAIRS.index(pair) & 1)
